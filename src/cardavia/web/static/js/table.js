// The belote table: a WebSocket client of docs/web.md that draws the View of seat South.
// The server is the authority: the page only offers what `legal` lists, greys the other
// cards with the reason from `refusals`, and shows what each message brings, one at a time.
//
// This module wires the page (the form, the hand, the trick panel, the result dialog, the
// replay) and starts it; the table's parts are modules of their own: table_state.js (what the
// page holds, its words as given), table_words.js (names and sentences), table_view.js (the
// view, normalised), table_connection.js (the socket, the game kept, the new-game form),
// table_messages.js (one message at a time: render, announce), table_board.js (the seats, the
// trick, the pace), table_hand.js, table_controls.js and table_bidding.js (the bidding box),
// table_info.js (the info panel, the score sheet), table_result.js and table_replay.js. They
// call one another (the connection draws, the drawing sends), never while they load: only this
// module starts anything, once every one of them is loaded.

import { ALL_CODES, rankLabel, suitOf } from "./cards.js";
import { loadSettings } from "./settings.js";
import { connect, newGame, nextDeal, resume, showForm, showOffline } from "./table_connection.js";
import { renderControls } from "./table_controls.js";
import { onCard, onHandKey } from "./table_hand.js";
import { renderInfo } from "./table_info.js";
import { render } from "./table_messages.js";
import { breakdownLines, closeResult, trapTab } from "./table_result.js";
import { $, page, state } from "./table_state.js";

// A short screen held sideways (table.css lays the table out for it): the felt and the hand
// fit together only with the table at the top of the screen.
const SIDEWAYS = "(orientation: landscape) and (max-height: 560px)";

/** The replay at this step (clamped when drawn): the whole table drawn again. */
function replayGo(step) {
  state.replayStep = step;
  render(state.view, state.view);
}

/** Every listener of the page, once. */
function wire() {
  const form = $("new-game");
  const deckSelect = /** @type {HTMLSelectElement} */ (form.querySelector('[name="deck"]'));
  const rulesSelect = /** @type {HTMLSelectElement} */ (form.querySelector('[name="rules"]'));
  const settings = loadSettings();
  if (settings.deck && deckSelect) deckSelect.value = settings.deck;
  rulesSelect?.addEventListener("change", () => {
    // docs/rules.md 10: Maghreb tables play with the Spanish-suited deck.
    const preset = rulesSelect.selectedOptions[0];
    const presetDeck = preset?.dataset.deck || (rulesSelect.value === "maghreb" ? "spanish" : "french");
    if (deckSelect && !loadSettings().deck) deckSelect.value = presetDeck;
    // What the chosen rules are, said under the menu (not only in a tooltip).
    const help = $("ng-rules-help");
    if (help) help.textContent = preset?.dataset.description ?? "";
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    newGame(form);
  });

  const hand = $("hand");
  hand.addEventListener("click", (event) => {
    const button = /** @type {Element} */ (event.target).closest(".card");
    if (button) onCard(button.dataset.card, button);
  });
  hand.addEventListener("keydown", onHandKey);
  hand.addEventListener("contextmenu", (event) => {
    // A long press on a greyed card says why, like a tap: no menu over it.
    const button = /** @type {Element} */ (event.target).closest(".card.refused");
    if (!button) return;
    event.preventDefault();
    onCard(button.dataset.card, button);
  });
  hand.addEventListener("focusin", (event) => {
    const button = /** @type {Element} */ (event.target).closest(".card");
    if (button) state.focusCard = button.dataset.card;
  });

  $("last-trick-toggle").addEventListener("click", () => {
    state.lastTrickOpen = !state.lastTrickOpen;
    state.reviewIndex = null;
    if (state.view) renderInfo(state.view);
  });
  const review = (delta) => {
    const count = state.dealTricks.filter(Boolean).length;
    const index = (state.reviewIndex ?? count - 1) + delta;
    state.reviewIndex = Math.max(0, Math.min(count - 1, index));
    if (state.view) renderInfo(state.view);
  };
  $("trick-prev").addEventListener("click", () => review(-1));
  $("trick-next").addEventListener("click", () => review(1));
  // A phone turned sideways mid-deal: the table brought to the top, as when it appears.
  window.matchMedia(SIDEWAYS).addEventListener("change", (event) => {
    if (event.matches && !$("table").hidden) $("table").scrollIntoView({ block: "start" });
  });
  $("next-deal").addEventListener("click", nextDeal);
  $("result-new-game").addEventListener("click", () => {
    state.resultDismissed = true;
    closeResult();
    showForm(true, true);
  });
  const dialog = /** @type {HTMLDialogElement} */ ($("score-panel"));
  $("score-close").addEventListener("click", () => dialog.close());
  $("score-panel").addEventListener("keydown", trapTab);
  $("score-panel").addEventListener("close", () => {
    // The close event comes later than close(): the page's own closes are told apart.
    if (state.quietClose) {
      state.quietClose = false;
      return;
    }
    if (state.view?.phase !== "over") return;
    // Escape or "See the table": the final trick and the table, and a way back.
    state.resultDismissed = true;
    renderControls(state.view);
    $("controls").querySelector("[data-action=show-result]")?.focus();
  });
  $("replay-open").addEventListener("click", () => {
    replayGo(0);
    $("replay-next").focus();
  });
  $("replay-close").addEventListener("click", () => {
    state.replayStep = null;
    render(state.view, state.view);
    $("replay-open").focus();
  });
  $("replay-first").addEventListener("click", () => replayGo(0));
  $("replay-prev").addEventListener("click", () => replayGo((state.replayStep ?? 0) - 1));
  $("replay-next").addEventListener("click", () => replayGo((state.replayStep ?? 0) + 1));
  $("replay-last").addEventListener("click", () => replayGo(999));
  $("replay").addEventListener("keydown", (event) => {
    const rtl = page.dir === "rtl";
    if (event.key === (rtl ? "ArrowLeft" : "ArrowRight")) replayGo((state.replayStep ?? 0) + 1);
    else if (event.key === (rtl ? "ArrowRight" : "ArrowLeft")) replayGo((state.replayStep ?? 0) - 1);
    else return;
    event.preventDefault();
  });

  document.addEventListener("focusin", (event) => {
    const target = /** @type {Element} */ (event.target);
    state.focusZone = target.closest?.("#hand") ? "hand" : target.closest?.("#controls, #score-panel") ? "controls" : null;
  });

  document.addEventListener("cardavia:settings", () => {
    if (state.view) render(state.view, state.view);
  });
  window.addEventListener("online", () => {
    showOffline();
    if (state.game && !state.ws) connect();
  });
  window.addEventListener("offline", () => showOffline());
  showOffline();
  placeHintsSetting();
}

/** The hints setting (drawn by learn.js once its words have come) goes with the form's
 * other settings while the form is open, where a newcomer chooses them; during a game, back
 * beside the hint button, where a player turns hints on or off. */
function placeHintsSetting() {
  const slot = $("ng-hints-slot");
  if (!slot) return;
  const move = () => {
    const hints = $("learn-hints")?.closest("label");
    if (!hints) return false;
    if (!state.hintsHome) state.hintsHome = { parent: hints.parentElement, next: hints.nextSibling };
    // A room's page hides the form (its own forms make the game): the setting stays in the bar.
    const section = $("new-game-section");
    const open = section?.dataset.open === "on" && !section.hidden;
    if (open && hints.parentElement !== slot) slot.append(hints);
    if (!open && hints.parentElement === slot) {
      const { parent, next } = state.hintsHome;
      parent.insertBefore(hints, next?.parentNode === parent ? next : null);
    }
    return true;
  };
  state.placeHints = move;
  if (move()) return;
  const watcher = new MutationObserver(() => {
    if (move()) watcher.disconnect();
  });
  watcher.observe(document.body, { childList: true, subtree: true });
}

// For the tests and the curious: the page's state, read only.
window.cardavia = {
  get view() {
    return state.view;
  },
  get pending() {
    return state.queue.length;
  },
  allCodes: ALL_CODES,
  rankLabel,
  suitOf,
  breakdownLines,
};

wire();
resume();
