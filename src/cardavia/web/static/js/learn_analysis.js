// The analysis view of a deal (docs/learning.md): the player's notable cards, then the
// partner's and the opponents', each with its verdict and, for a moment of the deal, its better
// line replayed with all hands shown; every card's cost, the bids and the contracts.

import { replayBoard } from "./learn_board.js";
import { deckOf, el, picture, SEATS, seatName, state, tableView, words } from "./learn_state.js";

function cell(row, text, className) {
  const td = el("td", className, text);
  row.append(td);
  return td;
}

function headRow(table, labels) {
  const head = el("thead");
  const row = el("tr");
  for (const label of labels) {
    // A column without a heading of its own has an empty cell, not an empty header.
    const th = el(label ? "th" : "td", null, label);
    if (label) th.scope = "col";
    row.append(th);
  }
  head.append(row);
  table.append(head);
}

function fill(template, values) {
  return String(template ?? "").replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

/** Every card of the deal, one figure each: the points its side lost (the verdict's light). */
function cardsTable(data) {
  const wrap = el("div", "learn-wide");
  const table = el("table", "learn-cards");
  headRow(table, [words.trick, words.player, words.card, words.verdict, words.points_lost]);
  const body = el("tbody");
  for (const card of data.cards) {
    const row = el("tr");
    row.dataset.verdict = card.verdict;
    row.dataset.number = String(card.number);
    cell(row, card.trick, "num");
    cell(row, seatName(card.seat));
    cell(row, card.name, "learn-card-name");
    const verdict = cell(row, card.label, "learn-verdict");
    verdict.title = card.text;
    const lost = cell(row, "", "num");
    lost.append(Object.assign(el("bdi", null, card.lost ? `−${card.lost}` : "0"), { dir: "ltr" }));
    body.append(row);
  }
  table.append(body);
  wrap.append(table);
  return wrap;
}

function bidsTable(data) {
  const wrap = el("div", "learn-wide");
  const table = el("table", "learn-bids");
  headRow(table, [words.player, words.bidding, words.suggested]);
  const body = el("tbody");
  for (const bid of data.bids) {
    const row = el("tr");
    row.dataset.agrees = String(bid.agrees);
    cell(row, seatName(bid.seat));
    cell(row, bid.action_text);
    cell(row, bid.agrees ? "✓" : bid.suggested_text);
    body.append(row);
  }
  table.append(body);
  wrap.append(table);
  return wrap;
}

/** Each contract, all hands known: trumps, takers, card points, the highest bid it makes
 * (auction tables), and the deal's score for each side. */
function contractsTable(data) {
  const wrap = el("div", "learn-wide");
  const table = el("table", "learn-contracts");
  table.append(el("caption", null, words.contracts));
  const withBids = data.contracts.some((c) => c.bid !== null && c.bid !== undefined);
  const score = (team) => fill(words.score_of, { team: words[`team_${team}`] || team });
  headRow(table, [
    words.strain, words.takers, words.card_points,
    ...(withBids ? [words.highest_bid] : []), score("NS"), score("EW"),
  ]);
  const body = el("tbody");
  for (const c of data.contracts) {
    const row = el("tr");
    cell(row, c.strain_name || c.strain);
    cell(row, words[`team_${c.team}`] || c.team);
    cell(row, c.points, "num");
    if (withBids) cell(row, c.bid ?? "—", "num");
    cell(row, c.scores[0], "num");
    cell(row, c.scores[1], "num");
    body.append(row);
  }
  table.append(body);
  wrap.append(table);
  return wrap;
}

const NOTABLE = ["mistake", "bad_luck", "unclear"];

/** The player's own cards first, then the partner's, then the opponents'. */
function groupsOf(me) {
  const at = Math.max(0, SEATS.indexOf(me));
  const partner = SEATS[(at + 2) % 4];
  const others = [SEATS[(at + 1) % 4], SEATS[(at + 3) % 4]];
  return [
    { key: "mine", title: words.your_cards, seats: [SEATS[at]] },
    { key: "partner", title: words.partner_cards, seats: [partner] },
    { key: "opponents", title: words.opponents_cards, seats: others },
  ];
}

function notableItem(data, card, moment, deck, me) {
  const item = el("li", "learn-moment");
  item.dataset.verdict = card.verdict;
  item.dataset.number = String(card.number);
  const head = el("p", "learn-moment-head");
  head.append(
    el("span", "learn-trick-n", fill(words.trick_n, { n: card.trick })),
    " · ",
    el("span", "learn-seat", seatName(card.seat)),
    " ",
    picture(card.card, deck, card.name),
    " ",
    el("span", "learn-card-name", card.name),
    " — ",
    el("strong", "learn-label", card.label),
  );
  item.append(head, el("p", "learn-why", card.text));
  if (moment) {
    item.dataset.moment = String(data.moments.indexOf(moment));
    const better = el("p", "learn-better", moment.text);
    const replay = el("button", "learn-replay", words.replay_line);
    replay.type = "button";
    replay.setAttribute("aria-expanded", "false");
    replay.addEventListener("click", () => {
      const open = item.querySelector(".learn-board");
      if (open) {
        open.stop?.();
        open.remove();
        replay.setAttribute("aria-expanded", "false");
        return;
      }
      const hands = tableView()?.replay?.hands ?? {};
      const board = replayBoard(data, moment, { hands, me, deck, words, seatName });
      item.append(board);
      replay.setAttribute("aria-expanded", "true");
      board.querySelector(".learn-play")?.click();
    });
    better.append(" ", replay);
    item.append(better);
  }
  return item;
}

export function renderAnalysis(dialog, data) {
  const view = state.context || tableView();
  const deck = deckOf(view);
  const me = SEATS.includes(view?.seat) ? view.seat : "S";
  dialog.replaceChildren();
  dialog.setAttribute("dir", data.dir);
  dialog.setAttribute("lang", data.lang);
  dialog.dataset.deal = String(data.deal);
  const title = el("h2", null, data.labels.analysis);
  title.id = "learn-analysis-title";
  const close = el("button", "learn-close", data.labels.close);
  close.type = "button";
  close.addEventListener("click", () => {
    for (const board of dialog.querySelectorAll(".learn-board")) board.stop?.();
    dialog.close();
  });
  dialog.append(close, title, el("p", "learn-unit", data.labels.cost_explained));
  const moments = new Map(data.moments.map((m) => [m.number, m]));
  for (const group of groupsOf(me)) {
    const section = el("section", "learn-group");
    section.dataset.group = group.key;
    section.append(el("h3", null, group.title));
    const rank = (c) => NOTABLE.indexOf(c.verdict) * 1000 - c.lost;
    const notable = data.cards
      .filter((c) => group.seats.includes(c.seat) && NOTABLE.includes(c.verdict))
      .sort((a, b) => rank(a) - rank(b) || a.number - b.number);
    if (!notable.length) {
      section.append(el("p", "learn-none", words.no_moment));
    } else {
      const list = el("ol", "learn-moments");
      for (const card of notable) list.append(notableItem(data, card, moments.get(card.number), deck, me));
      section.append(list);
    }
    dialog.append(section);
  }
  const all = el("details", "learn-all");
  all.append(el("summary", null, words.all_cards), cardsTable(data));
  dialog.append(all);
  if (data.bids.length) {
    dialog.append(el("h3", null, data.labels.bidding), bidsTable(data));
  }
  if (data.contracts.length) dialog.append(contractsTable(data));
}
