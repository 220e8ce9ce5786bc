// The sound of "your turn" (off unless the person turns it on): a short rising chime made
// with the Web Audio API, from an oscillator, so no audio file is fetched and the content
// security policy needs nothing more. Pure functions here; turn.js plays it.

//: Where the choice is remembered: "1" on, anything else off.
export const SOUND_KEY = "yatzy.sound";

// True when the person asked for the sound (``storage`` is localStorage, or null where
// the browser gives none).
export function soundWanted(storage) {
  return storage?.getItem(SOUND_KEY) === "1";
}

// True when the turn has just come to this seat: it was not this seat's in the last
// state seen, and is now. ``before`` is null before the first state: opening the page on
// one's own turn is no news.
export function turnCame(before, mine) {
  return before === false && mine === true;
}

// Play the chime on ``context`` (an AudioContext): one sine note, then a fifth above,
// soft, for a little over a third of a second.
export function chime(context) {
  const now = context.currentTime;
  const note = context.createOscillator();
  const volume = context.createGain();
  note.type = "sine";
  note.frequency.setValueAtTime(660, now);
  note.frequency.setValueAtTime(990, now + 0.12);
  volume.gain.setValueAtTime(0.0001, now);
  volume.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
  volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.34);
  note.connect(volume).connect(context.destination);
  note.start(now);
  note.stop(now + 0.36);
}
