// The daily challenge page: today's challenges, this browser's attempt and its results,
// the leaderboard, the text to share, the streak, and this browser's display name.
import { $, el, fill, pageData } from "./common.js";
import { playerKey } from "./player.js";

const T = pageData("texts");
const TITLES = pageData("titles");
const lang = document.documentElement.lang;

async function call(path, options = {}) {
  const headers = { "X-Player-Key": playerKey(), ...(options.body ? { "Content-Type": "application/json" } : {}) };
  const response = await fetch(path, { ...options, headers });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error?.message || String(response.status));
  return data;
}

function leaderboard(entries) {
  const table = el("table", "", { class: "cards daily-board" });
  const head = el("tr");
  for (const text of [T.place, T.player, T.total, T.points_lost]) head.append(el("th", text, { scope: "col" }));
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const e of entries) {
    const tr = el("tr");
    tr.append(el("td", String(e.rank)), el("td", e.player ?? T.anonymous), el("td", String(e.total)),
              el("td", e.points_lost === null ? "–" : e.points_lost.toLocaleString(lang, { maximumFractionDigits: 1 })));
    table.tBodies[0].append(tr);
  }
  return table;
}

async function play(rules) {
  const created = await call(`/api/daily/${rules}/play?lang=${lang}`, { method: "POST" });
  location.assign(created.seats[0].url.replace("#", `?lang=${lang}#`));
}

function results(section, day, data) {
  const me = data.me;
  if (!me) {
    const button = el("button", T.daily_play, { class: "primary", type: "button", "data-play": day.rules });
    button.addEventListener("click", () => play(day.rules).catch((error) => { $("error").textContent = error.message; }));
    section.append(button);
    return;
  }
  if (me.total === null) {
    section.append(el("a", T.daily_continue, { href: me.play_url, class: "button primary" }));
    return;
  }
  section.append(el("p", fill(T.daily_score, { total: me.total }), { class: "daily-score" }));
  if (me.points_lost !== null) {
    section.append(el("p", fill(T.daily_lost, { points: me.points_lost.toLocaleString(lang, { maximumFractionDigits: 1 }) })));
  }
  if (data.par !== null) section.append(el("p", fill(T.daily_par, { par: data.par })));
  if (me.rank !== null) {
    let line = fill(T.daily_rank, { rank: me.rank, players: me.of });
    if (me.accuracy_rank !== null) line += ` · ${fill(T.daily_accuracy, { rank: me.accuracy_rank })}`;
    section.append(el("p", line));
  }
  const share = `${me.share}\n${me.replay_url}`;
  section.append(el("pre", share, { class: "daily-share" }));
  const copy = el("button", T.daily_share, { type: "button" });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(share);
      copy.textContent = T.copied;
    } catch {
      copy.textContent = T.copy_by_hand;
    }
  });
  section.append(copy, " ", el("a", T.daily_replay, { href: me.replay_url }));
  if (data.entries.length) section.append(leaderboard(data.entries));
}

async function load() {
  const [today, me] = await Promise.all([call("/api/daily"), call(`/api/me?lang=${lang}`)]);
  if (me.name !== null && !$("my-name").value) $("my-name").value = me.name;
  const box = $("challenges");
  let streak = 0;
  const sections = await Promise.all(today.map(async (day) => {
    const data = await call(`/api/daily/${day.rules}/${day.date}?lang=${lang}`);
    streak = Math.max(streak, data.streak ?? 0);
    const section = el("section", "", { class: "card daily", "data-rules": day.rules });
    section.append(el("h2", `${TITLES[day.rules] || day.rules} · ${day.date}`),
                   el("p", fill(T.daily_players, { n: data.players }), { class: "small" }),
                   el("p", fill(T.seed_check, { hash: day.seed_hash }), { class: "small seed-hash" }));
    results(section, day, data);
    return section;
  }));
  box.replaceChildren(...sections);
  $("streak").textContent = fill(T.daily_streak, { n: streak });
}

$("name-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("name-status").textContent = "";
  try {
    const answer = await call("/api/me", { method: "PUT", body: JSON.stringify({ name: $("my-name").value }) });
    $("my-name").value = answer.name;
    $("name-status").textContent = T.saved;
    await load();
  } catch (error) {
    $("name-status").textContent = error.message;
  }
});

load().catch((error) => { $("error").textContent = error.message; });
