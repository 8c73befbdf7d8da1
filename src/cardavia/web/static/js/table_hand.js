// The player's hand: drawn with the legal cards offered and the others greyed with their
// reason, one tab stop moved with the arrows, a card picked and then confirmed (a setting) or
// played at once.

import { makeCard, sortHand } from "./cards.js";
import { loadSettings, prefersReducedMotion } from "./settings.js";
import { sendAction } from "./table_connection.js";
import { renderControls } from "./table_controls.js";
import { $, el, setStatus, state } from "./table_state.js";
import { isMyTurn, legalPlays, trumpOf } from "./table_view.js";
import { cardName, cardWords, deck, plural, t } from "./table_words.js";

function handCodes(view) {
  return sortHand(view.hand ?? [], trumpOf(view));
}

export function renderHand(view) {
  const hand = $("hand");
  const codes = handCodes(view);
  const legal = new Set(legalPlays(view).map((a) => a.card));
  const myTurn = isMyTurn(view) && view.phase === "playing" && $("table").dataset.busy !== "on";
  const focusedBefore = document.activeElement?.closest?.("#hand .card")?.dataset.card ?? null;
  // A new hand (a new deal, or the taker's last cards) is dealt in: the cards not there before.
  const before = new Set([...hand.querySelectorAll(".card")].map((c) => c.dataset.card));
  const fresh = codes.some((code) => !before.has(code)) && !prefersReducedMotion();
  hand.replaceChildren();
  const notes = $("hand-notes");
  notes.replaceChildren();
  hand.setAttribute("aria-label", t("label_value", { label: t("hand_label"), value: plural("cards", codes.length) }));
  let tabbed = false;
  // When the player's turn comes, the keyboard's card is the first they may play: a card
  // kept from before (or focused) that they may not play now gives way to it.
  const turnComes = myTurn && !state.handTurn;
  state.handTurn = myTurn;
  const kept = state.focusCard && codes.includes(state.focusCard) ? state.focusCard : null;
  const keep = kept && !(turnComes && !legal.has(kept)) ? kept : null;
  let focused = focusedBefore;
  if (focused && turnComes && !legal.has(focused)) focused = codes.find((code) => legal.has(code)) ?? focused;
  codes.forEach((code, index) => {
    const button = makeCard(code, deck(), "button");
    button.type = "button";
    // The name read out is the card's name alone ("ten of hearts"): the corners are drawing.
    button.append(el("span", "visually-hidden card-name", cardName(code)));
    button.style.setProperty("--i", String(index));
    button.style.setProperty("--n", String(codes.length));
    if (fresh && !before.has(code)) button.classList.add("dealt");
    const refusal = view.refusals?.[code];
    if (myTurn && legal.has(code)) {
      button.classList.add("legal");
      if (state.selected === code) {
        button.classList.add("selected");
        button.setAttribute("aria-pressed", "true");
      } else {
        button.setAttribute("aria-pressed", "false");
      }
    } else if (myTurn) {
      button.classList.add("refused");
      button.setAttribute("aria-disabled", "true");
      const reason = refusal?.message || t("not_allowed");
      button.title = reason;
      const note = el("span", null, reason);
      note.id = `reason-${code}`;
      notes.append(note);
      button.setAttribute("aria-describedby", note.id);
    } else {
      button.setAttribute("aria-disabled", "true");
      button.classList.add("waiting");
    }
    const tabTarget = keep ? code === keep : state.selected ? code === state.selected : !tabbed && (!myTurn || legal.has(code));
    if (tabTarget && !tabbed) {
      button.tabIndex = 0;
      tabbed = true;
    } else {
      button.tabIndex = -1;
    }
    hand.append(button);
  });
  if (!tabbed && hand.firstElementChild) hand.firstElementChild.tabIndex = 0;
  if (focused) hand.querySelector(`.card[data-card="${focused}"]`)?.focus({ preventScroll: true });
}

function moveFocus(delta) {
  const cards = [...$("hand").querySelectorAll(".card")];
  if (!cards.length) return;
  const current = cards.indexOf(document.activeElement);
  let index = current < 0 ? 0 : current + delta;
  index = Math.max(0, Math.min(cards.length - 1, index));
  for (const card of cards) card.tabIndex = -1;
  cards[index].tabIndex = 0;
  cards[index].focus();
  state.focusCard = cards[index].dataset.card;
}

export function onHandKey(event) {
  const rtl = getComputedStyle($("hand")).direction === "rtl";
  const forward = rtl ? "ArrowLeft" : "ArrowRight";
  const backward = rtl ? "ArrowRight" : "ArrowLeft";
  if (event.key === forward || event.key === "ArrowDown") {
    moveFocus(1);
  } else if (event.key === backward || event.key === "ArrowUp") {
    moveFocus(-1);
  } else if (event.key === "Home") {
    moveFocus(-99);
  } else if (event.key === "End") {
    moveFocus(99);
  } else if (event.key === "Escape") {
    if (state.selected) {
      state.selected = null;
      renderHand(state.view);
      renderControls(state.view);
    }
  } else {
    return;
  }
  event.preventDefault();
}

export function onCard(code, button) {
  const view = state.view;
  if (!view) return;
  state.focusCard = code;
  if (!(isMyTurn(view) && view.phase === "playing") || $("table").dataset.busy === "on") {
    setStatus(t("not_your_turn"));
    return;
  }
  const legal = legalPlays(view).some((a) => a.card === code);
  if (!legal) {
    const reason = view.refusals?.[code]?.message || t("not_allowed");
    setStatus([t("may_not_play", cardWords(code)), reason], "refusal");
    return;
  }
  if (!loadSettings().confirm || state.selected === code) {
    playCard(code);
    return;
  }
  state.selected = code;
  // The confirm bar says "Play …?": the status line keeps the turn's prompt, not a copy.
  setStatus(t("your_turn_play"));
  renderHand(view);
  renderControls(view);
  $("hand").querySelector(`.card[data-card="${code}"]`)?.focus({ preventScroll: true });
}

export function playCard(code) {
  const variants = legalPlays(state.view).filter((a) => a.card === code);
  const wantAnnounce = state.flags.announce && variants.some((a) => a.announce);
  const wantBelote = state.flags.belote && variants.some((a) => a.belote);
  const chosen =
    variants.find((a) => !!a.announce === wantAnnounce && !!a.belote === wantBelote) ??
    variants.find((a) => !a.announce && !a.belote) ??
    variants[0];
  if (!chosen) return;
  sendAction(chosen);
}
