// A tournament deal's table (docs/tournaments.md, "Playing"): hands its game to the table
// page as the game to resume (table.js reads it from the same place). A classic script in the
// page's head, so that it runs before the table's module does.
(() => {
  try {
    const game = JSON.parse(document.currentScript.dataset.game || "null");
    if (game && game.game && game.token) localStorage.setItem("cardavia.game", JSON.stringify(game));
  } catch {
    // no storage: the table offers a new game, and the tournament's page the way back
  }
})();
