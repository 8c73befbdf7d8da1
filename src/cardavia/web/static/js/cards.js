// Card pictures drawn with HTML and inline SVG: French pips (♠ ♥ ♦ ♣) or the four Spanish
// suits (espadas, copas, oros, bastos), corners readable left to right in every language.
// Codes are docs/rules.md 1's: rank 7 8 9 T J Q K A then suit S H D C.

export const RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"];
export const SUITS = ["S", "H", "D", "C"];
export const ALL_CODES = SUITS.flatMap((s) => RANKS.map((r) => r + s));

const FRENCH_RANK_LABEL = { 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };

/** The corner letters of the French deck's court cards and ace in the page's language
 * (French cards read V D R A), as every page gives them (base.html, #card-labels). */
function readRankLabels() {
  let labels = {};
  try {
    labels = JSON.parse(globalThis.document?.getElementById("card-labels")?.textContent || "{}");
  } catch {
    return;
  }
  for (const rank of ["J", "Q", "K", "A"]) {
    const label = labels?.[rank];
    if (typeof label === "string" && label.trim() && label.trim().length <= 3) {
      FRENCH_RANK_LABEL[rank] = label.trim();
    }
  }
}
readRankLabels();
// docs/rules.md 1: the Spanish 4 5 6 7 10 11 12 1 are 7 8 9 10 J Q K A.
const SPANISH_RANK_LABEL = { 7: "4", 8: "5", 9: "6", T: "7", J: "10", Q: "11", K: "12", A: "1" };
const FRENCH_SYMBOL = { S: "♠\uFE0E", H: "♥\uFE0E", D: "♦\uFE0E", C: "♣\uFE0E" };

const TRUMP_ORDER = ["J", "9", "A", "T", "K", "Q", "8", "7"];
const PLAIN_ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"];

export function rankOf(code) {
  return code[0];
}

export function suitOf(code) {
  return code[1];
}

export function rankLabel(code, deck) {
  return (deck === "spanish" ? SPANISH_RANK_LABEL : FRENCH_RANK_LABEL)[rankOf(code)];
}

const SVG_NS = "http://www.w3.org/2000/svg";

// Small pictures of the Spanish suits, drawn on a 24×24 box.
const SPANISH_PATHS = {
  // oros: a gold coin
  D: '<circle cx="12" cy="12" r="9" fill="#e0a800" stroke="#7a5a00" stroke-width="1.6"/>' +
    '<circle cx="12" cy="12" r="4.2" fill="none" stroke="#7a5a00" stroke-width="1.4"/>',
  // copas: a cup
  H: '<path d="M5 4h14c0 6-3 9-6 9.6V18h3.5v2h-9v-2H11v-4.4C8 13 5 10 5 4z" fill="#c8102e" ' +
    'stroke="#6d0718" stroke-width="1.2" stroke-linejoin="round"/>',
  // espadas: a sword
  S: '<path d="M12 2l2 3v10h-4V5z" fill="#1d5fb8" stroke="#0b2f63" stroke-width="1.1"/>' +
    '<path d="M6.5 15h11v2h-11z" fill="#0b2f63"/><path d="M11 17h2v5h-2z" fill="#7a4a12"/>',
  // bastos: a club
  C: '<path d="M9 3.5c2-1.6 5-.8 5.6 1.6l2.4 14.4c.2 1.5-2.3 2.2-3 .8L8.2 6.6C7.6 5.5 8 4.3 9 3.5z" ' +
    'fill="#2f8a3a" stroke="#15461c" stroke-width="1.2"/>' +
    '<circle cx="11.2" cy="8.5" r="1" fill="#15461c"/><circle cx="13" cy="13" r="1" fill="#15461c"/>',
};

/** The suit's picture: a text pip for the French deck, an SVG for the Spanish one. */
export function suitMark(suit, deck) {
  if (deck === "spanish") {
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    svg.classList.add("suit-svg");
    svg.innerHTML = SPANISH_PATHS[suit];
    return svg;
  }
  const span = document.createElement("span");
  span.className = "pip";
  span.setAttribute("aria-hidden", "true");
  span.textContent = FRENCH_SYMBOL[suit];
  return span;
}

// The court cards' figures, drawn for Cardavia on a 40×56 box: a half-length figure in the
// suit's colour (currentColor), mirrored top and bottom as on a real card. The French deck's
// valet, dame and roi; the Spanish deck's sota (a page), caballo (a rider) and rey.
const SKIN = "#f3d2ae";
const GOLD = "#e0a800";
const LINE = "#2a2118";
const HEAD = (cx, cy) =>
  `<circle cx="${cx}" cy="${cy}" r="5.2" fill="${SKIN}" stroke="${LINE}" stroke-width="0.9"/>` +
  `<circle cx="${cx - 1.8}" cy="${cy - 0.4}" r="0.6" fill="${LINE}"/><circle cx="${cx + 1.8}" cy="${cy - 0.4}" r="0.6" fill="${LINE}"/>` +
  `<path d="M${cx - 1.6} ${cy + 2.2}q1.6 1.1 3.2 0" fill="none" stroke="${LINE}" stroke-width="0.7"/>`;
const BODY =
  `<path d="M8 28c1-6 5-8.5 12-8.5s11 2.5 12 8.5z" fill="currentColor" stroke="${LINE}" stroke-width="0.9"/>` +
  `<path d="M17 19.8l3 4 3-4" fill="#fffdf5" stroke="${LINE}" stroke-width="0.7"/>`;
const HALF = {
  // valet / jack: a feathered cap
  J: HEAD(20, 13) + BODY +
    `<path d="M13.8 10.5c1-4 11.4-4 12.4 0z" fill="currentColor" stroke="${LINE}" stroke-width="0.8"/>` +
    `<path d="M25 8c3-3 6-3 7-1-2 0-4 1-6 3z" fill="${GOLD}" stroke="${LINE}" stroke-width="0.6"/>`,
  // dame / queen: a tiara and long hair
  Q: `<path d="M13.5 13c0-6 3-9 6.5-9s6.5 3 6.5 9l1 7h-15z" fill="#7a4a12" stroke="${LINE}" stroke-width="0.8"/>` +
    HEAD(20, 13) + BODY +
    `<path d="M15.5 8.6l1.6-3 1.5 2 1.4-3 1.4 3 1.5-2 1.6 3z" fill="${GOLD}" stroke="${LINE}" stroke-width="0.6"/>`,
  // roi / king: a crown and a beard
  K: HEAD(20, 13) + BODY +
    `<path d="M15.8 15.4q4.2 5.6 8.4 0q-1 4.6-4.2 4.6t-4.2-4.6z" fill="#8a8a8a" stroke="${LINE}" stroke-width="0.6"/>` +
    `<path d="M14.6 9.2l-.8-5 2.8 2.4 1.7-3.4 1.7 3.4 1.7-3.4 1.7 3.4 2.8-2.4-.8 5z" fill="${GOLD}" stroke="${LINE}" stroke-width="0.7"/>`,
};
// the Spanish caballo: a horse's head before the rider
HALF.H = HEAD(23, 11) + BODY +
  `<path d="M10 27c-2-6-1-12 3-15l3-3 1 3c3 1 4 4 3 6l-3-1-2 3v7z" fill="#c9a27a" stroke="${LINE}" stroke-width="0.8"/>` +
  `<circle cx="15.6" cy="14.4" r="0.6" fill="${LINE}"/>` +
  `<path d="M18.6 8.4c1-3 8.8-3 9.8 0z" fill="currentColor" stroke="${LINE}" stroke-width="0.7"/>`;

/** A court card's figure: `rank` J, Q or K; the Spanish deck's Q is the caballo. */
export function courtFigure(rank, deck) {
  const half = deck === "spanish" && rank === "Q" ? HALF.H : HALF[rank];
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 40 56");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.classList.add("figure");
  svg.innerHTML =
    `<rect x="3" y="2" width="34" height="52" rx="3" fill="#fbf6ea" stroke="currentColor" stroke-width="0.8"/>` +
    `<g>${half}</g><g transform="rotate(180 20 28)">${half}</g>` +
    `<path d="M3 28h34" stroke="currentColor" stroke-width="0.6"/>`;
  return svg;
}

/** A short text for a strain: a suit symbol, or SA/TA style letters handled by the caller. */
export function suitSymbol(suit) {
  return FRENCH_SYMBOL[suit] ?? "";
}

/** Fill `el` (a button or a div) with the face of `code`. */
export function drawFace(el, code, deck) {
  el.replaceChildren();
  el.classList.add("card", "face");
  el.classList.remove("back");
  el.dataset.card = code;
  el.dataset.suit = suitOf(code);
  el.dataset.rank = rankOf(code);
  el.dataset.deck = deck;
  el.setAttribute("dir", "ltr");
  const label = rankLabel(code, deck);
  for (const corner of ["tl", "br"]) {
    const c = document.createElement("span");
    c.className = `corner ${corner}`;
    c.setAttribute("aria-hidden", "true");
    const r = document.createElement("span");
    r.className = "rank";
    r.textContent = label;
    c.append(r, suitMark(suitOf(code), deck));
    el.append(c);
  }
  const middle = document.createElement("span");
  middle.className = "middle";
  middle.setAttribute("aria-hidden", "true");
  if ("JQK".includes(rankOf(code))) {
    middle.classList.add("court-middle");
    middle.append(courtFigure(rankOf(code), deck));
  } else {
    middle.append(suitMark(suitOf(code), deck));
  }
  el.append(middle);
  return el;
}

/** A face-down card. */
export function drawBack(el) {
  el.replaceChildren();
  el.classList.add("card", "back");
  el.classList.remove("face");
  el.setAttribute("aria-hidden", "true");
  return el;
}

export function makeCard(code, deck, tag = "div") {
  return drawFace(document.createElement(tag), code, deck);
}

/** Sort a hand: suits alternating in colour, trumps first, strongest first. */
export function sortHand(codes, trump) {
  const suitOrder = ["S", "H", "C", "D"];
  const order = trump && suitOrder.includes(trump)
    ? [trump, ...suitOrder.filter((s) => s !== trump)]
    : suitOrder;
  const allTrump = trump === "AT";
  return [...codes].sort((a, b) => {
    const sa = order.indexOf(suitOf(a));
    const sb = order.indexOf(suitOf(b));
    if (sa !== sb) return sa - sb;
    const ranks = allTrump || suitOf(a) === trump ? TRUMP_ORDER : PLAIN_ORDER;
    return ranks.indexOf(rankOf(a)) - ranks.indexOf(rankOf(b));
  });
}
