// The board: the seats around the felt (names, roles, chips, the backs of their cards, the
// bubbles of what they say) and the trick in the middle (cards coming in, a finished trick
// collected towards its winner), at the pace the player chose.

import { drawBack, makeCard } from "./cards.js";
import { loadSettings, prefersReducedMotion } from "./settings.js";
import { $, el, SEATS, state, TEAM } from "./table_state.js";
import { partnerOf, placeOf, playsOf, screenOf, tricksDone, winnerOf } from "./table_view.js";
import {
  announcementName,
  beloteWord,
  bidText,
  cardName,
  deck,
  plural,
  seatName,
  t,
} from "./table_words.js";

// How long each computer move stays alone on the table, and a finished trick before it is
// collected: the "Pace of the computer players" setting, as its help in the settings says.
// The two scale together, and the server's own pause and beat (0.05–0.2 s together) are
// within the fastest, so that the three paces are really apart (test_table.py measures them in the browser).
const PACES = {
  slow: { move: 1000, hold: 2000 },
  normal: { move: 500, hold: 1000 },
  fast: { move: 200, hold: 500 },
};

export function pace() {
  const settings = loadSettings();
  if (settings.pace !== null && settings.pace !== undefined && Number.isFinite(Number(settings.pace))) {
    const p = Number(settings.pace);
    return { move: p, hold: p * 1.6 };
  }
  return PACES[settings.aiPace] ?? PACES.normal;
}

export function placeSeats(view) {
  for (const [place, seat] of Object.entries(screenOf(view))) {
    for (const box of document.querySelectorAll(`#felt [data-seat="${seat}"]`)) box.dataset.pos = place;
  }
}

export function renderSeats(view) {
  const lastBid = {};
  for (const bid of view.bids ?? []) lastBid[bid.seat] = bid;
  const trickCards = new Set(playsOf(view.trick).map((p) => p.card));
  for (const seat of SEATS) {
    const box = document.querySelector(`.seat[data-seat="${seat}"]`);
    if (!box) continue;
    box.classList.toggle("to-move", view.to_move === seat && (view.phase === "bidding" || view.phase === "playing"));
    box.classList.toggle("dealer", view.dealer === seat);
    box.classList.toggle("taker", view.contract?.taker === seat);
    const size = view.hand_sizes?.[seat] ?? 0;
    const name = box.querySelector(".seat-name");
    name.replaceChildren(el("span", "seat-title", seatName(seat)));
    if (!view.seat) {
      // A watcher: each seat by its side, never "partner" or "opponent" (nobody's).
      name.append(el("span", "seat-role", t(`team_${TEAM[seat]}`)));
    } else if (seat !== view.seat) {
      name.append(el("span", "seat-role", seat === partnerOf(view.seat) ? t("partner") : t("opponent")));
    }
    if (view.dealer === seat) name.append(el("span", "chip dealer-chip", t("dealer_chip")));
    if (view.contract?.taker === seat) name.append(el("span", "chip taker-chip", t("taker_chip")));
    const backs = box.querySelector(".backs");
    if (backs) backs.replaceChildren();
    if (backs && seat === screenOf(view).bottom) {
      // The player's own hand is below the felt (a watcher sees no hand there).
      backs.removeAttribute("aria-label");
      backs.removeAttribute("role");
    } else if (backs) {
      backs.setAttribute("aria-label", t("label_value", { label: seatName(seat), value: plural("cards", size) }));
      backs.setAttribute("role", "img");
      const showOpen = view.phase === "over" && state.replayStep !== null;
      if (!showOpen) {
        for (let i = 0; i < size; i += 1) backs.append(drawBack(el("span")));
      }
    }
    // The bubble: the seat's bid while bidding; an announcement or belote as it is said.
    const bubble = /** @type {HTMLElement} */ (box.querySelector(".bubble"));
    const words = [];
    if (view.phase === "bidding" && lastBid[seat]) words.push(bidText(lastBid[seat]));
    if (view.phase === "playing" && tricksDone(view) === 0) {
      for (const d of view.declarations ?? []) {
        if (d.seat === seat) words.push(`${d.text ?? announcementName(d.name)} (${d.points})`);
      }
    }
    for (const event of view.belote ?? []) {
      if (event.seat === seat && trickCards.has(event.card)) words.push(beloteWord(event, view));
    }
    bubble.replaceChildren(...words.map((w) => el("span", "said", w)));
    bubble.hidden = words.length === 0;
  }
}

export function renderTrick(view, prev, change) {
  const trick = $("trick");
  clearTimeout(state.trickTimer);
  trick.classList.remove("collect", "done");
  delete trick.dataset.winner;
  let plays = playsOf(view.trick);
  let done = false;
  if (change === "trick_done" && plays.length === 0 && view.last_trick) {
    plays = playsOf(view.last_trick);
    done = true;
  }
  // The deal's final trick stays on the table, under the result and after it is closed.
  const final =
    view.phase === "over" && state.replayStep === null && playsOf(view.trick).length === 0 && !!view.last_trick;
  if (final) plays = playsOf(view.last_trick);
  const before = new Set(done ? playsOf(prev?.trick).map((p) => p.card) : playsOf(prev?.trick).map((p) => p.card));
  for (const seat of SEATS) {
    const slot = trick.querySelector(`.slot[data-seat="${seat}"]`);
    const play = plays.find((p) => p.seat === seat);
    if (!play) {
      slot.replaceChildren();
      continue;
    }
    const current = slot.querySelector(".card");
    if (current && current.dataset.card === play.card) {
      current.setAttribute("aria-label", t("label_value", { label: seatName(seat), value: cardName(play.card) }));
      continue;
    }
    const card = makeCard(play.card, deck());
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", t("label_value", { label: seatName(seat), value: cardName(play.card) }));
    if (!before.has(play.card)) card.classList.add("enter", `from-${seat}`);
    slot.replaceChildren(card);
  }
  // The turned card while bidding (classic tables).
  const turned = $("turned");
  if (view.phase === "bidding" && view.turned) {
    const card = makeCard(view.turned, deck());
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", t("label_value", { label: t("turned"), value: cardName(view.turned) }));
    turned.replaceChildren(card, el("span", "turned-label", t("turned")));
    turned.hidden = false;
  } else {
    turned.replaceChildren();
    turned.hidden = true;
  }
  if (final) {
    const winner = winnerOf(view.last_trick);
    trick.classList.add("done");
    if (winner) trick.dataset.winner = placeOf(view, winner);
  } else if (done) {
    const winner = winnerOf(view.last_trick);
    trick.classList.add("done");
    if (winner) trick.dataset.winner = placeOf(view, winner);
    const { hold } = pace();
    state.trickTimer = setTimeout(() => {
      // Collect the finished trick towards its winner, unless a new card came meanwhile.
      if (state.view !== view) return;
      trick.classList.add("collect");
      state.trickTimer = setTimeout(() => {
        if (state.view !== view) return;
        for (const slot of trick.querySelectorAll(".slot")) slot.replaceChildren();
        trick.classList.remove("collect", "done");
      }, prefersReducedMotion() ? 0 : 300);
    }, hold);
  }
}
