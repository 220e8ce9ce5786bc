// The game page: live state over a websocket, actions over the JSON API; or, on a
// replay page, a finished game step by step.
import { playerKey } from "./player.js";

const root = document.getElementById("game");
const gameId = root.dataset.game;
const lang = root.dataset.lang;
const replayMode = root.dataset.replay === "1";
const T = JSON.parse(document.getElementById("texts").textContent);
const BOXES = JSON.parse(document.getElementById("boxes").textContent);
const $ = (id) => document.getElementById(id);
const fill = (text, params = {}) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? params[k] : m));

// The seat's token comes in the link's fragment (never sent to the server) and stays on
// this device, so a reload or a reopened tab is the same seat. A browser may hold several
// seats of a game (the links of two people opened on one device): it keeps each seat's
// token by name, plays the one chosen last (or the one of ?seat=), and lets the person
// switch.
const seatKey = `yatzy.seat.${gameId}`;
const seatsKey = `yatzy.seats.${gameId}`;
const heldSeats = () => JSON.parse(localStorage.getItem(seatsKey) || "{}");
const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
const askedSeat = heldSeats()[new URLSearchParams(location.search).get("seat")];
if (fromHash || askedSeat) localStorage.setItem(seatKey, fromHash || askedSeat);
const token = replayMode ? null : fromHash || askedSeat || localStorage.getItem(seatKey);
// Another seat's link opened in this tab changes only the fragment: play that seat.
addEventListener("hashchange", () => location.reload());

let state = null;
let me = null;            // my seat's name, once the server has confirmed the token
let holds = new Set();
let shownDice = null;
let socket = null;
let retry = 0;
let busy = false;
let suggested = new Set();  // the dice the hint keeps (outlined)

// --- Connection -----------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams({ lang });
  if (token) query.set("token", token);
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}?${query}`);
  socket.addEventListener("open", () => { retry = 0; $("connection").hidden = true; });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (event.code === 4404 || event.code === 4403) return;
    $("connection").textContent = T.reconnecting;
    $("connection").hidden = false;
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  });
}

function receive(message) {
  if (message.type === "welcome") {
    me = message.seat;
    if (me) keepSeat(me);
    // This browser sits in that seat: the game goes into its history.
    if (me) api("/claim", { method: "POST", headers: { "Content-Type": "application/json", "X-Player-Key": playerKey(), Authorization: `Bearer ${token}` } });
  } else if (message.type === "state") {
    // An action's HTTP answer can come after the websocket's newer states (a computer
    // moving at once): an older state must not undo them.
    if (state && message.state.version < state.version) return;
    const before = state;
    state = message.state;
    // The dice kept are the server's (a computer's keep while it shows it, or the keep
    // of its roll that waits for real dice); a person's own picks stay until the game
    // moves on.
    if (!before || before.steps !== state.steps || before.current_player !== state.current_player
        || state.phase !== "person") {
      holds = new Set(state.phase === "dice" ? state.pending?.hold || [] : state.held);
    }
    if (!before || before.steps !== state.steps || before.current_player !== state.current_player) {
      $("hint-box").hidden = true;
      suggested = new Set();
    }
    render();
  } else if (message.type === "error") {
    if (message.error.code === "forbidden" && !state) forgetSeat();
    say(message.error.message);
  }
}

function keepSeat(name) {
  const seats = Object.fromEntries(Object.entries(heldSeats()).filter(([n, t]) => n !== name && t !== token));
  seats[name] = token;
  localStorage.setItem(seatsKey, JSON.stringify(seats));
  renderSeatSwitch();
}

function forgetSeat() {
  localStorage.removeItem(seatKey);
  const seats = Object.fromEntries(Object.entries(heldSeats()).filter(([, t]) => t !== token));
  localStorage.setItem(seatsKey, JSON.stringify(seats));
}

// The other seats this browser holds in the game, each a button to play it instead.
function renderSeatSwitch() {
  const others = Object.entries(heldSeats()).filter(([name]) => name !== me);
  const box = $("seat-switch");
  box.hidden = !others.length;
  box.replaceChildren(...others.map(([name, seatToken]) => {
    const button = cell("button", fill(T.play_as, { player: name }), { type: "button" });
    button.addEventListener("click", () => {
      localStorage.setItem(seatKey, seatToken);
      location.assign(`/games/${gameId}?lang=${lang}`);
    });
    return button;
  }));
}

// A request that gets no answer (the server is down, the network gone) is an answer
// too: status 0, with a message that says so.
async function api(path, options = {}, query = "") {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(`/api/games/${gameId}${path}?lang=${lang}${query}`, { headers, ...options });
  } catch {
    return { ok: false, status: 0, data: { error: { message: T.unreachable } } };
  }
  const data = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, data };
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
      method: "POST", body: JSON.stringify({ ...body, expected_version: state.version }) });
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

// --- Moves ----------------------------------------------------------------------------

function myTurn() {
  return Boolean(state && !state.is_over && me && state.current_player === me);
}

// The box this seat just chose can be taken back until the next player acts: while the
// game's last step is still this seat's score.
function canUndo() {
  return Boolean(!replayMode && state && !state.is_over && me && state.last
    && state.last.type === "score" && state.last.player === me);
}

function undo() {
  if (canUndo()) post("/undo", {});
}

function roll() {
  if (!myTurn() || !state.can_roll) return;
  if (state.dice_mode === "manual") { $("dice-input").focus(); return; }
  act(state.dice ? { type: "reroll", hold: [...holds].sort() } : { type: "roll" });
}

function toggle(i) {
  if (!myTurn() || !state.dice || !state.can_roll || i >= state.dice_count) return;
  holds.has(i) ? holds.delete(i) : holds.add(i);
  renderDice();
}

function choose(box) {
  if (!myTurn() || !(box in state.choices)) return;
  if (state.choices[box] === 0) {
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

function parseDice(text) {
  const parts = text.trim().split(/[\s,]+/).filter(Boolean);
  const digits = parts.length === 1 && parts[0].length > 1 ? [...parts[0]] : parts;
  return digits.map(Number);
}

$("dice-entry").addEventListener("submit", (event) => {
  event.preventDefault();
  const dice = parseDice($("dice-input").value);
  $("dice-input").value = "";
  if (state.phase === "dice") {
    const p = state.pending;
    act(p.type === "roll" ? { type: "roll", dice } : { type: "reroll", hold: p.hold, dice });
  } else {
    act(state.dice ? { type: "reroll", hold: [...holds].sort(), dice } : { type: "roll", dice });
  }
});

async function hint() {
  if (!myTurn() || !state.hints) return;
  const box = $("hint-box");
  box.hidden = false;
  box.textContent = T.thinking;
  const { ok, data } = await api("/hint");
  if (!ok) { box.textContent = data.error?.message || "?"; return; }
  box.textContent = [T.best_moves, ...data.options.map((o, i) => `${i + 1}. ${o.text} · ${o.points}`)].join("\n");
  const best = data.options[0]?.action;
  suggested = new Set(best?.type === "reroll" ? best.hold : []);
  renderDice();
}

// Win chances: off at first (not to spoil a game); when on, asked again for every
// version of the game.
let showChances = false;
let chancesFor = null;

function toggleChances() {
  if (replayMode || !state || state.players.length < 2) return;
  showChances = !showChances;
  $("chances").setAttribute("aria-pressed", String(showChances));
  $("chances-box").hidden = !showChances;
  chancesFor = null;
  refreshChances();
}

async function refreshChances() {
  if (!showChances || chancesFor === state.version) return;
  const version = state.version;
  chancesFor = version;
  const box = $("chances-box");
  box.textContent = T.working_chances;
  const { ok, data } = await api("/chances");
  if (!showChances || state.version !== version) return;
  box.textContent = ok ? data.text : data.error?.message || "?";
}

$("roll").addEventListener("click", roll);
$("hint").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
$("chances").addEventListener("click", toggleChances);
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key.toLowerCase();
  if (replayMode) {
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

// --- Drawing --------------------------------------------------------------------------

const PIPS = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

function say(text) { $("message").textContent = text; }

function renderDice() {
  const box = $("dice");
  const dice = state.dice || Array(state.dice_count).fill(null);
  const changed = JSON.stringify(dice) !== JSON.stringify(shownDice);
  // The dice are buttons drawn once and updated in place: a die in focus keeps it, and a
  // key pressed on it is not lost to a redraw between its down and its up.
  while (box.childElementCount > dice.length) box.lastElementChild.remove();
  while (box.childElementCount < dice.length) {
    const i = box.childElementCount;
    const die = document.createElement("button");
    die.type = "button";
    die.addEventListener("click", () => toggle(i));
    box.append(die);
  }
  dice.forEach((face, i) => {
    const die = box.children[i];
    const rolling = changed && face && !holds.has(i);
    if (rolling) { die.classList.remove("rolling"); void die.offsetWidth; }  // again from the start
    die.className = "die" + (face ? "" : " blank") + (rolling ? " rolling" : "")
      + (suggested.has(i) ? " suggest" : "");
    die.setAttribute("aria-pressed", String(holds.has(i)));
    die.setAttribute("aria-label", face ? `${i + 1}: ${face}${holds.has(i) ? ` (${T.held})` : ""}` : `${i + 1}`);
    die.disabled = !myTurn() || !state.dice || !state.can_roll;
    die.replaceChildren(...(PIPS[face] || []).map((cell) => {
      const pip = document.createElement("span");
      pip.className = "pip";
      pip.style.gridArea = `${Math.ceil(cell / 3)} / ${((cell - 1) % 3) + 1}`;
      return pip;
    }));
  });
  shownDice = dice;
  renderEntry();
}

// Real dice: the field asks for as many dice as are rolled, all of them or those not
// held (the computer's held ones too); it follows the dice held.
function renderEntry() {
  const s = state;
  const computerDice = s.phase === "dice" && me;
  $("dice-entry").hidden = !(s.dice_mode === "manual" && ((myTurn() && s.can_roll) || computerDice));
  const kept = computerDice ? (s.pending?.hold || []).length : s.dice ? holds.size : 0;
  const n = s.dice_count - kept;
  $("dice-label").textContent = computerDice ? fill(T.computer_dice, { player: s.current_player })
    : fill(T.type_roll, { player: s.current_player, n });
  $("dice-input").placeholder = Array(n).fill("?").join(" ");
}

function render() {
  const s = state;
  $("title").textContent = `${fill(T.round, { round: Math.min(s.round, s.rounds), rounds: s.rounds })}`;
  const who = s.current_player;
  let status;
  if (s.is_over) status = T.game_over;
  else if (s.phase !== "person") status = fill(T.computer_plays, { player: who });
  else status = fill(T.turn, { player: who });
  if (!s.is_over) status += " · " + fill(s.rolls_left === 1 ? T.rolls_left_one : T.rolls_left_many, { n: s.rolls_left });
  $("status").textContent = status;
  renderDice();
  const mine = myTurn();
  const roll = $("roll");
  roll.textContent = s.dice ? T.reroll : T.roll;
  roll.disabled = !mine || !s.can_roll || s.dice_mode === "manual";
  roll.hidden = s.dice_mode === "manual";
  $("hint").hidden = !(s.hints && me);
  $("hint").disabled = !mine;
  $("undo").hidden = !canUndo();
  $("chances").hidden = replayMode || s.players.length < 2;  // the live game's, not a step's
  refreshChances();
  const notes = [];
  if (s.last && s.last.type === "score") {
    notes.push(fill(T.put, { player: s.last.player, points: s.last.points, box: BOXES[s.last.box] }));
    if (s.last.bonus_points) notes.push(fill(T.yahtzee_bonus_plus, { points: s.last.bonus_points }));
  }
  if (s.steps === 0 && s.roll_off.length) {
    notes.push(T.roll_off, ...s.roll_off.map((r) => `${r.player}: ${r.dice.join(" ")} = ${r.total}`),
               fill(T.starts, { player: s.current_player }));
  }
  if (s.texts?.upper && !replayMode) notes.push(`${s.current_player}: ${s.texts.upper}`);
  if (s.texts?.joker) notes.push(s.texts.joker);
  if (s.texts?.bonus) notes.push(s.texts.bonus);
  if (!replayMode) notes.push(me ? fill(T.your_seat, { player: me }) : T.watching);
  $("notes").textContent = notes.join("\n");
  renderCards();
  $("seed").textContent = s.seed_hash ? fill(T.seed_check, { hash: s.seed_hash }) : "";
  if (!replayMode) renderInvite();
  if (s.is_over && !replayMode) renderEnd();
}

function cell(tag, text, attrs = {}) {
  const el = document.createElement(tag);
  el.textContent = text;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function renderCards() {
  const s = state;
  const table = $("cards");
  const head = document.createElement("thead");
  const hr = document.createElement("tr");
  hr.append(cell("th", "", { scope: "col" }));
  for (const seat of s.seats) {
    const th = cell("th", seat.name, { scope: "col" });
    if (!seat.bot) th.className = seat.connected ? "online" : "away";
    if (seat.name === s.current_player) th.classList.add("current");
    hr.append(th);
  }
  head.append(hr);
  const body = document.createElement("tbody");
  const mine = myTurn();
  const row = (label, values, cls) => {
    const tr = document.createElement("tr");
    if (cls) tr.className = cls;
    tr.append(cell("th", label, { scope: "row" }));
    values.forEach((v) => tr.append(v));
    body.append(tr);
  };
  for (const box of s.boxes) {
    row(BOXES[box], s.players.map((p) => {
      const points = s.scorecards[p][box];
      const td = cell("td", points === null ? "" : String(points));
      if (p === s.current_player) td.classList.add("current");
      if (points === null && p === s.current_player && box in s.choices) {
        if (mine) {
          const b = cell("button", String(s.choices[box]), { type: "button", "aria-label": `${BOXES[box]}: ${s.choices[box]}` });
          b.className = "box" + (s.choices[box] === 0 ? " zero" : "");
          b.addEventListener("click", () => choose(box));
          td.replaceChildren(b);
        } else {
          td.textContent = "";
          td.append(cell("span", String(s.choices[box]), { class: "small", title: T.points_now }));
        }
      }
      return td;
    }));
    if (box === s.upper_boxes[s.upper_boxes.length - 1]) {
      // The upper sum against the bonus threshold: "41 / 63".
      row(T.upper_sum, s.players.map((p) => cell("td", s.scorecards[p].upper_bonus
        ? String(s.scorecards[p].upper_sum) : `${s.scorecards[p].upper_sum} / ${s.upper_bonus_threshold}`)), "sum");
      row(T.bonus, s.players.map((p) => cell("td", String(s.scorecards[p].upper_bonus))), "sum");
    }
  }
  if (s.extra_yahtzee_points) row(T.yahtzee_bonus, s.players.map((p) => cell("td", String(s.scorecards[p].yahtzee_bonus))), "sum");
  row(T.total, s.players.map((p) => cell("td", String(s.scorecards[p].total))), "sum");
  table.replaceChildren(head, body);
}

function renderInvite() {
  const invites = JSON.parse(localStorage.getItem(`yatzy.invites.${gameId}`) || "null");
  const panel = $("invite");
  // Only where there is another person to invite (computers need no link).
  const people = state.seats.filter((seat) => !seat.bot).length;
  if (!invites || state.is_over || people < 2) { panel.hidden = true; return; }
  panel.hidden = false;
  const list = $("links");
  if (list.childElementCount) return;
  const links = [...invites.seats.map((s) => [s.name, s.url]), [T.watch_link, invites.watch_url]];
  for (const [name, url] of links) {
    const li = document.createElement("li");
    const a = cell("a", name, { href: url });
    const copy = cell("button", T.copy, { type: "button" });
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(url);  // none on a plain-HTTP network address
        copy.textContent = T.copied;
      } catch {
        copyByHand(li, copy, name, url);
      }
    });
    const qr = document.createElement("img");
    qr.alt = `QR: ${name}`;
    fetch("/api/qr", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: url }) })
      .then((r) => (r.ok ? r.blob() : null)).then((b) => { if (b) qr.src = URL.createObjectURL(b); })
      .catch(() => {});  // no picture; the link is there
    li.append(a, " ", copy, qr);
    list.append(li);
  }
}

// No clipboard to write to: the link, selected in a field, to copy by hand.
function copyByHand(li, copy, name, url) {
  let field = li.querySelector("input.link");
  if (!field) {
    field = cell("input", "", { class: "link", readonly: "", "aria-label": name });
    field.value = url;
    copy.after(" ", field, " ", cell("span", T.copy_by_hand, { class: "small" }));
  }
  field.focus();
  field.select();
}

let analysed = false;
async function renderEnd() {
  const s = state;
  $("end").hidden = false;
  $("verdict").textContent = s.winners.length === 1 ? fill(T.wins, { player: s.winners[0] })
    : fill(T.share, { players: s.winners.join(", ") });
  const ranking = $("ranking");
  const totals = s.players.map((p) => [p, s.scorecards[p].total]).sort((a, b) => b[1] - a[1]);
  ranking.replaceChildren(...totals.map(([p, t]) => cell("li", `${p}: ${t}`)));
  $("record-link").href = `/api/games/${gameId}/record`;
  if (analysed) return;
  analysed = true;
  const box = $("analysis");
  box.textContent = T.analysing;
  const { ok, data } = await api("/analysis");
  if (!ok) { box.textContent = data.error?.message || "?"; return; }
  box.replaceChildren(...data.players.flatMap((p) => {
    const lines = [cell("p", fill(T.loss_line, { player: p.player, loss: p.loss.toFixed(1), n: p.decisions, mistakes: p.mistakes }))];
    const list = document.createElement("ul");
    for (const d of p.worst) list.append(cell("li", fill(T.worst_line, { round: d.round, roll: d.roll, dice: d.dice.join(" "), chosen: d.chosen, best: d.best, loss: d.loss.toFixed(1) })));
    if (!p.worst.length && p.decisions) list.append(cell("li", T.all_optimal));
    return [...lines, list];
  }));
}

// --- Replay ---------------------------------------------------------------------------

let replayStep = 0;
async function showStep(step) {
  const steps = state?.replay?.steps ?? Infinity;
  replayStep = Math.max(0, Math.min(step, steps));
  const { ok, data } = await api(`/replay`, {}, `&step=${replayStep}`);
  if (!ok) { say(data.error?.message || "?"); return; }
  state = data;
  holds = new Set(state.held);
  render();
  $("replay-step").textContent = fill(T.step_of, { step: data.replay.step, steps: data.replay.steps });
  $("replay-range").max = String(data.replay.steps);
  $("replay-range").value = String(data.replay.step);
}

if (replayMode) {
  $("replay").hidden = false;
  $("replay-prev").addEventListener("click", () => showStep(replayStep - 1));
  $("replay-next").addEventListener("click", () => showStep(replayStep + 1));
  $("replay-range").addEventListener("input", (event) => showStep(Number(event.target.value)));
  showStep(Number(new URLSearchParams(location.search).get("step") || 0));
} else {
  connect();
}
