// The home (templates/_home.html): shown while the table holds no game, hidden while one is
// on it (the table is the page then), following the table section's own `hidden`, which the
// table's scripts set as a game is dealt, resumed or forgotten.

function follow() {
  const home = document.getElementById("home");
  const table = document.getElementById("table");
  if (!home || !table) return;
  const place = () => {
    home.hidden = !table.hidden;
  };
  place();
  new MutationObserver(place).observe(table, { attributes: true, attributeFilter: ["hidden"] });
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", follow);
} else {
  follow();
}
