// What a room's kind of table adds to its flow (docs/web.md, "The flow of each kind of
// table"): a friends' room's offer of a new game (who offered, Accept or Decline, who
// declined), a quick-play table's "play again" that takes only this player back to the queue,
// a seat left for good said to the others once, and the clear screen of the one who left.
// Names are always written as text, never markup.

import { forgetSeat as forgetStoredSeat, lang, roomCode, SEATS, strings } from "./room_join.js";

/** Whether this page's player asked to leave for good (the server's "removed" that follows
 * is their own doing: the clear screen, not the join form). */
let leaving = false;
/** The seats already said to have left (so that each is said once). */
const toldLeft = new Set();
let heardRooms = 0;

/** A sentence with a name in it ("{name} offers a new game."), the name isolated as text. */
function withName(template, name) {
  const [before, after] = (template || "{name}").split("{name}");
  const bdi = document.createElement("bdi");
  bdi.textContent = name;
  return [before, bdi, after ?? ""];
}

function nameOf(room, seat) {
  const entry = room.seats?.[seat];
  return entry?.name || strings.seats?.[seat] || seat;
}

/** The offer of a new game, in the result dialog and in the room's box: the others' offer to
 * accept or decline, this player's own offer waiting, or who declined the last one. */
export function renderOffer(room, send) {
  const offers = room.offers ?? [];
  const mine = room.you && offers.includes(room.you);
  const others = offers.filter((seat) => seat !== room.you);
  for (const box of document.querySelectorAll("[data-offer-box]")) {
    const shown = /** @type {HTMLElement} */ (box);
    shown.replaceChildren();
    shown.hidden = true;
    shown.dataset.state = "";
    if (!room.over || !room.you || room.quick) continue;
    const line = document.createElement("p");
    if (others.length && !mine) {
      line.append(...withName(strings.offer_made, others.map((seat) => nameOf(room, seat)).join(", ")));
      const accept = document.createElement("button");
      accept.type = "button";
      accept.className = "primary";
      accept.dataset.offer = "accept";
      accept.textContent = strings.offer_accept;
      accept.addEventListener("click", () => send({ type: "again", game: window.cardavia?.view?.game }));
      const decline = document.createElement("button");
      decline.type = "button";
      decline.className = "secondary";
      decline.dataset.offer = "decline";
      decline.textContent = strings.offer_decline;
      decline.addEventListener("click", () => send({ type: "decline" }));
      shown.append(line, accept, " ", decline);
      shown.dataset.state = "offered";
    } else if (mine) {
      line.textContent = strings.offer_waiting;
      shown.append(line);
      shown.dataset.state = "waiting";
    } else if (room.declined && room.declined !== room.you) {
      line.append(...withName(strings.offer_declined, nameOf(room, room.declined)));
      shown.append(line);
      shown.dataset.state = "declined";
    } else continue;
    shown.hidden = false;
  }
}

/** A seat whose person left for good since the page came: said once to the others ("Ana
 * left — a computer player plays the seat"). The seats left before the page came are not
 * news. */
export function tellLeavers(room) {
  const news = document.getElementById("room-news");
  const first = heardRooms === 0;
  heardRooms += 1;
  for (const seat of SEATS) {
    const entry = room.seats?.[seat];
    if (!entry?.left || toldLeft.has(seat)) continue;
    toldLeft.add(seat);
    if (first || seat === room.you || !news) continue;
    news.replaceChildren(...withName(strings.left_news, nameOf(room, seat)));
  }
}

/** This player leaves for good: what follows from the server is their own doing. */
export function leave(send, room) {
  leaving = true;
  document.getElementById("room-left")?.setAttribute("data-loss", String(!!room?.quick && !!room?.started && !room?.over));
  send({ type: "leave" });
}

/** A message of the room's socket this module answers: a quick-play "play again" (to the
 * queue's waiting page), or the "removed" that follows this player's own leaving (the clear
 * screen). Answers whether it was one. */
export function onFlowMessage(message) {
  if (message.type === "queue" && typeof message.rules === "string") {
    location.assign(`/${lang()}/quick/${encodeURIComponent(message.rules)}`);
    return true;
  }
  if (leaving && message.type === "error" && message.code === "removed") {
    showLeft();
    return true;
  }
  return false;
}

/** The seat is no longer this browser's (the socket closed it): after leaving for good, the
 * clear screen stays; otherwise the join form, as before. */
export function forgetSeat() {
  if (!leaving) {
    forgetStoredSeat();
    return;
  }
  const code = roomCode();
  try {
    if (code) localStorage.removeItem(`cardavia.room.${code}`);
  } catch {
    // ignore
  }
  showLeft();
}

/** The clear screen of one who left for good: what it counted, and the ways on. */
function showLeft() {
  const screen = document.getElementById("room-left");
  if (!screen || !screen.hidden) return;
  for (const id of ["table", "room-lobby", "room-join", "room-error"]) {
    const part = document.getElementById(id);
    if (part) part.hidden = true;
  }
  document.documentElement.dataset.left = "on";
  const loss = screen.dataset.loss === "true";
  const counted = document.getElementById("room-left-loss");
  if (counted) counted.hidden = !loss;
  screen.hidden = false;
  document.getElementById("room-left-title")?.focus();
}
