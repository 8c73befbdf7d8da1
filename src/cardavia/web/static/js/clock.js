// The action clock of a quick-play table (docs/players.md, "Leaving"): the seat whose turn
// it is shows the seconds left, a ring that empties and the number in it (role="timer").
// Each view says how many seconds are left (view.clock.ends_in), never a time of day, so a
// device whose own clock is wrong counts right. Screen readers are told at sensible moments
// only, on a polite line of their own: when the player's own turn starts, with its time, and
// when ten and five seconds are left of it; never every second (a timer is not read as it
// changes, and its label is renewed every five seconds only). Each sentence is a plural
// message ("1 second left", Polish "zostały 3 sekundy", Arabic "بقيت ثانيتان").

import { pluralText } from "./plurals.js";

const LOW = 10;
const SAID_AT = [10, 5];
let heard = null; // {seat, ends: performance.now() milliseconds, of, you, turn}
let ticker = null;
let announced = { turn: null, said: [] }; // what the polite line said, for which turn
let words = {};

/** The clock of the view just heard (null: none runs) at the point ``turn`` of the game,
 * for the player in seat ``you``. */
export function heardClock(clock, turn, you, strings) {
  words = strings || {};
  if (!clock || typeof clock.ends_in !== "number") {
    heard = null;
  } else if (!heard || heard.turn !== turn) {
    heard = { seat: clock.seat, ends: performance.now() + clock.ends_in * 1000, of: clock.of || clock.ends_in, you, turn };
  }
  tick();
}

function secondsLeft() {
  return heard ? Math.max(0, (heard.ends - performance.now()) / 1000) : 0;
}

function seatWord(code) {
  return words.seats?.[code] || code;
}

/** The ring at the seat to act (made once per seat box), the others' emptied. */
function draw() {
  const left = secondsLeft();
  for (const box of document.querySelectorAll(".seat[data-seat]")) {
    const code = box.dataset.seat;
    let ring = /** @type {HTMLElement} */ (box.querySelector(".room-clock"));
    if (!heard || heard.seat !== code) {
      if (ring) ring.hidden = true;
      continue;
    }
    if (!ring) {
      ring = document.createElement("span");
      ring.className = "room-clock";
      ring.setAttribute("role", "timer");
      const number = document.createElement("span");
      number.className = "room-clock-seconds";
      number.setAttribute("aria-hidden", "true");
      ring.append(number);
      (box.querySelector(".seat-name") || box).after(ring);
    }
    ring.hidden = false;
    const whole = Math.ceil(left);
    ring.style.setProperty("--left", String(heard.of > 0 ? Math.min(1, left / heard.of) : 0));
    ring.dataset.low = whole <= LOW ? "on" : "off";
    ring.querySelector(".room-clock-seconds").textContent = new Intl.NumberFormat(lang()).format(whole);
    if (!ring.hasAttribute("aria-label") || ring.dataset.turn !== String(heard.turn) || whole % 5 === 0) {
      ring.dataset.turn = String(heard.turn);
      ring.setAttribute("aria-label", secondsText(words.clock_left || "{seat}: {seconds} s", whole).replace("{seat}", seatWord(code)));
    }
  }
}

function lang() {
  return document.documentElement.lang || "en";
}

/** A plural message of the clock, its seconds filled in. */
function secondsText(forms, seconds) {
  return pluralText(forms, seconds, lang()).replace("{seconds}", new Intl.NumberFormat(lang()).format(seconds));
}

/** The polite line: the player's own turn and its time, then ten and five seconds left. */
function say() {
  const line = document.getElementById("room-clock-said");
  if (!line || !heard || heard.seat !== heard.you) return;
  const whole = Math.ceil(secondsLeft());
  if (announced.turn !== heard.turn) {
    announced = { turn: heard.turn, said: SAID_AT.filter((moment) => whole <= moment) };
    line.textContent = secondsText(words.clock_yours || "", whole);
    return;
  }
  const moment = SAID_AT.find((at) => whole <= at && whole > 0 && !announced.said.includes(at));
  if (moment !== undefined) {
    announced.said = SAID_AT.filter((at) => whole <= at);
    line.textContent = secondsText(words.clock_low || "", whole);
  }
}

function tick() {
  draw();
  say();
  const running = heard && secondsLeft() > 0;
  if (running && !ticker) ticker = setInterval(tick, 250);
  else if (!running && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}
