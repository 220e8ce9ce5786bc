// The history page: this browser's games and best scores, and the leaderboards.
import { $, el, fill, pageData } from "./common.js";
import { playerKey } from "./player.js";

const T = pageData("texts");
const lang = document.documentElement.lang;
const date = (iso) => new Date(iso).toLocaleDateString(lang);

async function get(path, headers = {}) {
  const response = await fetch(path, { headers });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error?.message || String(response.status));
  return data;
}

async function load() {
  const mine = await get(`/api/me?lang=${lang}`, { "X-Player-Key": playerKey() });
  // One line a game, though this browser may sit in several of its seats.
  const byGame = new Map();
  for (const g of mine.games) byGame.set(g.id, [...(byGame.get(g.id) || []), g]);
  const games = $("my-games");
  games.replaceChildren(...[...byGame.values()].map((seats) => {
    const g = seats[0];
    const li = el("li");
    const href = g.is_over ? `/games/${g.id}/replay?lang=${lang}` : `/games/${g.id}?lang=${lang}`;
    li.append(el("a", `${g.title} · ${(g.names ?? g.players).join(", ")}`, { href }), " ");
    if (g.is_over) {
      for (const seat of seats) {
        const star = seat.winners.includes(seat.player) && seat.players.length > 1 ? " ★" : "";
        li.append(el("span", `${seat.player}: ${seat.total}${star}`, { class: "small score" }), " ");
      }
    } else {
      li.append(el("span", fill(T.round, { round: g.round, rounds: g.rounds }), { class: "small score" }));
      if (seats.length > 1) {
        for (const seat of seats) {
          const to = `/games/${g.id}?lang=${lang}&seat=${encodeURIComponent(seat.player)}`;
          li.append(" ", el("a", fill(T.play_as, { player: seat.player }), { href: to, class: "small score" }));
        }
      }
    }
    return li;
  }));
  if (!mine.games.length) games.append(el("li", T.no_games));
  const bests = $("my-bests");
  bests.replaceChildren(...mine.bests.map((b) => {
    const tr = el("tr");
    tr.append(el("th", b.title, { scope: "row" }), el("td", String(b.best)), el("td", String(b.games)));
    return tr;
  }));
  if (!mine.bests.length) {
    const tr = el("tr");
    tr.append(el("td", T.no_games, { colspan: "3" }));
    bests.append(tr);
  }
  const boards = await get(`/api/leaderboards?lang=${lang}`);
  const box = $("leaderboards");
  box.replaceChildren(...boards.flatMap((board) => {
    const list = el("ol");
    for (const e of board.entries) {
      const li = el("li");
      li.append(el("a", `${e.player}: ${e.total}`, { href: `/games/${e.game_id}/replay?lang=${lang}` }), " ",
                el("span", date(e.finished_at), { class: "small" }));
      list.append(li);
    }
    return [el("h3", board.title), list];
  }));
  if (!boards.length) box.append(el("p", T.no_games));
}

load().catch((error) => { $("error").textContent = error.message; });
