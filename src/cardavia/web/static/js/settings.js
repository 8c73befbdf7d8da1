// The page's visual settings: contrast, grain, colour temperature (50% by default), deck,
// four-colour suits, reduced motion, card confirmation. Kept in localStorage and applied on
// every page through custom properties and data attributes on <html>; the table listens to
// the "cardavia:settings" event to redraw when a setting changes.

import { mayNotify, permissionKnown, wireNotifySetting } from "./notify.js";
import { wirePushSetting } from "./push.js";
import { browserZone } from "./zone.js";

const KEY = "cardavia.settings";

export const DEFAULTS = Object.freeze({
  contrast: 50,
  grain: 50,
  temperature: 50,
  deck: "",            // "" = the deck of the rules (Spanish for maghreb), else french|spanish
  fourColour: false,
  reducedMotion: null, // null = follow the system (prefers-reduced-motion)
  confirm: true,
  pace: null,          // ms between the AI's moves; null = by aiPace (tests set 0)
  aiPace: "normal",    // slow | normal | fast: how fast the computer players' moves are shown
  showPoints: false,   // the card points each team has won so far, during play
  autoLast: false,     // play South's last card by itself when it is the only one
  sounds: false,       // short tones: a card played, a trick won, South's turn
  notify: false,       // a system notification and a tone when it is my turn and the page is hidden
  notifyTournaments: true, // told (as by `notify`) when a tournament I entered is about to close
  watchable: true,     // others may watch my quick-play games (the lobby's "Watch")
  friendsSeeStatistics: false, // my friends may read my statistics (their friends page's link)
  timeZone: /** @type {string} */ (""), // this browser's time zone (zone.js), kept for the pages' times
});

export function loadSettings() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    stored = {};
  }
  const settings = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) {
    if (key in stored) settings[key] = stored[key];
  }
  for (const key of ["contrast", "grain", "temperature"]) {
    const value = Number(settings[key]);
    settings[key] = Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 50;
  }
  if (!["", "french", "spanish"].includes(settings.deck)) settings.deck = "";
  if (!["slow", "normal", "fast"].includes(settings.aiPace)) settings.aiPace = "normal";
  settings.timeZone = browserZone() || (typeof settings.timeZone === "string" ? settings.timeZone : "");
  return settings;
}

export function saveSettings(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // private browsing: the settings last for the page only
  }
}

export function prefersReducedMotion(settings = loadSettings()) {
  if (settings.reducedMotion === true || settings.reducedMotion === false) {
    return settings.reducedMotion;
  }
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** The colour matrix of a temperature: 50 is neutral, 0 cool (blue), 100 warm (amber). */
export function temperatureMatrix(temperature) {
  const t = (temperature - 50) / 50; // -1 … 1
  const r = 1 + 0.16 * t;
  const g = 1 + 0.03 * t;
  const b = 1 - 0.22 * t;
  return `${r.toFixed(3)} 0 0 0 0  0 ${g.toFixed(3)} 0 0 0  0 0 ${b.toFixed(3)} 0 0  0 0 0 1 0`;
}

/** The suits' colours: red and black, or four colours (diamonds blue, clubs green). */
export function suitPalette(fourColour) {
  return fourColour
    ? { S: "#1b1b1b", H: "#c8102e", D: "#0b3fb0", C: "#3c7c5a" }
    : { S: "#1b1b1b", H: "#c8102e", D: "#c8102e", C: "#1b1b1b" };
}

/** The colour to paint so that, once through the page's contrast and temperature filters,
 * it shows as close to `hex` as the filters allow: at the coldest temperature and the lowest
 * contrast hearts stay red, not purple. */
export function compensate(hex, contrast, temperature) {
  const diagonal = temperatureMatrix(temperature).split(/\s+/).map(Number);
  const gains = [diagonal[0], diagonal[6], diagonal[12]];
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const painted = channels.map((target, i) => {
    const beforeTemperature = Math.min(1, target / gains[i]);
    const beforeContrast = (beforeTemperature - 0.5) / contrast + 0.5;
    return Math.round(Math.min(1, Math.max(0, beforeContrast)) * 255);
  });
  return `#${painted.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

export function applySettings(settings = loadSettings()) {
  const root = document.documentElement;
  const contrast = 0.5 + settings.contrast / 100; // 50% → 1
  root.style.setProperty("--contrast", contrast.toFixed(3));
  root.style.setProperty("--grain", (settings.grain / 100).toFixed(3));
  // Grain: none at 0%, the usual light texture at 50%, a strong one at 100%.
  root.style.setProperty("--grain-opacity", (0.5 * (settings.grain / 100) ** 2.18).toFixed(3));
  const palette = suitPalette(settings.fourColour);
  for (const [suit, colour] of Object.entries(palette)) {
    root.style.setProperty(`--suit-${suit}`, compensate(colour, contrast, settings.temperature));
  }
  root.style.setProperty("--temperature", (settings.temperature / 100).toFixed(3));
  root.style.setProperty("--outline-extra", `${Math.max(0, (settings.contrast - 50) / 25)}px`);
  const matrix = document.getElementById("cv-temperature-matrix");
  if (matrix) matrix.setAttribute("values", temperatureMatrix(settings.temperature));
  root.dataset.contrast = String(settings.contrast);
  root.dataset.grain = String(settings.grain);
  root.dataset.temperature = String(settings.temperature);
  root.dataset.fourColour = settings.fourColour ? "on" : "off";
  root.dataset.reducedMotion = prefersReducedMotion(settings) ? "on" : "off";
  root.dataset.confirm = settings.confirm ? "on" : "off";
  if (settings.deck) root.dataset.deck = settings.deck;
  else delete root.dataset.deck;
  document.dispatchEvent(new CustomEvent("cardavia:settings", { detail: settings }));
}

function percent(value) {
  return `${Math.round(value)}%`;
}

/** Wire the settings panel of base.html (when the page has one). */
function wirePanel() {
  const panel = document.getElementById("settings-panel");
  if (!panel) return;
  // Nothing to send: Enter in a field changes nothing else (no inline handler, for the CSP).
  panel.querySelector("form")?.addEventListener("submit", (event) => event.preventDefault());
  const settings = loadSettings();
  const update = (patch) => {
    // From what is kept now: another tab, or the player's settings from the server
    // (player.js), may have changed it since the panel was filled.
    Object.assign(settings, loadSettings(), patch);
    saveSettings(settings);
    applySettings(settings);
  };

  for (const key of ["contrast", "grain", "temperature"]) {
    const input = /** @type {HTMLInputElement} */ (panel.querySelector(`[name="${key}"]`));
    const output = panel.querySelector(`output[for="set-${key}"]`);
    if (!input) continue;
    input.value = String(settings[key]);
    if (output) output.textContent = percent(settings[key]);
    input.setAttribute("aria-valuetext", percent(settings[key]));
    input.addEventListener("input", () => {
      const value = Number(input.value);
      if (output) output.textContent = percent(value);
      input.setAttribute("aria-valuetext", percent(value));
      update({ [key]: value });
    });
  }

  const deck = /** @type {HTMLSelectElement} */ (panel.querySelector('[name="deck"]'));
  if (deck) {
    deck.value = settings.deck;
    deck.addEventListener("change", () => update({ deck: deck.value }));
  }
  const aiPace = /** @type {HTMLSelectElement} */ (panel.querySelector('[name="aiPace"]'));
  if (aiPace) {
    aiPace.value = settings.aiPace;
    describePace(aiPace);
    aiPace.addEventListener("change", () => {
      update({ aiPace: aiPace.value });
      describePace(aiPace);
    });
  }
  /** @type {Record<string, HTMLInputElement>} */
  const boxes = {
    fourColour: panel.querySelector('[name="fourColour"]'),
    reducedMotion: panel.querySelector('[name="reducedMotion"]'),
    confirm: panel.querySelector('[name="confirm"]'),
    showPoints: panel.querySelector('[name="showPoints"]'),
    autoLast: panel.querySelector('[name="autoLast"]'),
    sounds: panel.querySelector('[name="sounds"]'),
    watchable: panel.querySelector('[name="watchable"]'),
    friendsSeeStatistics: panel.querySelector('[name="friendsSeeStatistics"]'),
    notifyTournaments: panel.querySelector('[name="notifyTournaments"]'),
  };
  if (boxes.fourColour) boxes.fourColour.checked = settings.fourColour;
  if (boxes.reducedMotion) boxes.reducedMotion.checked = prefersReducedMotion(settings);
  if (boxes.confirm) boxes.confirm.checked = settings.confirm;
  if (boxes.showPoints) boxes.showPoints.checked = settings.showPoints;
  if (boxes.autoLast) boxes.autoLast.checked = settings.autoLast;
  if (boxes.sounds) boxes.sounds.checked = settings.sounds;
  if (boxes.watchable) boxes.watchable.checked = settings.watchable;
  if (boxes.friendsSeeStatistics) {
    boxes.friendsSeeStatistics.checked = settings.friendsSeeStatistics;
  }
  if (boxes.notifyTournaments) boxes.notifyTournaments.checked = settings.notifyTournaments;
  for (const [key, box] of Object.entries(boxes)) {
    box?.addEventListener("change", () => update({ [key]: box.checked }));
  }
  // On only where this browser lets the site notify (the setting follows the player to
  // browsers that may not have said yes).
  const notify = /** @type {HTMLInputElement} */ (panel.querySelector('[name="notify"]'));
  if (notify) {
    notify.checked = mayNotify(settings);
    permissionKnown().then(() => {
      notify.checked = mayNotify(loadSettings());
    });
    wireNotifySetting(notify, update);
  }
  const push = /** @type {HTMLInputElement} */ (panel.querySelector('[name="push"]'));
  if (push) wirePushSetting(push).catch(() => undefined);

  const language = /** @type {HTMLSelectElement} */ (panel.querySelector('[name="language"]'));
  language?.addEventListener("change", () => {
    if (language.value) window.location.assign(language.value);
  });

  panel.querySelector('[data-action="reset-settings"]')?.addEventListener("click", () => {
    const fresh = { ...DEFAULTS, pace: settings.pace };
    Object.assign(settings, fresh);
    saveSettings(settings);
    for (const key of ["contrast", "grain", "temperature"]) {
      const input = /** @type {HTMLInputElement} */ (panel.querySelector(`[name="${key}"]`));
      const output = panel.querySelector(`output[for="set-${key}"]`);
      if (input) input.value = String(settings[key]);
      if (output) output.textContent = percent(settings[key]);
    }
    if (deck) deck.value = "";
    if (aiPace) {
      aiPace.value = settings.aiPace;
      describePace(aiPace);
    }
    if (boxes.showPoints) boxes.showPoints.checked = settings.showPoints;
    if (boxes.autoLast) boxes.autoLast.checked = settings.autoLast;
    if (boxes.sounds) boxes.sounds.checked = settings.sounds;
    if (boxes.watchable) boxes.watchable.checked = settings.watchable;
    if (boxes.friendsSeeStatistics) {
      boxes.friendsSeeStatistics.checked = settings.friendsSeeStatistics;
    }
    if (boxes.notifyTournaments) boxes.notifyTournaments.checked = settings.notifyTournaments;
    if (boxes.fourColour) boxes.fourColour.checked = false;
    if (boxes.reducedMotion) boxes.reducedMotion.checked = prefersReducedMotion(settings);
    if (boxes.confirm) boxes.confirm.checked = true;
    if (notify) notify.checked = false;
    applySettings(settings);
  });
}

/** Under the pace menu, what the chosen pace does (its option's words). */
function describePace(select) {
  const help = document.getElementById(select.getAttribute("aria-describedby") ?? "");
  const chosen = select.selectedOptions[0];
  if (help && chosen?.dataset.help) help.textContent = chosen.dataset.help;
}

/** Remember the language the reader chose, for their next visit. */
function rememberLanguage() {
  const lang = document.documentElement.lang;
  if (!lang) return;
  try {
    localStorage.setItem("cardavia.lang", lang);
  } catch {
    // ignore
  }
  // A cookie too, so that a server may use it on "/" (max one year).
  document.cookie = `cardavia_lang=${encodeURIComponent(lang)}; path=/; max-age=31536000; samesite=lax`;
}

applySettings();
rememberLanguage();
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => {
    applySettings();
    wirePanel();
  });
} else {
  wirePanel();
}
window.addEventListener("storage", (event) => {
  if (event.key === KEY) applySettings();
});

/** Keep `settings` (the player's, from another browser) and show them: applied to the page,
 * and the panel's fields filled again. */
export function replaceSettings(settings) {
  saveSettings(settings);
  applySettings(loadSettings());
  const panel = document.getElementById("settings-panel");
  if (panel) fillPanel(panel, loadSettings());
}

/** The panel's fields showing `settings`. */
function fillPanel(panel, settings) {
  for (const key of ["contrast", "grain", "temperature"]) {
    const input = panel.querySelector(`[name="${key}"]`);
    const output = panel.querySelector(`output[for="set-${key}"]`);
    if (input) {
      input.value = String(settings[key]);
      input.setAttribute("aria-valuetext", percent(settings[key]));
    }
    if (output) output.textContent = percent(settings[key]);
  }
  const deck = panel.querySelector('[name="deck"]');
  if (deck) deck.value = settings.deck;
  const aiPace = panel.querySelector('[name="aiPace"]');
  if (aiPace) {
    aiPace.value = settings.aiPace;
    describePace(aiPace);
  }
  const flags = ["fourColour", "confirm", "showPoints", "autoLast", "sounds", "watchable"];
  for (const key of [...flags, "friendsSeeStatistics", "notifyTournaments"]) {
    const box = panel.querySelector(`[name="${key}"]`);
    if (box) box.checked = Boolean(settings[key]);
  }
  const motion = panel.querySelector('[name="reducedMotion"]');
  if (motion) motion.checked = prefersReducedMotion(settings);
  const notify = panel.querySelector('[name="notify"]');
  if (notify) notify.checked = mayNotify(settings);
}
