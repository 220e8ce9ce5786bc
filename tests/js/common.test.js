// The helpers every page shares (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";

import { fill } from "../../src/yatzy/web/static/common.js";

test("fill puts each value in its placeholder", () => {
  assert.equal(fill("{player} put {points} in {box}.", { player: "Ann", points: 0, box: "Chance" }),
               "Ann put 0 in Chance.");
});

test("fill leaves a placeholder it is not given", () => {
  assert.equal(fill("Round {round} of {rounds}", { round: 2 }), "Round 2 of {rounds}");
  assert.equal(fill("no placeholder"), "no placeholder");
});

test("fill puts a value in as it is, braces and all", () => {
  assert.equal(fill("{player}'s turn", { player: "{x}" }), "{x}'s turn");
});
