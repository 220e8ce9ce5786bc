// The leaderboards page: by rating (two players, and 3 to 6), by accuracy and today's
// daily challenge, for the ruleset chosen (GET /api/leaderboards).
import { $, el, fill, pageData } from "./common.js";

const P = pageData("ptexts");
const lang = document.documentElement.lang;
const num = (v, digits = 1) => v.toLocaleString(lang, { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function get(query) {
  const response = await fetch(`/api/leaderboards?${query}&lang=${lang}`);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error?.message || String(response.status));
  return data;
}

// A table of ``rows`` with the columns ``columns``: [heading, row -> text].
function table(rows, columns) {
  if (!rows.length) return el("p", P.nobody, { class: "small" });
  const t = el("table", "", { class: "cards board" });
  const head = el("tr");
  for (const [title] of columns) head.append(el("th", title, { scope: "col" }));
  t.append(el("thead"), el("tbody"));
  t.tHead.append(head);
  for (const row of rows) {
    const tr = el("tr");
    tr.append(el("td", String(row.rank)));
    const who = el("th", "", { scope: "row" });
    who.append(row.profile_url ? el("a", row.name, { href: row.profile_url }) : el("span", row.name ?? "–"));
    tr.append(who);
    for (const [, value] of columns.slice(2)) tr.append(el("td", value(row)));
    t.tBodies[0].append(tr);
  }
  return t;
}

const rating = (digits) => [
  [P.place], [P.player],
  [P.rating, (r) => `${num(r.rating, digits)} ± ${num(r.deviation, digits)}${r.provisional ? ` (${P.provisional})` : ""}`],
  [P.games, (r) => String(r.games)],
];

async function load() {
  const rules = $("board-rules").value;
  const [glicko, openskill, accuracy, daily] = await Promise.all([
    get("by=rating&kind=glicko"), get("by=rating&kind=openskill"),
    get(`by=accuracy&rules=${rules}`), get(`by=daily&rules=${rules}`)]);
  $("board-glicko").replaceChildren(table(glicko.rows, rating(0)));
  $("board-openskill").replaceChildren(table(openskill.rows, rating(2)));
  $("accuracy-note").textContent = fill(P.min_games, { n: accuracy.min_games, recent: 20 });
  $("board-accuracy").replaceChildren(table(accuracy.rows, [
    [P.place], [P.player], [P.accuracy, (r) => num(r.points_lost)], [P.games, (r) => String(r.games)]]));
  $("board-daily").replaceChildren(table(daily.rows, [
    [P.place], [P.player], [P.score, (r) => String(r.total)],
    [P.accuracy, (r) => (r.points_lost === null ? "–" : num(r.points_lost))]]));
}

const show = () => load().catch((error) => { $("error").textContent = error.message; });
$("board-rules").addEventListener("change", show);
$("board-form").addEventListener("submit", (event) => { event.preventDefault(); show(); });
show();
