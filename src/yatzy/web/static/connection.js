// The game page's connection: the seat's token kept on this device, the websocket that
// brings every state (it reconnects), and the requests to the game's JSON API.

// The seat's token comes in the link's fragment (never sent to the server) and stays on
// this device, so a reload or a reopened tab is the same seat. A browser may hold several
// seats of a game (the links of two people opened on one device): it keeps each seat's
// token by name, plays the one chosen last (or the one of ?seat=), and lets the person
// switch.
export function seats(gameId) {
  const seatKey = `yatzy.seat.${gameId}`;
  const seatsKey = `yatzy.seats.${gameId}`;
  const held = () => JSON.parse(localStorage.getItem(seatsKey) || "{}");
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  const asked = held()[new URLSearchParams(location.search).get("seat")];
  if (fromHash || asked) localStorage.setItem(seatKey, fromHash || asked);
  const token = fromHash || asked || localStorage.getItem(seatKey);
  return {
    token,
    // The other seats this browser holds: [name, token] pairs.
    others: (me) => Object.entries(held()).filter(([name]) => name !== me),
    keep(name) {
      const kept = Object.fromEntries(Object.entries(held()).filter(([n, t]) => n !== name && t !== token));
      kept[name] = token;
      localStorage.setItem(seatsKey, JSON.stringify(kept));
    },
    forget() {
      localStorage.removeItem(seatKey);
      const kept = Object.fromEntries(Object.entries(held()).filter(([, t]) => t !== token));
      localStorage.setItem(seatsKey, JSON.stringify(kept));
    },
    choose(seatToken) { localStorage.setItem(seatKey, seatToken); },
    // Every seat this browser holds: {name: token}.
    held,
    // Pass and play: this browser plays every seat it holds, whichever is to move.
    passAndPlay: () => localStorage.getItem(`yatzy.passplay.${gameId}`) === "1",
  };
}

// The game's websocket: every message goes to onMessage; a lost connection is retried
// (ever more slowly, up to 16 s) unless the server refused it for good.
export function openSocket({ gameId, lang, token, onMessage, onOpen, onLost }) {
  let retry = 0;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = new URLSearchParams({ lang });
    if (token) query.set("token", token);
    const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}?${query}`);
    socket.addEventListener("open", () => { retry = 0; onOpen(); });
    socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      if (event.code === 4404 || event.code === 4403) return;
      onLost();
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    });
  };
  connect();
}

// A request to the game's API with the seat's token (``token()``: the seat played now). A
// request that gets no answer (the server is down, the network gone) is an answer too:
// status 0, with the message given.
export function apiClient({ gameId, lang, token, unreachable }) {
  return async function api(path, options = {}, query = "") {
    const headers = { "Content-Type": "application/json" };
    if (token()) headers.Authorization = `Bearer ${token()}`;
    let response;
    try {
      response = await fetch(`/api/games/${gameId}${path}?lang=${lang}${query}`, { headers, ...options });
    } catch {
      return { ok: false, status: 0, data: { error: { message: unreachable } } };
    }
    const data = await response.json().catch(() => ({}));
    return { ok: response.ok, status: response.status, data };
  };
}
