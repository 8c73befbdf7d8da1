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

const GAME_KEY = "cardavia.game";
const HINTS_KEY = "cardavia.hints";
const SEATS = ["N", "E", "S", "W"];
const lang = document.documentElement.lang || "en";
let words = {};
const state = { analysed: null, checked: null, hintStep: null, replayTimer: null };

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
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = "learn-hints";
  box.checked = hintsOn();
  box.addEventListener("change", () => {
    localStorage.setItem(HINTS_KEY, box.checked ? "on" : "off");
    update();
  });
  toggle.append(box, " ", words.hints_setting);
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
  bar.append(toggle, hint, hintText, analyse, check, fair);
  const main = document.querySelector("main") || document.body;
  main.append(bar);
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

function update() {
  const view = tableView();
  const over = !!view && view.phase === "over";
  const myTurn = !!view && view.to_move === view.seat && (view.legal?.length ?? 0) > 0;
  const hint = document.getElementById("learn-hint");
  if (hint) hint.hidden = !(hintsOn() && myTurn);
  const text = document.getElementById("learn-hint-text");
  if (text && view && state.hintStep !== null && state.hintStep !== view.step) {
    text.textContent = "";
    state.hintStep = null;
  }
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
    text.dataset.card = given?.card ?? "";
    text.textContent = given ? `${given.action_text} — ${given.text}` : "";
    for (const card of document.querySelectorAll("[data-hinted]")) delete card.dataset.hinted;
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

function cardsTable(data, deck) {
  const wrap = el("div", "learn-wide");
  const table = el("table", "learn-cards");
  headRow(table, [words.trick, "", words.card, words.verdict, `${words.cost}: ${words.double_dummy}`, `${words.cost}: ${words.seat_view}`]);
  const body = el("tbody");
  for (const card of data.cards) {
    const row = el("tr");
    row.dataset.verdict = card.verdict;
    row.dataset.number = String(card.number);
    cell(row, card.trick + 1, "num");
    cell(row, seatName(card.seat));
    const face = cell(row, "");
    const drawn = picture(card.card, deck, card.name);
    drawn.classList.add("learn-card");
    face.append(drawn);
    const verdict = cell(row, card.label, "learn-verdict");
    verdict.title = card.text;
    if (card.verdict === "mistake" || card.verdict === "bad_luck" || card.verdict === "unclear") {
      verdict.append(el("br"), el("small", "learn-why", card.text));
    }
    cell(row, Math.round(card.double_dummy.cost), "num");
    cell(row, Math.round(card.seat_view.cost), "num");
    body.append(row);
  }
  table.append(body);
  wrap.append(table);
  return wrap;
}

function bidsTable(data) {
  const wrap = el("div", "learn-wide");
  const table = el("table", "learn-bids");
  headRow(table, ["", words.bidding, words.suggested]);
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

function contractsTable(data) {
  const wrap = el("div", "learn-wide");
  const table = el("table", "learn-contracts");
  const caption = el("caption", null, words.contracts);
  table.append(caption);
  headRow(table, ["", "", "", words.team_NS || "NS", words.team_EW || "EW"]);
  const body = el("tbody");
  for (const c of data.contracts) {
    const row = el("tr");
    cell(row, c.strain_name || c.strain);
    cell(row, words[`team_${c.team}`] || c.team);
    cell(row, c.bid ?? c.points, "num");
    cell(row, c.scores[0], "num");
    cell(row, c.scores[1], "num");
    body.append(row);
  }
  table.append(body);
  wrap.append(table);
  return wrap;
}

/** The hands and the trick at a moment, before its better line: every hand shown. */
export function positionAt(data, hands, number) {
  const left = Object.fromEntries(SEATS.map((s) => [s, [...(hands[s] ?? [])]]));
  const before = data.cards.filter((c) => c.number < number);
  for (const c of before) left[c.seat] = left[c.seat].filter((code) => code !== c.card);
  const inTrick = before.length % 4;
  const trick = inTrick ? before.slice(-inTrick).map((c) => [c.seat, c.card]) : [];
  return { hands: left, trick };
}

function drawBoard(board, position, deck, names) {
  board.replaceChildren();
  for (const seat of SEATS) {
    const hand = el("div", "learn-hand");
    hand.dataset.seat = seat;
    hand.append(el("span", "learn-seat", seatName(seat)));
    for (const code of position.hands[seat]) hand.append(picture(code, deck, names[code]));
    board.append(hand);
  }
  const trick = el("div", "learn-trick");
  for (const [seat, code] of position.trick) {
    const played = picture(code, deck, names[code]);
    played.dataset.seat = seat;
    trick.append(played);
  }
  board.append(trick);
}

function replayMoment(data, moment, board, deck) {
  clearTimeout(state.replayTimer);
  const hands = tableView()?.replay?.hands ?? {};
  const position = positionAt(data, hands, moment.number);
  const names = Object.fromEntries(data.cards.map((c) => [c.card, c.name]));
  board.hidden = false;
  board.dataset.moment = String(moment.number);
  board.dataset.done = "false";
  board.dataset.step = "0";
  drawBoard(board, position, deck, names);
  const line = moment.line;
  let step = 0;
  const advance = () => {
    if (step >= line.length) {
      board.dataset.done = "true";
      return;
    }
    if (position.trick.length === 4) position.trick = [];
    const [seat, code] = line[step];
    position.hands[seat] = position.hands[seat].filter((c) => c !== code);
    position.trick.push([seat, code]);
    step += 1;
    board.dataset.step = String(step);
    drawBoard(board, position, deck, names);
    state.replayTimer = setTimeout(advance, 350);
  };
  state.replayTimer = setTimeout(advance, 350);
}

function renderAnalysis(dialog, data) {
  const deck = deckOf(tableView());
  dialog.replaceChildren();
  dialog.setAttribute("dir", data.dir);
  dialog.setAttribute("lang", data.lang);
  dialog.dataset.deal = String(data.deal);
  const title = el("h2", null, data.labels.analysis);
  title.id = "learn-analysis-title";
  const close = el("button", "learn-close", "×");
  close.type = "button";
  close.setAttribute("aria-label", "×");
  close.addEventListener("click", () => {
    clearTimeout(state.replayTimer);
    dialog.close();
  });
  dialog.append(close, title);
  dialog.append(el("h3", null, data.labels.moments));
  const moments = el("ol", "learn-moments");
  const board = el("div", "learn-board");
  board.hidden = true;
  data.moments.forEach((moment, index) => {
    const item = el("li", "learn-moment");
    item.dataset.verdict = moment.verdict;
    item.dataset.index = String(index);
    item.append(
      el("span", "learn-seat", seatName(moment.seat)),
      " ",
      picture(moment.played, deck, moment.played_name),
      " ",
      el("strong", null, moment.label),
      " — ",
      el("span", null, moment.text),
      " ",
      Object.assign(el("bdi", "num", `−${Math.round(moment.cost)}`), { dir: "ltr" }),
      " ",
    );
    const replay = el("button", "learn-replay", data.labels.replay_line);
    replay.type = "button";
    replay.addEventListener("click", () => replayMoment(data, moment, board, deck));
    item.append(replay);
    moments.append(item);
  });
  dialog.append(moments, board);
  dialog.append(cardsTable(data, deck));
  if (data.bids.length) {
    dialog.append(el("h3", null, data.labels.bidding), bidsTable(data));
  }
  if (data.contracts.length) dialog.append(contractsTable(data));
}

export async function openAnalysis() {
  const view = tableView();
  const current = game();
  const dialog = document.getElementById("learn-analysis");
  if (!view || !current || !dialog) return;
  dialog.replaceChildren(el("p", "learn-wait", words.analysing));
  dialog.dataset.state = "loading";
  if (!dialog.open) dialog.showModal();
  const query = new URLSearchParams({ token: current.token, lang, deal: String(view.deal_number) });
  const response = await fetch(`/api/games/${encodeURIComponent(current.game)}/analysis?${query}`);
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
  buildBar();
  update();
  setInterval(update, 250);
}

window.cardaviaLearn = {
  get analysis() {
    return state.analysed;
  },
  checkShuffle,
  positionAt,
};

start();
