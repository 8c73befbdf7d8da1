// The info panel beside the felt: the shuffle's commitment, the contract, the tricks won, the
// bids, the announcements and belote, the card points, the deal's tricks looked at again, and
// the match's score sheet.

import { makeCard } from "./cards.js";
import { loadSettings } from "./settings.js";
import { $, el, page, state, TEAM } from "./table_state.js";
import { playsOf, tricksDone, winnerOf } from "./table_view.js";
import {
  announcementName,
  beloteWord,
  bidText,
  cardName,
  cardWords,
  contractNode,
  deck,
  seatName,
  t,
  tNode,
} from "./table_words.js";

/** The shuffle's commitment (its hash, shown from the start); once the deal is over, the
 * seed is revealed and "Check this deal" opens the fairness page's check, filled in. */
function renderFair(view) {
  const fair = view.fair;
  $("fair-line").hidden = !fair?.hash;
  if (!fair?.hash) return;
  $("fair-hash").textContent = fair.hash;
  const link = /** @type {HTMLAnchorElement} */ ($("fair-check"));
  link.hidden = !fair.seed;
  if (fair.seed) {
    const query = new URLSearchParams({ seed: fair.seed, hash: fair.hash, deck: (fair.deck ?? []).join(" ") });
    link.href = `/${page.lang}/rules/fairness?${query}#check-deal`;
  }
}

export function renderInfo(view) {
  renderFair(view);
  $("contract").replaceChildren(contractNode(view.contract));
  const won = view.tricks_won ?? { NS: 0, EW: 0 };
  $("tricks-ns").textContent = String(won.NS ?? 0);
  $("tricks-ew").textContent = String(won.EW ?? 0);
  // The bids, in order.
  const bids = $("bids");
  bids.replaceChildren();
  for (const bid of view.bids ?? []) {
    const item = el("li");
    item.dataset.seat = bid.seat;
    item.append(el("span", "who", seatName(bid.seat)), " ", el("span", "what", bidText(bid)));
    bids.append(item);
  }
  $("bids-box").hidden = !(view.bids ?? []).length;
  // Announcements: said in the first trick, compared at the start of the second.
  const anns = $("announcements");
  anns.replaceChildren();
  const declarations = view.declarations ?? [];
  const revealed = view.revealed ?? [];
  for (const d of declarations) {
    const item = el("li");
    item.append(tNode("declared", { seat: seatName(d.seat), name: d.text ?? announcementName(d.name), points: d.points }));
    anns.append(item);
  }
  if (declarations.length && tricksDone(view) > 0) {
    const result = el("li", "comparison");
    if (revealed.length) {
      result.append(tNode("comparison_won", { team: t(`team_${TEAM[revealed[0].seat]}`) }));
      const shown = el("ul", "revealed");
      for (const r of revealed) {
        const row = el("li");
        row.append(tNode("declared", { seat: seatName(r.seat), name: r.text ?? announcementName(r.name), points: r.points }));
        const cards = el("span", "mini-cards");
        for (const code of r.cards ?? []) {
          const card = makeCard(code, deck());
          card.classList.add("mini");
          card.setAttribute("role", "img");
          card.setAttribute("aria-label", cardName(code));
          cards.append(card);
        }
        row.append(" ", cards);
        shown.append(row);
      }
      result.append(shown);
    } else {
      result.append(t("comparison_tie"));
    }
    anns.append(result);
  }
  for (const event of view.belote ?? []) {
    const item = el("li", "belote-said");
    item.append(tNode("belote_said", { seat: seatName(event.seat), word: beloteWord(event, view), ...cardWords(event.card) }));
    anns.append(item);
  }
  $("announcements-box").hidden = !anns.childElementCount;
  // The card points won so far (a setting).
  const pointsLine = $("points-line");
  const points = view.points;
  if (loadSettings().showPoints && points && view.phase !== "bidding") {
    pointsLine.replaceChildren(tNode("points_line", { ns: points.NS ?? 0, ew: points.EW ?? 0 }));
    pointsLine.hidden = false;
  } else {
    pointsLine.hidden = true;
  }
  // The deal's tricks, viewable again: the last one first, the earlier ones with the arrows.
  // Each trick keeps its number in the deal (after a reload only the last ones are known).
  const numbers = state.dealTricks.map((trick, i) => (trick ? i + 1 : 0)).filter(Boolean);
  const tricks = state.dealTricks.filter(Boolean);
  const toggle = /** @type {HTMLButtonElement} */ ($("last-trick-toggle"));
  const open = state.lastTrickOpen && tricks.length > 0;
  toggle.disabled = tricks.length === 0;
  toggle.setAttribute("aria-expanded", open ? "true" : "false");
  toggle.textContent = open ? t("hide_last_trick") : t("last_trick");
  const box = $("last-trick");
  const review = $("trick-review");
  review.replaceChildren();
  box.hidden = !open;
  if (open) {
    const index = Math.min(tricks.length - 1, state.reviewIndex ?? tricks.length - 1);
    const shownTrick = tricks[index];
    const total = Math.max(tricksDone(view), numbers.at(-1));
    $("trick-n").replaceChildren(tNode("trick_n", { n: numbers[index], total }));
    /** @type {HTMLButtonElement} */ ($("trick-prev")).disabled = index === 0;
    /** @type {HTMLButtonElement} */ ($("trick-next")).disabled = index >= tricks.length - 1;
    const cards = el("div", "last-cards");
    for (const play of playsOf(shownTrick)) {
      const fig = el("figure", "last-play");
      fig.dataset.seat = play.seat;
      const card = makeCard(play.card, deck());
      card.setAttribute("role", "img");
      card.setAttribute("aria-label", cardName(play.card));
      fig.append(card, el("figcaption", null, seatName(play.seat)));
      cards.append(fig);
    }
    review.append(cards);
    const winner = winnerOf(shownTrick);
    if (winner) review.append(el("p", "last-winner", t("trick_won_by", { seat: seatName(winner) })));
  }
  renderSheet($("sheet-side"), view, false);
}

export function scoreCell(value, tag = "td") {
  const cell = el(tag);
  cell.append(el("bdi", null, value === undefined || value === null ? "" : String(value)));
  return cell;
}

/** The match score sheet: one row per deal, the totals and the target. */
export function renderSheet(host, view, full) {
  host.replaceChildren();
  const match = view.match;
  const deals = match?.deals ?? [];
  const multi = match && match.target && Number(match.target) > 0;
  if (!multi) {
    host.hidden = true;
    return;
  }
  host.hidden = false;
  const table = el("table", "sheet");
  const caption = el("caption");
  caption.append(t("match_sheet"));
  if (multi) caption.append(" ", tNode("target", { n: match.target }));
  table.append(caption);
  const head = el("tr");
  head.append(el("td"), el("th", null, t("team_NS")), el("th", null, t("team_EW")));
  head.querySelectorAll("th").forEach((th) => th.setAttribute("scope", "col"));
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  const rows = full ? deals : deals.slice(-4);
  const offset = deals.length - rows.length;
  rows.forEach((deal, i) => {
    const row = el("tr");
    const th = el("th", null, t("deal_n", { n: offset + i + 1 }));
    th.setAttribute("scope", "row");
    if (deal.outcome) row.dataset.outcome = deal.outcome;
    if (deal.outcome === "cancelled") {
      const cell = el("td", "cancelled-deal", t("deal_cancelled"));
      cell.colSpan = 2;
      row.append(th, cell);
    } else {
      row.append(th, scoreCell(deal.NS), scoreCell(deal.EW));
    }
    body.append(row);
  });
  table.append(body);
  const foot = el("tfoot");
  const total = el("tr", "total");
  const th = el("th", null, t("total"));
  th.setAttribute("scope", "row");
  total.append(th, scoreCell(match.scores?.NS ?? 0), scoreCell(match.scores?.EW ?? 0));
  foot.append(total);
  table.append(foot);
  host.append(table);
  if (match.winner) host.append(el("p", "match-winner", t("match_won", { team: t(`team_${match.winner}`) })));
}
