// Inviting a friend to the room in one click (docs/players.md, "Friends"): before the deal,
// while a seat is open, a person seated here sees their friends who are online (GET
// /api/friends: where each was last seen) and invites one (POST /api/friends/{key}/invite);
// the invitation shows at the top of the friend's pages (friend_news.js).

const lang = document.documentElement.lang || "en";
const words = JSON.parse(document.getElementById("room-invite-strings")?.textContent || "{}");
/** The friends invited from this page, by key: their button then disabled. */
const invited = new Set();
/** The room as last drawn, read again every 15 s while inviting has a use. */
let latest = null;
let timer = 0;

function say(text) {
  const line = document.getElementById("room-invite-status");
  if (line) line.textContent = text;
}

async function invite(friend, code, button) {
  button.disabled = true;
  const response = await fetch(`/api/friends/${encodeURIComponent(friend.key)}/invite`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ room: code, lang }),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    button.disabled = false;
    say(data.message || String(response.status));
    return;
  }
  invited.add(friend.key);
  say(words.invited.replace("{name}", friend.name));
}

/** Show the friends online for `room` (the room's state as the page has it), or nothing when
 * inviting has no use: the deal begun, no open seat, or this browser not seated; read again
 * every 15 s meanwhile (a friend comes online, another goes). */
export function renderInvites(room) {
  const first = latest === null;
  latest = room;
  const section = document.getElementById("room-invite");
  if (section && !useful(room)) section.hidden = true;
  else if (first) refresh();
  if (!timer) timer = window.setInterval(refresh, 15_000);
}

/** Whether inviting has a use in `room`: this browser seated, the deal not begun, a seat open. */
function useful(room) {
  const open = Object.values(room.seats ?? {}).some((entry) => entry.kind === "open");
  return Boolean(room.you && !room.started && open);
}

async function refresh() {
  const room = latest;
  const section = document.getElementById("room-invite");
  const list = document.getElementById("room-invite-list");
  if (!room || !section || !list || !words.invite) return;
  if (!useful(room)) {
    section.hidden = true;
    return;
  }
  const response = await fetch(`/api/friends?lang=${lang}`).catch(() => null);
  const found = response?.ok ? await response.json() : { friends: [] };
  const online = (found.friends ?? []).filter((friend) => friend.where);
  list.replaceChildren();
  for (const friend of online) {
    const item = document.createElement("li");
    const name = document.createElement("bdi");
    name.className = "friend-name";
    name.textContent = friend.name;
    const place = document.createElement("span");
    place.className = "friend-where";
    place.textContent = words.places[friend.where] ?? "";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = words.invite;
    button.setAttribute("aria-label", words.invite_label.replace("{name}", friend.name));
    button.disabled = invited.has(friend.key);
    button.addEventListener("click", () => invite(friend, room.code, button));
    item.append(name, " ", place, " ", button);
    list.append(item);
  }
  section.hidden = online.length === 0;
}
