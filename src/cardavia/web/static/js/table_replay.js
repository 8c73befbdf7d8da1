// The replay at the end of a deal: every hand open, card by card.

import { makeCard, sortHand } from "./cards.js";
import { $, SEATS, state } from "./table_state.js";
import { playsOf, trumpOf } from "./table_view.js";
import { cardName, cardWords, deck, seatName, t, tNode } from "./table_words.js";

function replayPlays(view) {
  const tricks = view.replay?.tricks ?? [];
  if (tricks.length && !Array.isArray(tricks[0]) && tricks[0].card) {
    return tricks.map((p) => ({ seat: p.seat, card: p.card }));
  }
  const plays = [];
  for (const trick of tricks) plays.push(...playsOf(trick));
  return plays;
}

export function renderReplay(view) {
  const panel = $("replay");
  const felt = $("felt");
  if (view.phase !== "over" || state.replayStep === null || !view.replay) {
    panel.hidden = true;
    felt.classList.remove("replaying");
    for (const open of felt.querySelectorAll(".open-hand")) open.replaceChildren();
    return;
  }
  panel.hidden = false;
  felt.classList.add("replaying");
  const plays = replayPlays(view);
  const step = Math.max(0, Math.min(plays.length, state.replayStep));
  state.replayStep = step;
  const played = new Set(plays.slice(0, step).map((p) => p.card));
  const trickStart = step === 0 ? 0 : Math.floor((step - 1) / 4) * 4;
  const current = plays.slice(trickStart, step);
  for (const seat of SEATS) {
    const open = felt.querySelector(`.seat[data-seat="${seat}"] .open-hand`);
    const cards = sortHand(view.replay.hands?.[seat] ?? [], trumpOf(view)).filter((c) => !played.has(c));
    open.replaceChildren(
      ...cards.map((code) => {
        const card = makeCard(code, deck());
        card.classList.add("mini");
        card.setAttribute("role", "img");
        card.setAttribute("aria-label", cardName(code));
        return card;
      }),
    );
    open.setAttribute("aria-label", t("label_value", { label: seatName(seat), value: cards.map(cardName).join(", ") }));
    const backs = felt.querySelector(`.seat[data-seat="${seat}"] .backs`);
    if (backs) backs.replaceChildren();
  }
  const trick = $("trick");
  for (const seat of SEATS) {
    const slot = trick.querySelector(`.slot[data-seat="${seat}"]`);
    const play = current.find((p) => p.seat === seat);
    if (!play) {
      slot.replaceChildren();
      continue;
    }
    const card = makeCard(play.card, deck());
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", t("label_value", { label: seatName(seat), value: cardName(play.card) }));
    slot.replaceChildren(card);
  }
  const counter = $("replay-step");
  counter.replaceChildren(tNode("replay_step", { n: step, total: plays.length }));
  const last = plays[step - 1];
  $("replay-said").textContent = last ? t("plays", { seat: seatName(last.seat), ...cardWords(last.card) }) : "";
  /** @type {HTMLButtonElement} */ ($("replay-first")).disabled = step === 0;
  /** @type {HTMLButtonElement} */ ($("replay-prev")).disabled = step === 0;
  /** @type {HTMLButtonElement} */ ($("replay-next")).disabled = step >= plays.length;
  /** @type {HTMLButtonElement} */ ($("replay-last")).disabled = step >= plays.length;
}
