// A player's profile page: both ratings, the rating history drawn as a chart (SVG of our
// own, chart.js), accuracy over time, recent games with their replays, bests, and the
// daily streak with a calendar of the days played (GET /api/players/{name}/history).
import { calendarDays, lineChart } from "./chart.js";
import { $, el, fill, pageData } from "./common.js";

const T = pageData("texts");
const P = pageData("ptexts");
const NAME = pageData("player");
const lang = document.documentElement.lang;
const day = (iso) => new Date(iso).toLocaleDateString(lang, { timeZone: "UTC" });
const num = (v, digits = 1) => v.toLocaleString(lang, { maximumFractionDigits: digits, minimumFractionDigits: digits });
const KINDS = { glicko: [P.rating_two, 0], openskill: [P.rating_multi, 2] };

function ratings(data) {
  const box = $("ratings");
  box.replaceChildren();
  for (const r of data.ratings) {
    const [title, digits] = KINDS[r.kind];
    let text = P.no_rating;
    if (r.rating !== null) {
      text = `${num(r.rating, digits)} ± ${num(r.deviation, digits)}`
        + ` · ${fill(P.rated_count, { games: r.games })}${r.provisional ? ` · ${P.provisional}` : ""}`;
    }
    box.append(el("dt", title), el("dd", text, { "data-kind": r.kind }));
  }
}

function history(data) {
  const box = $("rating-charts");
  box.replaceChildren();
  for (const [kind, [title, digits]] of Object.entries(KINDS)) {
    const points = data.history.filter((h) => h.kind === kind);
    if (!points.length) continue;
    const first = points[0];
    // The start (the rating before the first game), then the rating after each game.
    const series = [{ y: first.rating_before, lo: first.rating_before - first.deviation_before,
                      hi: first.rating_before + first.deviation_before, note: num(first.rating_before, digits) },
      ...points.map((h) => ({ y: h.rating_after, lo: h.rating_after - h.deviation_after,
                              hi: h.rating_after + h.deviation_after,
                              note: `${day(h.rated_at)}: ${num(h.rating_after, digits)} ± ${num(h.deviation_after, digits)}` }))];
    const figure = el("figure", "", { class: "chart-box", "data-kind": kind });
    box.append(figure);
    figure.append(lineChart(series, { width: figure.clientWidth, label: `${data.name} · ${title}: ${P.chart_label}`,
                                      format: (v) => num(v, digits ? 1 : 0),
                                      first: day(first.rated_at), last: day(points.at(-1).rated_at) }),
                  el("figcaption", title, { class: "small" }));
  }
  if (!box.children.length) box.append(el("p", P.no_history, { class: "small" }));
}

function accuracy(data) {
  const points = data.accuracy;
  $("accuracy-recent").textContent = data.points_lost_recent === null ? P.no_accuracy
    : fill(P.accuracy_recent, { n: Math.min(points.length, data.recent_games), points: num(data.points_lost_recent) });
  const box = $("accuracy-chart");
  box.replaceChildren();
  if (!points.length) return;
  box.append(lineChart(points.map((a) => ({ y: a.points_lost, note: `${day(a.finished_at)}: ${num(a.points_lost)}` })),
                       { width: box.clientWidth, label: P.accuracy_chart_label, format: (v) => num(v),
                         first: day(points[0].finished_at), last: day(points.at(-1).finished_at) }));
}

function games(data) {
  const body = $("games");
  body.replaceChildren(...data.games.map((g) => {
    const tr = el("tr");
    const rules = el("th", g.title, { scope: "row" });
    rules.append(el("br"), el("a", P.replay, { href: g.replay_url, class: "small" }));
    tr.append(el("td", day(g.finished_at)), rules, el("td", `${g.total} (${g.place}/${g.players})`),
              el("td", g.points_lost === null ? "–" : num(g.points_lost)));
    return tr;
  }));
  if (!data.games.length) {
    const tr = el("tr");
    tr.append(el("td", P.no_games, { colspan: "4" }));
    body.append(tr);
  }
  const bests = $("bests");
  bests.replaceChildren(...data.bests.map((b) => {
    const tr = el("tr");
    tr.append(el("th", b.title, { scope: "row" }), el("td", String(b.best)), el("td", String(b.games)));
    return tr;
  }));
  if (!data.bests.length) {
    const tr = el("tr");
    tr.append(el("td", P.no_games, { colspan: "3" }));
    bests.append(tr);
  }
}

function daily(data) {
  $("streak").textContent = fill(P.streak, { n: data.daily.streak });
  const played = new Map();
  for (const d of data.daily.days) played.set(d.date, [...(played.get(d.date) || []), d]);
  const today = new Date().toISOString().slice(0, 10);
  const days = calendarDays(today, 12);
  const count = days.filter((d) => played.has(d)).length;
  const grid = el("div", "", { class: "calendar", role: "img", "aria-label": `${P.daily_days}: ${count}` });
  for (const d of days) {
    const attempts = played.get(d) || [];
    const note = [day(`${d}T00:00:00Z`), ...attempts.map((a) => `${a.rules} ${a.total ?? ""}`)].join(" · ");
    grid.append(el("span", "", { class: attempts.length ? "day played" : "day", title: note, "data-day": d }));
  }
  $("calendar").replaceChildren(grid);
}

async function load() {
  const response = await fetch(`/api/players/${encodeURIComponent(NAME)}/history?lang=${lang}`);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("profile").hidden = true;
    throw new Error(data.error?.message || String(response.status));
  }
  $("name").textContent = data.name;
  document.title = `${data.name} · Yatzy`;
  ratings(data);
  history(data);
  accuracy(data);
  games(data);
  daily(data);
}

load().catch((error) => { $("error").textContent = error.message || T.unreachable || String(error); });
