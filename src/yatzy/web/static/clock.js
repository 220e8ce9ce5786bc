// A rated game's clock on the game page: the seconds left to the person to move, counted
// down from the state's deadline. The server decides when the clock runs out (and then
// a computer plays the seat); the page only shows what the state says.
import { $, fill } from "./common.js";

// Whole seconds left until `deadline` (ISO text) at `now` (ms), never below 0 nor above
// the game's clock (a device whose clock is off by more still shows a sensible count).
export function secondsLeft(deadline, moveClock, now) {
  if (!deadline) return null;
  const left = Math.ceil((Date.parse(deadline) - now) / 1000);
  return Math.max(0, Math.min(left, Math.ceil(moveClock ?? left)));
}

// The clock's line: whose clock it is and how much is left.
export function clockText(state, me, seconds, T, named) {
  if (seconds === null) return "";
  if (state.current_player === me) return fill(T.clock_mine, { seconds });
  return fill(T.clock_other, { player: named(state.current_player), seconds });
}

let ticking = null;

// Show the clock of `state` (none: hidden), ticking every quarter second.
export function renderClock(state, me, T, named) {
  const line = $("clock");
  if (!line) return;
  clearInterval(ticking);
  ticking = null;
  const tick = () => {
    const seconds = secondsLeft(state.deadline, state.move_clock, Date.now());
    line.textContent = clockText(state, me, seconds, T, named);
    line.hidden = seconds === null;
    line.classList.toggle("urgent", seconds !== null && seconds <= 10);
  };
  tick();
  if (state.deadline) ticking = setInterval(tick, 250);
}
