// The connection: the game kept to resume it, the WebSocket (docs/web.md) and its
// reconnection, what the page sends (an action, the next deal, again), a new game and the
// new-game form, and what the page says offline.

import { renderControls } from "./table_controls.js";
import { renderHand } from "./table_hand.js";
import { enqueue, keepFocus } from "./table_messages.js";
import { closeResult } from "./table_result.js";
import { $, GAME_KEY, GIVEN_GAME, page, ROOM, setStatus, shown, state } from "./table_state.js";
import { t } from "./table_words.js";
import * as room from "./room.js";

function loadGame() {
  if (ROOM !== null) return room.loadSeat();
  if (GIVEN_GAME !== null) return GIVEN_GAME;
  try {
    const game = JSON.parse(localStorage.getItem(GAME_KEY) || "null");
    if (game && game.game && game.token) return game;
  } catch {
    // ignore
  }
  return null;
}

function saveGame(game) {
  if (ROOM !== null || GIVEN_GAME !== null) return;
  try {
    if (game) localStorage.setItem(GAME_KEY, JSON.stringify(game));
    else localStorage.removeItem(GAME_KEY);
  } catch {
    // ignore
  }
}

function setConnection(status) {
  const table = $("table");
  table.dataset.connection = status;
  const line = $("connection");
  if (line) line.textContent = status === "offline" ? t("connection_lost") : "";
}

function closeSocket() {
  clearTimeout(state.retryTimer);
  if (state.ws) {
    state.ws.onclose = null;
    state.ws.onmessage = null;
    state.ws.close();
    state.ws = null;
  }
}

export function connect() {
  closeSocket();
  const game = state.game;
  if (!game) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // protocol 2: the views after the first come as changes, what is queued at once in one
  // frame (docs/web.md, "Changes as changes").
  const query = new URLSearchParams({ token: game.token, lang: page.lang, protocol: "2" });
  const path = ROOM ? `rooms/${encodeURIComponent(ROOM)}` : `games/${encodeURIComponent(game.game)}`;
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${path}?${query}`);
  state.ws = ws;
  ws.onopen = () => {
    // The server sends the table's state as the connection opens: nothing to ask.
    state.retry = 0;
    setConnection("online");
  };
  ws.onmessage = (event) => {
    let data;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    for (const message of Array.isArray(data) ? data : [data]) receive(message);
  };
  ws.onclose = (event) => {
    if (state.ws !== ws) return;
    state.ws = null;
    if (event.code === 4401 || event.code === 4403 || event.code === 4404) {
      // The server does not know this game (or this token): start afresh.
      if (ROOM) {
        room.forgetSeat();
        return;
      }
      forgetGame();
      return;
    }
    setConnection("offline");
    const delay = Math.min(5000, 300 * 2 ** state.retry);
    state.retry += 1;
    state.retryTimer = setTimeout(connect, delay);
  };
}

/** The view a message brings: a whole one (`state`), or the last one received with a change
 * (`change`: the fields set replace the view's, the fields unset leave it). A change that
 * does not follow the version received last asks for the whole view again (`sync`). */
function viewOf(message) {
  if (message.type === "state" && message.view) {
    state.received = message.view;
    state.version = message.version ?? null;
    return message.view;
  }
  if (message.type !== "change") return null;
  if (!state.received || message.since !== state.version) {
    send({ type: "sync" });
    return null;
  }
  const view = { ...state.received, ...message.set };
  for (const name of message.unset ?? []) delete view[name];
  state.received = view;
  state.version = message.version;
  return view;
}

/** One message of the socket (a batch's, in order). */
function receive(message) {
  if (ROOM && room.onRoomMessage(message, send)) return;
  if (message.type === "game" && !ROOM) {
    movedTo(message);
    return;
  }
  if (message.type === "error") {
    showError(message);
    return;
  }
  const view = viewOf(message);
  if (view) {
    $("table").hidden = false;
    enqueue(view);
    if (ROOM) room.renderNames(view);
  }
}

export function send(message) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) {
    setStatus(t("connection_lost"), "error");
    return false;
  }
  state.ws.send(JSON.stringify(message));
  return true;
}

export function sendAction(action) {
  state.selected = null;
  state.bidValue = null;
  if (send({ type: "action", action })) {
    // No more input until the server has answered.
    $("table").dataset.busy = "on";
    renderHand(state.view);
    renderControls(state.view);
    keepFocus();
  }
}

function showError(message) {
  $("table").dataset.busy = "off";
  setStatus(message.message || t("error_generic"), "error");
  if (state.view) {
    renderHand(state.view);
    renderControls(state.view);
  }
}

function forgetGame() {
  closeSocket();
  saveGame(null);
  closeResult();
  state.game = null;
  state.view = null;
  state.queue = [];
  state.lastJson = "";
  state.received = null;
  state.version = null;
  $("table").hidden = true;
  $("table").dataset.phase = "none";
  showForm(true, true);
  shown();
}

/** A solo game over for good: its single deal, or its match, finished (a tournament's deal
 * and a room's game are their pages' own). */
function isFinished(view) {
  if (ROOM !== null || GIVEN_GAME !== null) return false;
  return view?.phase === "over" && (view.match?.target == null || Boolean(view.match?.over));
}

export async function resume() {
  const game = loadGame();
  if (!game) {
    showForm(true, true);
    return;
  }
  state.game = game;
  showForm(false);
  if (ROOM) {
    connect(); // the table shows once the first deal is dealt
    return;
  }
  $("table").hidden = false;
  try {
    const query = new URLSearchParams({ token: game.token, lang: page.lang });
    const response = await fetch(`/api/games/${encodeURIComponent(game.game)}?${query}`);
    if (response.status === 404 || response.status === 403 || response.status === 401) {
      forgetGame();
      return;
    }
    if (response.ok) {
      const view = await response.json();
      // A game already over is not the page a returning player finds (its last deal lives
      // in My games): the home and the new-game form are, as for a first visit.
      if (isFinished(view)) {
        forgetGame();
        return;
      }
      enqueue(view);
    }
  } catch {
    // the socket will retry
  }
  connect();
}

export async function newGame(form) {
  const data = new FormData(form);
  const body = {
    rules: data.get("rules") || "cardavia",
    level: data.get("level") || "club",
  };
  // The deck is kept with the game on the server (without one: the rules' deck).
  const chosenDeck = data.get("deck");
  if (chosenDeck === "french" || chosenDeck === "spanish") body.deck = chosenDeck;
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  try {
    await startGame(body);
  } finally {
    button.disabled = false;
  }
}

/** A new game with these settings; the keyboard goes to the table. */
async function startGame(settings) {
  const body = { ...settings, lang: page.lang };
  setStatus(t("starting"));
  try {
    const response = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(String(response.status));
    const created = await response.json();
    closeSocket();
    playing({ game: created.game, token: created.token, deck: body.deck, rules: body.rules, level: body.level });
    $("table").hidden = false;
    showForm(false);
    state.focusZone = "controls";
    setStatus("");
    connect();
  } catch {
    if (!navigator.onLine) showOffline(true);
    setStatus(navigator.onLine ? t("error_generic") : t("offline"), "error");
  }
}

/** "Next deal": the match's next deal, or a new game with the same settings. */
export function nextDeal() {
  state.lastTrickOpen = false;
  state.resultDismissed = false;
  state.focusZone = "controls";
  if (state.view?.next_deal) {
    closeResult();
    send({ type: "next_deal" });
    return;
  }
  if (ROOM) {
    // A room plays again with the same people in the same seats: the room deals it.
    closeResult();
    send({ type: "again", game: state.view?.game });
    return;
  }
  // The next game with the same settings, dealt over the open connection (the server
  // answers "game" with its id and token, then its state); with none open, a new one asked.
  if (GIVEN_GAME === null && state.view?.game && state.ws?.readyState === WebSocket.OPEN) {
    closeResult();
    setStatus(t("starting"));
    send({ type: "again", game: state.view.game });
    return;
  }
  const game = state.game ?? {};
  const settings = { rules: game.rules || state.view?.rules || "cardavia", level: game.level || state.view?.level || "club" };
  if (game.deck) settings.deck = game.deck;
  startGame(settings);
}

/** The connection moved to the next game ("again"): it is the one kept to resume now. */
function movedTo(message) {
  playing({ ...state.game, game: message.game, token: message.token });
  setStatus("");
}

/** A new game is the table's (kept to resume it): nothing of the last one stays shown. */
function playing(game) {
  state.game = game;
  saveGame(game);
  state.view = null;
  state.queue = [];
  state.lastJson = "";
  state.received = null;
  state.version = null;
  state.replayStep = null;
  state.lastTrickOpen = false;
  state.selected = null;
  state.resultDismissed = false;
  closeResult();
  shown();
}

export function showForm(open, focus = false) {
  if (ROOM !== null) return; // a room's page: its own forms (room.js)
  const section = $("new-game-section");
  section.dataset.open = open ? "on" : "off";
  const details = /** @type {HTMLDetailsElement} */ ($("new-game-details"));
  if (details) details.open = open;
  state.placeHints?.();
  // The first thing a new player does is deal: the button has the focus (no Tab needed).
  if (open && focus) $("deal-button")?.focus();
}

/** Offline, play cannot work: the form says so (and what does work), its Deal greyed. */
export function showOffline(offline = !navigator.onLine) {
  const note = $("offline-note");
  if (note) note.hidden = !offline;
  const deal = /** @type {HTMLButtonElement} */ ($("deal-button"));
  if (deal) deal.disabled = offline;
  if (offline && state.view === null) setStatus(t("offline"), "error");
  else if (!offline && $("status")?.textContent === t("offline")) setStatus("");
}
