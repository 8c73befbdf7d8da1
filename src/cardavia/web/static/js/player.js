// The player's settings and language, kept on the server (GET/PUT /api/me) so that they
// follow the player to another tab or browser, and the player's passkeys (the settings
// panel's last group and the profile's, which also says who the player is: add one, list
// and remove them, sign in with one — the page is loaded again, as the player — and sign
// out): on load the kept settings replace this
// browser's (settings.js keeps them in localStorage), and each change of the settings is
// sent, once the hand pauses; a new guest's first page sends this browser's. The player is
// known by an HttpOnly cookie this script never sees; a person who has not played yet
// becomes a guest with their first changed setting.

import { pluralText } from "./plurals.js";
import { DEFAULTS, loadSettings, replaceSettings } from "./settings.js";

const ME = "/api/me";
const PAUSE_MS = 800;

let sent = null;
let timer = null;

function kept(settings) {
  const chosen = {};
  for (const key of Object.keys(DEFAULTS)) chosen[key] = settings[key];
  return chosen;
}

async function ask(method, body, url = ME) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  return response.ok ? response.json() : null;
}

// A change not yet sent is marked, so that a page opened before it could be sent (a link
// followed within the pause) sends it rather than take the player's older settings.
const UNSENT = "cardavia.settings.unsent";

function unsent(value) {
  try {
    if (value === undefined) return localStorage.getItem(UNSENT) === "1";
    if (value) localStorage.setItem(UNSENT, "1");
    else localStorage.removeItem(UNSENT);
  } catch {
    // private browsing: nothing kept
  }
  return false;
}

function send(keepalive = false) {
  timer = null;
  const settings = JSON.stringify(kept(loadSettings()));
  if (settings === sent) {
    unsent(false);
    return;
  }
  sent = settings;
  /** @type {RequestInit} */
  const options = {
    method: "PUT",
    credentials: "same-origin",
    keepalive,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ settings: JSON.parse(settings) }),
  };
  fetch(ME, options)
    .then((response) => {
      if (response.ok) unsent(false);
    })
    .catch(() => {
      sent = null; // offline: sent with the next change
    });
}

// -- passkeys: WebAuthn's options and answers travel as JSON, their bytes in base64url --

function bytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
}

function text(buffer) {
  const raw = String.fromCharCode(...new Uint8Array(buffer));
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creation(options) {
  const publicKey = { ...options, challenge: bytes(options.challenge) };
  publicKey.user = { ...options.user, id: bytes(options.user.id) };
  publicKey.excludeCredentials = (options.excludeCredentials || []).map((c) => ({ ...c, id: bytes(c.id) }));
  return { publicKey };
}

function request(options) {
  const publicKey = { ...options, challenge: bytes(options.challenge) };
  publicKey.allowCredentials = (options.allowCredentials || []).map((c) => ({ ...c, id: bytes(c.id) }));
  return { publicKey };
}

function answer(credential) {
  const response = {};
  for (const key of ["clientDataJSON", "attestationObject", "authenticatorData", "signature", "userHandle"]) {
    if (credential.response[key]) response[key] = text(credential.response[key]);
  }
  if (credential.response.getTransports) response.transports = credential.response.getTransports();
  return { id: credential.id, rawId: text(credential.rawId), type: credential.type, response, clientExtensionResults: {} };
}

/** Kept across the reload that follows a sign-in (sessionStorage): the page then says it. */
const SIGNED_IN = "cardavia.signedIn";

/** Every passkey panel of the page (the settings', the profile's) and the profile's line on
 * who the player is: one list of passkeys drawn in each, one status said where it was asked. */
function passkeyPanels(me) {
  const panels = /** @type {HTMLElement[]} */ ([...document.querySelectorAll("fieldset.passkeys")]);
  if (!panels.length || !window.PublicKeyCredential || !navigator.credentials) return;
  const lang = document.documentElement.lang || "en";
  // A day in the long form, as every page says it (cardavia.words.times).
  const day = (iso) => new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(new Date(iso));
  const say = (panel, words) => {
    panel.querySelector("[data-passkey-status]").textContent = words;
  };
  const who = document.getElementById("profile-who");
  const sayWho = (passkeys) => {
    if (!who) return;
    who.textContent = passkeys.length
      ? pluralText(JSON.parse(who.dataset.keeper || "{}"), passkeys.length, lang).replace("{count}", String(passkeys.length))
      : who.dataset.guest || "";
  };
  const show = (passkeys) => {
    for (const panel of panels) {
      const list = panel.querySelector(".passkey-list");
      list.replaceChildren();
      for (const passkey of passkeys) list.append(passkeyItem(panel, passkey, day, show));
    }
    sayWho(passkeys);
  };
  const signedIn = (player) => {
    for (const panel of panels) {
      /** @type {HTMLButtonElement} */ (panel.querySelector('[data-action="sign-out"]')).hidden = !player;
    }
  };
  for (const panel of panels) panel.hidden = false;
  signedIn(me?.player);
  if (me?.player) ask("GET", undefined, "/api/passkeys").then((r) => r && show(r.passkeys)).catch(() => {});
  else sayWho([]);
  if (sessionStorage.getItem(SIGNED_IN)) {
    sessionStorage.removeItem(SIGNED_IN);
    say(panels[0], panels[0].dataset.doneSignedIn);
  }
  for (const panel of panels) wirePanel(panel, { say: (words) => say(panel, words), show, signedIn });
}

/** One passkey in a panel's list: its day, and a button that removes it. */
function passkeyItem(panel, passkey, day, show) {
  const item = document.createElement("li");
  const name = document.createElement("span");
  name.textContent = panel.dataset.added.replace("{date}", day(passkey.created_at));
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "secondary";
  remove.textContent = panel.querySelector(".passkey-list").dataset.remove;
  remove.setAttribute("aria-label", panel.dataset.removeLabel.replace("{date}", day(passkey.created_at)));
  remove.addEventListener("click", async () => {
    const response = await fetch(`/api/passkeys/${encodeURIComponent(passkey.id)}`, { method: "DELETE", credentials: "same-origin" });
    if (response.ok) show((await response.json()).passkeys);
    /** @type {HTMLElement} */ (panel.querySelector('[data-action="add-passkey"]')).focus();
  });
  item.append(name, remove);
  return item;
}

/** A panel's three buttons: add a passkey, sign in with one (the page is loaded again, as
 * the player now, and says so), sign out. */
function wirePanel(panel, { say, show, signedIn }) {
  panel.querySelector('[data-action="add-passkey"]').addEventListener("click", async () => {
    say("");
    try {
      const begun = await ask("POST", {}, "/api/passkeys/register/options");
      const credential = await navigator.credentials.create(creation(begun.options));
      const added = await ask("POST", { ceremony: begun.ceremony, credential: answer(credential) }, "/api/passkeys/register");
      if (!added) throw new Error("refused");
      show(added.passkeys);
      signedIn(true);
      say(panel.dataset.doneAdded);
    } catch {
      say(panel.dataset.failed);
    }
  });
  panel.querySelector('[data-action="sign-in"]').addEventListener("click", async () => {
    say("");
    try {
      const begun = await ask("POST", {}, "/api/passkeys/signin/options");
      const credential = await navigator.credentials.get(request(begun.options));
      const player = await ask("POST", { ceremony: begun.ceremony, credential: answer(credential) }, "/api/passkeys/signin");
      if (!player) throw new Error("refused");
      adopt(player);
      // The page the player is on, again, as them: their profile, their games, their home.
      sessionStorage.setItem(SIGNED_IN, "1");
      location.reload();
    } catch {
      say(panel.dataset.failed);
    }
  });
  const signOut = /** @type {HTMLButtonElement} */ (panel.querySelector('[data-action="sign-out"]'));
  signOut.addEventListener("click", async () => {
    await ask("POST", {}, "/api/signout").catch(() => null);
    show([]);
    signedIn(false);
    say(panel.dataset.doneSignedOut);
    /** @type {HTMLElement} */ (panel.querySelector('[data-action="sign-in"]')).focus();
  });
}

/** The player's kept settings replace this browser's. */
function adopt(me) {
  if (me.settings && Object.keys(me.settings).length) {
    replaceSettings({ ...loadSettings(), ...me.settings });
  }
  sent = JSON.stringify(kept(loadSettings()));
}

async function start() {
  const lang = document.documentElement.lang;
  const me = await ask("GET").catch(() => null);
  passkeyPanels(me);
  if (me?.player) {
    // A new guest, or a change this browser has not sent yet: this browser's settings win.
    if (me.settings && Object.keys(me.settings).length && !unsent()) adopt(me);
    else send();
    if (lang && me.lang !== lang) ask("PUT", { lang }).catch(() => {});
  }
  document.addEventListener("cardavia:settings", () => {
    unsent(true);
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(send, PAUSE_MS);
  });
  // Leaving the page within the pause: sent now, the request outliving the page.
  window.addEventListener("pagehide", () => {
    if (timer === null) return;
    clearTimeout(timer);
    send(true);
  });
}

start();
