// Every page: the service worker that keeps the app's shell (sw.js), where the browser
// allows one (a secure origin: HTTPS, or this machine).
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});  // the app works without it
}
