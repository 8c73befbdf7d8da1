// The controls under the hand: the bidding box on the player's turn to bid; the
// announcement and belote boxes and the confirm bar on their turn to play; the way back to the
// result once it is closed; a cancelled deal's choices.

import { biddingControls } from "./table_bidding.js";
import { nextDeal, send, showForm } from "./table_connection.js";
import { playCard, renderHand } from "./table_hand.js";
import { renderResult } from "./table_result.js";
import { $, el, shown, state } from "./table_state.js";
import { flowOf, nextLabel, tournamentWayOn } from "./table_flow.js";
import { isMyTurn, legalPlays } from "./table_view.js";
import { announcementName, cardWords, t, tNode } from "./table_words.js";

export function renderControls(view) {
  drawControls(view);
  shown();
}

function drawControls(view) {
  const controls = $("controls");
  controls.replaceChildren();
  const busy = $("table").dataset.busy === "on";
  if (!view || busy) return;
  if (view.phase === "bidding" && isMyTurn(view)) {
    controls.append(biddingControls(view));
  } else if (view.phase === "playing" && isMyTurn(view)) {
    const variants = state.selected ? legalPlays(view).filter((a) => a.card === state.selected) : legalPlays(view);
    const row = el("div", "play-controls");
    if (variants.some((a) => a.announce)) {
      const proposed = (view.announce ?? []).map((a) => `${a.text ?? announcementName(a.name)} (${a.points})`);
      const label = proposed.length ? t("announce_what", { what: proposed.join(", ") }) : t("announce");
      row.append(flagBox("announce", label, t("announce_help")));
    }
    if (variants.some((a) => a.belote)) row.append(flagBox("belote", t("say_belote")));
    if (state.selected) {
      const confirm = el("div", "confirm-bar");
      confirm.setAttribute("role", "group");
      confirm.setAttribute("aria-labelledby", "confirm-what");
      const what = el("span", "confirm-what");
      what.id = "confirm-what";
      what.append(tNode("pick_confirm", cardWords(state.selected)));
      const play = el("button", "primary", t("confirm"));
      play.type = "button";
      play.dataset.action = "confirm";
      play.addEventListener("click", () => playCard(state.selected));
      const cancel = el("button", "secondary", t("cancel"));
      cancel.type = "button";
      cancel.dataset.action = "cancel";
      cancel.addEventListener("click", () => {
        const code = state.selected;
        state.selected = null;
        renderHand(state.view);
        renderControls(state.view);
        $("hand").querySelector(`.card[data-card="${code}"]`)?.focus();
      });
      confirm.append(what, play, cancel);
      row.append(confirm);
    }
    if (row.childElementCount) controls.append(row);
  } else if (view.phase === "over" && view.result && state.resultDismissed && state.replayStep === null) {
    // The result dialog was closed to look at the table: a way back to it and on.
    const row = el("div", "over-controls");
    const show = el("button", "secondary", t("show_result"));
    show.type = "button";
    show.dataset.action = "show-result";
    show.addEventListener("click", () => {
      state.resultDismissed = false;
      renderResult(state.view, true);
    });
    row.append(show);
    const label = nextLabel(view);
    if (label !== null) {
      const next = el("button", "primary", label);
      next.type = "button";
      next.dataset.action = "next-deal";
      next.addEventListener("click", nextDeal);
      row.append(next);
    }
    row.append(...tournamentWayOn(view));
    controls.append(row);
  } else if (view.phase === "cancelled") {
    const row = el("div", "cancelled");
    row.append(el("p", null, t("cancelled")));
    // Dealt again, or a new game, where the flow has them; a tournament's deal: its own ways.
    const flow = flowOf(view);
    if (flow.next_deal && flow.playing !== false) {
      const again = el("button", "primary", t("new_deal"));
      again.type = "button";
      again.dataset.action = "next-deal";
      again.addEventListener("click", () => send({ type: "next_deal" }));
      row.append(again);
    }
    if (flow.casual) {
      const fresh = el("button", "secondary", t("new_game"));
      fresh.type = "button";
      fresh.addEventListener("click", () => showForm(true, true));
      row.append(fresh);
    }
    row.append(...tournamentWayOn(view));
    controls.append(row);
  }
}

function flagBox(flag, label, help) {
  const wrap = el("label", "flag");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.name = flag;
  box.checked = state.flags[flag];
  box.addEventListener("change", () => {
    state.flags[flag] = box.checked;
  });
  wrap.append(box, el("span", null, label));
  if (help) wrap.title = help;
  return wrap;
}
