// The player's settings and language, kept on the server (GET/PUT /api/me) so that they
// follow the player to another tab or browser: on load the kept settings replace this
// browser's (settings.js keeps them in localStorage), and each change of the settings is
// sent, once the hand pauses; a new guest's first page sends this browser's. The player is
// known by an HttpOnly cookie this script never sees; a person who has not played yet
// becomes a guest with their first changed setting.

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

async function ask(method, body) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(ME, options);
  return response.ok ? response.json() : null;
}

function send() {
  timer = null;
  const settings = JSON.stringify(kept(loadSettings()));
  if (settings === sent) return;
  sent = settings;
  ask("PUT", { settings: JSON.parse(settings) }).catch(() => {
    sent = null; // offline: sent with the next change
  });
}

async function start() {
  const lang = document.documentElement.lang;
  const me = await ask("GET").catch(() => null);
  if (me?.player) {
    if (me.settings && Object.keys(me.settings).length) {
      replaceSettings({ ...loadSettings(), ...me.settings });
      sent = JSON.stringify(kept(loadSettings()));
    } else {
      send(); // a new guest: this browser's settings become theirs
    }
    if (lang && me.lang !== lang) ask("PUT", { lang }).catch(() => {});
  }
  document.addEventListener("cardavia:settings", () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(send, PAUSE_MS);
  });
}

start();
