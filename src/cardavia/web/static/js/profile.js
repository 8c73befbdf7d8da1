// The profile (docs/players.md): the name (PUT /api/me), the games played (GET
// /api/me/games), the export (a download of GET /api/me/export) and the deletion (DELETE
// /api/me, once the person confirmed it).

const lang = document.documentElement.lang || "en";
const words = JSON.parse(document.getElementById("profile-strings")?.textContent || "{}");
const section = document.getElementById("profile");
const error = document.getElementById("profile-error");
const status = document.getElementById("profile-status");
const JSON_HEADERS = { "Content-Type": "application/json" };

function show(id, visible) {
  const node = document.getElementById(id);
  if (node) node.hidden = !visible;
}

async function load() {
  const me = await (await fetch(`/api/me?lang=${encodeURIComponent(lang)}`)).json();
  if (!me.player) {
    show("profile-none", true);
    section.dataset.state = "none";
    return;
  }
  /** @type {HTMLInputElement} */ (document.getElementById("profile-name")).value = me.name ?? "";
  const games = await (await fetch(`/api/me/games?lang=${encodeURIComponent(lang)}`)).json();
  document.getElementById("profile-games").textContent = new Intl.NumberFormat(lang).format(games.games ?? 0);
  show("profile-player", true);
  section.dataset.state = "player";
}

async function saveName(event) {
  event.preventDefault();
  error.textContent = "";
  const name = /** @type {HTMLInputElement} */ (document.getElementById("profile-name")).value;
  const response = await fetch(`/api/me?lang=${encodeURIComponent(lang)}`, {
    method: "PUT",
    headers: JSON_HEADERS,
    body: JSON.stringify({ name }),
  });
  const data = await response.json();
  if (!response.ok) {
    error.textContent = data.message;
    return;
  }
  /** @type {HTMLInputElement} */ (document.getElementById("profile-name")).value = data.name ?? "";
  status.textContent = words.saved;
}

function asking(open) {
  show("profile-confirm", open);
  const ask = document.getElementById("profile-delete");
  ask.setAttribute("aria-expanded", String(open));
  (open ? document.getElementById("profile-delete-cancel") : ask).focus();
}

async function erase() {
  error.textContent = "";
  const response = await fetch(`/api/me?lang=${encodeURIComponent(lang)}`, {
    method: "DELETE",
    headers: JSON_HEADERS,
    body: JSON.stringify({ confirm: true }),
  });
  if (!response.ok) {
    error.textContent = (await response.json()).message;
    return;
  }
  show("profile-player", false);
  show("profile-deleted", true);
  section.dataset.state = "deleted";
  document.getElementById("profile-deleted").setAttribute("tabindex", "-1");
  document.getElementById("profile-deleted").focus();
}

document.getElementById("profile-name-form")?.addEventListener("submit", saveName);
document.getElementById("profile-delete")?.addEventListener("click", () => asking(true));
document.getElementById("profile-delete-cancel")?.addEventListener("click", () => asking(false));
document.getElementById("profile-delete-confirm")?.addEventListener("click", erase);
if (section) load();
