// The flow of the table's kind, as each view says it (`view.flow`, docs/web.md, "The flow of
// each kind of table"): alone with computer players, a room of friends, quick play, a
// tournament's deal, or a watcher's view. It decides what the end of a deal offers (the
// next deal, a new game, an offer to the others, the queue again, the tournament's next
// deal), whether the casual controls show, and what the screen says to a watcher. The page
// guesses nothing of its own: a view without a flow is a single-player table's.

import { $, el } from "./table_state.js";
import { isMatchOver } from "./table_view.js";
import { t } from "./table_words.js";

const SOLO = { kind: "solo", again: "new_game", next_deal: true, casual: true, leaving: "none", playing: true };

/** The view's flow (a single-player table's when it says none). */
export function flowOf(view) {
  return view?.flow ?? SOLO;
}

/** The page as the flow wants it: the kind on the page's root (the styles read it), the
 * casual new-game form gone where the table has no casual controls, the watcher's line. */
export function applyFlow(view) {
  const flow = flowOf(view);
  document.documentElement.dataset.flow = flow.kind;
  const form = $("new-game-section");
  if (form && !flow.casual) form.hidden = true;
  const watching = $("watching-note");
  if (watching) watching.hidden = flow.playing !== false;
}

/** The label of the way on at the end of a deal, or null when the table offers none there
 * (a tournament's deal: its own links, `tournamentWayOn`). */
export function nextLabel(view) {
  const flow = flowOf(view);
  if (flow.playing === false) return null;
  if (view.next_deal || !isMatchOver(view)) return flow.next_deal ? t("next_deal") : null;
  if (flow.again === "offer") return t("offer_again");
  if (flow.again === "queue") return t("queue_again");
  return flow.again === "new_game" ? t("play_again") : null;
}

/** A tournament's deal's ways on, as its page gave them (`window.cardaviaTournament`): its
 * next deal ("Next deal (3/6)") or, after the last, the tournament's results; and the way
 * back to the tournament. Links, made afresh for each place they are shown. */
export function tournamentWayOn(view) {
  const given = /** @type {any} */ (window).cardaviaTournament;
  if (flowOf(view).kind !== "tournament" || !given) return [];
  const links = [];
  for (const key of ["next", "back"]) {
    const way = given[key];
    if (!way?.href) continue;
    const kind = key === "next" ? "primary" : "secondary";
    const link = /** @type {HTMLAnchorElement} */ (el("a", `button-link ${kind}`, way.label));
    link.href = way.href;
    link.dataset.way = key;
    if (way.start) link.addEventListener("click", (event) => startDeal(event, link, way.start));
    links.push(link);
  }
  return links;
}

/** The tournament's next deal, started on the server first (a deal is started once, then
 * reopened), then its table; if it cannot be started, the tournament's page says why. */
async function startDeal(event, link, start) {
  event.preventDefault();
  link.setAttribute("aria-disabled", "true");
  try {
    const response = await fetch(start, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ lang: document.documentElement.lang }),
    });
    const answer = await response.json();
    location.assign(response.ok && answer.url ? answer.url : link.href);
  } catch {
    location.assign(link.href);
  }
}

/** The games whose result against the field was asked for already (once each). */
const soFarAsked = new Set();

/** A tournament's deal over: the player's result against those who finished it before
 * (results only), as its page's address gives it, in the result dialog. */
export async function renderSoFar(view) {
  const box = $("score-field");
  const given = /** @type {any} */ (window).cardaviaTournament;
  if (!box || flowOf(view).kind !== "tournament" || view.phase !== "over" || !given?.so_far) return;
  if (soFarAsked.has(view.game)) return;
  soFarAsked.add(view.game);
  try {
    const response = await fetch(given.so_far);
    if (!response.ok) return;
    const answer = await response.json();
    box.replaceChildren(...(answer.lines ?? []).map((line) => el("p", null, String(line))));
    box.hidden = false;
  } catch {
    // the tournament's page says it all the same
  }
}
