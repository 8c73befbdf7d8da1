// "Play this deal" (docs/players.md, "A shared deal"): hands the table page the game this
// browser made for the shared deal (kept by deal.js as cardavia.replay.<code>), which table.js
// plays instead of the browser's saved game and leaves that one as it was; and makes the way
// back to the shared deal, where both results stand side by side, the result's first button.
// A classic script in the page's head, so that it runs before the table's module does.
(() => {
  const script = document.currentScript;
  const code = script?.dataset.code ?? "";
  try {
    const game = JSON.parse(localStorage.getItem(`cardavia.replay.${code}`) || "null");
    if (game && game.game && game.token) window.cardaviaGivenGame = game;
  } catch {
    // nothing kept: the table offers a new game, and the link above the way back
  }
  document.documentElement.dataset.replay = "on";
  document.addEventListener("DOMContentLoaded", () => {
    const back = document.getElementById("deal-back");
    const actions = document.querySelector("#score-panel .score-actions");
    if (!back || !actions) return;
    const link = /** @type {HTMLElement} */ (back.cloneNode(true));
    link.id = "deal-back-result";
    link.className = "button-link primary";
    actions.prepend(link);
  });
})();
