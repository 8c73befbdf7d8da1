// A countdown the server wrote ("Closes in 1 h 42 min": cardavia.words.times, duration) goes
// on once a minute in the page's words: each <time class="countdown" data-until> is said
// again from the units' forms the page carries (#countdown-forms: each unit's text for one
// number of each plural category, plurals.js picking the form of the number's category), in
// the largest two units that are not zero, as the server says it. Once the moment has come,
// its sentence is hidden (the page, read again, says what happened).

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

function tick() {
  const lang = document.documentElement.lang;
  for (const element of document.querySelectorAll("time.countdown[data-until]")) {
    const left = (Number(/** @type {HTMLElement} */ (element).dataset.until) - Date.now()) / 1000;
    const sentence = element.closest("p");
    if (left <= 0) {
      if (sentence) sentence.hidden = true;
    } else {
      element.textContent = duration(left, lang);
    }
  }
}

if (forms) {
  tick();
  setInterval(tick, 30_000);
}
