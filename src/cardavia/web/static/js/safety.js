// The profile's safety part (docs/players.md, "Safety"): whether the player's name was
// reported, and the players they blocked (GET /api/blocks), each with "Unblock" (DELETE
// /api/blocks/{key}). Names are written as text only.

const lang = document.documentElement.lang || "en";
const words = JSON.parse(document.getElementById("safety-strings")?.textContent || "{}");
const list = document.getElementById("blocks-list");

/** A day as every page says it (cardavia.words.times): the long form, "4 ديسمبر 2026" where
 * the medium one is all digits in Arabic ("04/12/2026"). */
function date(iso) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(new Date(iso));
}

function item(block) {
  const entry = document.createElement("li");
  entry.dataset.block = block.id;
  const name = document.createElement("bdi");
  name.textContent = block.name;
  const since = document.createElement("span");
  since.className = "blocks-since";
  since.textContent = ` — ${words.since.replace("{date}", date(block.since))} `;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary";
  button.textContent = words.unblock;
  button.setAttribute("aria-label", words.unblock_label.replace("{name}", block.name));
  button.addEventListener("click", () => unblock(block, entry));
  entry.append(name, since, button);
  return entry;
}

async function unblock(block, entry) {
  const status = document.getElementById("blocks-status");
  const response = await fetch(`/api/blocks/${encodeURIComponent(block.id)}`, {
    method: "DELETE",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ lang }),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    status.textContent = data.message || String(response.status);
    return;
  }
  entry.remove();
  document.getElementById("blocks-none").hidden = list.childElementCount > 0;
  status.textContent = words.unblocked.replace("{name}", block.name);
}

async function load() {
  const response = await fetch(`/api/blocks?lang=${encodeURIComponent(lang)}`);
  if (!response.ok) return;
  const data = await response.json();
  document.getElementById("profile-hidden-name").hidden = !data.name_hidden;
  list.replaceChildren(...data.blocks.map(item));
  document.getElementById("blocks-none").hidden = data.blocks.length > 0;
}

if (list) load();
