// Quick play's waiting page (docs/players.md, "Quick play"): join the preset's queue
// (POST /api/quick/{preset}: a guest player is made on a first visit), then wait on the
// queue's socket (/ws/quick/{preset}): told each second how long we have waited and how many
// wait; once seated, the room's seat token is kept where room.js looks for it
// (localStorage "cardavia.room.<code>") and the room opens. A dropped connection joins again
// (the same entry: the queue keeps one per player) and reconnects.

const section = document.getElementById("quick");
const words = JSON.parse(document.getElementById("quick-strings")?.textContent || "{}");
const statusLine = document.getElementById("quick-status");
const errorLine = document.getElementById("quick-error");
const waitedBox = document.getElementById("quick-waited");
const countBox = document.getElementById("quick-count");
const cancelButton = document.getElementById("quick-cancel");
const againLink = document.getElementById("quick-again");

const preset = section.dataset.preset;
const lang = section.dataset.lang;
let socket = null;
let finished = false;
let retries = 0;
let rejoined = false;

function show(state, text) {
  section.dataset.state = state;
  statusLine.textContent = text;
}

function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function stop(state, text, error = "") {
  finished = true;
  show(state, text);
  errorLine.textContent = error;
  cancelButton.hidden = true;
  againLink.hidden = false;
}

async function join() {
  const response = await fetch(`/api/quick/${encodeURIComponent(preset)}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ lang }),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || words.error_generic);
  countBox.textContent = String(data.waiting);
  return data;
}

function seated(message) {
  finished = true;
  const joined = { room: message.room, token: message.token, seat: message.seat, link: message.link };
  try {
    localStorage.setItem(`cardavia.room.${message.room}`, JSON.stringify(joined));
  } catch {
    // the room page asks for a seat again without it
  }
  show("seated", words.seated);
  window.location.assign(message.link);
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${window.location.host}/ws/quick/${encodeURIComponent(preset)}?lang=${lang}`;
  socket = new WebSocket(url);
  socket.addEventListener("open", () => {
    retries = 0;
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "waiting") {
      show("waiting", words.waiting);
      rejoined = false;
      errorLine.textContent = "";
      waitedBox.textContent = clock(message.waited);
      countBox.textContent = String(message.waiting);
    } else if (message.type === "seated") {
      seated(message);
    } else if (message.type === "cancelled") {
      stop("cancelled", words.cancelled);
    } else if (message.type === "error") {
      if (message.code !== "not_waiting") {
        errorLine.textContent = message.message;
      } else if (rejoined || finished) {
        stop("cancelled", words.cancelled, message.message);
      } else {
        // Dropped from the queue while this tab was still open (a slow connection): join
        // again once, as after a dropped connection.
        rejoined = true;
      }
    }
  });
  socket.addEventListener("close", () => {
    socket = null;
    if (finished) return;
    show("reconnecting", words.reconnecting);
    retries += 1;
    window.setTimeout(start, Math.min(5000, 500 * retries));
  });
}

async function start() {
  if (finished) return;
  try {
    await join();
  } catch (error) {
    stop("error", words.error_generic, error.message);
    return;
  }
  show("waiting", words.waiting);
  connect();
}

cancelButton.addEventListener("click", () => {
  if (socket && socket.readyState === WebSocket.OPEN) {
    finished = true;
    socket.send(JSON.stringify({ type: "cancel" }));
  } else {
    stop("cancelled", words.cancelled);
  }
});

show("joining", words.joining);
start();
