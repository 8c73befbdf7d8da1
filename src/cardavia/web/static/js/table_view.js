// The view, normalised where docs/web.md leaves a shape open: tricks, turns, the legal plays,
// where each seat sits on screen, and what changed from one view to the next.

import { NEXT } from "./table_state.js";

export function playsOf(trick) {
  if (!trick) return [];
  const items = Array.isArray(trick) ? trick : trick.cards ?? trick.trick ?? trick.plays ?? [];
  return items
    .map((item) => (Array.isArray(item) ? { seat: item[0], card: item[1] } : item))
    .filter((item) => item && item.card);
}

export function winnerOf(trick) {
  if (!trick || Array.isArray(trick)) return null;
  return trick.winner ?? trick.won_by ?? null;
}

export function tricksDone(view) {
  const won = view?.tricks_won;
  return won ? (won.NS ?? 0) + (won.EW ?? 0) : 0;
}

export function legalPlays(view) {
  return (view?.legal ?? []).filter((a) => a.kind === "play");
}

export function isMyTurn(view) {
  return !!view && view.to_move === view.seat && (view.legal ?? []).length > 0;
}

export function trumpOf(view) {
  return view?.contract?.strain ?? null;
}

/** What this message changed, for the pause after it. */
export function changeOf(prev, view) {
  if (!prev) return "none";
  if (tricksDone(view) > tricksDone(prev)) return "trick_done";
  if (playsOf(view.trick).length !== playsOf(prev.trick).length) return "card";
  if ((view.bids ?? []).length !== (prev.bids ?? []).length) return "bid";
  return "other";
}

/** Where each seat is drawn: as the view's ``screen`` says (the server turns the table so
 * that the player's own seat is at the bottom; seat codes stay the real ones). */
const DEFAULT_SCREEN = { bottom: "S", right: "W", top: "N", left: "E" };

export function screenOf(view) {
  return view?.screen ?? DEFAULT_SCREEN;
}

/** The place on screen (bottom, right, top, left) of a real seat. */
export function placeOf(view, seat) {
  const screen = screenOf(view);
  return Object.keys(screen).find((place) => screen[place] === seat) ?? "";
}

export function partnerOf(seat) {
  return NEXT[NEXT[seat]];
}

export function isMatchOver(view) {
  return !!view?.match?.winner || !!view?.match?.over;
}

/** Whether the game is a match to a target (a single deal has none: its winner wins the
 * deal, not "the match"). */
export function isMatch(view) {
  return Number(view?.match?.target) > 0;
}
