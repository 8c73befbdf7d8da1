// A tournament deal's table (docs/tournaments.md, "Playing"): hands its game to the table
// page as the game to resume (table.js reads it from the same place), and makes the way back
// to the tournament the result's first button. A tournament deal is one deal: its "next
// deal" and "other rules" buttons are hidden (tournaments.css). A classic script in the
// page's head, so that it runs before the table's module does.
(() => {
  const script = document.currentScript;
  try {
    const game = JSON.parse(script.dataset.game || "null");
    if (game && game.game && game.token) localStorage.setItem("cardavia.game", JSON.stringify(game));
  } catch {
    // no storage: the table offers a new game, and the tournament's page the way back
  }
  document.documentElement.dataset.tournament = "on";
  document.addEventListener("DOMContentLoaded", () => {
    const back = document.getElementById("tournament-back");
    const actions = document.querySelector("#score-panel .score-actions");
    if (!back || !actions) return;
    const link = back.cloneNode(true);
    link.id = "tournament-back-result";
    link.className = "button-link primary";
    actions.prepend(link);
  });
})();
