// Quick match on the daily page: choose a ruleset, press play, wait for an opponent (or
// cancel), then go to the game on this browser's own seat. After a while without anyone,
// the server offers a computer of about this player's strength (an unrated game). The
// ticket is kept for this tab, so that a reload keeps waiting with it.
import { $, fill, pageData, startGame } from "./common.js";
import { playerKey } from "./player.js";

const T = pageData("texts");
const LEVELS = pageData("levels");
const lang = document.documentElement.lang;
const KEPT = "yatzy.quickmatch";
const POLL = 1000;

let ticket = sessionStorage.getItem(KEPT);
let offer = null;
let timer = null;

async function call(path, options = {}) {
  const headers = { "X-Player-Key": playerKey(), ...(options.body ? { "Content-Type": "application/json" } : {}) };
  const response = await fetch(`${path}?lang=${lang}`, { ...options, headers });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(data.error?.message || String(response.status)), { status: response.status });
  return data;
}

function show(waiting) {
  $("qm-start").hidden = waiting;
  $("qm-waiting").hidden = !waiting;
  if (!waiting) $("qm-offer").hidden = true;
}

function stop() {
  clearTimeout(timer);
  timer = null;
  ticket = null;
  offer = null;
  sessionStorage.removeItem(KEPT);
  show(false);
}

// Matched: to this player's seat of the new game.
function go(answer) {
  sessionStorage.removeItem(KEPT);
  $("qm-status").textContent = T.quick_match_found;
  location.assign(answer.seat_url.replace("#", `?lang=${lang}#`));
}

async function poll() {
  if (!ticket) return;
  try {
    const answer = await call(`/api/quick-match/${ticket}`);
    if (answer.status === "matched") {
      go(answer);
      return;
    }
    if (answer.offer && answer.offer !== offer) {
      offer = answer.offer;
      $("qm-offer-text").textContent = fill(T.quick_match_offer, { level: LEVELS[offer] || offer });
      $("qm-offer").hidden = false;
    }
  } catch (error) {
    if (error.status === 404 || error.status === 409) {
      stop();  // cancelled or given up elsewhere: start again
      return;
    }
    $("qm-error").textContent = error.message;  // the server is busy or away: keep asking
  }
  timer = setTimeout(poll, POLL);
}

$("qm-play").addEventListener("click", async () => {
  $("qm-error").textContent = "";
  try {
    const answer = await call("/api/quick-match", { method: "POST", body: JSON.stringify({ rules: $("qm-rules").value }) });
    ticket = answer.ticket;
    sessionStorage.setItem(KEPT, ticket);
    if (answer.status === "matched") {  // someone was waiting: no question needed
      go(answer);
      return;
    }
    $("qm-status").textContent = T.quick_match_waiting;
    show(true);
    poll();
  } catch (error) {
    $("qm-error").textContent = error.message;
  }
});

async function cancel() {
  const mine = ticket;
  clearTimeout(timer);
  try {
    await call(`/api/quick-match/${mine}`, { method: "DELETE" });
    stop();
    return true;
  } catch (error) {
    if (error.status === 409) {
      poll();  // matched meanwhile: the game stands, go to it
      return false;
    }
    stop();
    return error.status === 404;
  }
}

$("qm-cancel").addEventListener("click", () => { cancel(); });

$("qm-computer").addEventListener("click", async () => {
  const level = offer;
  const rules = $("qm-rules").value;
  if (!(await cancel())) return;
  const me = await call("/api/me").catch(() => ({}));
  const name = me.name || "";
  const error = await startGame({ rules, seats: [{ name }, { bot: level }], dice: "server" },
                                { lang, seat: name, unreachable: T.unreachable || "" });
  if (error) $("qm-error").textContent = error;
});

async function rating() {
  const me = await call("/api/me");
  if (!me.name) return;
  const profile = await call(`/api/players/${encodeURIComponent(me.name)}`);
  if (profile.rating === null) return;
  let line = fill(T.quick_match_rating, { rating: Math.round(profile.rating), deviation: Math.round(profile.rating_deviation), games: profile.rated_games });
  if (profile.provisional) line += ` (${T.quick_match_provisional})`;
  $("my-rating").textContent = line;
}

if (ticket) {
  show(true);
  poll();
}
rating().catch(() => {});
