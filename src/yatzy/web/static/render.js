// The game page's drawing: the dice, the buttons, the notes, the scorecards, the invite
// links and the end, all from the server's state as it is (nothing is worked out here).
import { $, el, fill, pageData } from "./common.js";
import { renderClock } from "./clock.js";
import { canUndo, isMyTurn, namedAsComputer, shownName, view } from "./store.js";

const T = pageData("texts");
const BOXES = pageData("boxes");
const gameId = document.getElementById("game").dataset.game;
let shownDice = null;

// A player as the page shows them (a computer by its level, in the page's language).
const named = (player) => shownName(view.state, player);

// What the drawing calls back: a die clicked, a box chosen, a request to the game's API,
// a seat chosen to play instead, the same game again.
export const handlers = { toggle() {}, choose() {}, api: null, playAs() {}, playAgain() {} };
$("play-again").addEventListener("click", () => handlers.playAgain());

export function say(text) { $("message").textContent = text; }

// A control's text with its key ("Roll (r)"): the key in a span of its own, which a touch
// screen does not show.
export function keyed(text) {
  const m = /^(.*?)\s*(\([^()]{1,3}\))$/.exec(text);
  return m ? [m[1], el("span", ` ${m[2]}`, { class: "key" })] : [text];
}
for (const id of ["hint", "undo", "chances"]) $(id).replaceChildren(...keyed($(id).textContent));

// The other seats this browser holds in the game, each a button to play it instead.
export function renderSeatSwitch(others) {
  const box = $("seat-switch");
  box.hidden = !others.length;
  box.replaceChildren(...others.map(([name, seatToken]) => {
    const button = el("button", fill(T.play_as, { player: name }), { type: "button" });
    button.addEventListener("click", () => handlers.playAs(seatToken));
    return button;
  }));
}

const PIPS = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

export function renderDice() {
  const box = $("dice");
  const dice = view.state.dice || Array(view.state.dice_count).fill(null);
  const changed = JSON.stringify(dice) !== JSON.stringify(shownDice);
  // The dice are buttons drawn once and updated in place: a die in focus keeps it, and a
  // key pressed on it is not lost to a redraw between its down and its up.
  while (box.childElementCount > dice.length) box.lastElementChild.remove();
  while (box.childElementCount < dice.length) {
    const i = box.childElementCount;
    const die = document.createElement("button");
    die.type = "button";
    die.addEventListener("click", () => handlers.toggle(i));
    box.append(die);
  }
  dice.forEach((face, i) => {
    const die = box.children[i];
    const rolling = changed && face && !view.holds.has(i);
    if (rolling) { die.classList.remove("rolling"); void die.offsetWidth; }  // again from the start
    die.className = "die" + (face ? "" : " blank") + (rolling ? " rolling" : "")
      + (view.suggested.has(i) ? " suggest" : "");
    die.setAttribute("aria-pressed", String(view.holds.has(i)));
    die.setAttribute("aria-label", face ? `${i + 1}: ${face}${view.holds.has(i) ? ` (${T.held})` : ""}` : `${i + 1}`);
    die.disabled = !isMyTurn(view.state, view.me) || !view.state.dice || !view.state.can_roll;
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
export function renderEntry() {
  const s = view.state;
  const computerDice = s.phase === "dice" && view.me;
  $("dice-entry").hidden = !(s.dice_mode === "manual" && ((isMyTurn(view.state, view.me) && s.can_roll) || computerDice));
  const kept = computerDice ? s.held.length : s.dice ? view.holds.size : 0;
  const n = s.dice_count - kept;
  const computerText = namedAsComputer(s, s.current_player) ? T.dice_of : T.computer_dice;
  $("dice-label").textContent = computerDice ? fill(computerText, { player: named(s.current_player) })
    : fill(T.type_roll, { player: named(s.current_player), n });
  $("dice-input").placeholder = Array(n).fill("?").join(" ");
}

export function render() {
  const s = view.state;
  $("title").textContent = `${fill(T.round, { round: Math.min(s.round, s.rounds), rounds: s.rounds })}`;
  const who = named(s.current_player);
  let status;
  const waiting = s.phase === "waiting";
  if (s.is_over) status = T.game_over;
  else if (waiting) status = T.table_waiting;
  else if (s.phase !== "person") {
    status = fill(namedAsComputer(s, s.current_player) ? T.plays : T.computer_plays, { player: who });
  }
  else status = fill(T.turn, { player: who });
  if (!s.is_over && !waiting) status += " · " + fill(s.rolls_left === 1 ? T.rolls_left_one : T.rolls_left_many, { n: s.rolls_left });
  if (!s.is_over && s.texts?.saved) status += " · " + s.texts.saved;
  $("status").textContent = status;
  renderClock(view.replay ? {} : s, view.me, T, named);
  renderDice();
  const mine = isMyTurn(view.state, view.me);
  const roll = $("roll");
  roll.replaceChildren(...keyed(s.dice ? T.reroll : T.roll));
  roll.disabled = !mine || !s.can_roll || s.dice_mode === "manual";
  roll.hidden = s.dice_mode === "manual";
  $("hint").hidden = !(s.hints && view.me);
  $("hint").disabled = !mine;
  $("undo").hidden = !canUndo(view.state, view.me, view.replay);
  // The live game's, not a step's; only where the solver works them out for these rules.
  $("chances").hidden = view.replay || s.players.length < 2 || !s.chances || waiting;
  const notes = [];
  if (s.last && s.last.type === "score") {
    notes.push(fill(T.put, { player: named(s.last.player), points: s.last.points, box: BOXES[s.last.box] }));
    if (s.last.bonus_points) notes.push(fill(T.yahtzee_bonus_plus, { points: s.last.bonus_points }));
  }
  if (s.steps === 0 && s.roll_off.length && !waiting) {
    notes.push(T.roll_off, ...s.roll_off.map((r) => `${named(r.player)}: ${r.dice.join(" ")} = ${r.total}`),
               fill(T.starts, { player: named(s.current_player) }));
  }
  if (s.texts?.upper && !view.replay && !waiting) notes.push(`${named(s.current_player)}: ${s.texts.upper}`);
  if (s.texts?.joker) notes.push(s.texts.joker);
  if (s.texts?.bonus) notes.push(s.texts.bonus);
  for (const idle of s.seats.filter((seat) => seat.idle)) {
    notes.push(fill(idle.name === view.me ? T.clock_out_mine : T.clock_out, { player: named(idle.name) }));
  }
  if (!view.replay) notes.push(view.me ? fill(T.your_seat, { player: view.me }) : T.watching);
  if (waiting && view.me) notes.push(T.share_lobby);
  $("notes").textContent = notes.join("\n");
  renderCards();
  $("variant").textContent = s.texts?.variant || "";
  $("seed").hidden = !s.seed_hash;
  $("seed-hash").textContent = s.seed_hash ? fill(T.seed_check, { hash: s.seed_hash }) : "";
  // At the end the dice make way for the winner, the ranking and what comes next.
  $("table").hidden = s.is_over && !view.replay;
  if (!view.replay) renderInvite();
  if (s.is_over && !view.replay) renderEnd();
}

// The scorecards: every player's in one table (#cards) and, for a phone, the card of the
// player to move in two halves (#card-upper and #card-lower: the upper section with its
// sum and bonus, the rest with the totals) that fit beside each other on the screen.
export function renderCards() {
  const s = view.state;
  const lower = s.boxes.filter((box) => !s.upper_boxes.includes(box));
  const upperSums = ["upper_sum", "bonus"];
  const lowerSums = [...(s.extra_yahtzee_points ? ["yahtzee_bonus"] : []), "total"];
  fillCard($("cards"), s.players, [[s.upper_boxes, upperSums], [lower, lowerSums]]);
  const who = s.current_player;
  $("turn-card").hidden = !who;
  if (!who) return;
  $("turn-card-title").textContent = fill(T.scorecard_of, { player: named(who) });
  // One player: the card's heading names the player, the halves need no column header.
  fillCard($("card-upper"), [who], [[s.upper_boxes, upperSums]], false);
  fillCard($("card-lower"), [who], [[lower, lowerSums]], false);
  $("standings").textContent = s.players.filter((p) => p !== who)
    .map((p) => `${named(p)}: ${s.scorecards[p].total}`).join(" · ");
}

// A table of ``players``' cards: for each section its boxes, then its sums' rows; the
// players' names in a header row unless ``header`` is false.
function fillCard(table, players, sections, header = true) {
  const s = view.state;
  const head = document.createElement("thead");
  const hr = document.createElement("tr");
  hr.append(el("td", ""));  // the corner above the boxes' names
  for (const name of players) {
    const seat = s.seats.find((x) => x.name === name);
    const th = el("th", named(name), { scope: "col" });
    if (seat && !seat.bot) th.className = seat.connected ? "online" : "away";
    if (name === s.current_player) th.classList.add("current");
    hr.append(th);
  }
  head.append(hr);
  const body = document.createElement("tbody");
  const mine = isMyTurn(view.state, view.me);
  const row = (label, values, cls) => {
    const tr = document.createElement("tr");
    if (cls) tr.className = cls;
    tr.append(el("th", label, { scope: "row" }));
    values.forEach((v) => tr.append(v));
    body.append(tr);
  };
  const SUMS = {
    // The upper sum against the bonus threshold: "41 / 63".
    upper_sum: [T.upper_sum, (c) => (c.upper_bonus ? String(c.upper_sum) : `${c.upper_sum} / ${s.upper_bonus_threshold}`)],
    bonus: [T.bonus, (c) => String(c.upper_bonus)],
    yahtzee_bonus: [T.yahtzee_bonus, (c) => String(c.yahtzee_bonus)],
    total: [T.total, (c) => String(c.total)],
  };
  for (const [boxes, sums] of sections) {
    for (const box of boxes) {
      row(BOXES[box], players.map((p) => {
        const points = s.scorecards[p][box];
        const td = el("td", points === null ? "" : String(points));
        if (p === s.current_player) td.classList.add("current");
        if (points === null && p === s.current_player && box in s.choices) {
          if (mine) {
            const b = el("button", String(s.choices[box]), { type: "button", "aria-label": `${BOXES[box]}: ${s.choices[box]}` });
            b.className = "box" + (s.choices[box] === 0 ? " zero" : "");
            b.addEventListener("click", () => handlers.choose(box));
            td.replaceChildren(b);
          } else {
            td.textContent = "";
            td.append(el("span", String(s.choices[box]), { class: "small", title: T.points_now }));
          }
        }
        return td;
      }));
    }
    for (const sum of sums) {
      const [label, value] = SUMS[sum];
      row(label, players.map((p) => el("td", value(s.scorecards[p]))), "sum");
    }
  }
  table.replaceChildren(...(header ? [head] : []), body);
}

export function renderInvite() {
  const invites = JSON.parse(localStorage.getItem(`yatzy.invites.${gameId}`) || "null");
  const panel = $("invite");
  // Only where there is another person to invite (computers need no link).
  const people = view.state.seats.filter((seat) => !seat.bot).length;
  if (!invites || view.state.is_over || people < 2 || view.passAndPlay) { panel.hidden = true; return; }
  panel.hidden = false;
  const list = $("links");
  if (list.childElementCount) return;
  const links = [...invites.seats.map((s) => [s.name, s.url]), [T.watch_link, invites.watch_url]];
  for (const [name, url] of links) {
    const li = document.createElement("li");
    const a = el("a", name, { href: url });
    const copy = el("button", T.copy, { type: "button" });
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
    field = el("input", "", { class: "link", readonly: "", "aria-label": name });
    field.value = url;
    copy.after(" ", field, " ", el("span", T.copy_by_hand, { class: "small" }));
  }
  field.focus();
  field.select();
}

let analysed = false;
export async function renderEnd() {
  const s = view.state;
  $("end").hidden = false;
  $("verdict").textContent = s.winners.length === 1 ? fill(T.wins, { player: named(s.winners[0]) })
    : fill(T.share, { players: s.winners.map(named).join(", ") });
  $("ranking-rows").replaceChildren(...s.ranking.map((r) => {
    const tr = document.createElement("tr");
    tr.append(el("td", `${r.place}.`), el("th", named(r.player), { scope: "row" }), el("td", String(r.total)));
    if (r.place === 1) tr.className = "first";
    return tr;
  }));
  $("record-link").href = `/api/games/${gameId}/record`;
  $("record-link").setAttribute("download", `yatzy-${gameId}.json`);
  $("replay-link").href = `/games/${gameId}/replay?lang=${document.documentElement.lang}`;
  if (analysed) return;
  analysed = true;
  const box = $("analysis");
  box.hidden = !s.advice;  // no analysis where the solver does not play these rules
  $("analysis-title").hidden = box.hidden;
  if (!s.advice) return;
  box.textContent = T.analysing;
  const { ok, data } = await handlers.api("/analysis");
  if (!ok) { box.textContent = data.error?.message || "?"; return; }
  box.replaceChildren(...data.players.flatMap((p) => {
    const lines = [el("p", fill(T.loss_line, { player: named(p.player), loss: p.loss.toFixed(1), n: p.decisions, mistakes: p.mistakes }))];
    const list = document.createElement("ul");
    for (const d of p.worst) list.append(el("li", fill(T.worst_line, { round: d.round, roll: d.roll, dice: d.dice.join(" "), chosen: d.chosen, best: d.best, loss: d.loss.toFixed(1) })));
    if (!p.worst.length && p.decisions) list.append(el("li", T.all_optimal));
    return [...lines, list];
  }));
}

