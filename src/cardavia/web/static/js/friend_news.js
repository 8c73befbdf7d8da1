// What a player's friends tell them while the site is open (docs/players.md, "Friends"): every
// page says where it is (POST /api/friends/news: at a table — and its room's code, for friends
// to watch it where the room lets watchers in —, in a tournament, or just on the site), for
// the player's friends to see, and hears the invitations waiting for the player —
// each shown at the top of the page ("Join" opens the room, "No thanks" declines), and told
// by a notification when the page is hidden (notify.js, if the player asked for it) — and the
// tournaments the player entered and has deals left in that close within the hour, each shown
// with a link to it and notified once a browser session (if the player asked for that too).
// A player with no friend and no tournament under way is asked nothing more after the page's
// first word.

import { notifyHidden } from "./notify.js";
import { loadSettings } from "./settings.js";

const lang = document.documentElement.lang || "en";
const words = JSON.parse(document.getElementById("friend-news-strings")?.textContent || "{}");
/** The invitations shown on this page, by id: each shown (and notified) once. */
const shown = new Set();

function where() {
  if (location.pathname.includes("/tournaments/")) return "tournament";
  const view = /** @type {any} */ (window).cardavia?.view;
  if (view && view.phase !== "over" && view.phase !== "cancelled") return "table";
  if (/^\/[a-z]{2}\/(room|quick)\//.test(location.pathname)) return "table";
  return "online";
}

/** The code of the room this page is a table of (a room's page), or null. */
function room() {
  const found = location.pathname.match(/^\/[a-z]{2}\/room\/([A-Za-z0-9]+)/);
  return found ? found[1] : null;
}

async function send(url, method, body = {}) {
  const response = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, lang }),
  });
  return response.ok ? response.json() : null;
}

/**
 * A line at the top of the page, once per `id`: `text` and a primary link (`label` to
 * `href`); null where the page has no place for it or shows it already.
 */
function notice(id, text, label, href) {
  const box = document.getElementById("friend-invites");
  if (!box || shown.has(id)) return null;
  shown.add(id);
  const line = document.createElement("p");
  line.className = "friend-invite";
  const said = document.createElement("span");
  said.textContent = text;
  const link = document.createElement("a");
  link.className = "button-link primary";
  link.href = href;
  link.textContent = label;
  line.append(said, " ", link);
  box.append(line);
  box.hidden = false;
  return { box, line, link };
}

function showInvite(invite) {
  const text = words.invites.replace("{name}", invite.name);
  const room = `/${lang}/room/${encodeURIComponent(invite.room)}`;
  const shownLine = notice(invite.id, text, words.join, room);
  if (!shownLine) return;
  const { box, line, link } = shownLine;
  line.dataset.invite = invite.id;
  const answered = `/api/friends/invites/${encodeURIComponent(invite.id)}`;
  link.addEventListener("click", (event) => {
    // Answered: gone from the player's other pages too, before the room opens.
    event.preventDefault();
    send(answered, "DELETE")
      .catch(() => undefined)
      .finally(() => location.assign(room));
  });
  const no = document.createElement("button");
  no.type = "button";
  no.className = "secondary";
  no.textContent = words.decline;
  no.addEventListener("click", async () => {
    await send(answered, "DELETE");
    line.remove();
    box.hidden = !box.querySelector(".friend-invite");
  });
  line.append(" ", no);
  notifyHidden(text, loadSettings());
}

/** A tournament about to close with deals left: said once on the page (but on its own
 * pages), notified once a browser session. */
function showClosing(tournament) {
  // Not on the tournament's own pages: the player is there already.
  if (location.pathname.includes(`/tournaments/${tournament.id}`)) return;
  const id = `closing:${tournament.id}`;
  const text = words.closing.replace("{name}", tournament.name);
  const shownLine = notice(id, text, words.play, tournament.url);
  if (!shownLine) return;
  shownLine.line.classList.add("tournament-closing");
  shownLine.line.dataset.tournament = tournament.id;
  const settings = loadSettings();
  let told = false;
  try {
    told = sessionStorage.getItem(id) === "told";
  } catch {
    told = false;
  }
  if (!told && settings.notifyTournaments && notifyHidden(text, settings)) {
    try {
      sessionStorage.setItem(id, "told");
    } catch {
      // a browser that keeps nothing: notified again on its next page
    }
  }
}

async function hear() {
  let answer = null;
  try {
    answer = await send("/api/friends/news", "POST", { where: where(), room: room() });
  } catch {
    answer = null; // offline: said again at the next beat
  }
  for (const invite of answer?.invites ?? []) showInvite(invite);
  for (const tournament of answer?.closing ?? []) showClosing(tournament);
  const poll = answer ? Number(answer.poll) : 30;
  if (poll > 0) setTimeout(hear, poll * 1000);
}

if (document.getElementById("friend-invites")) hear();
