// The home page: set up a game, create it (common.js keeps the invite links on this
// device), go play.
import { fill, pageData, startGame } from "./common.js";
import { chosenOptions, showOptions } from "./options.js";
import { playerKey } from "./player.js";

const form = document.getElementById("new-game");
const seats = document.getElementById("seats");
const texts = pageData("texts");

function addRow(templateId, name) {
  const row = document.getElementById(templateId).content.firstElementChild.cloneNode(true);
  if (name !== undefined) row.querySelector("input").value = name;
  row.querySelector(".remove").addEventListener("click", () => { row.remove(); checkSeats(); });
  seats.append(row);
  checkSeats();
  return row;
}

// A game needs a seat: without one the form says so and is not sent. Each remove button
// names its seat by its number in the list.
function checkSeats() {
  [...seats.children].forEach((row, i) => row.querySelector(".remove").setAttribute("aria-label", fill(texts.remove_seat, { n: i + 1 })));
  const none = seats.childElementCount === 0;
  document.getElementById("one-device-row").hidden = seats.querySelectorAll("input[name=name]").length < 2;
  const error = document.getElementById("form-error");
  if (none) error.textContent = texts.no_seat;
  else if (error.textContent === texts.no_seat) error.textContent = "";
  document.getElementById("start").disabled = none;
  return !none;
}

function showRules() {
  const rules = showOptions(form);
  // Each computer offers the levels that play these rules (as the server says).
  for (const select of seats.querySelectorAll("select[name=bot]")) {
    for (const option of select.options) {
      option.disabled = option.hidden = !option.dataset.plays.split(" ").includes(rules);
    }
    if (select.selectedOptions[0]?.disabled) {
      select.value = [...select.options].find((option) => !option.disabled)?.value ?? "";
    }
  }
}

document.getElementById("add-person").addEventListener("click", () => addRow("person-row").querySelector("input").focus());
document.getElementById("add-computer").addEventListener("click", () => { addRow("computer-row"); showRules(); });
for (const radio of form.querySelectorAll("input[name=rules]")) radio.addEventListener("change", showRules);
addRow("person-row", localStorage.getItem("yatzy.name") || "");
showRules();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!checkSeats()) return;
  const error = document.getElementById("form-error");
  error.textContent = "";
  const rules = form.elements.rules.value;
  const options = chosenOptions(form, rules);
  const seatList = [...seats.children].map((li) => {
    const bot = li.querySelector("select");
    return bot ? { bot: bot.value } : { name: li.querySelector("input").value.trim() };
  });
  const body = { rules, options, seats: seatList, dice: form.elements.dice.value,
                 first_player: form.elements.first_player.value, hints: form.elements.hints.checked };
  const button = document.getElementById("start");
  button.disabled = true;
  playerKey();
  const passAndPlay = !document.getElementById("one-device-row").hidden && form.elements.one_device.checked;
  error.textContent = await startGame(body, { lang: document.documentElement.lang, unreachable: texts.unreachable, passAndPlay });
  button.disabled = false;
});
