// A tournament deal's table (docs/tournaments.md, "Playing"): hands its game to the table
// page (``window.cardaviaGivenGame``, which table.js plays instead of the browser's saved
// game, and leaves that one as it was), and gives the table the deal's ways on (the next deal
// of the tournament, or its results after the last; the way back), drawn by table_flow.js
// where the deal ends. A tournament deal is one deal, with no casual control (its flow says
// so; tournaments.css hides them before the first view too). A classic script in the page's
// head, so that it runs before the table's module does.
(() => {
  const script = document.currentScript;
  try {
    const game = JSON.parse(script.dataset.game || "null");
    if (game && game.game && game.token) window.cardaviaGivenGame = game;
  } catch {
    // a broken page: the table offers a new game, and the tournament's page the way back
  }
  document.documentElement.dataset.tournament = "on";
  try {
    // The ways on at the end of the deal (table_flow.js draws them): the tournament's next
    // deal ("Next deal (3/6)") or, after its last, its results; and the way back.
    const ways = JSON.parse(script.dataset.ways || "null");
    if (ways && typeof ways === "object") /** @type {any} */ (window).cardaviaTournament = ways;
  } catch {
    // no ways given: the page's own link back stays
  }
})();
