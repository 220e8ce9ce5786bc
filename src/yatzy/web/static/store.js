// The game page's state: the server's last state, the seat, the dice this person holds;
// and the pure functions that say what changes when a new state comes. None of them
// knows a rule of the game: they read what the state says.
import { fill } from "./common.js";

// What the page shows: the state, my seat's name (once the server has confirmed the
// token), the dice held, the dice the hint keeps (outlined), whether it is a replay, and
// whether this device plays every seat it holds (pass and play).
export const view = { state: null, me: null, holds: new Set(), suggested: new Set(), replay: false,
  passAndPlay: false };

// An action's HTTP answer can come after the websocket's newer states (a computer moving
// at once): an older state must not undo them.
export function isStale(before, next) {
  return Boolean(before) && next.version < before.version;
}

// The game went on: another step, or another player to move.
export function movedOn(before, next) {
  return !before || before.steps !== next.steps || before.current_player !== next.current_player;
}

// The dice held after ``next``: the server's (a computer's keep while it shows it, or the
// keep of its roll that waits for real dice) once the game moves on or a computer
// plays; else a person's own picks stay.
export function keptDice(before, next, holds) {
  if (!movedOn(before, next) && next.phase === "person") return holds;
  return new Set(next.held);
}

export function isMyTurn(state, me) {
  // A public table waiting for players is nobody's turn yet; a seat whose clock ran out
  // is the computer's.
  return Boolean(state && !state.is_over && state.phase !== "waiting" && me && state.current_player === me
    && !state.seats?.some((seat) => seat.name === me && seat.idle));
}

// The box this seat just chose can be taken back until the next player acts: while the
// game's last step is still this seat's score.
// How the page shows ``player``: the server's name for it in the page's language (a
// computer named after its level, by its level), else the name as it is.
export function shownName(state, player) {
  return state?.names?.[player] ?? player;
}

// Whether ``player`` is a computer shown under the server's name for it (such as
// "Computer (hard)", in the page's language), which says "computer" already; the
// server also names an open seat ("Open seat"), which is no computer.
export function namedAsComputer(state, player) {
  const seat = state?.seats?.find((s) => s.name === player);
  const shown = state?.names?.[player];
  return Boolean(seat?.bot) && shown !== undefined && shown !== player;
}

export function canUndo(state, me, replay = false) {
  return Boolean(!replay && state && me && state.undo_by === me);
}

// Dice typed in: "3 5 6", "3,5,6" or "356". The server judges them.
export function parseDice(text) {
  const parts = text.trim().split(/[\s,]+/).filter(Boolean);
  const digits = parts.length === 1 && parts[0].length > 1 ? [...parts[0]] : parts;
  return digits.map(Number);
}

// What a screen reader is told when a new state comes (the page's polite live region):
// what happened — the dice rolled, a computer's keep, a box filled and its points, an
// undo — then whose turn it is, or who won; in the page's texts ``T`` and box names.
export function announcement(before, next, me, T, boxes) {
  if (!before || isStale(before, next)) return "";
  const lines = [];
  const last = next.last;
  const name = (player) => shownName(next, player);
  if (next.steps < before.steps) {
    const taken = before.last?.type === "score" ? T.undone : T.undone_dice;
    lines.push(fill(taken, { player: name(before.last?.player ?? "") }));
  } else if (next.steps > before.steps && last) {
    if (last.type === "score") {
      lines.push(fill(T.put, { player: name(last.player), points: last.points, box: boxes[last.box] }));
      if (last.bonus_points) lines.push(fill(T.yahtzee_bonus_plus, { points: last.bonus_points }));
    } else if (next.dice) {
      lines.push(fill(T.rolled, { player: name(last.player), dice: next.dice.join(" ") }));
    }
  }
  if (next.phase === "showing" && before.phase !== "showing" && next.dice) {
    lines.push(fill(T.keeps, { player: name(next.current_player), dice: next.held.map((i) => next.dice[i]).join(" ") }));
  }
  if (next.is_over && !before.is_over) {
    lines.push(next.winners.length === 1 ? fill(T.wins, { player: name(next.winners[0]) })
      : fill(T.share, { players: next.winners.map(name).join(", ") }));
  } else if (next.current_player && next.current_player !== before.current_player) {
    lines.push(isMyTurn(next, me) ? T.your_turn : fill(T.turn, { player: name(next.current_player) }));
  }
  return lines.join(" ");
}
