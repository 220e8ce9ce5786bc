// Charts the pages draw themselves, as SVG (no library): a line through a series of
// points, with an optional band around it (a rating's uncertainty), and a calendar of
// days. The scales are plain functions, tested under node (tests/js/chart.test.js).

const SVG = "http://www.w3.org/2000/svg";

// The range a chart of ``values`` shows: a little wider than the values, never empty.
export function bounds(values) {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const pad = (hi - lo) * 0.08;
  return [lo - pad, hi + pad];
}

// Where point ``i`` of ``n`` goes across ``[left, right]`` (one point: the middle).
export function xAt(i, n, left, right) {
  return n < 2 ? (left + right) / 2 : left + (i * (right - left)) / (n - 1);
}

// Where value ``v`` goes down ``[top, bottom]`` for the range ``[lo, hi]`` (hi at the top).
export function yAt(v, lo, hi, top, bottom) {
  return top + ((hi - v) * (bottom - top)) / (hi - lo);
}

function node(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

const r1 = (v) => Math.round(v * 10) / 10;

// A line chart of ``points`` ({ y, lo?, hi?, note }), ``label`` its accessible name,
// ``format`` how a value is written, ``first`` and ``last`` the texts under its ends.
// ``width``: the width it is shown at (its texts keep their size: one unit, one pixel).
export function lineChart(points, { label, format, first = "", last = "", width = 640 }) {
  width = Math.max(260, Math.min(1200, Math.round(width) || 640));
  const height = 200;
  const [left, right, top, bottom] = [56, width - 12, 12, height - 28];
  const values = points.flatMap((p) => [p.y, p.lo ?? p.y, p.hi ?? p.y]);
  const [lo, hi] = bounds(values);
  const x = (i) => r1(xAt(i, points.length, left, right));
  const y = (v) => r1(yAt(v, lo, hi, top, bottom));
  const root = node("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label,
                             class: "chart", preserveAspectRatio: "xMidYMid meet" });
  root.append(node("title", {}, label));
  for (const v of [lo + (hi - lo) * 0.1, (lo + hi) / 2, hi - (hi - lo) * 0.1]) {
    root.append(node("line", { x1: left, x2: right, y1: y(v), y2: y(v), class: "grid" }),
                node("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, format(v)));
  }
  if (points.some((p) => p.lo !== undefined)) {
    const upper = points.map((p, i) => `${x(i)},${y(p.hi)}`);
    const lower = points.map((p, i) => `${x(i)},${y(p.lo)}`).reverse();
    root.append(node("polygon", { points: [...upper, ...lower].join(" "), class: "band" }));
  }
  root.append(node("polyline", { points: points.map((p, i) => `${x(i)},${y(p.y)}`).join(" "),
                                 class: "line" }));
  points.forEach((p, i) => {
    const dot = node("circle", { cx: x(i), cy: y(p.y), r: 4, class: "dot" });
    dot.append(node("title", {}, p.note));
    root.append(dot);
  });
  root.append(node("text", { x: left, y: height - 8, class: "axis" }, first),
              node("text", { x: right, y: height - 8, "text-anchor": "end", class: "axis" }, last));
  return root;
}

// The ISO days (YYYY-MM-DD, UTC) of the ``weeks`` whole weeks up to ``today``, Monday
// first, in columns of seven.
export function calendarDays(today, weeks) {
  const end = new Date(`${today}T00:00:00Z`);
  const monday = (end.getUTCDay() + 6) % 7;
  const start = new Date(end.getTime() - ((weeks - 1) * 7 + monday) * 86400000);
  const days = [];
  for (let d = start; d <= end; d = new Date(d.getTime() + 86400000)) days.push(d.toISOString().slice(0, 10));
  return days;
}
