// The pages' scripts restate no rule of the game: no ruleset name, no score or bonus, no
// dice count, no test of the rolls left; the server's state and the rulesets'
// description say all of it (node --test).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

const WEB = new URL("../../src/yatzy/web/", import.meta.url);
const FILES = [
  ...readdirSync(new URL("static/", WEB)).filter((f) => f.endsWith(".js")).map((f) => `static/${f}`),
  ...readdirSync(new URL("templates/", WEB)).filter((f) => f.endsWith(".html")).map((f) => `templates/${f}`),
];

// What would be a rule: a pattern and why it is one.
const RULES = [
  [/["'`](yatzy|yahtzee)["'`]/, "a ruleset's name"],
  [/\brules\.name\b/, "the ruleset's name"],
  [/\b(63|35|25|30|40|50|100)\b/, "a score, a bonus or its threshold"],
  [/\brolls_left\s*(===?|!==?|[<>]=?)\s*0\b/, "whether a roll is allowed (can_roll)"],
  [/\bwaiting_for_dice\b/, "what the game waits for (phase)"],
  [/\bdice\.reduce\b/, "a sum of dice (the state's total)"],
  [/\.bot\b.*current_player|current_player.*\.bot\b/, "who moves (phase)"],
];

// The code without its comments (a comment may give an example).
function code(text) {
  return text.split("\n").map((line) => line.replace(/(^|\s)\/\/.*$/, "")).join("\n")
    .replace(/\/\*[\s\S]*?\*\//g, "").replace(/\{#[\s\S]*?#\}/g, "").replace(/<!--[\s\S]*?-->/g, "")
    .replace(/maxlength="\d+"/g, "");  // a field's size, not a rule
}

for (const name of FILES) {
  test(`${name} restates no rule`, () => {
    const text = code(readFileSync(new URL(name, WEB), "utf8"));
    for (const [pattern, what] of RULES) {
      const found = text.match(pattern);
      assert.equal(found, null, `${name}: ${what}: ${found?.[0]}`);
    }
  });
}
