// One message at a time, gently: each view the server sends is drawn in turn, each move left
// alone on the table for the pace's time; what happened is said (the status line, the screen
// reader, short tones), and the keyboard kept at the table.

import { notifyHidden } from "./notify.js";
import { loadSettings } from "./settings.js";
import { pace, placeSeats, renderSeats, renderTrick } from "./table_board.js";
import { sendAction } from "./table_connection.js";
import { renderControls } from "./table_controls.js";
import { renderHand } from "./table_hand.js";
import { renderInfo } from "./table_info.js";
import { renderReplay } from "./table_replay.js";
import { applyFlow } from "./table_flow.js";
import { renderResult } from "./table_result.js";
import { $, ROOM, setStatus, sleep, state } from "./table_state.js";
import { changeOf, isMyTurn, legalPlays, playsOf, tricksDone, winnerOf } from "./table_view.js";
import { bidSentence, cardWords, deck, seatName, t } from "./table_words.js";
import * as room from "./room.js";

/** Keep the keyboard at the table: when what had the focus was redrawn away (a card played,
 * a bid made), the focus goes to the hand's tab stop, or to the bidding buttons. */
export function keepFocus() {
  if (!state.focusZone || /** @type {HTMLDialogElement} */ ($("score-panel")).open) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected;
  const view = state.view;
  const bidding = view?.phase === "bidding" && isMyTurn(view) && $("table").dataset.busy !== "on";
  const inControls = active?.closest?.("#controls");
  if (bidding && !inControls) {
    // The whole bidding box in view at the turn's start (the clock may run): on a short
    // screen the page scrolls the least that shows it (finding M11).
    $("controls").scrollIntoView({ block: "nearest" });
    $("controls").querySelector("button")?.focus({ preventScroll: true });
    return;
  }
  if (!lost) return;
  const target =
    $("controls").querySelector("[data-action=confirm], [data-action=show-result], [data-action=next-deal], button") ??
    null;
  const card = $("hand").querySelector('.card[tabindex="0"]');
  (view?.phase === "playing" && card ? card : target ?? card)?.focus({ preventScroll: true });
}

export function enqueue(view) {
  const json = JSON.stringify(view);
  if (json === state.lastJson) return;
  state.lastJson = json;
  state.queue.push(view);
  pump();
}

async function pump() {
  if (state.pumping) return;
  state.pumping = true;
  try {
    while (state.queue.length) {
      // Each move stays alone on the table for the pace's time, however fast the next one
      // comes (slow, normal, fast: the "Pace of the computer players" setting).
      const wait = state.nextAt - performance.now();
      if (wait > 0) await sleep(wait);
      const view = state.queue.shift();
      const prev = state.view;
      state.view = view;
      $("table").dataset.busy = "off";
      const change = render(view, prev);
      const { move, hold } = pace();
      state.nextAt = change === "none" ? 0 : performance.now() + (change === "trick_done" ? hold : move);
    }
  } finally {
    state.pumping = false;
  }
}

export function render(view, prev) {
  applyFlow(view);
  placeSeats(view);
  const table = $("table");
  const appearing = table.hidden || !prev;
  table.hidden = false;
  // On a short screen (a phone held sideways) the table is brought to the top of the screen
  // when it appears, so that the felt and the hand are in view together.
  if (appearing && window.innerHeight < 560) table.scrollIntoView({ block: "start" });
  table.dataset.phase = view.phase;
  table.dataset.rules = view.rules ?? "";
  table.dataset.deck = deck();
  table.dataset.myTurn = isMyTurn(view) ? "on" : "off";
  const change = changeOf(prev, view);
  if (state.selected && !legalPlays(view).some((a) => a.card === state.selected)) state.selected = null;
  if (view.phase !== "over") state.replayStep = null;
  recordTricks(view);
  if (view.phase === "over" && prev && prev.phase !== "over") state.lastTrickOpen = false;
  renderSeats(view);
  renderTrick(view, prev, change);
  renderHand(view);
  renderControls(view);
  renderInfo(view);
  renderResult(view, false, !!prev && prev.phase !== "over");
  renderReplay(view);
  announce(view, prev, change);
  keepFocus();
  autoPlayLast(view);
  return change;
}

// Short tones (the "Sounds at the table" setting, off by default): made by the page with
// Web Audio, no sound files.
const TONES = {
  card: [[520, 0.05]],
  trick: [[440, 0.07], [330, 0.1]],
  turn: [[660, 0.08], [880, 0.12]],
};
let audio = null;

function sound(kind, always = false) {
  if (!(always || loadSettings().sounds) || !window.AudioContext) return;
  try {
    audio ??= new AudioContext();
    let start = audio.currentTime;
    for (const [frequency, length] of TONES[kind]) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = "triangle";
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.0001, start);
      volume.gain.exponentialRampToValueAtTime(0.12, start + 0.01);
      volume.gain.exponentialRampToValueAtTime(0.0001, start + length);
      tone.connect(volume).connect(audio.destination);
      tone.start(start);
      tone.stop(start + length + 0.02);
      start += length;
    }
  } catch {
    // no sound: the page goes on without it
  }
}

/** Tell screen readers (and the status line) what just happened: one sentence per event. */
function announce(view, prev, change) {
  const lines = [];
  if (change === "card" || change === "trick_done") {
    const plays = change === "card" ? playsOf(view.trick) : playsOf(view.last_trick);
    const last = plays[plays.length - 1];
    if (last && last.seat !== view.seat) lines.push(t("plays", { seat: seatName(last.seat), ...cardWords(last.card) }));
    if (change === "trick_done") {
      const winner = winnerOf(view.last_trick);
      if (winner) lines.push(t("trick_won_by", { seat: seatName(winner) }));
    }
  } else if (change === "bid") {
    const bid = view.bids[view.bids.length - 1];
    if (bid && bid.seat !== view.seat) lines.push(bidSentence(bid));
  }
  if (isMyTurn(view)) lines.push(t(view.phase === "bidding" ? "your_turn_bid" : "your_turn_play"));
  else if (view.phase === "bidding" || view.phase === "playing") {
    // A room's player away keeps their seat a while: said so, not "North is thinking…".
    if (!lines.length && view.to_move) lines.push((ROOM && room.awayLine(view)) || t("waiting", { seat: seatName(view.to_move) }));
  }
  if (lines.length || change !== "none") setStatus(lines);
  if (change === "card") sound("card");
  else if (change === "trick_done") sound("trick");
  if (isMyTurn(view) && change !== "none") {
    // A hidden page tells its player with a notification and the turn's tone, if asked.
    const turn = t(view.phase === "bidding" ? "your_turn_bid" : "your_turn_play");
    if (notifyHidden(turn, loadSettings())) sound("turn", true);
    else sound("turn");
  }
}

/** Keep this deal's tricks as they are finished, for the trick panel (the server sends the
 * last one only; after a reload the earlier ones are known from the replay at the end). */
function recordTricks(view) {
  const key = `${view.game ?? state.game?.game}:${view.deal_number ?? 1}`;
  if (key !== state.dealKey) {
    state.dealKey = key;
    state.dealTricks = [];
    state.reviewIndex = null;
  }
  const done = tricksDone(view);
  if (state.dealTricks.length > done) state.dealTricks.length = done;
  if (done > 0 && view.last_trick) state.dealTricks[done - 1] = view.last_trick;
  const replayed = view.phase === "over" ? view.replay?.tricks : null;
  if (Array.isArray(replayed) && replayed.length && replayed[0]?.cards) state.dealTricks = [...replayed];
}

/** South's last card, the only one left: played at once when the setting says so. */
function autoPlayLast(view) {
  clearTimeout(state.autoTimer);
  if (!loadSettings().autoLast || view.phase !== "playing" || !isMyTurn(view)) return;
  const plays = legalPlays(view);
  if ((view.hand ?? []).length !== 1 || plays.length !== 1) return;
  state.autoTimer = setTimeout(() => {
    if (state.view === view && $("table").dataset.busy !== "on") sendAction(plays[0]);
  }, pace().move);
}
