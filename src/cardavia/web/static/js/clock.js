// The action clock of a quick-play table (docs/players.md, "Leaving"): the seat whose turn
// it is shows the seconds left, a ring that empties and the number in it (role="timer").
// Each view says how many seconds are left (view.clock.ends_in), never a time of day, so a
// device whose own clock is wrong counts right. Screen readers are told at sensible moments
// only, on a polite line of their own: when the player's own turn starts, with its time, and
// when ten seconds are left of it; never every second (a timer is not read as it changes).

const LOW = 10;
let heard = null; // {seat, ends: performance.now() milliseconds, of, you, turn}
let ticker = null;
let announced = { turn: null, low: false }; // what the polite line said, for which turn
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
    let ring = box.querySelector(".room-clock");
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
    ring.querySelector(".room-clock-seconds").textContent = new Intl.NumberFormat(document.documentElement.lang || "en").format(whole);
    ring.setAttribute(
      "aria-label",
      (words.clock_left || "{seat}: {seconds} s").replace("{seat}", seatWord(code)).replace("{seconds}", String(whole)),
    );
  }
}

/** The polite line: the player's own turn and its time, then ten seconds left. */
function say() {
  const line = document.getElementById("room-clock-said");
  if (!line || !heard || heard.seat !== heard.you) return;
  const whole = Math.ceil(secondsLeft());
  if (announced.turn !== heard.turn) {
    announced = { turn: heard.turn, low: whole <= LOW };
    line.textContent = (words.clock_yours || "").replace("{seconds}", String(whole));
  } else if (!announced.low && whole <= LOW && whole > 0) {
    announced.low = true;
    line.textContent = (words.clock_low || "").replace("{seconds}", String(whole));
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
