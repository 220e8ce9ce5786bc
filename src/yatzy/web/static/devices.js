// The devices page: link another device with a code (ask for one here, or give the one
// another device shows), and passkeys (add one; sign in with one on a new device).
// Every decision is the server's; this script asks and shows.
import { $, el, fill, pageData } from "./common.js";
import { playerKey } from "./player.js";

const T = pageData("device-texts");
const lang = document.documentElement.lang;

// A request to the API with this browser's key: the answer's JSON, or an Error with
// the server's message (in the page's language).
async function api(method, path, body) {
  const headers = { "X-Player-Key": playerKey() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(`${path}?lang=${lang}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new Error(T.unreachable);
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error?.message || String(response.status));
  return data;
}

function show(id, text) {
  $(id).textContent = text;
}

// --- Who this device plays as -------------------------------------------------------

let myName = null;

// ``warn``: say that linking would leave this device's own player (not once it is
// linked: then it plays as the player it chose).
async function loadMe(warn = true) {
  const me = await api("GET", "/api/me");
  myName = me.name;
  show("me", myName ? fill(T.you_are, { name: myName }) : T.no_name);
  const warning = $("replace-warning");
  warning.hidden = !(warn && myName);
  warning.textContent = warn && myName ? fill(T.replace_warning, { name: myName }) : "";
}

// --- Link codes ---------------------------------------------------------------------

let qrUrl = null;

async function newCode() {
  show("error", "");
  try {
    const found = await api("POST", "/api/me/link-codes");
    show("code", found.code);
    const until = new Date(found.expires_at).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    show("code-expires", fill(T.expires, { time: until }));
    if (qrUrl) URL.revokeObjectURL(qrUrl);
    qrUrl = URL.createObjectURL(new Blob([found.qr_svg], { type: "image/svg+xml" }));
    $("code-qr").src = qrUrl;
    $("code-box").hidden = false;
  } catch (error) {
    show("error", error.message);
  }
}

async function link(code) {
  show("link-status", "");
  show("link-error", "");
  try {
    const linked = await api("POST", "/api/me/link", { code });
    show("link-status", linked.name ? fill(T.linked, { name: linked.name }) : T.linked_unnamed);
    $("link-code").value = "";
    await loadMe(false);
    await loadPasskeys();
  } catch (error) {
    show("link-error", error.message);
  }
}

// --- Passkeys: WebAuthn's JSON form to the browser's binary form and back --------------

const fromB64url = (text) => {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bytes = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(bytes, (c) => c.charCodeAt(0)).buffer;
};

const toB64url = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function creationOptions(options) {
  return {
    ...options,
    challenge: fromB64url(options.challenge),
    user: { ...options.user, id: fromB64url(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: fromB64url(c.id) })),
  };
}

function requestOptions(options) {
  return {
    ...options,
    challenge: fromB64url(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: fromB64url(c.id) })),
  };
}

function credentialJson(credential) {
  const r = credential.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    response.transports = typeof r.getTransports === "function" ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return {
    id: credential.id, rawId: toB64url(credential.rawId), type: credential.type, response,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

const webauthn = () => Boolean(window.PublicKeyCredential && navigator.credentials);

async function loadPasskeys() {
  const list = $("passkeys");
  let found;
  try {
    found = await api("GET", "/api/me/passkeys");
  } catch (error) {
    show("error", error.message);
    return;
  }
  const date = (iso) => new Date(iso).toLocaleDateString(lang);
  list.replaceChildren(...found.map((p) => {
    const li = el("li");
    let text = fill(T.passkey_line, { date: date(p.created_at) });
    if (p.last_used_at) text += ` · ${fill(T.passkey_used, { date: date(p.last_used_at) })}`;
    const remove = el("button", T.remove, { type: "button", class: "small", "aria-label": `${T.remove}: ${text}` });
    remove.addEventListener("click", async () => {
      try {
        await api("DELETE", `/api/me/passkeys/${encodeURIComponent(p.id)}`);
        await loadPasskeys();
      } catch (error) {
        show("passkey-error", error.message);
      }
    });
    li.append(el("span", text), " ", remove);
    return li;
  }));
  if (!found.length) list.append(el("li", T.no_passkeys));
}

async function addPasskey() {
  show("passkey-status", "");
  show("passkey-error", "");
  if (!webauthn()) return show("passkey-error", T.no_webauthn);
  if (!myName) return show("passkey-error", T.passkey_needs_name);
  try {
    const { options } = await api("POST", "/api/me/passkeys/options");
    let credential;
    try {
      credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
    } catch {
      return show("passkey-status", T.cancelled);
    }
    await api("POST", "/api/me/passkeys", { credential: credentialJson(credential) });
    show("passkey-status", T.passkey_added);
    await loadPasskeys();
  } catch (error) {
    show("passkey-error", error.message);
  }
}

async function signIn() {
  show("passkey-status", "");
  show("passkey-error", "");
  if (!webauthn()) return show("passkey-error", T.no_webauthn);
  try {
    const { options } = await api("POST", "/api/passkeys/sign-in/options");
    let credential;
    try {
      credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
    } catch {
      return show("passkey-status", T.cancelled);
    }
    const player = await api("POST", "/api/passkeys/sign-in", { credential: credentialJson(credential) });
    show("passkey-status", player.name ? fill(T.signed_in, { name: player.name }) : T.linked_unnamed);
    await loadMe(false);
    await loadPasskeys();
  } catch (error) {
    show("passkey-error", error.message);
  }
}

// --- The page -------------------------------------------------------------------------

$("new-code").addEventListener("click", newCode);
$("link-form").addEventListener("submit", (event) => {
  event.preventDefault();
  link($("link-code").value);
});
$("add-passkey").addEventListener("click", addPasskey);
$("sign-in").addEventListener("click", signIn);

// A link from another device's QR code carries the code in its fragment (never sent to
// a server): a device without a name of its own links at once; one with a name shows the
// code, the warning and the button.
async function fromLink() {
  const code = new URLSearchParams(location.hash.slice(1)).get("code");
  if (!code) return;
  history.replaceState(null, "", location.pathname + location.search);
  $("link-code").value = code;
  if (!myName) await link(code);
  else $("link-code").focus();
}

async function start() {
  try {
    await loadMe();
  } catch (error) {
    show("error", error.message);
  }
  await loadPasskeys();
  await fromLink();
  window.addEventListener("hashchange", fromLink);  // a link opened on this page
}

start();
