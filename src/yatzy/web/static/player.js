// The browser's player key: random, kept on this device, no password. It makes "my
// games" and "my best" follow this browser.
export function playerKey() {
  let key = localStorage.getItem("yatzy.player");
  if (!key || !/^[A-Za-z0-9_-]{22,64}$/.test(key)) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem("yatzy.player", key);
  }
  return key;
}
