// A room's way in (docs/web.md, "Rooms"): the room's code on this page and the seat this
// browser holds in it, the forms that create a room, find one by its code and take a seat
// with a display name (the room as it stands shown first), and the buttons greyed offline.
// room.js draws the room once a seat is taken.

export const SEATS = ["N", "E", "S", "W"];

export const section = document.getElementById("room");
export const strings = JSON.parse(document.getElementById("room-strings")?.textContent || "{}");

/** The room's code on this page ("" on the page that creates one), or null off a room page. */
export function roomCode() {
  return section ? section.dataset.code || "" : null;
}

function seatKey(code) {
  return `cardavia.room.${code}`;
}

/** The seat this browser holds in the room ({room, token, seat}), or null; a watcher's
 * (no token) when the page was opened to watch (the lobby's "Watch": `?watch`). */
export function loadSeat() {
  const code = roomCode();
  if (!code) return null;
  try {
    const seat = JSON.parse(localStorage.getItem(seatKey(code)) || "null");
    if (seat && seat.token) return seat;
  } catch {
    // ignore
  }
  if (new URLSearchParams(location.search).has("watch")) return { room: code, token: "" };
  return null;
}

function saveSeat(joined) {
  try {
    localStorage.setItem(seatKey(joined.room), JSON.stringify(joined));
  } catch {
    // ignore
  }
}

/** The token no longer opens the room (removed, or the room closed): join again. */
export function forgetSeat() {
  const code = roomCode();
  if (code) localStorage.removeItem(seatKey(code));
  showJoin();
}

export function lang() {
  return section.dataset.lang || document.documentElement.lang || "en";
}

function showError(message) {
  const line = document.getElementById("room-error");
  if (line) line.textContent = message || "";
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, lang: lang() }),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || String(response.status));
  return data;
}

function targetOf(value) {
  if (value === "single") return null;
  if (value === "preset") return undefined;
  return Number(value);
}

export async function createRoom(form) {
  const data = new FormData(form);
  const body = {
    name: String(data.get("name") || ""),
    rules: String(data.get("rules") || "cardavia"),
    level: String(data.get("level") || "club"),
    watchers: data.get("watchers") === "on",
    grace: Number(data.get("grace") || 60),
  };
  const target = targetOf(String(data.get("target") || "preset"));
  if (target !== undefined) body.target = target;
  try {
    const joined = await post("/api/rooms", body);
    saveSeat(joined);
    location.assign(joined.link);
  } catch (error) {
    showError(error.message);
  }
}

export async function joinRoom(form) {
  const data = new FormData(form);
  try {
    const joined = await post(`/api/rooms/${encodeURIComponent(roomCode())}/join`, {
      name: String(data.get("name") || ""),
    });
    saveSeat(joined);
    location.reload();
  } catch (error) {
    showError(error.message);
  }
}

export function findRoom(form) {
  const code = String(new FormData(form).get("code") || "")
    .replace(/[\s-]/g, "")
    .toUpperCase();
  if (code) location.assign(`/${lang()}/room/${encodeURIComponent(code)}`);
}

/** No seat here yet: the form that takes one, with the room as it stands (its rules, who
 * sits where), or why no seat can be taken (dealt already, no such room). */
export function showJoin() {
  if (!section) return;
  const form = document.getElementById("room-join");
  form.hidden = false;
  document.getElementById("room-lobby").hidden = true;
  document.getElementById("rj-name")?.focus();
  aboutRoom(form);
}

async function aboutRoom(form) {
  let room = null;
  try {
    const response = await fetch(`/api/rooms/${encodeURIComponent(roomCode())}?lang=${lang()}`);
    if (response.status === 404) {
      showError(strings.not_found);
      form.hidden = true;
      return;
    }
    if (response.ok) room = (await response.json()).room;
  } catch {
    return; // joining says what is wrong
  }
  if (!room) return;
  document.getElementById("room-join-about").textContent = `${room.rules_name} · ${room.level_name}`;
  const list = document.getElementById("room-join-seats");
  list.replaceChildren(
    ...SEATS.map((code) => {
      const item = document.createElement("li");
      item.dataset.seat = code;
      item.dataset.kind = room.seats[code].kind;
      item.append(seatLine(code, room.seats[code]));
      return item;
    }),
  );
  if (room.started) {
    showError(strings.started);
    const button = form.querySelector("button[type=submit]");
    button.dataset.started = "true";
    button.disabled = true;
  }
}

/** The buttons that need the server: create, open, join (and the lobby's start and play
 * again). */
const ONLINE_BUTTONS = ["room-create-button", "room-find-button", "room-join-button", "room-start", "room-again"];

/** Offline, a room can be neither created nor joined: its buttons are greyed and point at
 * the page's offline note (the table's script shows it: what works, and that play needs the
 * connection); back online, they work again (a room already dealt stays closed to joiners). */
export function showRoomOffline(offline = !navigator.onLine) {
  for (const id of ONLINE_BUTTONS) {
    const button = /** @type {HTMLButtonElement} */ (document.getElementById(id));
    if (!button) continue;
    button.disabled = offline || button.dataset.started === "true";
    if (offline) button.setAttribute("aria-describedby", "offline-note");
    else button.removeAttribute("aria-describedby");
  }
}

/** "North: Ana" as text, the name isolated from the words round it (a name in another
 * script stays whole and in its place). */
export function seatLine(code, entry) {
  const who = entry.kind === "open" ? strings.open : entry.name || strings.computer;
  const line = document.createElement("span");
  const [before, after] = (strings.seat_line || "{seat}: {name}")
    .replace("{seat}", () => strings.seats?.[code] || code)
    .split("{name}");
  const name = document.createElement("bdi");
  name.textContent = who;
  line.append(before, name, after ?? "");
  return line;
}
