// The home (templates/_home.html): shown while the table holds no game, hidden while one is
// on it (the table is the page then), following the table section's own `hidden`, which the
// table's scripts set as a game is dealt, resumed or forgotten. It brings along what only the
// solo table's page does: a guest's first result offers to keep their player.

import { keepCounting } from "./countdown.js";
import { watchFirstResult } from "./keep_player.js";

function follow() {
  const home = document.getElementById("home");
  const table = document.getElementById("table");
  if (!home || !table) return;
  const place = () => {
    home.hidden = !table.hidden;
    // The tournaments' countdowns go on while the home is shown, and keep no timer while
    // the table is the page (countdown.js).
    keepCounting();
  };
  place();
  new MutationObserver(place).observe(table, { attributes: true, attributeFilter: ["hidden"] });
}

function start() {
  follow();
  watchFirstResult();
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
