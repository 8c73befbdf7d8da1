// A tournament deal's table (docs/tournaments.md, "Playing"): hands its game to the table
// page (``window.cardaviaGivenGame``, which table.js plays instead of the browser's saved
// game, and leaves that one as it was), and makes the way back to the tournament the
// result's first button. A tournament deal is one deal: its "next deal" and "other rules"
// buttons are hidden (tournaments.css). A classic script in the page's head, so that it runs
// before the table's module does.
(() => {
  const script = document.currentScript;
  try {
    const game = JSON.parse(script.dataset.game || "null");
    if (game && game.game && game.token) window.cardaviaGivenGame = game;
  } catch {
    // a broken page: the table offers a new game, and the tournament's page the way back
  }
  document.documentElement.dataset.tournament = "on";
  document.addEventListener("DOMContentLoaded", () => {
    const back = document.getElementById("tournament-back");
    const actions = document.querySelector("#score-panel .score-actions");
    if (!back || !actions) return;
    const link = /** @type {HTMLElement} */ (back.cloneNode(true));
    link.id = "tournament-back-result";
    link.className = "button-link primary";
    actions.prepend(link);
  });
})();
