// Learning at the table (docs/learning.md), beside the table's own script: the "Analyse"
// button once a deal is over (the analysis view: each card's verdict and cost in both
// lights, the moments of the deal with their better line replayed with all hands shown, the
// bids and the contracts), the hint button when hints are on (a setting, off by default), and
// the check of the deal's shuffle done here, in the browser (fair.js).
//
// It reads the table's state from window.cardavia (read only) and the game from
// localStorage; it asks for a hint on a connection of its own to the game.

import { makeCard } from "./cards.js";
import { checkDeal } from "./fair.js";
import { positionAt, replayBoard } from "./learn_board.js";
import { loadSeat, roomCode } from "./room.js";

const GAME_KEY = "cardavia.game";
const HINTS_KEY = "cardavia.hints";
const SEATS = ["N", "E", "S", "W"];
const lang = document.documentElement.lang || "en";
let words = {};
const state = { analysed: null, checked: null, hintStep: null, hintAction: null, context: null };

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function game() {
  try {
    const stored = JSON.parse(localStorage.getItem(GAME_KEY) || "null");
    return stored && stored.game && stored.token ? stored : null;
  } catch {
    return null;
  }
}

/** A card's picture, named for screen readers (its name, else its code). */
function picture(code, deck, name) {
  const card = makeCard(code, deck, "span");
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", name || code);
  return card;
}

function seatName(code) {
  return words[`seat_${code}`] || code;
}

function tableView() {
  return window.cardavia?.view ?? null;
}

function deckOf(view) {
  return view?.deck === "spanish" ? "spanish" : "french";
}

export function hintsOn() {
  return localStorage.getItem(HINTS_KEY) === "on";
}

// -- the bar -------------------------------------------------------------------------------

function button(id, text) {
  const b = el("button", "learn-button", text);
  b.type = "button";
  b.id = id;
  b.hidden = true;
  return b;
}

function buildBar() {
  const bar = el("section", "learn-bar");
  bar.id = "learn";
  bar.setAttribute("aria-label", words.analysis);
  const toggle = el("label", "learn-toggle");
  const setting = document.createElement("input");
  setting.type = "checkbox";
  setting.id = "learn-hints";
  setting.checked = hintsOn();
  setting.addEventListener("change", () => {
    localStorage.setItem(HINTS_KEY, setting.checked ? "on" : "off");
    update();
  });
  toggle.append(setting, " ", words.hints_setting);
  const hint = button("learn-hint", words.hint);
  hint.addEventListener("click", askHint);
  const hintText = el("p", "learn-hint-text");
  hintText.id = "learn-hint-text";
  hintText.setAttribute("role", "status");
  const analyse = button("learn-analyse", words.analyse);
  analyse.addEventListener("click", openAnalysis);
  const check = button("learn-check", words.check_shuffle);
  check.addEventListener("click", checkShuffle);
  const fair = el("p", "learn-fair");
  fair.id = "learn-fair";
  fair.setAttribute("role", "status");
  bar.append(toggle, analyse, check, fair);
  const main = document.querySelector("main") || document.body;
  main.append(bar);
  // The hint sits by the hand and the bid buttons, where the player is looking.
  const box = el("div", "learn-hint-box");
  box.id = "learn-hint-box";
  box.append(hint, hintText);
  const controls = document.getElementById("controls");
  if (controls) controls.after(box);
  else bar.append(box);
  // The end-of-deal panel and the replay get their own "Analyse" button, beside their others.
  for (const slot of document.querySelectorAll("[data-learn-slot]")) {
    const again = button(`learn-analyse-${slot.dataset.learnSlot}`, words.analyse);
    again.classList.add("secondary", "learn-analyse-slot");
    again.addEventListener("click", openAnalysis);
    slot.prepend(again);
  }
  const dialog = el("dialog", "learn-dialog");
  dialog.id = "learn-analysis";
  dialog.setAttribute("aria-labelledby", "learn-analysis-title");
  document.body.append(dialog);
}

/** Whether the player has a seat at this table: always on the table page; on a room's page,
 * once this browser holds a seat in the room (not on the page that creates or joins one). */
function seated(view) {
  if (roomCode() === null) return true;
  return !!view?.seat || loadSeat() !== null;
}

function update() {
  const view = tableView();
  // Hints are a seat's: the setting shows only where the player plays.
  const toggle = document.getElementById("learn-hints")?.closest("label");
  if (toggle) toggle.hidden = !seated(view);
  const over = !!view && view.phase === "over";
  const myTurn = !!view && view.to_move === view.seat && (view.legal?.length ?? 0) > 0;
  const hint = document.getElementById("learn-hint");
  if (hint) hint.hidden = !(hintsOn() && myTurn);
  const text = document.getElementById("learn-hint-text");
  if (text && view && state.hintStep !== null && state.hintStep !== view.step) {
    text.textContent = "";
    state.hintStep = null;
    state.hintAction = null;
  }
  markHintedBid();
  for (const b of document.querySelectorAll("#learn-analyse, .learn-analyse-slot")) b.hidden = !over;
  const check = document.getElementById("learn-check");
  if (check) check.hidden = !(view?.fair?.seed);
  const key = view ? `${view.game}:${view.deal_number}` : null;
  if (state.checked !== key) {
    state.checked = key;
    const fair = document.getElementById("learn-fair");
    if (fair) {
      fair.textContent = "";
      delete fair.dataset.ok;
    }
  }
}

// -- the shuffle ---------------------------------------------------------------------------

export async function checkShuffle() {
  const view = tableView();
  const fair = view?.fair;
  const out = document.getElementById("learn-fair");
  if (!fair?.seed || !out) return null;
  const result = await checkDeal(fair.seed, fair.hash, fair.deck);
  // The deck must also be the deal's: its hands are its packets.
  const hands = Object.values(view.replay?.hands ?? {}).flat().sort();
  const same = hands.length === 32 && [...fair.deck].sort().every((c, i) => c === hands[i]);
  const ok = result.ok && same;
  out.dataset.ok = String(ok);
  out.dataset.problem = ok ? "" : result.problem || "deck_mismatch";
  out.textContent = ok ? words.shuffle_ok : words.shuffle_bad;
  return ok;
}

// -- hints ---------------------------------------------------------------------------------

/** The bid button the hint suggests, marked as the hinted card is (the controls are drawn
 * again at each view: marked again each time). */
function markHintedBid() {
  const action = state.hintAction;
  for (const button of document.querySelectorAll("#controls .bid-button")) {
    const same = !!action && action.kind !== "play" && button.dataset.kind === action.kind &&
      (button.dataset.strain ?? "") === String(action.strain ?? "") &&
      (button.dataset.value ?? "") === String(action.value ?? "");
    if (same) button.dataset.hinted = "true";
    else delete button.dataset.hinted;
  }
}

function askHint() {
  const view = tableView();
  const current = game();
  const text = document.getElementById("learn-hint-text");
  if (!view || !current || !text) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams({ token: current.token, lang });
  const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(current.game)}?${query}`);
  ws.onopen = () => ws.send(JSON.stringify({ type: "hint" }));
  ws.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type !== "hint" && message.type !== "error") return;
    ws.close();
    if (message.type === "error") {
      text.textContent = message.message;
      return;
    }
    state.hintStep = message.step;
    const given = message.hint;
    state.hintAction = given?.action ?? null;
    text.dataset.card = given?.card ?? "";
    text.textContent = given ? `${given.action_text} — ${given.text}` : "";
    for (const card of document.querySelectorAll("[data-hinted]")) delete card.dataset.hinted;
    markHintedBid();
    if (given?.card) {
      for (const card of document.querySelectorAll(`#hand [data-card="${given.card}"], .hand [data-card="${given.card}"]`)) {
        card.dataset.hinted = "true";
      }
    }
  };
}

// -- the analysis --------------------------------------------------------------------------

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

function renderAnalysis(dialog, data) {
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

export async function openAnalysis() {
  const view = tableView();
  const current = game();
  if (!view || !current) return;
  state.context = null;
  const query = new URLSearchParams({ token: current.token, lang, deal: String(view.deal_number) });
  await showAnalysis(`/api/games/${encodeURIComponent(current.game)}/analysis?${query}`);
}

/** The analysis view of a deal away from the table (a player's history): the analysis
 * answered at `url`, seen from `context.seat` with the cards of `context.deck`. */
export async function openAnalysisOf(url, context) {
  await ready;
  state.context = context;
  await showAnalysis(url);
}

async function showAnalysis(url) {
  const dialog = document.getElementById("learn-analysis");
  if (!dialog) return;
  dialog.replaceChildren(el("p", "learn-wait", words.analysing));
  dialog.dataset.state = "loading";
  if (!dialog.open) dialog.showModal();
  const response = await fetch(url);
  const data = await response.json();
  if (!response.ok) {
    dialog.replaceChildren(el("p", "learn-error", data.message));
    dialog.dataset.state = "error";
    return;
  }
  state.analysed = data;
  renderAnalysis(dialog, data);
  dialog.dataset.state = "ready";
}

async function start() {
  const response = await fetch(`/api/learn/words?lang=${encodeURIComponent(lang)}`);
  words = await response.json();
  if (!document.getElementById("table")) {
    // Away from the table (a player's history): the analysis view alone.
    const dialog = el("dialog", "learn-dialog");
    dialog.id = "learn-analysis";
    dialog.setAttribute("aria-labelledby", "learn-analysis-title");
    document.body.append(dialog);
    return;
  }
  buildBar();
  update();
  // Drawn again whenever the table shows another view or its controls (table.js), never on a
  // timer.
  document.addEventListener("cardavia:view", update);
}

window.cardaviaLearn = {
  get analysis() {
    return state.analysed;
  },
  get hintAction() {
    return state.hintAction;
  },
  checkShuffle,
  positionAt,
};

const ready = start();
