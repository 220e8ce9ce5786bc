// The lobby: the public tables waiting for players (join one) and the public games in
// play (watch one), pushed by the server over a websocket (/ws/lobby) whenever they
// change; and a form to open a public table. While the socket is down the page reads
// the lobby now and then and connects again. The server decides who may sit where;
// this page shows what it says.
import { $, el, fill, pageData, startGame } from "./common.js";
import { chosenOptions, showOptions } from "./options.js";
import { playerKey } from "./player.js";

const T = pageData("texts");
const lang = document.documentElement.lang;
const form = $("open-table");
// Seconds between two reads of the lobby while the socket is down (and the page in view).
const EVERY = 15;
// Seconds before connecting again, at first and at most.
const RETRY_FIRST = 1;
const RETRY_MOST = 16;

const time = (iso) => new Date(iso).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });

function watchLink(url) {
  const page = new URL(url);
  page.searchParams.set("lang", lang);
  return el("a", T.watch, { href: page.toString(), class: "button" });
}

async function join(table, button) {
  $("error").textContent = "";
  button.disabled = true;
  const name = $("my-name").value.trim();
  let response;
  try {
    response = await fetch(`/api/games/${table.id}/join?lang=${lang}`, {
      method: "POST", headers: { "Content-Type": "application/json", "X-Player-Key": playerKey() },
      body: JSON.stringify(name ? { name } : {}) });
  } catch {
    $("error").textContent = T.unreachable;
    button.disabled = false;
    return;
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("error").textContent = data.error?.message || T.unreachable;
    button.disabled = false;
    refresh();
    return;
  }
  localStorage.setItem("yatzy.name", data.seat.name);
  const page = new URL(data.seat.url);
  page.searchParams.set("lang", lang);
  location.assign(page.toString());
}

function tableItem(table) {
  const li = el("li", "", { class: "card lobby-item", "data-table": table.id });
  const seats = table.seats.map((s) => (s.open ? T.open_seat : s.name)).join(" · ");
  li.append(el("h3", table.title),
            el("p", table.options_text, { class: "small" }),
            el("p", seats),
            el("p", `${fill(T.seats_free, { taken: table.taken, seats: table.taken + table.free })} · ${fill(T.expires, { time: time(table.expires_at) })}`, { class: "small" }));
  const button = el("button", T.join, { type: "button", class: "primary" });
  button.addEventListener("click", () => join(table, button));
  const actions = el("p", "", { class: "actions" });
  actions.append(button, " ", watchLink(table.watch_url));
  li.append(actions);
  return li;
}

function liveItem(game) {
  const li = el("li", "", { class: "card lobby-item", "data-game": game.id });
  li.append(el("h3", game.title),
            el("p", game.options_text, { class: "small" }),
            el("p", game.players.join(" · ")),
            el("p", fill(T.round, { round: game.round, rounds: game.rounds }), { class: "small" }));
  if (game.rated) li.append(el("p", T.rated_game, { class: "small rated" }));
  const actions = el("p", "", { class: "actions" });
  actions.append(watchLink(game.watch_url));
  li.append(actions);
  return li;
}

function show(list, items, empty) {
  // A list redrawn only when it changed: a button in focus keeps it.
  const key = JSON.stringify(items);
  if (list.dataset.shown === key) return;
  list.dataset.shown = key;
  list.replaceChildren(...(items.length ? items.map((item) => item()) : [el("li", empty, { class: "small" })]));
}

function showLobby(data) {
  show($("waiting"), data.waiting.map((table) => () => tableItem(table)), T.no_tables);
  show($("live"), data.live.map((game) => () => liveItem(game)), T.no_live);
  if ($("error").textContent === T.unreachable) $("error").textContent = "";
}

let timer = null;
let socket = null;
let retry = RETRY_FIRST;

// Read the lobby over HTTP (after a refused join, and while the socket is down).
async function refresh() {
  clearTimeout(timer);
  try {
    const response = await fetch(`/api/lobby?lang=${lang}`);
    const data = await response.json();
    if (!response.ok) throw new Error(data.error?.message || T.unreachable);
    showLobby(data);
  } catch {
    $("error").textContent = T.unreachable;
  }
  if (!socket && !document.hidden) timer = setTimeout(refresh, EVERY * 1000);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby?lang=${lang}`);
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "lobby") return;
    socket = ws;
    retry = RETRY_FIRST;
    clearTimeout(timer);
    showLobby(message.lobby);
  });
  ws.addEventListener("close", () => {
    if (socket === ws) socket = null;
    // Down: read the lobby now and then, and connect again a little later each time.
    refresh();
    setTimeout(connect, retry * 1000);
    retry = Math.min(retry * 2, RETRY_MOST);
  });
}
document.addEventListener("visibilitychange", () => { if (!document.hidden && !socket) refresh(); });

async function myName() {
  const kept = localStorage.getItem("yatzy.name") || "";
  try {
    const response = await fetch(`/api/me?lang=${lang}`, { headers: { "X-Player-Key": playerKey() } });
    const me = await response.json();
    return (response.ok && me.name) || kept;
  } catch {
    return kept;
  }
}

for (const radio of form.querySelectorAll("input[name=rules]")) radio.addEventListener("change", () => showOptions(form));
showOptions(form);

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = $("form-error");
  error.textContent = "";
  const name = $("my-name").value.trim();
  if (!name) {
    error.textContent = T.no_seat;
    $("my-name").focus();
    return;
  }
  const rules = form.elements.rules.value;
  const count = Number(form.elements.seat_count.value);
  const body = { rules, options: chosenOptions(form, rules), public: true, hints: form.elements.hints.checked,
                 seats: [{ name }, ...Array.from({ length: count - 1 }, () => ({ open: true }))] };
  const button = $("open");
  button.disabled = true;
  playerKey();
  error.textContent = await startGame(body, { lang, seat: name, unreachable: T.unreachable });
  button.disabled = false;
});

myName().then((name) => { if (!$("my-name").value) $("my-name").value = name; });
connect();
