// A shared deal's page (templates/deal.html): its replay, trick by trick — the trick's cards
// in the middle of the diagram, the cards already played greyed in the hands, who won it —
// and its analysis (learn.js's view, asked of /api/deals/{code}/analysis). Without this
// script the page still lists every trick with its winner.

import { openAnalysisOf } from "./learn.js";

const data = JSON.parse(document.getElementById("deal-data")?.textContent || "{}");
const lang = document.documentElement.lang || "en";
const step = document.getElementById("deal-step");
const trickList = document.getElementById("deal-trick");
const winner = document.getElementById("deal-winner");
const previous = /** @type {HTMLButtonElement | null} */ (document.getElementById("deal-previous"));
const next = /** @type {HTMLButtonElement | null} */ (document.getElementById("deal-next"));
/** @type {{cards: {seat: string, card: string}[], winner: string}[]} */
const tricks = Array.isArray(data.tricks) ? data.tricks : [];
let shown = 0;

function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
}

/** The hand's picture of a card, to copy into the trick (the same face, the same words). */
function faceOf(code) {
  return document.querySelector(`.deal-seat .deal-card[data-card="${code}"]`);
}

/** Show the deal after `count` tricks: those cards greyed in the hands, the last in the middle. */
function show(count) {
  shown = Math.max(0, Math.min(tricks.length, count));
  const played = new Set(tricks.slice(0, shown).flatMap((trick) => trick.cards.map((c) => c.card)));
  for (const card of document.querySelectorAll(".deal-seat .deal-card")) {
    const code = /** @type {HTMLElement} */ (card).dataset.card ?? "";
    card.toggleAttribute("data-played", played.has(code));
  }
  if (!step || !trickList || !winner) return;
  trickList.replaceChildren();
  winner.textContent = "";
  if (shown === 0) {
    step.textContent = data.words?.every ?? "";
  } else {
    const trick = tricks[shown - 1];
    step.textContent = fill(data.words?.trick ?? "", { n: shown, total: tricks.length });
    for (const play of trick.cards) {
      const face = faceOf(play.card)?.cloneNode(true);
      if (!(face instanceof HTMLElement)) continue;
      face.removeAttribute("data-played");
      face.dataset.seat = play.seat;
      face.toggleAttribute("data-winner", play.seat === trick.winner);
      trickList.append(face);
    }
    winner.textContent = fill(data.words?.wins ?? "", { seat: data.seats?.[trick.winner] ?? "" });
  }
  if (previous) previous.disabled = shown === 0;
  if (next) next.disabled = shown === tricks.length;
}

previous?.addEventListener("click", () => show(shown - 1));
next?.addEventListener("click", () => show(shown + 1));
document.getElementById("deal-analyse")?.addEventListener("click", () => {
  const query = new URLSearchParams({ lang });
  const url = `/api/deals/${encodeURIComponent(data.code ?? "")}/analysis?${query}`;
  openAnalysisOf(url, { seat: data.seat, deck: data.deck });
});
/** "Play this deal": a game of the same deal for this visitor, kept for this deal's code. */
async function playThisDeal() {
  const error = document.getElementById("deal-error");
  const response = await fetch(`/api/deals/${encodeURIComponent(data.code ?? "")}/play`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ lang }),
  }).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  if (!response?.ok) {
    if (error) error.textContent = answer.message ?? "";
    return;
  }
  localStorage.setItem(`cardavia.replay.${data.code}`, JSON.stringify(answer));
  location.assign(`/${lang}/deal/${encodeURIComponent(data.code ?? "")}/play`);
}

/** The visitor's result beside the sharer's, each from the sharer's side, once played. */
async function showResults() {
  const table = document.getElementById("deal-results");
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(`cardavia.replay.${data.code}`) || "null");
  } catch {
    return;
  }
  if (!table || !kept?.game || !kept?.token || !data.scores) return;
  const query = new URLSearchParams({ token: kept.token, lang });
  const response = await fetch(`/api/games/${encodeURIComponent(kept.game)}?${query}`);
  const view = response.ok ? await response.json() : null;
  const scores = view?.result?.scores;
  if (!scores) return;
  const us = data.seat === "N" || data.seat === "S" ? "NS" : "EW";
  const them = us === "NS" ? "EW" : "NS";
  const row = (label, score) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label;
    const td = document.createElement("td");
    td.textContent = `${score[us]} – ${score[them]}`;
    tr.append(th, td);
    return tr;
  };
  table.querySelector("tbody")?.replaceChildren(
    row(data.sharer ?? "", data.scores),
    row(data.words?.you ?? "", scores),
  );
  table.hidden = false;
}

document.getElementById("deal-play-this")?.addEventListener("click", playThisDeal);
show(0);
showResults();
