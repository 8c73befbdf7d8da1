// What the learning at the table shares (learn.js, learn_analysis.js): the words of the
// learning (GET /api/learn/words, come once the page is loaded), its state, the game kept by
// the table, the table's view (window.cardavia, read only) and the names and pictures of
// seats and cards.

import { makeCard } from "./cards.js";

export const GAME_KEY = "cardavia.game";
export const HINTS_KEY = "cardavia.hints";
export const SEATS = ["N", "E", "S", "W"];
export const lang = document.documentElement.lang || "en";
export let words = {};

/** The learning's words, once they have come. */
export function setWords(given) {
  words = given;
}

export const state = { analysed: null, checked: null, hintStep: null, hintAction: null, context: null };

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

export function game() {
  try {
    const stored = JSON.parse(localStorage.getItem(GAME_KEY) || "null");
    return stored && stored.game && stored.token ? stored : null;
  } catch {
    return null;
  }
}

/** A card's picture, named for screen readers (its name, else its code). */
export function picture(code, deck, name) {
  const card = makeCard(code, deck, "span");
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", name || code);
  return card;
}

export function seatName(code) {
  return words[`seat_${code}`] || code;
}

export function tableView() {
  return window.cardavia?.view ?? null;
}

export function deckOf(view) {
  return view?.deck === "spanish" ? "spanish" : "french";
}
