// The "your turn" chime: when it sounds, whether it is wanted, and what it plays
// (node --test). The AudioContext is a stand-in that writes down what is asked of it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { chime, SOUND_KEY, soundWanted, turnCame } from "../../src/yatzy/web/static/sound.js";

test("the chime sounds only when the turn has just come", () => {
  assert.equal(turnCame(false, true), true);
  assert.equal(turnCame(true, true), false);    // still this seat's turn: a roll, a hold
  assert.equal(turnCame(true, false), false);
  assert.equal(turnCame(false, false), false);
  assert.equal(turnCame(null, true), false);    // the page's first state: no news
});

test("the sound is off unless turned on", () => {
  const storage = (value) => ({ getItem: (key) => (key === SOUND_KEY ? value : null) });
  assert.equal(soundWanted(storage(null)), false);
  assert.equal(soundWanted(storage("0")), false);
  assert.equal(soundWanted(storage("1")), true);
  assert.equal(soundWanted(null), false);       // no localStorage at all
});

test("the chime is one soft note and its fifth, over a third of a second", () => {
  const calls = [];
  const param = (name) => ({
    setValueAtTime: (v, t) => calls.push([name, "set", v, t]),
    exponentialRampToValueAtTime: (v, t) => calls.push([name, "ramp", v, t]),
  });
  const node = (name) => ({ connect: (to) => { calls.push([name, "connect"]); return to; } });
  const context = {
    currentTime: 10,
    destination: { name: "speakers" },
    createOscillator: () => ({
      ...node("note"), frequency: param("frequency"),
      start: (t) => calls.push(["note", "start", t]), stop: (t) => calls.push(["note", "stop", t]),
    }),
    createGain: () => ({ ...node("volume"), gain: param("gain") }),
  };
  chime(context);
  const frequencies = calls.filter((c) => c[0] === "frequency").map((c) => c[2]);
  assert.deepEqual(frequencies, [660, 990]);
  assert.ok(calls.filter((c) => c[0] === "gain").every((c) => c[2] > 0 && c[2] <= 0.2));
  assert.deepEqual(calls.filter((c) => c[0] === "note" && c[1] !== "connect"),
                   [["note", "start", 10], ["note", "stop", 10.36]]);
});
