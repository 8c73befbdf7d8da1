// The training problems' page: the player picks a card (or a bid) of a problem; the answer
// is checked against the problem's solution, and the results are kept in this browser
// (localStorage), never sent anywhere.

const STORE = "cardavia.problems";

export function loadResults(storage = globalThis.localStorage) {
  try {
    const data = JSON.parse(storage?.getItem(STORE) ?? "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

export function saveResult(id, solved, storage = globalThis.localStorage) {
  const results = loadResults(storage);
  const before = results[id] ?? { tries: 0, solved: false };
  results[id] = { tries: before.tries + 1, solved: before.solved || solved };
  try {
    storage?.setItem(STORE, JSON.stringify(results));
  } catch {
    // Storage full or refused: the answer is still shown.
  }
  return results;
}

export function sameAction(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (key === "announce" || key === "belote") continue;
    if (String(a[key] ?? "") !== String(b[key] ?? "")) return false;
  }
  return true;
}

function showScore(results) {
  const score = document.querySelector(".problems-score");
  if (!score) return;
  const ids = new Set([...document.querySelectorAll("[data-problem]")].map((el) => el.dataset.problem));
  const solved = [...ids].filter((id) => results[id]?.solved).length;
  score.textContent = score.dataset.template
    .replace("{solved}", String(solved))
    .replace("{total}", score.dataset.total);
  for (const article of document.querySelectorAll("[data-problem]")) {
    const mark = /** @type {HTMLElement} */ (article.querySelector("[data-solved-mark]"));
    if (mark) mark.hidden = !results[article.dataset.problem]?.solved;
  }
}

function answer(article, button) {
  const solution = JSON.parse(article.dataset.solution);
  const chosen = JSON.parse(button.dataset.action);
  const right = sameAction(chosen, solution);
  for (const other of article.querySelectorAll(".problem-choice")) delete other.dataset.answer;
  button.dataset.answer = right ? "right" : "wrong";
  const verdict = article.querySelector(".problem-verdict");
  verdict.dataset.answer = button.dataset.answer;
  verdict.textContent = right ? article.dataset.right : article.dataset.wrong;
  if (right) article.querySelector(".problem-solution").open = true;
  showScore(saveResult(article.dataset.problem, right));
}

export function start() {
  for (const article of document.querySelectorAll("[data-problem]")) {
    for (const button of article.querySelectorAll(".problem-choice")) {
      button.addEventListener("click", () => answer(article, button));
    }
  }
  showScore(loadResults());
}

if (typeof document !== "undefined") start();
