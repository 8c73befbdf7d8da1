// The better line of a moment of the analysis, replayed on a felt like the table's: the four
// hands shown around the trick (the player at the bottom, each seat labelled, West on the
// right as at the table), with previous / next / play controls and the step said in words.

import { makeCard } from "./cards.js";

const SEATS = ["N", "E", "S", "W"];

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

/** The hands and the trick at a moment, before its better line: every hand shown. */
export function positionAt(data, hands, number) {
  const left = Object.fromEntries(SEATS.map((s) => [s, [...(hands[s] ?? [])]]));
  const before = data.cards.filter((c) => c.number < number);
  for (const c of before) left[c.seat] = left[c.seat].filter((code) => code !== c.card);
  const inTrick = before.length % 4;
  const trick = inTrick ? before.slice(-inTrick).map((c) => [c.seat, c.card]) : [];
  return { hands: left, trick };
}

/** The position after ``step`` cards of ``line`` from ``start``. */
export function positionAfter(start, line, step) {
  const position = {
    hands: Object.fromEntries(SEATS.map((s) => [s, [...start.hands[s]]])),
    trick: [...start.trick],
  };
  for (const [seat, code] of line.slice(0, step)) {
    if (position.trick.length === 4) position.trick = [];
    position.hands[seat] = position.hands[seat].filter((c) => c !== code);
    position.trick.push([seat, code]);
  }
  return position;
}

/** Where each seat sits around the felt when ``me`` is at the bottom (West right of South). */
export function placeOf(me) {
  const at = SEATS.indexOf(SEATS.includes(me) ? me : "S");
  const places = ["bottom", "right", "top", "left"];
  return Object.fromEntries(SEATS.map((seat) => [seat, places[(SEATS.indexOf(seat) - at + 4) % 4]]));
}

function picture(code, deck, name) {
  const card = makeCard(code, deck, "span");
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", name || code);
  return card;
}

/**
 * A replay board for ``moment`` of ``data`` (the worded analysis): ``hands`` the deal's four
 * hands as dealt, ``me`` the player's seat, ``words`` the view's labels and seat names.
 * Returns the board's element; it starts before the better card, paused.
 */
export function replayBoard(data, moment, { hands, me, deck, words, seatName }) {
  const names = Object.fromEntries(data.cards.map((c) => [c.card, c.name]));
  const start = positionAt(data, hands, moment.number);
  const line = moment.line;
  const places = placeOf(me);
  const board = el("div", "learn-board");
  board.dataset.moment = String(moment.number);
  const felt = el("div", "learn-felt");
  const controls = el("div", "learn-steps");
  const button = (key, className) => {
    const b = el("button", `learn-step ${className}`, words[key]);
    b.type = "button";
    return b;
  };
  const prev = button("previous", "learn-prev");
  const play = button("play_line", "learn-play");
  const next = button("next", "learn-next");
  const counter = el("span", "learn-counter");
  counter.setAttribute("role", "status");
  controls.append(prev, play, next, counter);
  board.append(felt, controls);
  let step = 0;
  let timer = null;

  const draw = () => {
    const position = positionAfter(start, line, step);
    felt.replaceChildren();
    for (const seat of SEATS) {
      const hand = el("div", "learn-hand");
      hand.dataset.seat = seat;
      hand.dataset.place = places[seat];
      const label = el("span", "learn-seat", seatName(seat));
      const cards = el("span", "learn-hand-cards");
      for (const code of position.hands[seat]) cards.append(picture(code, deck, names[code]));
      hand.append(label, cards);
      felt.append(hand);
    }
    const trick = el("div", "learn-trick");
    for (const [seat, code] of position.trick) {
      // "West: ace of hearts" as the language joins them (French: "Ouest : as de cœur").
      const said = fill(words.seat_card ?? "{seat}: {card}", { seat: seatName(seat), card: names[code] ?? code });
      const played = picture(code, deck, said);
      played.dataset.seat = seat;
      played.dataset.place = places[seat];
      trick.append(played);
    }
    felt.append(trick);
    board.dataset.step = String(step);
    board.dataset.done = String(step >= line.length);
    counter.textContent = fill(words.step, { n: step, total: line.length });
    prev.disabled = step === 0;
    next.disabled = step >= line.length;
    play.textContent = timer ? words.pause : words.play_line;
    play.setAttribute("aria-pressed", timer ? "true" : "false");
  };
  const stop = () => {
    clearTimeout(timer);
    timer = null;
  };
  const go = (to) => {
    step = Math.max(0, Math.min(line.length, to));
    draw();
  };
  const run = () => {
    if (step >= line.length) {
      stop();
      draw();
      return;
    }
    go(step + 1);
    timer = setTimeout(run, 600);
    draw();
  };
  prev.addEventListener("click", () => {
    stop();
    go(step - 1);
  });
  next.addEventListener("click", () => {
    stop();
    go(step + 1);
  });
  play.addEventListener("click", () => {
    if (timer) {
      stop();
      draw();
      return;
    }
    if (step >= line.length) step = 0;
    timer = setTimeout(run, 0);
    draw();
  });
  board.stop = stop;
  draw();
  return board;
}
