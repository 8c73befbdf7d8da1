// Safety among strangers in a room (docs/players.md, "Safety"): by each other person's name,
// "Block" (POST /api/blocks: quick play never seats you together again) and "Report the
// name" (POST /api/reports: the name is hidden from everyone else until its owner changes
// it). The request names the room and the seat only: the server finds the player.

const strings = JSON.parse(document.getElementById("room-safety-strings")?.textContent || "{}");
/** What was done from this page, by seat: "block", "report" (their buttons then say so). */
const done = {};

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

function control(kind, label, room, seat, name) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "room-safety";
  button.dataset.safety = kind;
  const finished = done[`${room.code}:${seat}`]?.has(kind);
  button.textContent = finished ? strings[`${kind}_done`] : label;
  button.setAttribute(
    "aria-label",
    (finished ? strings[`${kind}_done_label`] : strings[`${kind}_label`]).replace("{name}", name),
  );
  button.disabled = Boolean(finished);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await ask(kind === "block" ? "/api/blocks" : "/api/reports", room.code, seat);
      const key = `${room.code}:${seat}`;
      done[key] = done[key] ?? new Set();
      done[key].add(kind);
      button.textContent = strings[`${kind}_done`];
      button.setAttribute("aria-label", strings[`${kind}_done_label`].replace("{name}", name));
      say(strings[`${kind}_said`].replace("{name}", name));
    } catch (error) {
      button.disabled = false;
      say(error.message);
    }
  });
  return button;
}

/** The block and report buttons for `entry` in `seat` (another person of the room this
 * browser sits in), or null. */
export function safetyControls(room, seat, entry) {
  if (!room.you || seat === room.you || entry.kind !== "human" || !strings.block) return null;
  const name = entry.name || "";
  const group = document.createElement("span");
  group.className = "room-safety-controls";
  group.append(
    control("block", strings.block, room, seat, name),
    " ",
    control("report", strings.report, room, seat, name),
  );
  return group;
}
