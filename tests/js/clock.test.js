// The game page's clock (node --test): the seconds it shows come from the state's deadline.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockText, secondsLeft } from "../../src/yatzy/web/static/clock.js";

const T = { clock_mine: "Your move: {seconds} s left", clock_other: "{player} has {seconds} s left to move" };
const at = Date.parse("2026-12-03T12:00:00.000Z");

test("the seconds left count down to the deadline, never below 0", () => {
  assert.equal(secondsLeft("2026-12-03T12:00:42.000+00:00", 60, at), 42);
  assert.equal(secondsLeft("2026-12-03T12:00:41.200+00:00", 60, at), 42);  // whole seconds, up
  assert.equal(secondsLeft("2026-12-03T11:59:00.000+00:00", 60, at), 0);
  assert.equal(secondsLeft(null, 60, at), null);
});

test("a device whose clock is behind shows no more than the game's clock", () => {
  assert.equal(secondsLeft("2026-12-03T12:05:00.000+00:00", 60, at), 60);
});

test("the line says whose clock it is", () => {
  const state = { current_player: "Ann" };
  assert.equal(clockText(state, "Ann", 9, T, (p) => p), "Your move: 9 s left");
  assert.equal(clockText(state, "Bo", 9, T, (p) => p), "Ann has 9 s left to move");
  assert.equal(clockText(state, "Bo", null, T, (p) => p), "");
});
