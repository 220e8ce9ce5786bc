// The game page's state: what changes when a new state comes (node --test). Every value
// comes from the server's state; these functions only read it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { announcement, canUndo, isMyTurn, isStale, keptDice, movedOn, namedAsComputer, parseDice, shownName } from "../../src/yatzy/web/static/store.js";

const state = (changes = {}) => ({
  version: 5, steps: 3, current_player: "Ann", phase: "person", held: [], pending: null,
  is_over: false, last: { type: "roll", player: "Ann" }, ...changes,
});

test("an older state is stale, a newer or equal one is not", () => {
  assert.equal(isStale(state({ version: 6 }), state({ version: 5 })), true);
  assert.equal(isStale(state({ version: 5 }), state({ version: 5 })), false);
  assert.equal(isStale(null, state()), false);
});

test("the game moves on with another step or another player", () => {
  assert.equal(movedOn(null, state()), true);
  assert.equal(movedOn(state(), state({ version: 6 })), false);
  assert.equal(movedOn(state(), state({ steps: 4 })), true);
  assert.equal(movedOn(state(), state({ current_player: "Bo" })), true);
});

test("a person's own picks stay while the game stands still", () => {
  const mine = new Set([0, 4]);
  assert.equal(keptDice(state(), state({ version: 6, held: [1] }), mine), mine);
});

test("the server's held dice once the game moves on", () => {
  assert.deepEqual(keptDice(state(), state({ steps: 4, held: [1, 2] }), new Set([0])), new Set([1, 2]));
  assert.deepEqual(keptDice(null, state({ held: [3] }), new Set()), new Set([3]));
});

test("a computer's keep as the state shows it, whatever was picked", () => {
  const showing = state({ version: 6, current_player: "Cy", phase: "showing", held: [0, 2] });
  assert.deepEqual(keptDice(state({ current_player: "Cy", phase: "thinking" }), showing, new Set([4])),
                   new Set([0, 2]));
});

test("a computer's roll that waits for real dice keeps its chosen dice", () => {
  // The server says the dice the waiting reroll keeps.
  const waiting = state({ phase: "dice", held: [1, 3], pending: { type: "reroll", hold: [1, 3] } });
  assert.deepEqual(keptDice(state(), waiting, new Set()), new Set([1, 3]));
  const first = state({ phase: "dice", pending: { type: "roll" } });
  assert.deepEqual(keptDice(state(), first, new Set([2])), new Set());
});

test("my turn: the state's player to move is my seat, and the game goes on", () => {
  assert.equal(isMyTurn(state(), "Ann"), true);
  assert.equal(isMyTurn(state(), "Bo"), false);
  assert.equal(isMyTurn(state(), null), false);
  assert.equal(isMyTurn(state({ is_over: true }), "Ann"), false);
  assert.equal(isMyTurn(state({ phase: "waiting" }), "Ann"), false);  // a table waiting for players
  assert.equal(isMyTurn(null, "Ann"), false);
});

test("undo while the server says my seat may take back its box", () => {
  const scored = state({ current_player: "Bo", undo_by: "Ann",
                         last: { type: "score", player: "Ann", box: "chance" } });
  assert.equal(canUndo(scored, "Ann"), true);
  assert.equal(canUndo(scored, "Bo"), false);
  assert.equal(canUndo(scored, null), false);
  assert.equal(canUndo(scored, "Ann", true), false);                    // a replay
  assert.equal(canUndo({ ...scored, is_over: true, undo_by: null }, "Ann"), false);
  assert.equal(canUndo({ ...scored, last: { type: "roll", player: "Bo" }, undo_by: null }, "Ann"),
               false);
  assert.equal(canUndo(state({ last: null, undo_by: null }), "Ann"), false);
});

test("dice typed in, with spaces, commas or none", () => {
  assert.deepEqual(parseDice("3 5 6"), [3, 5, 6]);
  assert.deepEqual(parseDice(" 3,5, 6 "), [3, 5, 6]);
  assert.deepEqual(parseDice("356"), [3, 5, 6]);
  assert.deepEqual(parseDice("7 12"), [7, 12]);                          // the server judges them
  assert.deepEqual(parseDice(""), []);
});

const T = {
  put: "{player} put {points} in {box}.", yahtzee_bonus_plus: "Yahtzee bonus +{points}!",
  rolled: "{player} rolled {dice}.", keeps: "{player} keeps {dice}.", undone: "{player} took back the box.",
  undone_dice: "{player} took back the dice.",
  wins: "{player} wins!", share: "{players} share the win!", turn: "{player}'s turn", your_turn: "Your turn",
};
const BOXES = { chance: "Chance" };

test("a roll, a score and the next turn are said in words", () => {
  const rolled = state({ version: 6, steps: 4, dice: [3, 3, 5, 6, 6], last: { type: "roll", player: "Ann" } });
  assert.equal(announcement(state(), rolled, "Ann", T, BOXES), "Ann rolled 3 3 5 6 6.");
  const scored = state({ version: 7, steps: 5, dice: null, current_player: "Bo",
                         last: { type: "score", player: "Ann", box: "chance", points: 23, bonus_points: 0 } });
  assert.equal(announcement(rolled, scored, "Ann", T, BOXES), "Ann put 23 in Chance. Bo's turn");
  assert.equal(announcement(rolled, scored, "Bo", T, BOXES), "Ann put 23 in Chance. Your turn");
  assert.equal(announcement(null, scored, "Bo", T, BOXES), "");  // the first state: nothing happened
  assert.equal(announcement(scored, rolled, "Bo", T, BOXES), "");  // an older one
});

test("a computer's keep, an undo and the end are said", () => {
  const showing = state({ version: 6, phase: "showing", dice: [1, 6, 6, 2, 6], held: [1, 2, 4], current_player: "CPU" });
  assert.equal(announcement(state({ current_player: "CPU" }), showing, "Ann", T, BOXES), "CPU keeps 6 6 6.");
  const undone = state({ version: 7, steps: 2 });
  assert.equal(announcement(state({ last: { type: "score", player: "Ann" } }), undone, "Ann", T, BOXES),
               "Ann took back the box.");
  assert.equal(announcement(state({ last: { type: "roll", player: "Ann" } }), undone, "Ann", T, BOXES),
               "Ann took back the dice.");  // real dice typed in
  const over = state({ version: 8, steps: 4, is_over: true, current_player: null, winners: ["Ann", "Bo"],
                       last: { type: "score", player: "Bo", box: "chance", points: 5 } });
  assert.equal(announcement(state(), over, "Ann", T, BOXES), "Bo put 5 in Chance. Ann, Bo share the win!");
});

test("a computer is named in the page's language, a person as given", () => {
  const names = { "CPU hard": "Dator (svår)", Ann: "Ann" };
  assert.equal(shownName(state({ names }), "CPU hard"), "Dator (svår)");
  assert.equal(shownName(state({ names }), "Ann"), "Ann");
  assert.equal(shownName(state(), "CPU hard"), "CPU hard");  // a state without names
  const turn = state({ version: 6, steps: 4, current_player: "CPU hard", names,
                       last: { type: "score", player: "Ann", box: "chance", points: 9 } });
  assert.equal(announcement(state(), turn, "Ann", T, BOXES), "Ann put 9 in Chance. Dator (svår)'s turn");
});

test("a computer the server names says it is one; a person or a named computer does not", () => {
  const names = { "CPU hard": "Dator (svår)", Ann: "Ann", Robo: "Robo", "Seat 3": "Ledig plats" };
  const seats = [{ name: "CPU hard", bot: "hard" }, { name: "Ann", bot: null },
                 { name: "Robo", bot: "greedy" }, { name: "Seat 3", bot: null, open: true }];
  assert.equal(namedAsComputer(state({ names, seats }), "CPU hard"), true);
  assert.equal(namedAsComputer(state({ names, seats }), "Ann"), false);
  assert.equal(namedAsComputer(state({ names, seats }), "Robo"), false);  // "Robo (computer) plays"
  assert.equal(namedAsComputer(state({ names, seats }), "Seat 3"), false);  // renamed, no computer
  assert.equal(namedAsComputer(state({ seats }), "CPU hard"), false);  // a state without names
});

test("a seat whose clock ran out is the computer's: never its person's turn", () => {
  const seats = [{ name: "Ann", idle: true }, { name: "Bo", idle: false }];
  assert.equal(isMyTurn(state({ seats }), "Ann"), false);
  assert.equal(isMyTurn(state({ seats, current_player: "Bo" }), "Bo"), true);
});
