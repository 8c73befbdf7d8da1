// The friends page and a friend link's page (docs/players.md, "Friends"): accepting, refusing,
// removing or taking back (POST /api/friends/{key}/accept, DELETE /api/friends/{key}), making
// and copying one's friend link (POST /api/friends/link), and asking a link's owner (POST
// /api/friends with its code). The answers are said in the status line; names are text only.

const lang = document.documentElement.lang || "en";
const words = JSON.parse(document.getElementById("friend-strings")?.textContent || "{}");

function say(text) {
  const line = document.getElementById("friends-status");
  if (line) line.textContent = text;
}

/** Send `body` (with the page's language) to `url`: the answer's JSON, or an error worded by
 * the server. */
async function send(url, method, body = {}) {
  const response = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, lang }),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || String(response.status));
  return data;
}

async function act(button) {
  const entry = button.closest("li");
  const key = entry?.dataset.key;
  if (!entry || !key) return;
  const name = entry.querySelector(".friend-name")?.textContent ?? "";
  button.disabled = true;
  try {
    if (button.dataset.action === "accept") {
      await send(`/api/friends/${encodeURIComponent(key)}/accept`, "POST");
      // A friend now: listed with the friends at the next visit; said here at once.
      say(words.accepted.replace("{name}", name));
    } else {
      await send(`/api/friends/${encodeURIComponent(key)}`, "DELETE");
      say(words.ended);
    }
    entry.remove();
  } catch (error) {
    button.disabled = false;
    say(error.message);
  }
}

for (const button of document.querySelectorAll("#friends [data-action]")) {
  button.addEventListener("click", () => act(/** @type {HTMLButtonElement} */ (button)));
}

const make = /** @type {HTMLButtonElement | null} */ (document.getElementById("friend-link-make"));
const shown = /** @type {HTMLInputElement | null} */ (document.getElementById("friend-link"));
const copy = /** @type {HTMLButtonElement | null} */ (document.getElementById("friend-link-copy"));
make?.addEventListener("click", async () => {
  make.disabled = true;
  try {
    const { code } = await send("/api/friends/link", "POST");
    if (shown) {
      shown.value = new URL(`/${lang}/friend/${encodeURIComponent(code)}`, location.origin).href;
      shown.hidden = false;
    }
    if (copy) copy.hidden = false;
    make.hidden = true;
  } catch (error) {
    make.disabled = false;
    say(error.message);
  }
});
copy?.addEventListener("click", async () => {
  if (!shown) return;
  try {
    await navigator.clipboard.writeText(shown.value);
    say(words.copied);
  } catch {
    shown.select();
  }
});

const askButton = /** @type {HTMLButtonElement | null} */ (document.getElementById("friend-ask"));
askButton?.addEventListener("click", async () => {
  askButton.disabled = true;
  try {
    const { state } = await send("/api/friends", "POST", { code: askButton.dataset.code });
    say(state === "friends" ? words.friends : words.asked);
  } catch (error) {
    askButton.disabled = false;
    say(error.message);
  }
});
