// By each other person's name in a room: "Add as a friend" (POST /api/friends, docs/players.md,
// "Friends"), and safety among strangers ("Safety"): "Block" (POST /api/blocks: quick play
// never seats you together again) and "Report the name" (POST /api/reports: the name is
// hidden from everyone else until its owner changes it). The request names the room and the
// seat only: the server finds the player.

const strings = JSON.parse(document.getElementById("room-safety-strings")?.textContent || "{}");
/** What was done from this page, by seat: "friend", "block", "report" (their buttons then
 * say so). */
const done = {};

const URLS = { friend: "/api/friends", block: "/api/blocks", report: "/api/reports" };

function lang() {
  return document.documentElement.lang || "en";
}

function say(text) {
  const line = document.getElementById("room-safety-status");
  if (line) line.textContent = text;
}

async function ask(url, room, seat) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ room, seat, lang: lang() }),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || String(response.status));
}

/** The button as it stands: to press, or done (then disabled and saying so). */
function show(button, kind, name, finished) {
  button.textContent = finished ? strings[`${kind}_done`] : strings[kind];
  const label = finished ? strings[`${kind}_done_label`] : strings[`${kind}_label`];
  button.setAttribute("aria-label", label.replace("{name}", name));
  button.disabled = finished;
}

function control(kind, room, seat, name) {
  const key = `${room.code}:${seat}`;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "room-safety";
  button.dataset.safety = kind;
  show(button, kind, name, Boolean(done[key]?.has(kind)));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await ask(URLS[kind], room.code, seat);
      done[key] = done[key] ?? new Set();
      done[key].add(kind);
      // The room may have been drawn again meanwhile (a name hidden): its button too.
      const live = document.querySelector(`#room-seats li[data-seat="${seat}"] [data-safety="${kind}"]`);
      for (const each of new Set([button, live])) if (each) show(each, kind, name, true);
      say(strings[`${kind}_said`].replace("{name}", name));
    } catch (error) {
      button.disabled = false;
      say(error.message);
    }
  });
  return button;
}

/** The friend, block and report buttons for `entry` in `seat` (another person of the room
 * this browser sits in), or null. */
export function safetyControls(room, seat, entry) {
  if (!room.you || seat === room.you || entry.kind !== "human" || !strings.block) return null;
  const name = entry.name || "";
  const group = document.createElement("span");
  group.className = "room-safety-controls";
  group.append(
    control("friend", room, seat, name),
    " ",
    control("block", room, seat, name),
    " ",
    control("report", room, seat, name),
  );
  return group;
}
