// A countdown the server wrote ("Closes in 1 h 42 min": cardavia.words.times, duration) goes
// on at each minute's turn in the page's words: each <time class="countdown" data-until> is
// said again from the units' forms the page carries (#countdown-forms: each unit's text for
// one number of each plural category, plurals.js picking the form of the number's category),
// in the largest two units that are not zero, as the server says it. Once the moment has come,
// its sentence is hidden (the page, read again, says what happened).
//
// Nothing ticks that no one sees (WCAG 2.2.2, and a phone's battery): one timer for the whole
// page, set for the next minute's turn of the countdowns on the screen, none while the page is
// hidden (its visibilitychange says it again at once when shown) nor while every countdown is
// in a hidden part of the page: the home, hidden while a game is on the table (home.js calls
// keepCounting() as it hides or shows it), so that the table waiting for its player keeps no
// timer (tests/browser/test_accessibility.py).

import { pluralText } from "./plurals.js";

const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60]];
const forms = JSON.parse(document.getElementById("countdown-forms")?.textContent || "null");

/** How long `seconds` last, to the minute above, as the server says it. */
export function duration(seconds, lang) {
  let left = Math.max(1, Math.ceil(seconds / 60)) * 60;
  const amounts = [];
  for (const [unit, size] of UNITS) {
    const count = Math.floor(left / Number(size));
    left -= count * Number(size);
    if (count || amounts.length) amounts.push([unit, count]);
  }
  return amounts
    .slice(0, 2)
    .filter(([, count]) => count)
    .map(([unit, count]) => pluralText(forms.units[unit], Number(count), lang).replace("{n}", String(count)))
    .join(forms.joiner);
}

let timer = /** @type {ReturnType<typeof setTimeout> | null} */ (null);

/** Say each countdown on the screen again; how long until the next one's minute turns (a
 * little after, so that it has turned), or null when none is left to count. */
function tick() {
  const lang = document.documentElement.lang;
  let next = null;
  for (const element of document.querySelectorAll("time.countdown[data-until]")) {
    const sentence = element.closest("p");
    if (element.closest("[hidden]")) continue;
    const left = Number(/** @type {HTMLElement} */ (element).dataset.until) - Date.now();
    if (left <= 0) {
      if (sentence) sentence.hidden = true;
      continue;
    }
    element.textContent = duration(left / 1000, lang);
    const turn = (left % 60_000 || 60_000) + 50;
    next = next === null ? turn : Math.min(next, turn);
  }
  return next;
}

/** The countdowns said again now, and the page's one timer set for the next minute's turn,
 * or none (the page hidden, no countdown on the screen). */
export function keepCounting() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  if (!forms || document.visibilityState === "hidden") return;
  const wait = tick();
  if (wait !== null) timer = setTimeout(keepCounting, wait);
}

if (forms) {
  keepCounting();
  document.addEventListener("visibilitychange", keepCounting);
}
