// The belote table: a WebSocket client of docs/web.md that draws the View of seat South.
// The server is the authority: the page only offers what `legal` lists, greys the other
// cards with the reason from `refusals`, and shows what each message brings, one at a time.

import { ALL_CODES, drawBack, makeCard, rankLabel, sortHand, suitMark, suitOf } from "./cards.js";
import { loadSettings, prefersReducedMotion } from "./settings.js";
import * as room from "./room.js";

/** On a room's page (docs/web.md, "Rooms"): its code; "" on the page that creates one. */
const ROOM = room.roomCode();

const GAME_KEY = "cardavia.game";
const SEATS = ["N", "E", "S", "W"];
const NEXT = { N: "E", E: "S", S: "W", W: "N" }; // docs/rules.md 2: counterclockwise
const TEAM = { N: "NS", S: "NS", E: "EW", W: "EW" };

const page = {
  lang: document.documentElement.lang || "en",
  dir: document.documentElement.dir || "ltr",
};
const S = JSON.parse(document.getElementById("strings")?.textContent || "{}");
const ui = S.ui || {};

const state = {
  game: null, // {game, token, deck}
  ws: null,
  retry: 0,
  retryTimer: null,
  queue: [],
  pumping: false,
  view: null,
  lastJson: "",
  selected: null,
  focusCard: null,
  handTurn: false, // the hand was last drawn for the player's turn to play
  hintsHome: null, // where learn.js put the hints setting (it returns there during a game)
  placeHints: null, // puts the hints setting where the form's state wants it
  lastTrickOpen: false,
  replayStep: null,
  trickTimer: null,
  flags: { announce: true, belote: true },
  bidValue: null,
  focusZone: null, // "hand" | "controls" | null: where the keyboard was, to keep it there
  resultDismissed: false,
  resultTimer: null,
  quietClose: false, // the page closed the result dialog itself (not Escape)
  dealKey: "", // game and deal number of the tricks below
  dealTricks: [], // this deal's finished tricks, as seen by this page
  reviewIndex: null, // which of them the trick panel shows (null: the last)
  autoTimer: null,
  nextAt: 0, // when the next message may be drawn (performance.now())
};

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ------------------------------------------------------------------------------------------
// Words
// ------------------------------------------------------------------------------------------

function t(key, params = {}) {
  let text = ui[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

/** A sentence with parts that stay readable left to right (card codes, numbers) isolated. */
function tNode(key, params = {}) {
  const frag = document.createDocumentFragment();
  const text = ui[key] ?? key;
  const parts = text.split(/(\{[a-z_]+\})/);
  for (const part of parts) {
    const m = part.match(/^\{([a-z_]+)\}$/);
    if (!m || !(m[1] in params)) {
      if (part) frag.append(part);
      continue;
    }
    const value = params[m[1]];
    if (value instanceof Node) frag.append(value);
    else {
      const bdi = el("bdi", null, String(value));
      frag.append(bdi);
    }
  }
  return frag;
}

function plural(key, n) {
  const forms = S.plurals?.[key];
  const form = Array.isArray(forms) ? forms[Math.min(n, forms.length - 1)] : null;
  return (form ?? "{count}").split("{count}").join(String(n)).split("{n}").join(String(n));
}

function deck() {
  // The settings' deck if one is chosen there, else the game's (the server keeps the deck
  // chosen in the new-game form: view.deck).
  const settings = loadSettings();
  return settings.deck || state.view?.deck || state.game?.deck || "french";
}

function cardName(code) {
  const d = deck();
  const named = S.names?.[d]?.[code];
  if (named) return named;
  const ranks = S.rank_names?.[d];
  const suits = S.suit_names?.[d];
  const rankIndex = ["7", "8", "9", "T", "J", "Q", "K", "A"].indexOf(code[0]);
  const suitIndex = ["S", "H", "D", "C"].indexOf(code[1]);
  if (ranks && suits && rankIndex >= 0 && suitIndex >= 0) {
    return t("card_name", { rank: ranks[rankIndex], suit: suits[suitIndex] });
  }
  return code;
}

/** A card's name in every form the table's sentences use: {card} and {card_the} ("l’as de
 *  pique"), {card_acc}, {card_gen} and {card_nom} ("asa pik", "damy kier", "dama kier"). */
function cardWords(code) {
  const name = cardName(code);
  const forms = S.forms?.[deck()]?.[code] ?? {};
  const words = { card: name };
  for (const form of ["the", "acc", "gen", "nom"]) words[`card_${form}`] = forms[form] ?? name;
  return words;
}

function strainName(strain) {
  if (strain === "NT") return t("no_trump");
  if (strain === "AT") return t("all_trump");
  const suits = S.suit_names?.[deck()];
  const index = ["S", "H", "D", "C"].indexOf(strain);
  return suits && index >= 0 ? suits[index] : strain;
}

/** The strain as a little picture and its name, for buttons and the contract. */
function strainNode(strain, withName = true) {
  const span = el("span", "strain");
  span.dataset.suit = strain;
  if (["S", "H", "D", "C"].includes(strain)) span.append(suitMark(strain, deck()));
  if (withName) span.append(el("span", "strain-name", strainName(strain)));
  return span;
}

function seatName(seat) {
  return S.seats?.[seat] ?? seat;
}

function valueText(value) {
  if (value === "capot" || value === 250) return t("capot");
  if (value === "generale" || value === 500) return t("generale");
  return String(value);
}

/** Words for an action of `legal` or a bid of the history's text form. */
function actionText(action) {
  switch (action.kind) {
    case "pass":
      return t("pass");
    case "take":
      return t("take", { strain: strainName(action.strain) });
    case "bid":
      return t("bid", { value: valueText(action.value), strain: strainName(action.strain) });
    case "coinche":
      return t("coinche");
    case "surcoinche":
      return t("surcoinche");
    default:
      return action.kind;
  }
}

function bidText(bid) {
  // Worded here from the bid itself (the page's deck may differ from the rules' deck).
  if (bid.kind) return actionText(bid);
  const text = String(bid.text ?? "").trim();
  let m;
  if (/^pass$/i.test(text)) return t("pass");
  if (/^coinche$/i.test(text)) return t("coinche");
  if (/^surcoinche$/i.test(text)) return t("surcoinche");
  if ((m = text.match(/^take\s+(\w+)$/i))) return t("take", { strain: strainName(m[1].toUpperCase()) });
  if ((m = text.match(/^bid\s+(\S+)\s+(\w+)$/i))) {
    return t("bid", { value: valueText(m[1].toLowerCase()), strain: strainName(m[2].toUpperCase()) });
  }
  return text;
}

function announcementName(name) {
  const key = `ann_${String(name).toLowerCase().replace("é", "e").replace(/\s+/g, "_")}`;
  return key in ui ? t(key) : String(name);
}

// ------------------------------------------------------------------------------------------
// The view, normalised where docs/web.md leaves a shape open
// ------------------------------------------------------------------------------------------

function playsOf(trick) {
  if (!trick) return [];
  const items = Array.isArray(trick) ? trick : trick.cards ?? trick.trick ?? trick.plays ?? [];
  return items
    .map((item) => (Array.isArray(item) ? { seat: item[0], card: item[1] } : item))
    .filter((item) => item && item.card);
}

function winnerOf(trick) {
  if (!trick || Array.isArray(trick)) return null;
  return trick.winner ?? trick.won_by ?? null;
}

function tricksDone(view) {
  const won = view?.tricks_won;
  return won ? (won.NS ?? 0) + (won.EW ?? 0) : 0;
}

function legalPlays(view) {
  return (view?.legal ?? []).filter((a) => a.kind === "play");
}

function isMyTurn(view) {
  return !!view && view.to_move === view.seat && (view.legal ?? []).length > 0;
}

function trumpOf(view) {
  return view?.contract?.strain ?? null;
}

// ------------------------------------------------------------------------------------------
// The connection
// ------------------------------------------------------------------------------------------

// A game the page hands in (a tournament deal's: tournament_play.js) is played instead of the
// browser's saved game, which stays as it was for the table's own page.
const GIVEN_GAME = window.cardaviaGivenGame ?? null;

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

function connect() {
  closeSocket();
  const game = state.game;
  if (!game) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams({ token: game.token, lang: page.lang });
  const path = ROOM ? `rooms/${encodeURIComponent(ROOM)}` : `games/${encodeURIComponent(game.game)}`;
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${path}?${query}`);
  state.ws = ws;
  ws.onopen = () => {
    // The server sends the table's state as the connection opens: nothing to ask.
    state.retry = 0;
    setConnection("online");
  };
  ws.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (ROOM && room.onRoomMessage(message, send)) return;
    if (message.type === "game" && !ROOM) movedTo(message);
    else if (message.type === "state" && message.view) {
      $("table").hidden = false;
      enqueue(message.view);
      if (ROOM) room.renderNames(message.view);
    } else if (message.type === "error") showError(message);
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

function send(message) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) {
    setStatus(t("connection_lost"), "error");
    return false;
  }
  state.ws.send(JSON.stringify(message));
  return true;
}

function sendAction(action) {
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
  $("table").hidden = true;
  $("table").dataset.phase = "none";
  showForm(true, true);
  shown();
}

async function resume() {
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
    if (response.ok) enqueue(await response.json());
  } catch {
    // the socket will retry
  }
  connect();
}

async function newGame(form) {
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
function nextDeal() {
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
  state.replayStep = null;
  state.lastTrickOpen = false;
  state.selected = null;
  state.resultDismissed = false;
  closeResult();
  shown();
}

function showForm(open, focus = false) {
  if (ROOM !== null) return; // a room's page: its own forms (room.js)
  const section = $("new-game-section");
  section.dataset.open = open ? "on" : "off";
  const details = $("new-game-details");
  if (details) details.open = open;
  state.placeHints?.();
  // The first thing a new player does is deal: the button has the focus (no Tab needed).
  if (open && focus) $("deal-button")?.focus();
}

/** Keep the keyboard at the table: when what had the focus was redrawn away (a card played,
 * a bid made), the focus goes to the hand's tab stop, or to the bidding buttons. */
function keepFocus() {
  if (!state.focusZone || $("score-panel").open) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected;
  const view = state.view;
  const bidding = view?.phase === "bidding" && isMyTurn(view) && $("table").dataset.busy !== "on";
  const inControls = active?.closest?.("#controls");
  if (bidding && !inControls) {
    $("controls").querySelector("button")?.focus({ preventScroll: true });
    return;
  }
  if (!lost) return;
  const target =
    $("controls").querySelector("[data-action=confirm], [data-action=show-result], [data-action=next-deal], button") ??
    null;
  const card = $("hand").querySelector('.card[tabindex="0"]');
  (view?.phase === "playing" && card ? card : target ?? card)?.focus({ preventScroll: true });
}

// ------------------------------------------------------------------------------------------
// One message at a time, gently
// ------------------------------------------------------------------------------------------

// How long each computer move stays alone on the table, and a finished trick before it is
// collected: the "Pace of the computer players" setting, as its help in the settings says.
// The two scale together, and the server's own pause and beat (0.05–0.2 s together) are
// within the fastest, so that the three paces are really apart (test_table.py measures them in the browser).
const PACES = {
  slow: { move: 1000, hold: 2000 },
  normal: { move: 500, hold: 1000 },
  fast: { move: 200, hold: 500 },
};

function pace() {
  const settings = loadSettings();
  if (settings.pace !== null && settings.pace !== undefined && Number.isFinite(Number(settings.pace))) {
    const p = Number(settings.pace);
    return { move: p, hold: p * 1.6 };
  }
  return PACES[settings.aiPace] ?? PACES.normal;
}

function enqueue(view) {
  const json = JSON.stringify(view);
  if (json === state.lastJson) return;
  state.lastJson = json;
  state.queue.push(view);
  pump();
}

async function pump() {
  if (state.pumping) return;
  state.pumping = true;
  try {
    while (state.queue.length) {
      // Each move stays alone on the table for the pace's time, however fast the next one
      // comes (slow, normal, fast: the "Pace of the computer players" setting).
      const wait = state.nextAt - performance.now();
      if (wait > 0) await sleep(wait);
      const view = state.queue.shift();
      const prev = state.view;
      state.view = view;
      $("table").dataset.busy = "off";
      const change = render(view, prev);
      const { move, hold } = pace();
      state.nextAt = change === "none" ? 0 : performance.now() + (change === "trick_done" ? hold : move);
    }
  } finally {
    state.pumping = false;
  }
}

/** What this message changed, for the pause after it. */
function changeOf(prev, view) {
  if (!prev) return "none";
  if (tricksDone(view) > tricksDone(prev)) return "trick_done";
  if (playsOf(view.trick).length !== playsOf(prev.trick).length) return "card";
  if ((view.bids ?? []).length !== (prev.bids ?? []).length) return "bid";
  return "other";
}

// ------------------------------------------------------------------------------------------
// Drawing
// ------------------------------------------------------------------------------------------

/** The status line, also the live region: each message a sentence of its own line. */
function setStatus(lines, kind = "info") {
  const status = $("status");
  if (!status) return;
  const list = (Array.isArray(lines) ? lines : [lines]).filter((line) => line);
  status.replaceChildren(...list.map((line) => el("span", "status-line", line)));
  status.dataset.kind = kind;
}

/** Where each seat is drawn: as the view's ``screen`` says (the server turns the table so
 * that the player's own seat is at the bottom; seat codes stay the real ones). */
const DEFAULT_SCREEN = { bottom: "S", right: "W", top: "N", left: "E" };

function screenOf(view) {
  return view?.screen ?? DEFAULT_SCREEN;
}

/** The place on screen (bottom, right, top, left) of a real seat. */
function placeOf(view, seat) {
  const screen = screenOf(view);
  return Object.keys(screen).find((place) => screen[place] === seat) ?? "";
}

function placeSeats(view) {
  for (const [place, seat] of Object.entries(screenOf(view))) {
    for (const box of document.querySelectorAll(`#felt [data-seat="${seat}"]`)) box.dataset.pos = place;
  }
}

// A short screen held sideways (table.css lays the table out for it): the felt and the hand
// fit together only with the table at the top of the screen.
const SIDEWAYS = "(orientation: landscape) and (max-height: 560px)";

function render(view, prev) {
  placeSeats(view);
  const table = $("table");
  const appearing = table.hidden || !prev;
  table.hidden = false;
  // On a short screen (a phone held sideways) the table is brought to the top of the screen
  // when it appears, so that the felt and the hand are in view together.
  if (appearing && window.innerHeight < 560) table.scrollIntoView({ block: "start" });
  table.dataset.phase = view.phase;
  table.dataset.rules = view.rules ?? "";
  table.dataset.deck = deck();
  table.dataset.myTurn = isMyTurn(view) ? "on" : "off";
  const change = changeOf(prev, view);
  if (state.selected && !legalPlays(view).some((a) => a.card === state.selected)) state.selected = null;
  if (view.phase !== "over") state.replayStep = null;
  recordTricks(view);
  if (view.phase === "over" && prev && prev.phase !== "over") state.lastTrickOpen = false;
  renderSeats(view);
  renderTrick(view, prev, change);
  renderHand(view);
  renderControls(view);
  renderInfo(view);
  renderResult(view, false, !!prev && prev.phase !== "over");
  renderReplay(view);
  announce(view, prev, change);
  keepFocus();
  autoPlayLast(view);
  return change;
}

/** Tell the page's other parts (learn.js's bar, which marks the hinted bid) that the table
 * shows another view or none, or drew its controls again. */
function shown() {
  document.dispatchEvent(new Event("cardavia:view"));
}

/** A bid as a whole sentence: "East passes.", "North takes hearts." */
function bidSentence(bid) {
  const seat = seatName(bid.seat);
  switch (bid.kind) {
    case "pass":
      return t("seat_passes", { seat });
    case "take":
      return t("seat_takes", { seat, strain: strainName(bid.strain) });
    case "bid":
      return t("seat_bids", { seat, value: valueText(bid.value), strain: strainName(bid.strain) });
    case "coinche":
      return t("seat_coinches", { seat });
    case "surcoinche":
      return t("seat_surcoinches", { seat });
    default:
      return t("seat_said", { seat, bid: bidText(bid) });
  }
}

// Short tones (the "Sounds at the table" setting, off by default): made by the page with
// Web Audio, no sound files.
const TONES = {
  card: [[520, 0.05]],
  trick: [[440, 0.07], [330, 0.1]],
  turn: [[660, 0.08], [880, 0.12]],
};
let audio = null;

function sound(kind) {
  if (!loadSettings().sounds || !window.AudioContext) return;
  try {
    audio ??= new AudioContext();
    let start = audio.currentTime;
    for (const [frequency, length] of TONES[kind]) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = "triangle";
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.0001, start);
      volume.gain.exponentialRampToValueAtTime(0.12, start + 0.01);
      volume.gain.exponentialRampToValueAtTime(0.0001, start + length);
      tone.connect(volume).connect(audio.destination);
      tone.start(start);
      tone.stop(start + length + 0.02);
      start += length;
    }
  } catch {
    // no sound: the page goes on without it
  }
}

/** Tell screen readers (and the status line) what just happened: one sentence per event. */
function announce(view, prev, change) {
  const lines = [];
  if (change === "card" || change === "trick_done") {
    const plays = change === "card" ? playsOf(view.trick) : playsOf(view.last_trick);
    const last = plays[plays.length - 1];
    if (last && last.seat !== view.seat) lines.push(t("plays", { seat: seatName(last.seat), ...cardWords(last.card) }));
    if (change === "trick_done") {
      const winner = winnerOf(view.last_trick);
      if (winner) lines.push(t("trick_won_by", { seat: seatName(winner) }));
    }
  } else if (change === "bid") {
    const bid = view.bids[view.bids.length - 1];
    if (bid && bid.seat !== view.seat) lines.push(bidSentence(bid));
  }
  if (isMyTurn(view)) lines.push(t(view.phase === "bidding" ? "your_turn_bid" : "your_turn_play"));
  else if (view.phase === "bidding" || view.phase === "playing") {
    // A room's player away keeps their seat a while: said so, not "North is thinking…".
    if (!lines.length && view.to_move) lines.push((ROOM && room.awayLine(view)) || t("waiting", { seat: seatName(view.to_move) }));
  }
  if (lines.length || change !== "none") setStatus(lines);
  if (change === "card") sound("card");
  else if (change === "trick_done") sound("trick");
  if (isMyTurn(view) && change !== "none") sound("turn");
}

/** Keep this deal's tricks as they are finished, for the trick panel (the server sends the
 * last one only; after a reload the earlier ones are known from the replay at the end). */
function recordTricks(view) {
  const key = `${view.game ?? state.game?.game}:${view.deal_number ?? 1}`;
  if (key !== state.dealKey) {
    state.dealKey = key;
    state.dealTricks = [];
    state.reviewIndex = null;
  }
  const done = tricksDone(view);
  if (state.dealTricks.length > done) state.dealTricks.length = done;
  if (done > 0 && view.last_trick) state.dealTricks[done - 1] = view.last_trick;
  const replayed = view.phase === "over" ? view.replay?.tricks : null;
  if (Array.isArray(replayed) && replayed.length && replayed[0]?.cards) state.dealTricks = [...replayed];
}

/** South's last card, the only one left: played at once when the setting says so. */
function autoPlayLast(view) {
  clearTimeout(state.autoTimer);
  if (!loadSettings().autoLast || view.phase !== "playing" || !isMyTurn(view)) return;
  const plays = legalPlays(view);
  if ((view.hand ?? []).length !== 1 || plays.length !== 1) return;
  state.autoTimer = setTimeout(() => {
    if (state.view === view && $("table").dataset.busy !== "on") sendAction(plays[0]);
  }, pace().move);
}

function renderSeats(view) {
  const lastBid = {};
  for (const bid of view.bids ?? []) lastBid[bid.seat] = bid;
  const trickCards = new Set(playsOf(view.trick).map((p) => p.card));
  for (const seat of SEATS) {
    const box = document.querySelector(`.seat[data-seat="${seat}"]`);
    if (!box) continue;
    box.classList.toggle("to-move", view.to_move === seat && (view.phase === "bidding" || view.phase === "playing"));
    box.classList.toggle("dealer", view.dealer === seat);
    box.classList.toggle("taker", view.contract?.taker === seat);
    const size = view.hand_sizes?.[seat] ?? 0;
    const name = box.querySelector(".seat-name");
    name.replaceChildren(el("span", "seat-title", seatName(seat)));
    if (seat !== view.seat) {
      name.append(el("span", "seat-role", seat === partnerOf(view.seat) ? t("partner") : t("opponent")));
    }
    if (view.dealer === seat) name.append(el("span", "chip dealer-chip", t("dealer_chip")));
    if (view.contract?.taker === seat) name.append(el("span", "chip taker-chip", t("taker_chip")));
    const backs = box.querySelector(".backs");
    if (backs) backs.replaceChildren();
    if (backs && seat === screenOf(view).bottom) {
      // The player's own hand is below the felt (a watcher sees no hand there).
      backs.removeAttribute("aria-label");
      backs.removeAttribute("role");
    } else if (backs) {
      backs.setAttribute("aria-label", t("label_value", { label: seatName(seat), value: plural("cards", size) }));
      backs.setAttribute("role", "img");
      const showOpen = view.phase === "over" && state.replayStep !== null;
      if (!showOpen) {
        for (let i = 0; i < size; i += 1) backs.append(drawBack(el("span")));
      }
    }
    // The bubble: the seat's bid while bidding; an announcement or belote as it is said.
    const bubble = box.querySelector(".bubble");
    const words = [];
    if (view.phase === "bidding" && lastBid[seat]) words.push(bidText(lastBid[seat]));
    if (view.phase === "playing" && tricksDone(view) === 0) {
      for (const d of view.declarations ?? []) {
        if (d.seat === seat) words.push(`${d.text ?? announcementName(d.name)} (${d.points})`);
      }
    }
    for (const event of view.belote ?? []) {
      if (event.seat === seat && trickCards.has(event.card)) words.push(beloteWord(event, view));
    }
    bubble.replaceChildren(...words.map((w) => el("span", "said", w)));
    bubble.hidden = words.length === 0;
  }
}

/** Belote or rebelote: the first word a seat says is belote, the second rebelote. */
function beloteWord(event, view) {
  const own = (view?.belote ?? []).filter((e) => e.seat === event.seat);
  const index = own.indexOf(event);
  if (index >= 0) return index === 0 ? t("belote") : t("rebelote");
  return /rebelote/i.test(String(event.word)) ? t("rebelote") : t("belote");
}

function partnerOf(seat) {
  return NEXT[NEXT[seat]];
}

function renderTrick(view, prev, change) {
  const trick = $("trick");
  clearTimeout(state.trickTimer);
  trick.classList.remove("collect", "done");
  delete trick.dataset.winner;
  let plays = playsOf(view.trick);
  let done = false;
  if (change === "trick_done" && plays.length === 0 && view.last_trick) {
    plays = playsOf(view.last_trick);
    done = true;
  }
  // The deal's final trick stays on the table, under the result and after it is closed.
  const final =
    view.phase === "over" && state.replayStep === null && playsOf(view.trick).length === 0 && !!view.last_trick;
  if (final) plays = playsOf(view.last_trick);
  const before = new Set(done ? playsOf(prev?.trick).map((p) => p.card) : playsOf(prev?.trick).map((p) => p.card));
  for (const seat of SEATS) {
    const slot = trick.querySelector(`.slot[data-seat="${seat}"]`);
    const play = plays.find((p) => p.seat === seat);
    if (!play) {
      slot.replaceChildren();
      continue;
    }
    const current = slot.querySelector(".card");
    if (current && current.dataset.card === play.card) {
      current.setAttribute("aria-label", t("label_value", { label: seatName(seat), value: cardName(play.card) }));
      continue;
    }
    const card = makeCard(play.card, deck());
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", t("label_value", { label: seatName(seat), value: cardName(play.card) }));
    if (!before.has(play.card)) card.classList.add("enter", `from-${seat}`);
    slot.replaceChildren(card);
  }
  // The turned card while bidding (classic tables).
  const turned = $("turned");
  if (view.phase === "bidding" && view.turned) {
    const card = makeCard(view.turned, deck());
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", t("label_value", { label: t("turned"), value: cardName(view.turned) }));
    turned.replaceChildren(card, el("span", "turned-label", t("turned")));
    turned.hidden = false;
  } else {
    turned.replaceChildren();
    turned.hidden = true;
  }
  if (final) {
    const winner = winnerOf(view.last_trick);
    trick.classList.add("done");
    if (winner) trick.dataset.winner = placeOf(view, winner);
  } else if (done) {
    const winner = winnerOf(view.last_trick);
    trick.classList.add("done");
    if (winner) trick.dataset.winner = placeOf(view, winner);
    const { hold } = pace();
    state.trickTimer = setTimeout(() => {
      // Collect the finished trick towards its winner, unless a new card came meanwhile.
      if (state.view !== view) return;
      trick.classList.add("collect");
      state.trickTimer = setTimeout(() => {
        if (state.view !== view) return;
        for (const slot of trick.querySelectorAll(".slot")) slot.replaceChildren();
        trick.classList.remove("collect", "done");
      }, prefersReducedMotion() ? 0 : 300);
    }, hold);
  }
}

function handCodes(view) {
  return sortHand(view.hand ?? [], trumpOf(view));
}

function renderHand(view) {
  const hand = $("hand");
  const codes = handCodes(view);
  const legal = new Set(legalPlays(view).map((a) => a.card));
  const myTurn = isMyTurn(view) && view.phase === "playing" && $("table").dataset.busy !== "on";
  const focusedBefore = document.activeElement?.closest?.("#hand .card")?.dataset.card ?? null;
  // A new hand (a new deal, or the taker's last cards) is dealt in: the cards not there before.
  const before = new Set([...hand.querySelectorAll(".card")].map((c) => c.dataset.card));
  const fresh = codes.some((code) => !before.has(code)) && !prefersReducedMotion();
  hand.replaceChildren();
  const notes = $("hand-notes");
  notes.replaceChildren();
  hand.setAttribute("aria-label", t("label_value", { label: t("hand_label"), value: plural("cards", codes.length) }));
  let tabbed = false;
  // When the player's turn comes, the keyboard's card is the first they may play: a card
  // kept from before (or focused) that they may not play now gives way to it.
  const turnComes = myTurn && !state.handTurn;
  state.handTurn = myTurn;
  const kept = state.focusCard && codes.includes(state.focusCard) ? state.focusCard : null;
  const keep = kept && !(turnComes && !legal.has(kept)) ? kept : null;
  let focused = focusedBefore;
  if (focused && turnComes && !legal.has(focused)) focused = codes.find((code) => legal.has(code)) ?? focused;
  codes.forEach((code, index) => {
    const button = makeCard(code, deck(), "button");
    button.type = "button";
    // The name read out is the card's name alone ("ten of hearts"): the corners are drawing.
    button.append(el("span", "visually-hidden card-name", cardName(code)));
    button.style.setProperty("--i", String(index));
    button.style.setProperty("--n", String(codes.length));
    if (fresh && !before.has(code)) button.classList.add("dealt");
    const refusal = view.refusals?.[code];
    if (myTurn && legal.has(code)) {
      button.classList.add("legal");
      if (state.selected === code) {
        button.classList.add("selected");
        button.setAttribute("aria-pressed", "true");
      } else {
        button.setAttribute("aria-pressed", "false");
      }
    } else if (myTurn) {
      button.classList.add("refused");
      button.setAttribute("aria-disabled", "true");
      const reason = refusal?.message || t("not_allowed");
      button.title = reason;
      const note = el("span", null, reason);
      note.id = `reason-${code}`;
      notes.append(note);
      button.setAttribute("aria-describedby", note.id);
    } else {
      button.setAttribute("aria-disabled", "true");
      button.classList.add("waiting");
    }
    const tabTarget = keep ? code === keep : state.selected ? code === state.selected : !tabbed && (!myTurn || legal.has(code));
    if (tabTarget && !tabbed) {
      button.tabIndex = 0;
      tabbed = true;
    } else {
      button.tabIndex = -1;
    }
    hand.append(button);
  });
  if (!tabbed && hand.firstElementChild) hand.firstElementChild.tabIndex = 0;
  if (focused) hand.querySelector(`.card[data-card="${focused}"]`)?.focus({ preventScroll: true });
}

function moveFocus(delta) {
  const cards = [...$("hand").querySelectorAll(".card")];
  if (!cards.length) return;
  const current = cards.indexOf(document.activeElement);
  let index = current < 0 ? 0 : current + delta;
  index = Math.max(0, Math.min(cards.length - 1, index));
  for (const card of cards) card.tabIndex = -1;
  cards[index].tabIndex = 0;
  cards[index].focus();
  state.focusCard = cards[index].dataset.card;
}

function onHandKey(event) {
  const rtl = getComputedStyle($("hand")).direction === "rtl";
  const forward = rtl ? "ArrowLeft" : "ArrowRight";
  const backward = rtl ? "ArrowRight" : "ArrowLeft";
  if (event.key === forward || event.key === "ArrowDown") {
    moveFocus(1);
  } else if (event.key === backward || event.key === "ArrowUp") {
    moveFocus(-1);
  } else if (event.key === "Home") {
    moveFocus(-99);
  } else if (event.key === "End") {
    moveFocus(99);
  } else if (event.key === "Escape") {
    if (state.selected) {
      state.selected = null;
      renderHand(state.view);
      renderControls(state.view);
    }
  } else {
    return;
  }
  event.preventDefault();
}

function onCard(code, button) {
  const view = state.view;
  if (!view) return;
  state.focusCard = code;
  if (!(isMyTurn(view) && view.phase === "playing") || $("table").dataset.busy === "on") {
    setStatus(t("not_your_turn"));
    return;
  }
  const legal = legalPlays(view).some((a) => a.card === code);
  if (!legal) {
    const reason = view.refusals?.[code]?.message || t("not_allowed");
    setStatus([t("may_not_play", cardWords(code)), reason], "refusal");
    return;
  }
  if (!loadSettings().confirm || state.selected === code) {
    playCard(code);
    return;
  }
  state.selected = code;
  // The confirm bar says "Play …?": the status line keeps the turn's prompt, not a copy.
  setStatus(t("your_turn_play"));
  renderHand(view);
  renderControls(view);
  $("hand").querySelector(`.card[data-card="${code}"]`)?.focus({ preventScroll: true });
}

function playCard(code) {
  const variants = legalPlays(state.view).filter((a) => a.card === code);
  const wantAnnounce = state.flags.announce && variants.some((a) => a.announce);
  const wantBelote = state.flags.belote && variants.some((a) => a.belote);
  const chosen =
    variants.find((a) => !!a.announce === wantAnnounce && !!a.belote === wantBelote) ??
    variants.find((a) => !a.announce && !a.belote) ??
    variants[0];
  if (!chosen) return;
  sendAction(chosen);
}

function renderControls(view) {
  drawControls(view);
  shown();
}

function drawControls(view) {
  const controls = $("controls");
  controls.replaceChildren();
  const busy = $("table").dataset.busy === "on";
  if (!view || busy) return;
  if (view.phase === "bidding" && isMyTurn(view)) {
    controls.append(biddingControls(view));
  } else if (view.phase === "playing" && isMyTurn(view)) {
    const variants = state.selected ? legalPlays(view).filter((a) => a.card === state.selected) : legalPlays(view);
    const row = el("div", "play-controls");
    if (variants.some((a) => a.announce)) {
      const proposed = (view.announce ?? []).map((a) => `${a.text ?? announcementName(a.name)} (${a.points})`);
      const label = proposed.length ? t("announce_what", { what: proposed.join(", ") }) : t("announce");
      row.append(flagBox("announce", label, t("announce_help")));
    }
    if (variants.some((a) => a.belote)) row.append(flagBox("belote", t("say_belote")));
    if (state.selected) {
      const confirm = el("div", "confirm-bar");
      confirm.setAttribute("role", "group");
      confirm.setAttribute("aria-labelledby", "confirm-what");
      const what = el("span", "confirm-what");
      what.id = "confirm-what";
      what.append(tNode("pick_confirm", cardWords(state.selected)));
      const play = el("button", "primary", t("confirm"));
      play.type = "button";
      play.dataset.action = "confirm";
      play.addEventListener("click", () => playCard(state.selected));
      const cancel = el("button", "secondary", t("cancel"));
      cancel.type = "button";
      cancel.dataset.action = "cancel";
      cancel.addEventListener("click", () => {
        const code = state.selected;
        state.selected = null;
        renderHand(state.view);
        renderControls(state.view);
        $("hand").querySelector(`.card[data-card="${code}"]`)?.focus();
      });
      confirm.append(what, play, cancel);
      row.append(confirm);
    }
    if (row.childElementCount) controls.append(row);
  } else if (view.phase === "over" && view.result && state.resultDismissed && state.replayStep === null) {
    // The result dialog was closed to look at the table: a way back to it and on.
    const row = el("div", "over-controls");
    const show = el("button", "secondary", t("show_result"));
    show.type = "button";
    show.dataset.action = "show-result";
    show.addEventListener("click", () => {
      state.resultDismissed = false;
      renderResult(state.view, true);
    });
    const next = el("button", "primary", view.next_deal || !isMatchOver(view) ? t("next_deal") : t("play_again"));
    next.type = "button";
    next.dataset.action = "next-deal";
    next.addEventListener("click", nextDeal);
    row.append(show, next);
    controls.append(row);
  } else if (view.phase === "cancelled") {
    const row = el("div", "cancelled");
    row.append(el("p", null, t("cancelled")));
    const again = el("button", "primary", t("new_deal"));
    again.type = "button";
    again.dataset.action = "next-deal";
    again.addEventListener("click", () => send({ type: "next_deal" }));
    const fresh = el("button", "secondary", t("new_game"));
    fresh.type = "button";
    fresh.addEventListener("click", () => showForm(true, true));
    row.append(again, fresh);
    controls.append(row);
  }
}

function flagBox(flag, label, help) {
  const wrap = el("label", "flag");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.name = flag;
  box.checked = state.flags[flag];
  box.addEventListener("change", () => {
    state.flags[flag] = box.checked;
  });
  wrap.append(box, el("span", null, label));
  if (help) wrap.title = help;
  return wrap;
}

function actionButton(action, index, content, cls = "bid-button") {
  const button = el("button", cls);
  button.type = "button";
  button.dataset.kind = action.kind;
  button.dataset.index = String(index);
  if (action.strain) button.dataset.strain = action.strain;
  if (action.value !== undefined) button.dataset.value = String(action.value);
  if (content instanceof Node) button.append(content);
  else button.textContent = content;
  // Named by what it shows ("Take ♠ spades"), so that the name holds the visible label.
  button.addEventListener("click", () => sendAction(action));
  return button;
}

function biddingControls(view) {
  const legal = view.legal ?? [];
  const box = el("div", "bidding");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("your_turn_bid"));
  const row = el("div", "bid-row");
  legal.forEach((action, index) => {
    if (action.kind === "take") {
      const content = document.createDocumentFragment();
      content.append(el("span", null, t("take_short")), strainNode(action.strain));
      row.append(actionButton(action, index, content, "bid-button take"));
    }
  });
  const bids = legal.map((a, i) => [a, i]).filter(([a]) => a.kind === "bid");
  if (bids.length) {
    const values = [...new Set(bids.map(([a]) => String(a.value)))];
    if (!values.includes(String(state.bidValue))) state.bidValue = values[0];
    const label = el("label", "bid-value");
    label.append(el("span", null, t("bid_value")));
    const select = document.createElement("select");
    select.name = "bid-value";
    for (const value of values) {
      const option = el("option", null, valueText(value));
      option.value = value;
      select.append(option);
    }
    select.value = state.bidValue;
    select.addEventListener("change", () => {
      state.bidValue = select.value;
      renderControls(state.view);
      $("controls").querySelector('select[name="bid-value"]')?.focus();
    });
    label.append(select);
    const strains = el("div", "bid-row strains");
    for (const [action, index] of bids) {
      if (String(action.value) !== state.bidValue) continue;
      const content = document.createDocumentFragment();
      content.append(el("bdi", "value", valueText(action.value)), strainNode(action.strain));
      strains.append(actionButton(action, index, content, "bid-button bid"));
    }
    box.append(label, strains);
  }
  legal.forEach((action, index) => {
    if (action.kind === "coinche" || action.kind === "surcoinche") {
      row.append(actionButton(action, index, actionText(action), "bid-button double"));
    }
  });
  legal.forEach((action, index) => {
    if (action.kind === "pass") row.append(actionButton(action, index, t("pass"), "bid-button pass"));
  });
  box.prepend(row);
  return box;
}

function contractNode(contract) {
  const frag = document.createDocumentFragment();
  if (!contract) {
    frag.append(t("no_contract"));
    return frag;
  }
  const who = seatName(contract.taker);
  if (contract.bid !== null && contract.bid !== undefined) {
    frag.append(tNode("contract_bid", { seat: who, value: valueText(contract.bid), strain: strainNode(contract.strain) }));
  } else {
    frag.append(tNode("contract_take", { seat: who, strain: strainNode(contract.strain) }));
  }
  const level = Number(contract.coinche ?? 0);
  if (level === 1) frag.append(" ", el("span", "chip", t("coinched")));
  else if (level >= 2) frag.append(" ", el("span", "chip", t("surcoinched")));
  return frag;
}

/** The shuffle's commitment (its hash, shown from the start); once the deal is over, the
 * seed is revealed and "Check this deal" opens the fairness page's check, filled in. */
function renderFair(view) {
  const fair = view.fair;
  $("fair-line").hidden = !fair?.hash;
  if (!fair?.hash) return;
  $("fair-hash").textContent = fair.hash;
  const link = $("fair-check");
  link.hidden = !fair.seed;
  if (fair.seed) {
    const query = new URLSearchParams({ seed: fair.seed, hash: fair.hash, deck: (fair.deck ?? []).join(" ") });
    link.href = `/${page.lang}/rules/fairness?${query}#check-deal`;
  }
}

function renderInfo(view) {
  renderFair(view);
  $("contract").replaceChildren(contractNode(view.contract));
  const won = view.tricks_won ?? { NS: 0, EW: 0 };
  $("tricks-ns").textContent = String(won.NS ?? 0);
  $("tricks-ew").textContent = String(won.EW ?? 0);
  // The bids, in order.
  const bids = $("bids");
  bids.replaceChildren();
  for (const bid of view.bids ?? []) {
    const item = el("li");
    item.dataset.seat = bid.seat;
    item.append(el("span", "who", seatName(bid.seat)), " ", el("span", "what", bidText(bid)));
    bids.append(item);
  }
  $("bids-box").hidden = !(view.bids ?? []).length;
  // Announcements: said in the first trick, compared at the start of the second.
  const anns = $("announcements");
  anns.replaceChildren();
  const declarations = view.declarations ?? [];
  const revealed = view.revealed ?? [];
  for (const d of declarations) {
    const item = el("li");
    item.append(tNode("declared", { seat: seatName(d.seat), name: d.text ?? announcementName(d.name), points: d.points }));
    anns.append(item);
  }
  if (declarations.length && tricksDone(view) > 0) {
    const result = el("li", "comparison");
    if (revealed.length) {
      result.append(tNode("comparison_won", { team: t(`team_${TEAM[revealed[0].seat]}`) }));
      const shown = el("ul", "revealed");
      for (const r of revealed) {
        const row = el("li");
        row.append(tNode("declared", { seat: seatName(r.seat), name: r.text ?? announcementName(r.name), points: r.points }));
        const cards = el("span", "mini-cards");
        for (const code of r.cards ?? []) {
          const card = makeCard(code, deck());
          card.classList.add("mini");
          card.setAttribute("role", "img");
          card.setAttribute("aria-label", cardName(code));
          cards.append(card);
        }
        row.append(" ", cards);
        shown.append(row);
      }
      result.append(shown);
    } else {
      result.append(t("comparison_tie"));
    }
    anns.append(result);
  }
  for (const event of view.belote ?? []) {
    const item = el("li", "belote-said");
    item.append(tNode("belote_said", { seat: seatName(event.seat), word: beloteWord(event, view), ...cardWords(event.card) }));
    anns.append(item);
  }
  $("announcements-box").hidden = !anns.childElementCount;
  // The card points won so far (a setting).
  const pointsLine = $("points-line");
  const points = view.points;
  if (loadSettings().showPoints && points && view.phase !== "bidding") {
    pointsLine.replaceChildren(tNode("points_line", { ns: points.NS ?? 0, ew: points.EW ?? 0 }));
    pointsLine.hidden = false;
  } else {
    pointsLine.hidden = true;
  }
  // The deal's tricks, viewable again: the last one first, the earlier ones with the arrows.
  // Each trick keeps its number in the deal (after a reload only the last ones are known).
  const numbers = state.dealTricks.map((trick, i) => (trick ? i + 1 : 0)).filter(Boolean);
  const tricks = state.dealTricks.filter(Boolean);
  const toggle = $("last-trick-toggle");
  const open = state.lastTrickOpen && tricks.length > 0;
  toggle.disabled = tricks.length === 0;
  toggle.setAttribute("aria-expanded", open ? "true" : "false");
  toggle.textContent = open ? t("hide_last_trick") : t("last_trick");
  const box = $("last-trick");
  const review = $("trick-review");
  review.replaceChildren();
  box.hidden = !open;
  if (open) {
    const index = Math.min(tricks.length - 1, state.reviewIndex ?? tricks.length - 1);
    const shownTrick = tricks[index];
    const total = Math.max(tricksDone(view), numbers.at(-1));
    $("trick-n").replaceChildren(tNode("trick_n", { n: numbers[index], total }));
    $("trick-prev").disabled = index === 0;
    $("trick-next").disabled = index >= tricks.length - 1;
    const cards = el("div", "last-cards");
    for (const play of playsOf(shownTrick)) {
      const fig = el("figure", "last-play");
      fig.dataset.seat = play.seat;
      const card = makeCard(play.card, deck());
      card.setAttribute("role", "img");
      card.setAttribute("aria-label", cardName(play.card));
      fig.append(card, el("figcaption", null, seatName(play.seat)));
      cards.append(fig);
    }
    review.append(cards);
    const winner = winnerOf(shownTrick);
    if (winner) review.append(el("p", "last-winner", t("trick_won_by", { seat: seatName(winner) })));
  }
  renderSheet($("sheet-side"), view, false);
}

function scoreCell(value, tag = "td") {
  const cell = el(tag);
  cell.append(el("bdi", null, value === undefined || value === null ? "" : String(value)));
  return cell;
}

/** The match score sheet: one row per deal, the totals and the target. */
function renderSheet(host, view, full) {
  host.replaceChildren();
  const match = view.match;
  const deals = match?.deals ?? [];
  const multi = match && match.target && Number(match.target) > 0;
  if (!multi) {
    host.hidden = true;
    return;
  }
  host.hidden = false;
  const table = el("table", "sheet");
  const caption = el("caption");
  caption.append(t("match_sheet"));
  if (multi) caption.append(" ", tNode("target", { n: match.target }));
  table.append(caption);
  const head = el("tr");
  head.append(el("td"), el("th", null, t("team_NS")), el("th", null, t("team_EW")));
  head.querySelectorAll("th").forEach((th) => th.setAttribute("scope", "col"));
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  const rows = full ? deals : deals.slice(-4);
  const offset = deals.length - rows.length;
  rows.forEach((deal, i) => {
    const row = el("tr");
    const th = el("th", null, t("deal_n", { n: offset + i + 1 }));
    th.setAttribute("scope", "row");
    if (deal.outcome) row.dataset.outcome = deal.outcome;
    if (deal.outcome === "cancelled") {
      const cell = el("td", "cancelled-deal", t("deal_cancelled"));
      cell.colSpan = 2;
      row.append(th, cell);
    } else {
      row.append(th, scoreCell(deal.NS), scoreCell(deal.EW));
    }
    body.append(row);
  });
  table.append(body);
  const foot = el("tfoot");
  const total = el("tr", "total");
  const th = el("th", null, t("total"));
  th.setAttribute("scope", "row");
  total.append(th, scoreCell(match.scores?.NS ?? 0), scoreCell(match.scores?.EW ?? 0));
  foot.append(total);
  table.append(foot);
  host.append(table);
  if (match.winner) host.append(el("p", "match-winner", t("match_won", { team: t(`team_${match.winner}`) })));
}

function isMatchOver(view) {
  return !!view?.match?.winner || !!view?.match?.over;
}

function closeResult() {
  clearTimeout(state.resultTimer);
  state.resultTimer = null;
  const dialog = $("score-panel");
  if (dialog?.open) {
    state.quietClose = true;
    dialog.close();
  }
}

/** Who won, from the player's side: "won", "lost", or "tie" (a litige with no match
 * winner). The taker's team wins a made contract; the match's winner, the match. */
function resultForPlayer(view) {
  const result = view.result;
  const mine = TEAM[view.seat] ?? "NS";
  const winner = view.match?.winner;
  if (winner) return winner === mine ? "won" : "lost";
  if (result.made === null || result.made === undefined) return "tie";
  const taker = view.contract?.taker;
  let team;
  if (taker) team = result.made ? TEAM[taker] : TEAM[taker] === "NS" ? "EW" : "NS";
  else team = (result.scores?.NS ?? 0) >= (result.scores?.EW ?? 0) ? "NS" : "EW";
  return team === mine ? "won" : "lost";
}

/** Whether the game is a match to a target (a single deal has none: its winner wins the
 * deal, not "the match"). */
function isMatch(view) {
  return Number(view?.match?.target) > 0;
}

/** The headline: who won the deal (or, at the end of a match, the match), from the
 * player's side. */
function resultHeadline(view) {
  const outcome = resultForPlayer(view);
  if (outcome === "tie") return t("result_litige");
  if (view.match?.winner && isMatch(view)) {
    return outcome === "won" ? t("you_win_match") : t("you_lose_match");
  }
  return outcome === "won" ? t("you_win_deal") : t("you_lose_deal");
}

const STEP_CODES = new Set(["cards", "last_trick", "capot", "announcement", "capot_announcements", "belote"]);
const VERDICT_CODES = { contract_made: "result_made", contract_failed: "result_failed", contract_litige: "result_litige" };

/** The breakdown as the steps that lead to the deal's score: the card points, "+" each
 * bonus (last trick, announcements, belote), what the contract's verdict makes of them
 * ("Contract made: points scored"), then the deal's score ("rounded to the nearest ten"
 * when the rules round). The multiplier and the rounding are said in the line they change;
 * a verdict whose numbers are the deal's score is said in the score's own line
 * ("Contract failed: score of the deal"), so that no number is shown twice. */
function breakdownLines(result) {
  const lines = (result.lines ?? []).filter((line) => line.code !== "rounding" && line.code !== "multiplier");
  const rounded = (result.lines ?? []).some((line) => line.code === "rounding");
  const multiplied = (result.lines ?? []).some((line) => line.code === "multiplier");
  const shown = [];
  let verdict = null;
  for (const [index, line] of lines.entries()) {
    const code = line.code ?? "";
    if (STEP_CODES.has(code)) {
      const first = !shown.some((row) => STEP_CODES.has(row.code));
      shown.push({ ...line, text: first ? line.text : t("breakdown_plus", { line: line.text }) });
    } else if (VERDICT_CODES[code]) {
      verdict = t(VERDICT_CODES[code]);
      const next = lines[index + 1];
      const same = next?.code === "total" && !rounded && next.NS === line.NS && next.EW === line.EW;
      if (same) continue;
      const key = multiplied ? "breakdown_verdict_times" : "breakdown_verdict";
      shown.push({ ...line, text: t(key, { verdict, multiplier: result.multiplier }) });
      verdict = null;
    } else if (code === "total") {
      let text = rounded ? t("breakdown_total_rounded") : line.text;
      if (verdict !== null) {
        const key = multiplied ? "breakdown_total_verdict_times" : "breakdown_total_verdict";
        text = t(key, { verdict, multiplier: result.multiplier });
      }
      shown.push({ ...line, text });
    } else {
      shown.push(line);
    }
  }
  return shown;
}

function renderResult(view, openNow = false, justEnded = false) {
  const dialog = $("score-panel");
  const result = view.result;
  if (view.phase !== "over" || !result) {
    state.resultDismissed = false;
    closeResult();
    return;
  }
  $("score-title").textContent = resultHeadline(view);
  $("score-verdict").textContent =
    result.made === true ? t("result_made") : result.made === false ? t("result_failed") : t("result_litige");
  dialog.dataset.made = String(result.made);
  // The headline's colour says the player's outcome, not the contract's.
  dialog.dataset.outcome = resultForPlayer(view);
  $("score-contract").replaceChildren(contractNode(view.contract));
  const lines = $("score-lines");
  lines.replaceChildren();
  const shown = breakdownLines(result);
  for (const line of shown) {
    const row = el("tr");
    if (line.code) row.dataset.code = line.code;
    const th = el("th", null, line.text ?? line.code ?? "");
    th.setAttribute("scope", "row");
    row.append(th, scoreCell(line.NS), scoreCell(line.EW));
    lines.append(row);
  }
  // The server's breakdown ends with the deal's score; otherwise the page adds it.
  $("score-total").hidden = shown.some((line) => line.code === "total");
  $("score-ns").replaceChildren(el("bdi", null, String(result.scores?.NS ?? 0)));
  $("score-ew").replaceChildren(el("bdi", null, String(result.scores?.EW ?? 0)));
  // The takers' belote counted in their column, and scored by the defenders: said in words.
  $("score-note").hidden = !result.belote_moved;
  $("score-note").textContent = result.belote_moved ? t("belote_moved") : "";
  renderSheet($("sheet-panel"), view, true);
  const next = $("next-deal");
  next.textContent = view.next_deal || !isMatchOver(view) ? t("next_deal") : t("play_again");
  $("replay-open").hidden = !view.replay;
  if (state.replayStep !== null || state.resultDismissed) {
    if (dialog.open) closeResult();
    return;
  }
  if (dialog.open || state.resultTimer) return;
  // The final trick stays on the table a moment before the dialog comes over it.
  const delay = openNow || !justEnded ? 0 : pace().hold;
  const open = () => {
    state.resultTimer = null;
    if (state.view !== view && state.view?.phase !== "over") return;
    if (dialog.open || state.replayStep !== null || state.resultDismissed) return;
    dialog.showModal();
    next.focus();
  };
  if (delay > 0) state.resultTimer = setTimeout(open, delay);
  else open();
}

// ------------------------------------------------------------------------------------------
// The replay: every hand open, card by card
// ------------------------------------------------------------------------------------------

function replayPlays(view) {
  const tricks = view.replay?.tricks ?? [];
  if (tricks.length && !Array.isArray(tricks[0]) && tricks[0].card) {
    return tricks.map((p) => ({ seat: p.seat, card: p.card }));
  }
  const plays = [];
  for (const trick of tricks) plays.push(...playsOf(trick));
  return plays;
}

function renderReplay(view) {
  const panel = $("replay");
  const felt = $("felt");
  if (view.phase !== "over" || state.replayStep === null || !view.replay) {
    panel.hidden = true;
    felt.classList.remove("replaying");
    for (const open of felt.querySelectorAll(".open-hand")) open.replaceChildren();
    return;
  }
  panel.hidden = false;
  felt.classList.add("replaying");
  const plays = replayPlays(view);
  const step = Math.max(0, Math.min(plays.length, state.replayStep));
  state.replayStep = step;
  const played = new Set(plays.slice(0, step).map((p) => p.card));
  const trickStart = step === 0 ? 0 : Math.floor((step - 1) / 4) * 4;
  const current = plays.slice(trickStart, step);
  for (const seat of SEATS) {
    const open = felt.querySelector(`.seat[data-seat="${seat}"] .open-hand`);
    const cards = sortHand(view.replay.hands?.[seat] ?? [], trumpOf(view)).filter((c) => !played.has(c));
    open.replaceChildren(
      ...cards.map((code) => {
        const card = makeCard(code, deck());
        card.classList.add("mini");
        card.setAttribute("role", "img");
        card.setAttribute("aria-label", cardName(code));
        return card;
      }),
    );
    open.setAttribute("aria-label", t("label_value", { label: seatName(seat), value: cards.map(cardName).join(", ") }));
    const backs = felt.querySelector(`.seat[data-seat="${seat}"] .backs`);
    if (backs) backs.replaceChildren();
  }
  const trick = $("trick");
  for (const seat of SEATS) {
    const slot = trick.querySelector(`.slot[data-seat="${seat}"]`);
    const play = current.find((p) => p.seat === seat);
    if (!play) {
      slot.replaceChildren();
      continue;
    }
    const card = makeCard(play.card, deck());
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", t("label_value", { label: seatName(seat), value: cardName(play.card) }));
    slot.replaceChildren(card);
  }
  const counter = $("replay-step");
  counter.replaceChildren(tNode("replay_step", { n: step, total: plays.length }));
  const last = plays[step - 1];
  $("replay-said").textContent = last ? t("plays", { seat: seatName(last.seat), ...cardWords(last.card) }) : "";
  $("replay-first").disabled = step === 0;
  $("replay-prev").disabled = step === 0;
  $("replay-next").disabled = step >= plays.length;
  $("replay-last").disabled = step >= plays.length;
}

function replayGo(step) {
  state.replayStep = step;
  render(state.view, state.view);
}

// ------------------------------------------------------------------------------------------
// Wiring
// ------------------------------------------------------------------------------------------

function wire() {
  const form = $("new-game");
  const deckSelect = form.querySelector('[name="deck"]');
  const rulesSelect = form.querySelector('[name="rules"]');
  const settings = loadSettings();
  if (settings.deck && deckSelect) deckSelect.value = settings.deck;
  rulesSelect?.addEventListener("change", () => {
    // docs/rules.md 10: Maghreb tables play with the Spanish-suited deck.
    const preset = rulesSelect.selectedOptions[0];
    const presetDeck = preset?.dataset.deck || (rulesSelect.value === "maghreb" ? "spanish" : "french");
    if (deckSelect && !loadSettings().deck) deckSelect.value = presetDeck;
    // What the chosen rules are, said under the menu (not only in a tooltip).
    const help = $("ng-rules-help");
    if (help) help.textContent = preset?.dataset.description ?? "";
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    newGame(form);
  });

  const hand = $("hand");
  hand.addEventListener("click", (event) => {
    const button = event.target.closest(".card");
    if (button) onCard(button.dataset.card, button);
  });
  hand.addEventListener("keydown", onHandKey);
  hand.addEventListener("contextmenu", (event) => {
    // A long press on a greyed card says why, like a tap: no menu over it.
    const button = event.target.closest(".card.refused");
    if (!button) return;
    event.preventDefault();
    onCard(button.dataset.card, button);
  });
  hand.addEventListener("focusin", (event) => {
    const button = event.target.closest(".card");
    if (button) state.focusCard = button.dataset.card;
  });

  $("last-trick-toggle").addEventListener("click", () => {
    state.lastTrickOpen = !state.lastTrickOpen;
    state.reviewIndex = null;
    if (state.view) renderInfo(state.view);
  });
  const review = (delta) => {
    const count = state.dealTricks.filter(Boolean).length;
    const index = (state.reviewIndex ?? count - 1) + delta;
    state.reviewIndex = Math.max(0, Math.min(count - 1, index));
    if (state.view) renderInfo(state.view);
  };
  $("trick-prev").addEventListener("click", () => review(-1));
  $("trick-next").addEventListener("click", () => review(1));
  // A phone turned sideways mid-deal: the table brought to the top, as when it appears.
  window.matchMedia(SIDEWAYS).addEventListener("change", (event) => {
    if (event.matches && !$("table").hidden) $("table").scrollIntoView({ block: "start" });
  });
  $("next-deal").addEventListener("click", nextDeal);
  $("result-new-game").addEventListener("click", () => {
    state.resultDismissed = true;
    closeResult();
    showForm(true, true);
  });
  $("score-close").addEventListener("click", () => $("score-panel").close());
  $("score-panel").addEventListener("keydown", trapTab);
  $("score-panel").addEventListener("close", () => {
    // The close event comes later than close(): the page's own closes are told apart.
    if (state.quietClose) {
      state.quietClose = false;
      return;
    }
    if (state.view?.phase !== "over") return;
    // Escape or "See the table": the final trick and the table, and a way back.
    state.resultDismissed = true;
    renderControls(state.view);
    $("controls").querySelector("[data-action=show-result]")?.focus();
  });
  $("replay-open").addEventListener("click", () => {
    replayGo(0);
    $("replay-next").focus();
  });
  $("replay-close").addEventListener("click", () => {
    state.replayStep = null;
    render(state.view, state.view);
    $("replay-open").focus();
  });
  $("replay-first").addEventListener("click", () => replayGo(0));
  $("replay-prev").addEventListener("click", () => replayGo((state.replayStep ?? 0) - 1));
  $("replay-next").addEventListener("click", () => replayGo((state.replayStep ?? 0) + 1));
  $("replay-last").addEventListener("click", () => replayGo(999));
  $("replay").addEventListener("keydown", (event) => {
    const rtl = page.dir === "rtl";
    if (event.key === (rtl ? "ArrowLeft" : "ArrowRight")) replayGo((state.replayStep ?? 0) + 1);
    else if (event.key === (rtl ? "ArrowRight" : "ArrowLeft")) replayGo((state.replayStep ?? 0) - 1);
    else return;
    event.preventDefault();
  });

  document.addEventListener("focusin", (event) => {
    const target = event.target;
    state.focusZone = target.closest?.("#hand") ? "hand" : target.closest?.("#controls, #score-panel") ? "controls" : null;
  });

  document.addEventListener("cardavia:settings", () => {
    if (state.view) render(state.view, state.view);
  });
  window.addEventListener("online", () => {
    showOffline();
    if (state.game && !state.ws) connect();
  });
  window.addEventListener("offline", () => showOffline());
  showOffline();
  placeHintsSetting();
}

/** The hints setting (drawn by learn.js once its words have come) goes with the form's
 * other settings while the form is open, where a newcomer chooses them; during a game, back
 * beside the hint button, where a player turns hints on or off. */
function placeHintsSetting() {
  const slot = $("ng-hints-slot");
  if (!slot) return;
  const move = () => {
    const hints = $("learn-hints")?.closest("label");
    if (!hints) return false;
    if (!state.hintsHome) state.hintsHome = { parent: hints.parentElement, next: hints.nextSibling };
    // A room's page hides the form (its own forms make the game): the setting stays in the bar.
    const section = $("new-game-section");
    const open = section?.dataset.open === "on" && !section.hidden;
    if (open && hints.parentElement !== slot) slot.append(hints);
    if (!open && hints.parentElement === slot) {
      const { parent, next } = state.hintsHome;
      parent.insertBefore(hints, next?.parentNode === parent ? next : null);
    }
    return true;
  };
  state.placeHints = move;
  if (move()) return;
  const watcher = new MutationObserver(() => {
    if (move()) watcher.disconnect();
  });
  watcher.observe(document.body, { childList: true, subtree: true });
}

/** Offline, play cannot work: the form says so (and what does work), its Deal greyed. */
function showOffline(offline = !navigator.onLine) {
  const note = $("offline-note");
  if (note) note.hidden = !offline;
  const deal = $("deal-button");
  if (deal) deal.disabled = offline;
  if (offline && state.view === null) setStatus(t("offline"), "error");
  else if (!offline && $("status")?.textContent === t("offline")) setStatus("");
}

/** Tab and Shift+Tab stay in the result dialog (a modal dialog lets them out to the
 * browser's own bar): from its last control to its first, and back. */
function trapTab(event) {
  if (event.key !== "Tab") return;
  const dialog = event.currentTarget;
  const controls = [...dialog.querySelectorAll("button, a[href], select, input, [tabindex]")].filter(
    (node) => !node.disabled && node.tabIndex >= 0 && node.getClientRects().length > 0,
  );
  if (!controls.length) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (event.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
    last.focus();
    event.preventDefault();
  } else if (!event.shiftKey && document.activeElement === last) {
    first.focus();
    event.preventDefault();
  }
}

// For the tests and the curious: the page's state, read only.
window.cardavia = {
  get view() {
    return state.view;
  },
  get pending() {
    return state.queue.length;
  },
  allCodes: ALL_CODES,
  rankLabel,
  suitOf,
  breakdownLines,
};

wire();
resume();
