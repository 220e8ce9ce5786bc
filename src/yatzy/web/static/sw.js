// The service worker (served as /sw.js, for the whole site): it keeps the app's shell —
// the style sheet, the scripts, the icons and the offline page — so that the game starts
// from a phone's home screen and says clearly when the server is out of reach. It never
// keeps an API answer, a game's state or a page: those always come from the server.
const CACHE = "yatzy-shell-5";
const SHELL = [
  "/offline",
  "/static/app.css",
  "/static/common.js",
  "/static/connection.js",
  "/static/daily.js",
  "/static/devices.js",
  "/static/favicon.svg",
  "/static/favicon-turn.svg",
  "/static/game.js",
  "/static/history.js",
  "/static/home.js",
  "/static/icon-192.png",
  "/static/icon-512.png",
  "/static/icon.svg",
  "/static/install.js",
  "/static/lobby.js",
  "/static/options.js",
  "/static/player.js",
  "/static/quickmatch.js",
  "/static/render.js",
  "/static/sound.js",
  "/static/store.js",
  "/static/turn.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page: from the server; when it cannot be reached, the offline page.
    event.respondWith(fetch(request).catch(() => caches.match("/offline")));
  } else if (url.pathname.startsWith("/static/")) {
    // The shell: the server's newest when it answers (and kept), else the copy kept.
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    }).catch(() => caches.match(request).then((kept) => kept || Response.error())));
  }
  // Anything else (the API, the websocket, the documentation) goes to the server as it is.
});
