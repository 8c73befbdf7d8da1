// The result dialog at the end of a deal: who won from the player's side, the contract's
// verdict, the breakdown as steps to the deal's score, the score sheet, and the way on.

import { pace } from "./table_board.js";
import { renderSheet, scoreCell } from "./table_info.js";
import { $, el, state, TEAM } from "./table_state.js";
import { flowOf, nextLabel, renderSoFar, tournamentWayOn } from "./table_flow.js";
import { isMatch } from "./table_view.js";
import { contractNode, t } from "./table_words.js";

export function closeResult() {
  clearTimeout(state.resultTimer);
  state.resultTimer = null;
  const dialog = /** @type {HTMLDialogElement} */ ($("score-panel"));
  if (dialog?.open) {
    state.quietClose = true;
    dialog.close();
  }
}

/** Who won, from the player's side: "won", "lost", or "tie" (a litige with no match
 * winner). The taker's team wins a made contract; the match's winner, the match. */
function resultForPlayer(view) {
  const result = view.result;
  const mine = TEAM[view.seat] ?? "NS";
  const winner = view.match?.winner;
  if (winner) return winner === mine ? "won" : "lost";
  if (result.made === null || result.made === undefined) return "tie";
  const taker = view.contract?.taker;
  let team;
  if (taker) team = result.made ? TEAM[taker] : TEAM[taker] === "NS" ? "EW" : "NS";
  else team = (result.scores?.NS ?? 0) >= (result.scores?.EW ?? 0) ? "NS" : "EW";
  return team === mine ? "won" : "lost";
}

/** The headline: who won the deal (or, at the end of a match, the match), from the
 * player's side. */
function resultHeadline(view) {
  const outcome = resultForPlayer(view);
  if (outcome === "tie") return t("result_litige");
  if (view.match?.winner && isMatch(view)) {
    return outcome === "won" ? t("you_win_match") : t("you_lose_match");
  }
  return outcome === "won" ? t("you_win_deal") : t("you_lose_deal");
}

const STEP_CODES = new Set(["cards", "last_trick", "capot", "announcement", "capot_announcements", "belote"]);
const VERDICT_CODES = { contract_made: "result_made", contract_failed: "result_failed", contract_litige: "result_litige" };

/** The breakdown as the steps that lead to the deal's score: the card points, "+" each
 * bonus (last trick, announcements, belote), what the contract's verdict makes of them
 * ("Contract made: points scored"), then the deal's score ("rounded to the nearest ten"
 * when the rules round). The multiplier and the rounding are said in the line they change;
 * a verdict whose numbers are the deal's score is said in the score's own line
 * ("Contract failed: score of the deal"), so that no number is shown twice. */
export function breakdownLines(result) {
  const lines = (result.lines ?? []).filter((line) => line.code !== "rounding" && line.code !== "multiplier");
  const rounded = (result.lines ?? []).some((line) => line.code === "rounding");
  const multiplied = (result.lines ?? []).some((line) => line.code === "multiplier");
  const shown = [];
  let verdict = null;
  for (const [index, line] of lines.entries()) {
    const code = line.code ?? "";
    if (STEP_CODES.has(code)) {
      const first = !shown.some((row) => STEP_CODES.has(row.code));
      shown.push({ ...line, text: first ? line.text : t("breakdown_plus", { line: line.text }) });
    } else if (VERDICT_CODES[code]) {
      verdict = t(VERDICT_CODES[code]);
      const next = lines[index + 1];
      const same = next?.code === "total" && !rounded && next.NS === line.NS && next.EW === line.EW;
      if (same) continue;
      const key = multiplied ? "breakdown_verdict_times" : "breakdown_verdict";
      shown.push({ ...line, text: t(key, { verdict, multiplier: result.multiplier }) });
      verdict = null;
    } else if (code === "total") {
      let text = rounded ? t("breakdown_total_rounded") : line.text;
      if (verdict !== null) {
        const key = multiplied ? "breakdown_total_verdict_times" : "breakdown_total_verdict";
        text = t(key, { verdict, multiplier: result.multiplier });
      }
      shown.push({ ...line, text });
    } else {
      shown.push(line);
    }
  }
  return shown;
}

export function renderResult(view, openNow = false, justEnded = false) {
  const dialog = /** @type {HTMLDialogElement} */ ($("score-panel"));
  const result = view.result;
  if (view.phase !== "over" || !result) {
    state.resultDismissed = false;
    closeResult();
    return;
  }
  $("score-title").textContent = resultHeadline(view);
  $("score-verdict").textContent =
    result.made === true ? t("result_made") : result.made === false ? t("result_failed") : t("result_litige");
  dialog.dataset.made = String(result.made);
  // The headline's colour says the player's outcome, not the contract's.
  dialog.dataset.outcome = resultForPlayer(view);
  $("score-contract").replaceChildren(contractNode(view.contract));
  const lines = $("score-lines");
  lines.replaceChildren();
  const shown = breakdownLines(result);
  for (const line of shown) {
    const row = el("tr");
    if (line.code) row.dataset.code = line.code;
    const th = el("th", null, line.text ?? line.code ?? "");
    th.setAttribute("scope", "row");
    row.append(th, scoreCell(line.NS), scoreCell(line.EW));
    lines.append(row);
  }
  // The server's breakdown ends with the deal's score; otherwise the page adds it.
  $("score-total").hidden = shown.some((line) => line.code === "total");
  $("score-ns").replaceChildren(el("bdi", null, String(result.scores?.NS ?? 0)));
  $("score-ew").replaceChildren(el("bdi", null, String(result.scores?.EW ?? 0)));
  // The takers' belote counted in their column, and scored by the defenders: said in words.
  $("score-note").hidden = !result.belote_moved;
  $("score-note").textContent = result.belote_moved ? t("belote_moved") : "";
  renderSheet($("sheet-panel"), view, true);
  // The way on is the flow's: the next deal, a new game, an offer, the queue, or a
  // tournament's own links (its next deal, the way back).
  const next = $("next-deal");
  const label = nextLabel(view);
  next.hidden = label === null;
  next.textContent = label ?? "";
  const ways = tournamentWayOn(view);
  $("score-ways")?.replaceChildren(...ways);
  $("result-new-game").hidden = !flowOf(view).casual;
  renderSoFar(view);
  $("replay-open").hidden = !view.replay;
  if (state.replayStep !== null || state.resultDismissed) {
    if (dialog.open) closeResult();
    return;
  }
  if (dialog.open || state.resultTimer) return;
  // The final trick stays on the table a moment before the dialog comes over it.
  const delay = openNow || !justEnded ? 0 : pace().hold;
  const open = () => {
    state.resultTimer = null;
    if (state.view !== view && state.view?.phase !== "over") return;
    if (dialog.open || state.replayStep !== null || state.resultDismissed) return;
    dialog.showModal();
    (next.hidden ? /** @type {HTMLElement} */ (ways[0] ?? $("score-close")) : next).focus();
  };
  if (delay > 0) state.resultTimer = setTimeout(open, delay);
  else open();
}

/** Tab and Shift+Tab stay in the result dialog (a modal dialog lets them out to the
 * browser's own bar): from its last control to its first, and back. */
export function trapTab(event) {
  if (event.key !== "Tab") return;
  const dialog = event.currentTarget;
  const controls = [...dialog.querySelectorAll("button, a[href], select, input, [tabindex]")].filter(
    (node) => !node.disabled && node.tabIndex >= 0 && node.getClientRects().length > 0,
  );
  if (!controls.length) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (event.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
    last.focus();
    event.preventDefault();
  } else if (!event.shiftKey && document.activeElement === last) {
    first.focus();
    event.preventDefault();
  }
}
