// A tournament's page (docs/tournaments.md): "Play deal n" starts the deal on the server
// (one attempt: a deal started is reopened, never dealt again) and opens its table.

const section = document.getElementById("tournament");
const S = JSON.parse(document.getElementById("tournament-strings")?.textContent || "{}");

async function play(button) {
  const error = document.getElementById("tournament-error");
  error.textContent = "";
  button.disabled = true;
  const label = button.textContent;
  button.textContent = S.starting || label;
  try {
    const id = encodeURIComponent(section.dataset.tournament);
    const response = await fetch(`/api/tournaments/${id}/deals/${button.dataset.deal}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ lang: section.dataset.lang }),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.message || S.error_generic);
    location.assign(answer.url);
  } catch (failure) {
    error.textContent = failure.message || S.error_generic;
    button.textContent = label;
    button.disabled = false;
  }
}

if (section) {
  for (const button of section.querySelectorAll(".tournament-play")) {
    button.addEventListener("click", () => play(button));
  }
}
