// "My games" (docs/players.md): every deal the player played, the latest first, a page at a
// time from GET /api/me/games. Each finished deal offers its analysis (learn.js's view of
// it, asked of /api/me/games/{game}/analysis), every hand (the page of its shared link),
// its shuffle check (the fairness page, its seed and deck filled in) and its link to share.
// Offline, the first page as last read online (kept in localStorage) with a line saying so,
// or a line that the list needs the connection: never a blank page that looks emptied.

import { openAnalysisOf } from "./learn.js";

const lang = document.documentElement.lang || "en";
const words = JSON.parse(document.getElementById("history-strings")?.textContent || "{}");
const list = document.getElementById("history-list");
const more = document.getElementById("history-more");
const status = document.getElementById("history-status");
const dates = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeStyle: "short" });
// When a tournament's deal becomes shareable, in the reader's own clock and words.
const closing = dates;
let page = 0;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
}

function who(person) {
  return person.computer ? `${words.computer} (${person.name})` : person.name;
}

/** The deal's outcome as the player lived it: their side's contract or the opponents'. */
function outcome(entry) {
  if (!entry.over) return words.in_play;
  return words[entry.mine] ?? words[entry.outcome] ?? "";
}

/** Copy `link` (a deal's page) to the clipboard, or show it where copying is refused. */
async function copy(link) {
  try {
    await navigator.clipboard.writeText(link);
    status.textContent = words.copied;
  } catch {
    status.textContent = link;
  }
}

function facts(entry) {
  const dl = el("dl", "history-facts");
  const add = (term, value, className) => {
    if (value === null || value === undefined || value === "") return;
    const dd = el("dd", className, value);
    dl.append(el("dt", null, term), dd);
  };
  add(words.partner, who(entry.partner));
  add(words.opponents, entry.opponents.map(who).join(" · "));
  // The contract as the table says it: "East takes spades", "Est prend à pique".
  if (entry.contract) add(words.contract, entry.contract_text ?? "");
  if (entry.score) {
    const us = entry.score[entry.team];
    const them = entry.score[entry.team === "NS" ? "EW" : "NS"];
    add(words.score, `${us} – ${them}`, "history-score");
  }
  return dl;
}

function actions(entry) {
  const bar = el("p", "history-actions");
  if (!entry.over) return bar;
  // A tournament's deal stays sealed until the tournament closes: no analysis before then.
  if (entry.contract && !entry.sealed) {
    const analyse = el("button", "secondary history-analyse", words.analysis);
    analyse.type = "button";
    analyse.addEventListener("click", () => {
      const query = new URLSearchParams({ deal: String(entry.deal), lang });
      const url = `/api/me/games/${encodeURIComponent(entry.game)}/analysis?${query}`;
      openAnalysisOf(url, { seat: entry.seat, deck: entry.deck });
    });
    bar.append(analyse);
  }
  if (entry.share) {
    const hands = el("a", "history-hands", words.every_hand);
    hands.href = `/${lang}/deal/${encodeURIComponent(entry.share)}`;
    bar.append(hands);
  }
  if (entry.check) {
    const check = el("a", "history-check", words.check);
    check.href = entry.check;
    bar.append(check);
  }
  // A sealed tournament deal: the link it will have, whose page says until when its cards
  // stay hidden; the button says from when it shows them.
  const code = entry.share ?? entry.later;
  if (code) {
    const when = entry.tournament ? closing.format(new Date(entry.tournament.closes)) : "";
    const label = entry.share ? words.share : fill(words.later, { time: when });
    const share = el("button", "secondary history-share", label);
    share.type = "button";
    const link = new URL(`/${lang}/deal/${encodeURIComponent(code)}`, location.href).href;
    share.addEventListener("click", () => copy(link));
    bar.append(share);
  }
  return bar;
}

function item(entry) {
  const li = el("li", "history-deal");
  li.dataset.game = entry.game;
  li.dataset.deal = String(entry.deal);
  li.dataset.over = String(entry.over);
  const rules = words.presets[entry.rules] ?? entry.rules;
  // A tournament's deal is named by its tournament and its number there, not "Deal 1".
  const tournament = entry.tournament;
  const title = tournament
    ? `${words.kinds?.[tournament.kind] ?? ""} · ${rules} · ${fill(words.deal, { n: tournament.deal })}`
    : `${rules} · ${fill(words.deal, { n: entry.deal })}`;
  const heading = el("h2", "history-title");
  if (tournament) {
    const link = el("a", null, title);
    link.href = `/${lang}/tournaments/${encodeURIComponent(tournament.id)}`;
    heading.append(link);
  } else {
    heading.textContent = title;
  }
  li.append(heading);
  const when = el("p", "history-when");
  const time = el("time", null, dates.format(new Date(entry.date)));
  time.dateTime = entry.date;
  when.append(time);
  if (entry.room) when.append(` · ${fill(words.room, { code: entry.room })}`);
  li.append(when, facts(entry), el("p", "history-outcome", outcome(entry)), actions(entry));
  return li;
}

/** The first page of the list as last read online, kept in this browser for offline. */
const KEPT = "cardavia.myGames";

function keep(data) {
  try {
    localStorage.setItem(KEPT, JSON.stringify({ lang, deals: data.deals }));
  } catch {
    // a full or refused storage: nothing kept, the list still shown
  }
}

/** Offline (the list cannot be asked for): the deals kept at the last visit, said to be
 * those, or a line that the list needs the connection — never a blank page. */
function offline() {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(KEPT) || "null");
  } catch {
    kept = null;
  }
  const note = document.getElementById("history-offline");
  const deals = kept?.lang === lang && Array.isArray(kept.deals) ? kept.deals : [];
  note.textContent = deals.length ? words.offline_kept : words.offline_none;
  note.hidden = false;
  list.replaceChildren(...deals.map(item));
  list.dataset.loaded = "offline";
}

async function load() {
  page += 1;
  more.hidden = true;
  let response;
  try {
    response = await fetch(`/api/me/games?page=${page}&lang=${encodeURIComponent(lang)}`);
  } catch {
    page -= 1;
    offline();
    return;
  }
  const data = await response.json();
  if (!response.ok) {
    document.getElementById("history-error").textContent = data.message;
    return;
  }
  if (page === 1) keep(data);
  document.getElementById("history-offline").hidden = true;
  for (const entry of data.deals) list.append(item(entry));
  document.getElementById("history-empty").hidden = list.children.length > 0;
  more.hidden = !data.more;
  list.dataset.loaded = String(page);
}

more?.addEventListener("click", load);
if (list) load();
