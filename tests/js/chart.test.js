// The chart's scales and calendar (src/yatzy/web/static/chart.js).
import assert from "node:assert/strict";
import test from "node:test";

import { bounds, calendarDays, xAt, yAt } from "../../src/yatzy/web/static/chart.js";

test("bounds are a little wider than the values, never empty", () => {
  const [lo, hi] = bounds([1500, 1600]);
  assert.ok(lo < 1500 && hi > 1600);
  assert.deepEqual(bounds([7, 7]).map((v) => Math.round(v * 100) / 100), [5.84, 8.16]);
  assert.deepEqual(bounds([]), [0, 1]);
});

test("points spread across, values down", () => {
  assert.equal(xAt(0, 1, 0, 100), 50);
  assert.deepEqual([0, 1, 2].map((i) => xAt(i, 3, 0, 100)), [0, 50, 100]);
  assert.equal(yAt(10, 0, 10, 0, 200), 0);
  assert.equal(yAt(0, 0, 10, 0, 200), 200);
});

test("a calendar is whole weeks from a Monday to today", () => {
  const days = calendarDays("2026-12-03", 2); // a Thursday
  assert.equal(days[0], "2026-11-23"); // the Monday a week before
  assert.equal(days.at(-1), "2026-12-03");
  assert.equal(days.length, 11);
});
