// Learning at the table (docs/learning.md), beside the table's own script: the "Analyse"
// button once a deal is over (the analysis view: each card's verdict and cost in both
// lights, the moments of the deal with their better line replayed with all hands shown, the
// bids and the contracts), the hint button when hints are on (a setting, off by default), and
// the check of the deal's shuffle done here, in the browser (fair.js). The analysis view is
// drawn by learn_analysis.js, from what learn_state.js holds.
//
// It reads the table's state from window.cardavia (read only) and the game from
// localStorage; it asks for a hint on a connection of its own to the game.

import { checkDeal } from "./fair.js";
import { renderAnalysis } from "./learn_analysis.js";
import { positionAt } from "./learn_board.js";
import { el, game, HINTS_KEY, lang, setWords, state, tableView, words } from "./learn_state.js";
import { loadSeat, roomCode } from "./room.js";

export function hintsOn() {
  return localStorage.getItem(HINTS_KEY) === "on";
}

// -- the bar -------------------------------------------------------------------------------

function button(id, text) {
  const b = el("button", "learn-button", text);
  b.type = "button";
  b.id = id;
  b.hidden = true;
  return b;
}

function buildBar() {
  const bar = el("section", "learn-bar");
  bar.id = "learn";
  bar.setAttribute("aria-label", words.analysis);
  const toggle = el("label", "learn-toggle");
  const setting = document.createElement("input");
  setting.type = "checkbox";
  setting.id = "learn-hints";
  setting.checked = hintsOn();
  setting.addEventListener("change", () => {
    localStorage.setItem(HINTS_KEY, setting.checked ? "on" : "off");
    update();
  });
  toggle.append(setting, " ", words.hints_setting);
  const hint = button("learn-hint", words.hint);
  hint.addEventListener("click", askHint);
  const hintText = el("p", "learn-hint-text");
  hintText.id = "learn-hint-text";
  hintText.setAttribute("role", "status");
  const analyse = button("learn-analyse", words.analyse);
  analyse.addEventListener("click", openAnalysis);
  const check = button("learn-check", words.check_shuffle);
  check.addEventListener("click", checkShuffle);
  const fair = el("p", "learn-fair");
  fair.id = "learn-fair";
  fair.setAttribute("role", "status");
  bar.append(toggle, analyse, check, fair);
  const main = document.querySelector("main") || document.body;
  main.append(bar);
  // The hint sits by the hand and the bid buttons, where the player is looking.
  const box = el("div", "learn-hint-box");
  box.id = "learn-hint-box";
  box.append(hint, hintText);
  const controls = document.getElementById("controls");
  if (controls) controls.after(box);
  else bar.append(box);
  // The end-of-deal panel and the replay get their own "Analyse" button, beside their others.
  for (const slot of document.querySelectorAll("[data-learn-slot]")) {
    const again = button(`learn-analyse-${slot.dataset.learnSlot}`, words.analyse);
    again.classList.add("secondary", "learn-analyse-slot");
    again.addEventListener("click", openAnalysis);
    slot.prepend(again);
  }
  const dialog = el("dialog", "learn-dialog");
  dialog.id = "learn-analysis";
  dialog.setAttribute("aria-labelledby", "learn-analysis-title");
  document.body.append(dialog);
}

/** Whether the player has a seat at this table: always on the table page; on a room's page,
 * once this browser holds a seat in the room (not on the page that creates or joins one). */
function seated(view) {
  if (roomCode() === null) return true;
  return !!view?.seat || loadSeat() !== null;
}

function update() {
  const view = tableView();
  // Hints are a seat's: the setting shows only where the player plays.
  const toggle = document.getElementById("learn-hints")?.closest("label");
  if (toggle) toggle.hidden = !seated(view);
  const over = !!view && view.phase === "over";
  const myTurn = !!view && view.to_move === view.seat && (view.legal?.length ?? 0) > 0;
  const hint = document.getElementById("learn-hint");
  if (hint) hint.hidden = !(hintsOn() && myTurn);
  const text = document.getElementById("learn-hint-text");
  if (text && view && state.hintStep !== null && state.hintStep !== view.step) {
    text.textContent = "";
    state.hintStep = null;
    state.hintAction = null;
  }
  markHintedBid();
  const analyse = /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#learn-analyse, .learn-analyse-slot"));
  for (const b of analyse) b.hidden = !over;
  const check = document.getElementById("learn-check");
  if (check) check.hidden = !(view?.fair?.seed);
  const key = view ? `${view.game}:${view.deal_number}` : null;
  if (state.checked !== key) {
    state.checked = key;
    const fair = document.getElementById("learn-fair");
    if (fair) {
      fair.textContent = "";
      delete fair.dataset.ok;
    }
  }
}

// -- the shuffle ---------------------------------------------------------------------------

export async function checkShuffle() {
  const view = tableView();
  const fair = view?.fair;
  const out = document.getElementById("learn-fair");
  if (!fair?.seed || !out) return null;
  const result = await checkDeal(fair.seed, fair.hash, fair.deck);
  // The deck must also be the deal's: its hands are its packets.
  const hands = Object.values(view.replay?.hands ?? {}).flat().sort();
  const same = hands.length === 32 && [...fair.deck].sort().every((c, i) => c === hands[i]);
  const ok = result.ok && same;
  out.dataset.ok = String(ok);
  out.dataset.problem = ok ? "" : result.problem || "deck_mismatch";
  out.textContent = ok ? words.shuffle_ok : words.shuffle_bad;
  return ok;
}

// -- hints ---------------------------------------------------------------------------------

/** The bid button the hint suggests, marked as the hinted card is (the controls are drawn
 * again at each view: marked again each time). */
function markHintedBid() {
  const action = state.hintAction;
  for (const button of document.querySelectorAll("#controls .bid-button")) {
    const same = !!action && action.kind !== "play" && button.dataset.kind === action.kind &&
      (button.dataset.strain ?? "") === String(action.strain ?? "") &&
      (button.dataset.value ?? "") === String(action.value ?? "");
    if (same) button.dataset.hinted = "true";
    else delete button.dataset.hinted;
  }
}

function askHint() {
  const view = tableView();
  const current = game();
  const text = document.getElementById("learn-hint-text");
  if (!view || !current || !text) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams({ token: current.token, lang });
  const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(current.game)}?${query}`);
  ws.onopen = () => ws.send(JSON.stringify({ type: "hint" }));
  ws.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type !== "hint" && message.type !== "error") return;
    ws.close();
    if (message.type === "error") {
      text.textContent = message.message;
      return;
    }
    state.hintStep = message.step;
    const given = message.hint;
    state.hintAction = given?.action ?? null;
    text.dataset.card = given?.card ?? "";
    text.textContent = given ? `${given.action_text} — ${given.text}` : "";
    for (const card of document.querySelectorAll("[data-hinted]")) delete card.dataset.hinted;
    markHintedBid();
    if (given?.card) {
      for (const card of document.querySelectorAll(`#hand [data-card="${given.card}"], .hand [data-card="${given.card}"]`)) {
        card.dataset.hinted = "true";
      }
    }
  };
}

export async function openAnalysis() {
  const view = tableView();
  const current = game();
  if (!view || !current) return;
  state.context = null;
  const query = new URLSearchParams({ token: current.token, lang, deal: String(view.deal_number) });
  await showAnalysis(`/api/games/${encodeURIComponent(current.game)}/analysis?${query}`);
}

/** The analysis view of a deal away from the table (a player's history): the analysis
 * answered at `url`, seen from `context.seat` with the cards of `context.deck`. */
export async function openAnalysisOf(url, context) {
  await ready;
  state.context = context;
  await showAnalysis(url);
}

async function showAnalysis(url) {
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById("learn-analysis"));
  if (!dialog) return;
  dialog.replaceChildren(el("p", "learn-wait", words.analysing));
  dialog.dataset.state = "loading";
  if (!dialog.open) dialog.showModal();
  const response = await fetch(url);
  const data = await response.json();
  if (!response.ok) {
    dialog.replaceChildren(el("p", "learn-error", data.message));
    dialog.dataset.state = "error";
    return;
  }
  state.analysed = data;
  renderAnalysis(dialog, data);
  dialog.dataset.state = "ready";
}

async function start() {
  const response = await fetch(`/api/learn/words?lang=${encodeURIComponent(lang)}`);
  setWords(await response.json());
  if (!document.getElementById("table")) {
    // Away from the table (a player's history): the analysis view alone.
    const dialog = el("dialog", "learn-dialog");
    dialog.id = "learn-analysis";
    dialog.setAttribute("aria-labelledby", "learn-analysis-title");
    document.body.append(dialog);
    return;
  }
  buildBar();
  update();
  // Drawn again whenever the table shows another view or its controls (table.js), never on a
  // timer.
  document.addEventListener("cardavia:view", update);
}

window.cardaviaLearn = {
  get analysis() {
    return state.analysed;
  },
  get hintAction() {
    return state.hintAction;
  },
  checkShuffle,
  positionAt,
};

// Offline (a page the service worker kept: My games, the table), the words cannot be asked
// for, nor an analysis: the page says that it needs the connection, no error left unhandled.
const ready = start().catch(() => undefined);
