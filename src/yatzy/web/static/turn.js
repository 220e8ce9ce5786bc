// Whose turn, outside the page: the tab's title and icon say "your turn" while it is this
// seat's, and, when the person asked for it (a click, which the browser's permission
// needs), a system notification comes while the page is hidden and a chime sounds.
import { $ } from "./common.js";
import { chime, SOUND_KEY, soundWanted, turnCame } from "./sound.js";

const baseTitle = document.title;
const NOTIFY_KEY = "yatzy.notify";
let wasMine = null;   // null until the first state
let audio = null;     // the AudioContext, made on the person's first click or key

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
  if (turnCame(wasMine, mine) && soundWanted(localStorage)) playChime();
  wasMine = mine;
}

function audioContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
  return audio;
}

// The chime, now. A browser lets a page's sound start only after a click or a key on
// it: the context is made (and woken) then, see soundButton.
export function playChime() {
  const context = audioContext();
  if (!context) return;
  if (context.state === "suspended") context.resume().catch(() => {});
  chime(context);
}

// The button that turns the chime on and off (where the browser has Web Audio); the
// choice is remembered in localStorage, off by default. Turning it on plays the chime
// once, so the person hears what to listen for.
export function soundButton(button) {
  if (!(window.AudioContext || window.webkitAudioContext)) return;
  button.hidden = false;
  const draw = () => button.setAttribute("aria-pressed", String(soundWanted(localStorage)));
  button.addEventListener("click", () => {
    const on = !soundWanted(localStorage);
    localStorage.setItem(SOUND_KEY, on ? "1" : "0");
    if (on) playChime();
    draw();
  });
  // A page opened with the sound on may play it only once the person has touched it.
  const wake = () => {
    if (soundWanted(localStorage)) audioContext()?.resume().catch(() => {});
  };
  document.addEventListener("pointerdown", wake, { once: true });
  document.addEventListener("keydown", wake, { once: true });
  draw();
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
