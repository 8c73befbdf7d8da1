// A room's page (docs/web.md, "Rooms"): create a room, open one by its code, take a seat
// with a display name (room_join.js); then the seats, the creator's start, the quick phrases,
// the players' names at the table and an away player's countdown. The table
// itself is table.js's, drawn as the server sends it: each view names the real seats and says
// where each is drawn (view.screen, this player's own seat at the bottom), so nothing is
// turned here. Names are always written as text, never markup.

import { heardClock } from "./clock.js";
import { pluralText } from "./plurals.js";
import { leave as leaveForGood, onFlowMessage, renderOffer, tellLeavers } from "./room_flow.js";
import { renderInvites } from "./room_invite.js";
import { safetyControls } from "./room_safety.js";
import {
  createRoom,
  findRoom,
  joinRoom,
  lang,
  loadSeat,
  roomCode,
  SEATS,
  seatLine,
  section,
  showJoin,
  showRoomOffline,
  strings,
} from "./room_join.js";

export { forgetSeat } from "./room_flow.js";
export { loadSeat, roomCode, showJoin, showRoomOffline } from "./room_join.js";

let current = null;

function renderRoom(room, send) {
  current = room;
  heardTakeovers(room.seats);
  renderInvites(room);
  document.getElementById("room-join").hidden = true;
  const lobby = document.getElementById("room-lobby");
  lobby.hidden = false;
  document.getElementById("room-code").textContent = room.code;
  /** @type {HTMLInputElement} */ (document.getElementById("room-link")).value = `${location.origin}/${lang()}/room/${room.code}`;
  // Once dealt nobody new can sit: no link to send; the table first, the seats and the
  // quick phrases below it (a phone shows the table without scrolling past them).
  document.getElementById("room-share").hidden = room.started;
  const table = document.getElementById("table");
  if (room.started && room.you && table && lobby.previousElementSibling !== table) table.after(lobby);
  const list = document.getElementById("room-seats");
  list.replaceChildren();
  for (const code of SEATS) {
    const entry = room.seats[code];
    const item = document.createElement("li");
    item.dataset.seat = code;
    item.dataset.kind = entry.kind;
    const label = [];
    if (code === room.you) label.push(` (${strings.you})`);
    if (entry.away) label.push(` — ${strings.away}`);
    if (entry.kind === "human" && entry.computer) label.push(` — ${strings.played_by_computer}`);
    if (entry.left) label.push(` — ${strings.left_seat}`);
    if (entry.ready) label.push(` — ${strings.ready}`);
    const text = seatLine(code, entry);
    text.append(label.join(""));
    item.append(text);
    const button = seatButton(room, code, entry, send);
    if (button) item.append(" ", button);
    const safety = safetyControls(room, code, entry);
    if (safety) item.append(" ", safety);
    list.append(item);
  }
  // The game over: play again with the other length (the result's "Play again": the same).
  const again = document.getElementById("room-again");
  again.hidden = !(room.over && room.you) || room.quick;
  again.textContent = room.target === null ? strings.again_match : strings.again_single;
  again.onclick = () =>
    send({ type: "again", game: window.cardavia?.view?.game, match: room.target === null });
  renderLeaving(room, send);
  renderOffer(room, send);
  tellLeavers(room);
  const start = document.getElementById("room-start");
  start.hidden = !(room.creator && !room.started);
  document.getElementById("room-wait").hidden = !!(room.creator || room.started || !room.you);
  start.onclick = () => send({ type: "start" });
  const phrases = document.getElementById("room-phrases");
  if (!phrases.childElementCount && room.you) {
    for (const [code, text] of Object.entries(strings.phrases || {})) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.phrase = code;
      button.textContent = text;
      button.addEventListener("click", () => send({ type: "phrase", code }));
      phrases.append(button);
    }
  }
  renderNames();
}

/** Leaving, and the quick-play table's policy for it (docs/players.md, "Leaving"): a friends'
 * room's "Leave the room for good" leaves at once; a quick-play table's "Leave the table",
 * once its game started, asks first (it counts as a loss). A player the clock made away is
 * offered "I'm back". */
function renderLeaving(room, send) {
  const quick = !!room.quick;
  document.getElementById("room-title").textContent = quick ? strings.quick_title : strings.friends_title;
  const policy = document.getElementById("room-policy");
  // A watcher is told no rule addressed to a player (the table says they watch).
  policy.hidden = !quick || !room.you;
  const lang = document.documentElement.lang || "en";
  policy.textContent = pluralText(strings.policy, room.clock, lang).replace("{seconds}", new Intl.NumberFormat(lang).format(room.clock));
  const leave = document.getElementById("room-leave");
  const confirm = document.getElementById("room-leave-confirm");
  leave.hidden = !room.you;
  leave.textContent = quick ? strings.leave_table : strings.leave_room;
  const asks = quick && room.started;
  leave.setAttribute("aria-expanded", String(asks && !confirm.hidden));
  if (!asks) confirm.hidden = true;
  leave.onclick = () => {
    if (!asks) {
      leaveForGood(send, room);
      return;
    }
    confirm.hidden = false;
    leave.setAttribute("aria-expanded", "true");
    document.getElementById("room-leave-no").focus(); // the safe answer first
  };
  document.getElementById("room-leave-yes").onclick = () => {
    confirm.hidden = true;
    leaveForGood(send, room);
  };
  document.getElementById("room-leave-no").onclick = () => {
    confirm.hidden = true;
    leave.setAttribute("aria-expanded", "false");
    leave.focus();
  };
  const idle = document.getElementById("room-idle");
  idle.hidden = !(room.you && room.seats[room.you]?.away);
  document.getElementById("room-back").onclick = () => send({ type: "back" });
}

/** What can be done about a seat from here: sit in it (an open seat, before the start), or,
 * for the creator, free it (before the start) or remove its player (after). */
function seatButton(room, code, entry, send) {
  let label = null;
  let message = null;
  if (entry.kind === "open" && !room.started && room.you) {
    [label, message] = [strings.sit, { type: "sit", seat: code }];
  } else if (room.creator && entry.kind === "human" && code !== room.you) {
    [label, message] = room.started
      ? [strings.remove, { type: "remove", seat: code }]
      : [strings.free, { type: "free", seat: code }];
  }
  if (!label) return null;
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.seatAction = message.type;
  button.textContent = label;
  button.addEventListener("click", () => send(message));
  return button;
}

/** A child of a seat's box on the table, made once: its name, its countdown. */
function seatTag(box, className, after) {
  let tag = box.querySelector(`.${className}`);
  if (!tag) {
    tag = document.createElement("span");
    tag.className = className;
    if (after) after.after(tag);
    else box.prepend(tag);
  }
  return tag;
}

/** The players' names at their seats on the table (as text), for a player away the
 * countdown before a computer player takes over their seat, and the action clock of the
 * seat to act (a quick-play table; ``view``: the view just heard, if any). */
export function renderNames(view) {
  if (view) heardClock(view.clock, `${view.game}:${view.deal_number}:${view.step}`, view.seat, strings);
  if (!current) return;
  for (const code of SEATS) {
    const entry = current.seats[code];
    const box = document.querySelector(`.seat[data-seat="${code}"]`);
    if (!box) continue;
    const tag = seatTag(box, "room-name");
    const name = entry.kind === "open" ? "" : entry.name || strings.computer;
    tag.textContent = name;
    tag.title = name;
    tag.dir = "auto"; // a name in Latin letters shortened at its end in Arabic too
    tag.dataset.computer = entry.kind === "computer" || !entry.name ? "on" : "off";
    box.dataset.away = entry.away ? "on" : "off";
    box.dataset.computer = entry.computer ? "on" : "off";
    seatTag(box, "room-away", tag);
  }
  tick();
}

// -- a player away: the countdown before a computer player takes over their seat ----------

/** When (Date.now() milliseconds) a computer player takes over each away player's seat, as
 * the server last said (it counts, the page only shows). */
const takeovers = {};
let ticker = null;

function heardTakeovers(seats) {
  for (const code of SEATS) {
    const left = seats?.[code]?.takeover;
    if (typeof left === "number" && left > 0) takeovers[code] = Date.now() + left * 1000;
    else delete takeovers[code];
  }
}

/** Seconds as a clock: 0:45, 1:05. */
function clock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** Each away player's line at their seat: the time left, or that a computer player plays. */
function tick() {
  let counting = false;
  for (const code of SEATS) {
    const line = document.querySelector(`.seat[data-seat="${code}"] .room-away`);
    if (!line) continue;
    const entry = current?.seats?.[code];
    let text = "";
    if (entry?.away && takeovers[code] !== undefined) {
      const left = (takeovers[code] - Date.now()) / 1000;
      text = (strings.takeover_in || "").replace("{time}", clock(left));
      counting = left > 0;
    } else if (entry?.away) {
      text = `${strings.away} — ${strings.played_by_computer}`;
    }
    line.textContent = text;
  }
  if (counting && !ticker) ticker = setInterval(tick, 1000);
  else if (!counting && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}

/** The status line while an away player's turn waits for them (instead of "North is
 * thinking…"), or null when the seat to move is not one of an away player still keeping it. */
export function awayLine(view) {
  const seat = view?.to_move;
  const entry = current?.seats?.[seat];
  if (!entry?.away || entry.computer || !strings.away_turn) return null;
  return strings.away_turn.replace("{seat}", strings.seats?.[seat] || seat);
}

function showPhrase(message) {
  const line = document.getElementById("room-said");
  if (line) {
    // "Ana : Bonjour !" as the language writes it (French: a no-break space before the
    // colon), the name isolated.
    const name = document.createElement("bdi");
    name.textContent = message.name || strings.seats?.[message.seat] || "";
    const [before, after] = (strings.said || "{name}: {text}").split("{name}");
    line.replaceChildren(before, name, (after ?? "").replace("{text}", () => message.text));
  }
  const box = document.querySelector(`.seat[data-seat="${message.seat}"]`);
  if (!box) return;
  /** @type {HTMLElement & { timer?: number }} */
  let bubble = box.querySelector(".room-phrase");
  if (!bubble) {
    bubble = document.createElement("span");
    bubble.className = "room-phrase";
    box.append(bubble);
  }
  bubble.textContent = message.text;
  clearTimeout(bubble.timer);
  bubble.timer = setTimeout(() => {
    bubble.textContent = "";
  }, 4000);
}

/** A message of the room's socket that is not the table's: answers whether it was one. */
export function onRoomMessage(message, send) {
  if (onFlowMessage(message)) return true;
  if (message.type === "room" && message.room) {
    renderRoom(message.room, send);
    return true;
  }
  if (message.type === "phrase") {
    showPhrase(message);
    return true;
  }
  return false;
}

if (section) {
  document.getElementById("room-create")?.addEventListener("submit", (event) => {
    event.preventDefault();
    createRoom(event.target);
  });
  document.getElementById("room-find")?.addEventListener("submit", (event) => {
    event.preventDefault();
    findRoom(event.target);
  });
  document.getElementById("room-join")?.addEventListener("submit", (event) => {
    event.preventDefault();
    joinRoom(event.target);
  });
  if (roomCode() && !loadSeat()) showJoin();
  window.addEventListener("online", () => showRoomOffline(false));
  window.addEventListener("offline", () => showRoomOffline(true));
  showRoomOffline();
}
