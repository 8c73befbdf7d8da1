// The table page's shared state and its small helpers: the room's code, the page's words as
// the server gave them (#strings), the seats, what the page holds between messages (`state`),
// the status line and the "cardavia:view" event that tells the page's other parts.

import * as room from "./room.js";

/** On a room's page (docs/web.md, "Rooms"): its code; "" on the page that creates one. */
export const ROOM = room.roomCode();

export const GAME_KEY = "cardavia.game";
export const SEATS = ["N", "E", "S", "W"];
export const NEXT = { N: "E", E: "S", S: "W", W: "N" }; // docs/rules.md 2: counterclockwise
export const TEAM = { N: "NS", S: "NS", E: "EW", W: "EW" };

export const page = {
  lang: document.documentElement.lang || "en",
  dir: document.documentElement.dir || "ltr",
};
export const S = JSON.parse(document.getElementById("strings")?.textContent || "{}");
export const ui = S.ui || {};

export const state = {
  game: null, // {game, token, deck}
  ws: null,
  retry: 0,
  retryTimer: null,
  queue: [],
  pumping: false,
  view: null,
  received: null, // the view last received (a change's base), ahead of the one drawn
  version: null, // its version (docs/web.md, "Changes as changes")
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

export const $ = (id) => document.getElementById(id);
export const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
};
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A game the page hands in (a tournament deal's: tournament_play.js) is played instead of the
// browser's saved game, which stays as it was for the table's own page.
export const GIVEN_GAME = window.cardaviaGivenGame ?? null;

/** The status line, also the live region: each message a sentence of its own line. */
export function setStatus(lines, kind = "info") {
  const status = $("status");
  if (!status) return;
  const list = (Array.isArray(lines) ? lines : [lines]).filter((line) => line);
  status.replaceChildren(...list.map((line) => el("span", "status-line", line)));
  status.dataset.kind = kind;
}

/** Tell the page's other parts (learn.js's bar, which marks the hinted bid) that the table
 * shows another view or none, or drew its controls again. */
export function shown() {
  document.dispatchEvent(new Event("cardavia:view"));
}
