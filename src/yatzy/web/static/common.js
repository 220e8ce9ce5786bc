// What every page's script shares: an element by id, the page's data, a text with its
// placeholders filled in, a new element, and starting a game.

export const $ = (id) => document.getElementById(id);

// The JSON a page carries in a <script type="application/json" id=…> element.
export function pageData(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

// "{player} starts." with { player: "Ann" }: "Ann starts."; a placeholder not given stays.
export function fill(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// A new element with its text (if given) and attributes.
export function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// Create a game (``body`` is POST /api/games's), keep its invite links on this device
// (they are shown only once; with ``passAndPlay`` every seat's token too) and go to the
// seat named ``seat`` (else the first person's, else the watchers' page). The answer's error message if it was refused; ``unreachable``
// when no answer came.
export async function startGame(body, { lang, seat, unreachable, passAndPlay = false }) {
  let response;
  try {
    response = await fetch(`/api/games?lang=${lang}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch {
    return unreachable;
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) return data.error?.message || unreachable;
  const me = data.seats.find((s) => s.name === seat) || data.seats[0];
  if (me) localStorage.setItem("yatzy.name", me.name);
  localStorage.setItem(`yatzy.invites.${data.id}`, JSON.stringify({ seats: data.seats, watch_url: data.watch_url }));
  if (passAndPlay) {
    // Every person's seat on this device: the game page plays whichever is to move.
    localStorage.setItem(`yatzy.seats.${data.id}`, JSON.stringify(Object.fromEntries(data.seats.map((s) => [s.name, s.token]))));
    localStorage.setItem(`yatzy.passplay.${data.id}`, "1");
  }
  const page = new URL(me ? me.url : data.watch_url);
  page.searchParams.set("lang", lang);
  location.assign(page.toString());
  return "";
}
