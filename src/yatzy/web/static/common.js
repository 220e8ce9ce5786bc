// What every page's script shares: an element by id, the page's data, a text with its
// placeholders filled in, a new element.

export const $ = (id) => document.getElementById(id);

// The JSON a page carries in a <script type="application/json" id=…> element.
export function pageData(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

// "{player} starts." with { player: "Ann" }: "Ann starts."; a placeholder not given stays.
export function fill(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// A new element with its text (if given) and attributes.
export function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
