// The game page: live state over a websocket, actions over the JSON API; or, on a
// replay page, a finished game step by step. This module takes the person's moves and
// keys; connection.js talks to the server, store.js keeps the state, render.js draws it.
import { $, fill, pageData, startGame } from "./common.js";
import { apiClient, openSocket, seats } from "./connection.js";
import { playerKey } from "./player.js";
import { handlers, render, renderDice, renderSeatSwitch, say } from "./render.js";
import { notifyButton, showTurn, soundButton } from "./turn.js";
import { announcement, canUndo, isMyTurn, isStale, keptDice, movedOn, parseDice, view } from "./store.js";

const root = document.getElementById("game");
const gameId = root.dataset.game;
const lang = root.dataset.lang;
view.replay = root.dataset.replay === "1";
const T = pageData("texts");
const BOXES = pageData("boxes");
const seat = seats(gameId);
// The seat played now: the link's, or the one chosen last; in pass and play, whichever of
// this device's seats took the device last.
let token = view.replay ? null : seat.token;
view.passAndPlay = !view.replay && seat.passAndPlay();
// Another seat's link opened in this tab changes only the fragment: play that seat.
addEventListener("hashchange", () => location.reload());
const api = apiClient({ gameId, lang, token: () => token, unreachable: T.unreachable });
let busy = false;

handlers.api = api;
handlers.toggle = toggle;
handlers.choose = choose;
handlers.playAs = (seatToken) => {
  seat.choose(seatToken);
  location.assign(`/games/${gameId}?lang=${lang}`);
};

// The same game again (the state's rematch: the same rules, seats, dice), this browser in
// the seat it plays now.
handlers.playAgain = async () => {
  const button = $("play-again");
  button.disabled = true;
  say(await startGame(view.state.rematch, { lang, seat: view.me, unreachable: T.unreachable }));
  button.disabled = false;
};

function draw() {
  render();
  refreshChances();
}

function receive(message) {
  if (message.type === "welcome") {
    view.me = message.seat;
    if (view.me) {
      seat.keep(view.me);
      renderSeatSwitch(view.passAndPlay ? [] : seat.others(view.me));
      // This browser sits in that seat (in pass and play, in each of them): the game goes
      // into its history.
      for (const seatToken of view.passAndPlay ? Object.values(seat.held()) : [token]) {
        api("/claim", { method: "POST", headers: { "Content-Type": "application/json", "X-Player-Key": playerKey(), Authorization: `Bearer ${seatToken}` } });
      }
    }
  } else if (message.type === "state") {
    const before = view.state;
    const next = message.state;
    if (isStale(before, next)) return;
    view.holds = keptDice(before, next, view.holds);
    if (movedOn(before, next)) {
      $("hint-box").hidden = true;
      view.suggested = new Set();
    }
    const said = announcement(before, next, view.me, T, BOXES);
    view.state = next;
    draw();
    if (said) $("announce").textContent = said;
    if (view.passAndPlay) handOver(next);
    showTurn(isMyTurn(next, view.me), T.your_turn, said);
  } else if (message.type === "error") {
    if (message.error.code === "forbidden" && !view.state) seat.forget();
    say(message.error.message);
  }
}

async function act(action) {
  await post("/actions", action);
}

// An action or an undo, at the version seen: its answer is the new state.
async function post(path, body) {
  if (busy) return;                       // a double click is sent once
  busy = true;
  say("");
  let answer;
  try {
    answer = await api(path, {
      method: "POST", body: JSON.stringify({ ...body, expected_version: view.state.version }) });
  } finally {
    busy = false;
  }
  const { ok, status, data } = answer;
  if (ok) {
    receive({ type: "state", state: data });
  } else if (status !== 409) {
    say(data.error?.message || "?");
  }
}

// --- Pass and play ----------------------------------------------------------------------

// When the player to move is another of this device's seats, the page says so and waits
// until that person has the device.
function handOver(s) {
  const panel = $("handover");
  const next = s.phase === "person" && s.current_player !== view.me && seat.held()[s.current_player];
  if (!next) { panel.hidden = true; return; }
  if (!panel.hidden && panel.dataset.player === s.current_player) return;
  panel.dataset.player = s.current_player;
  $("handover-text").textContent = fill(T.hand_over, { player: s.current_player });
  $("take-over").textContent = fill(T.take_over, { player: s.current_player });
  panel.hidden = false;
  panel.scrollIntoView({ block: "nearest" });  // in view however far down the last move was
  $("take-over").focus({ preventScroll: true });
}

$("take-over").addEventListener("click", () => {
  const name = $("handover").dataset.player;
  token = seat.held()[name];
  seat.choose(token);
  view.me = name;
  view.holds = new Set();
  $("handover").hidden = true;
  draw();
  showTurn(isMyTurn(view.state, view.me), T.your_turn, "");
  $("roll").focus({ preventScroll: true });
});

// --- Moves ----------------------------------------------------------------------------

function undo() {
  if (canUndo(view.state, view.me, view.replay)) post("/undo", {});
}

function roll() {
  if (!isMyTurn(view.state, view.me) || !view.state.can_roll) return;
  if (view.state.dice_mode === "manual") { $("dice-input").focus(); return; }
  act(view.state.dice ? { type: "reroll", hold: [...view.holds].sort() } : { type: "roll" });
}

function toggle(i) {
  if (!isMyTurn(view.state, view.me) || !view.state.dice || !view.state.can_roll || i >= view.state.dice_count) return;
  view.holds.has(i) ? view.holds.delete(i) : view.holds.add(i);
  renderDice();
}

function choose(box) {
  if (!isMyTurn(view.state, view.me) || !(box in view.state.choices)) return;
  if (view.state.choices[box] === 0) {
    $("confirm-text").textContent = fill(T.put_zero, { box: BOXES[box] });
    const dialog = $("confirm");
    dialog.returnValue = "";
    dialog.showModal();
    // The language's yes and no keys answer (j/n in Swedish); Enter and Escape say no.
    const keys = (event) => {
      const key = event.key.toLowerCase();
      if (key === T.yes_key || key === T.no_key) { event.preventDefault(); dialog.close(key === T.yes_key ? "yes" : "no"); }
    };
    dialog.addEventListener("keydown", keys);
    dialog.addEventListener("close", () => {
      dialog.removeEventListener("keydown", keys);
      if (dialog.returnValue === "yes") act({ type: "score", box });
    }, { once: true });
    return;
  }
  act({ type: "score", box });
}

$("dice-entry").addEventListener("submit", (event) => {
  event.preventDefault();
  const dice = parseDice($("dice-input").value);
  $("dice-input").value = "";
  if (view.state.phase === "dice") {
    const p = view.state.pending;
    act(p.type === "roll" ? { type: "roll", dice } : { type: "reroll", hold: p.hold, dice });
  } else {
    act(view.state.dice ? { type: "reroll", hold: [...view.holds].sort(), dice } : { type: "roll", dice });
  }
});

async function hint() {
  if (!isMyTurn(view.state, view.me) || !view.state.hints) return;
  const box = $("hint-box");
  box.hidden = false;
  box.textContent = T.thinking;
  const { ok, data } = await api("/hint");
  if (!ok) { box.textContent = data.error?.message || "?"; return; }
  box.textContent = [T.best_moves, ...data.options.map((o, i) => `${i + 1}. ${o.text} · ${o.points}`)].join("\n");
  const best = data.options[0]?.action;
  view.suggested = new Set(best?.type === "reroll" ? best.hold : []);
  renderDice();
}

// Win chances: off at first (not to spoil a game); when on, asked again for every
// version of the game.
let showChances = false;
let chancesFor = null;

function toggleChances() {
  if (view.replay || !view.state || view.state.players.length < 2) return;
  showChances = !showChances;
  $("chances").setAttribute("aria-pressed", String(showChances));
  $("chances-box").hidden = !showChances;
  chancesFor = null;
  refreshChances();
}

async function refreshChances() {
  if (!showChances || chancesFor === view.state.version) return;
  const version = view.state.version;
  chancesFor = version;
  const box = $("chances-box");
  box.textContent = T.working_chances;
  const { ok, data } = await api("/chances");
  if (!showChances || view.state.version !== version) return;
  if (!ok && data.error?.code === "advice_busy") {
    // Being worked out for this game just now (by another server process, or the queue
    // is full): still working, ask again in a moment.
    setTimeout(() => {
      if (chancesFor !== version) return;
      chancesFor = null;
      refreshChances();
    }, 1000);
    return;
  }
  box.textContent = ok ? data.text : data.error?.message || "?";
}

$("roll").addEventListener("click", roll);
$("hint").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
$("chances").addEventListener("click", toggleChances);
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key.toLowerCase();
  if (view.replay) {
    if (key === "arrowleft") showStep(replayStep - 1);
    else if (key === "arrowright") showStep(replayStep + 1);
    return;
  }
  // Space and Enter press the control in focus (a die, a box, a button, a link); Space
  // rolls only when no control has the focus.
  if ((key === " " || key === "enter") && event.target.closest("button, a, [tabindex]")) return;
  if (/^[1-9]$/.test(key)) { toggle(Number(key) - 1); event.preventDefault(); }
  else if (key === " " || key === "r") { roll(); event.preventDefault(); }
  else if (key === "h") { hint(); }
  else if (key === "u") { undo(); }
  else if (key === "w") { toggleChances(); }
});

// --- Replay ---------------------------------------------------------------------------

let replayStep = 0;
async function showStep(step) {
  const steps = view.state?.replay?.steps ?? Infinity;
  replayStep = Math.max(0, Math.min(step, steps));
  const { ok, data } = await api(`/replay`, {}, `&step=${replayStep}`);
  if (!ok) { say(data.error?.message || "?"); return; }
  view.state = data;
  view.holds = new Set(view.state.held);
  draw();
  $("replay-step").textContent = fill(T.step_of, { step: data.replay.step, steps: data.replay.steps });
  $("replay-range").max = String(data.replay.steps);
  $("replay-range").value = String(data.replay.step);
}

if (view.replay) {
  $("replay").hidden = false;
  $("replay-prev").addEventListener("click", () => showStep(replayStep - 1));
  $("replay-next").addEventListener("click", () => showStep(replayStep + 1));
  $("replay-range").addEventListener("input", (event) => showStep(Number(event.target.value)));
  showStep(Number(new URLSearchParams(location.search).get("step") || 0));
} else {
  notifyButton($("notify"));
  soundButton($("sound"));
  openSocket({
    gameId, lang, token, onMessage: receive,
    onOpen: () => { $("connection").hidden = true; },
    onLost: () => { $("connection").textContent = T.reconnecting; $("connection").hidden = false; },
  });
}
