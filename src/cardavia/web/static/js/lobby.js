// The lobby (docs/players.md, "The lobby"): how many people play now and the public tables
// (the top-rated first, each with its rating), from GET /api/lobby, asked again every few seconds while the page is in view (and at once
// when it comes back into view, or with the Refresh button). Names are written as text only.

const EVERY_MS = 5000;
const lang = document.documentElement.lang || "en";
const section = document.getElementById("lobby");
const words = JSON.parse(document.getElementById("lobby-strings")?.textContent || "{}");
let timer = null;

/** `template` with each {name} replaced by a node or a text, as nodes (a name isolated). */
function fill(template, values) {
  const nodes = [];
  let rest = template;
  for (;;) {
    const match = rest.match(/\{(\w+)\}/);
    if (!match) break;
    nodes.push(rest.slice(0, match.index));
    const value = values[match[1]];
    nodes.push(value instanceof Node ? value : String(value ?? ""));
    rest = rest.slice(match.index + match[0].length);
  }
  nodes.push(rest);
  return nodes;
}

function text(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
}

function name(seat) {
  const node = document.createElement("bdi");
  node.textContent = seat.name;
  return node;
}

function teamLine(table) {
  const { N, E, S, W } = table.seats;
  const number = new Intl.NumberFormat(lang);
  const line = document.createElement("p");
  line.className = "lobby-table-teams";
  const score = document.createElement("span");
  score.className = "lobby-table-score";
  score.dir = "ltr";
  score.textContent = `${number.format(table.scores.NS)} – ${number.format(table.scores.EW)}`;
  score.setAttribute("aria-label", text(words.score_label, {
    us: number.format(table.scores.NS), them: number.format(table.scores.EW),
  }));
  line.append(
    ...fill(words.team, { one: name(N), two: name(S) }),
    " ",
    score,
    " ",
    ...fill(words.team, { one: name(E), two: name(W) }),
  );
  return line;
}

function tableItem(table) {
  const item = document.createElement("li");
  item.className = "lobby-table";
  item.dataset.code = table.code;
  const rules = document.createElement("p");
  rules.className = "lobby-table-rules";
  rules.textContent = `${table.rules_name} · ${text(words.deal, { n: table.deal })}`;
  if (table.rating != null) {
    const rating = document.createElement("span");
    rating.className = "lobby-table-rating";
    rating.textContent = text(words.rating, { n: new Intl.NumberFormat(lang).format(table.rating) });
    rules.append(" · ", rating);
  }
  item.append(rules, teamLine(table));
  if (table.watch) {
    const link = document.createElement("a");
    link.href = table.watch;
    link.textContent = words.watch;
    const names = ["N", "E", "S", "W"].map((seat) => table.seats[seat].name).join(", ");
    link.setAttribute("aria-label", text(words.watch_label, { names }));
    item.append(link);
  }
  return item;
}

function render(data) {
  document.getElementById("lobby-count").textContent = new Intl.NumberFormat(lang).format(
    data.playing ?? 0,
  );
  const list = document.getElementById("lobby-tables");
  list.replaceChildren(...(data.tables ?? []).map(tableItem));
  document.getElementById("lobby-empty").hidden = (data.tables ?? []).length > 0;
  section.dataset.state = "ready";
}

async function refresh(announce = false) {
  const error = document.getElementById("lobby-error");
  try {
    const response = await fetch(`/api/lobby?lang=${encodeURIComponent(lang)}`);
    const data = await response.json();
    if (!response.ok) throw new Error(data.message || String(response.status));
    error.textContent = "";
    render(data);
    if (announce) document.getElementById("lobby-status").textContent = words.updated;
  } catch (failure) {
    error.textContent = failure.message;
  }
}

/** Poll while the page is in view; stop while it is hidden (a tab in the background). */
function schedule() {
  clearInterval(timer);
  timer = null;
  if (document.visibilityState === "visible") {
    refresh();
    timer = setInterval(refresh, EVERY_MS);
  }
}

if (section) {
  document.getElementById("lobby-refresh")?.addEventListener("click", () => refresh(true));
  document.addEventListener("visibilitychange", schedule);
  schedule();
}
