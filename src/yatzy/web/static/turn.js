// Whose turn, outside the page: the tab's title and icon say "your turn" while it is this
// seat's, and, when the person asked for it (a click, which the browser's permission
// needs), a system notification comes while the page is hidden.
import { $ } from "./common.js";

const baseTitle = document.title;
const NOTIFY_KEY = "yatzy.notify";
let wasMine = false;

function notifyWanted() {
  return "Notification" in window && Notification.permission === "granted"
    && localStorage.getItem(NOTIFY_KEY) === "1";
}

// Show in the title and icon whether it is this seat's turn; ``body`` is what a
// notification says (the last move) when the turn has just come and the page is hidden.
export function showTurn(mine, title, body) {
  document.title = mine ? `● ${title} — ${baseTitle}` : baseTitle;
  $("favicon").href = mine ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  if (mine && !wasMine && document.hidden && notifyWanted()) {
    const note = new Notification(`${title} — ${baseTitle}`, { body, tag: "yatzy-turn", icon: "/static/favicon-turn.svg" });
    note.addEventListener("click", () => { window.focus(); note.close(); });
  }
  wasMine = mine;
}

// The button that turns the notifications on and off (shown where the browser has them).
export function notifyButton(button) {
  if (!("Notification" in window) || Notification.permission === "denied") return;
  button.hidden = false;
  const draw = () => button.setAttribute("aria-pressed", String(notifyWanted()));
  button.addEventListener("click", async () => {
    if (notifyWanted()) {
      localStorage.setItem(NOTIFY_KEY, "0");
    } else {
      const answer = await Notification.requestPermission();
      localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "1" : "0");
      if (answer === "denied") button.hidden = true;
    }
    draw();
  });
  draw();
}
