// The rules and their options in a form made from the rulesets' description (the home
// page's and the lobby's): the chosen ruleset's options shown, and read back.

// Show the options of the ruleset chosen in ``form`` (its radio buttons named "rules").
export function showOptions(form) {
  const rules = form.elements.rules.value;
  for (const block of form.querySelectorAll("[data-rules]")) block.hidden = block.dataset.rules !== rules;
  return rules;
}

// The options of ``rules`` in ``form``, each field as the rulesets' description made it:
// a number field's text goes as it is when it is no number (the server says what is
// wrong).
export function chosenOptions(form, rules) {
  const options = {};
  const block = form.querySelector(`[data-rules="${CSS.escape(rules)}"]`);
  for (const field of block ? block.querySelectorAll("[data-option]") : []) {
    const kind = field.dataset.kind;
    options[field.dataset.option] = kind === "bool" ? field.checked
      : kind === "int" && field.value.trim() !== "" && !Number.isNaN(field.valueAsNumber) ? field.valueAsNumber
        : field.value;
  }
  return options;
}
