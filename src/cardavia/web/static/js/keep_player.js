// "Keep your player on every device": offered once to a guest (no passkey), in the result of
// the first deal they finish at the solo table (issue 37, item 3). The home carries the offer
// only where it may be made (templates/_home.html: the solo table's page, a visitor without a
// passkey; never a room's nor a tournament's deal, whose pages say their own); this module
// puts it in the result dialog when the dialog opens on a deal over (inside it: the page
// behind a modal dialog cannot be reached), and never again in this browser once made, nor
// once declined with "No, thanks". The table's own scripts know nothing of it: the dialog's
// `open` and the view the table shows (window.cardavia, read only) are all it reads.

const MADE = "cardavia.keepPlayer";

/** Whether the offer was made in this browser already (or cannot be remembered: then not
 * made, so that it is never made twice). */
function madeAlready() {
  try {
    return localStorage.getItem(MADE) !== null;
  } catch {
    return true;
  }
}

function remember(how) {
  try {
    localStorage.setItem(MADE, how);
  } catch {
    // Private browsing without storage: madeAlready() said so before it was offered.
  }
}

/** The offer, put before the dialog's ways on; "No, thanks" takes it away for good and gives
 * the focus back to the dialog's first way on. */
function offer(dialog, template) {
  const box = /** @type {DocumentFragment} */ (template.content.cloneNode(true));
  const actions = dialog.querySelector(".score-actions");
  dialog.insertBefore(box, actions);
  remember("offered");
  const shown = document.getElementById("keep-player");
  document.getElementById("keep-player-dismiss")?.addEventListener("click", () => {
    remember("declined");
    shown?.remove();
    const next = /** @type {HTMLElement | null} */ (
      actions?.querySelector("button:not([hidden]), a[href]") ?? null
    );
    next?.focus();
  });
  // Made once: the next deal's result is the table's own again.
  dialog.addEventListener("close", () => shown?.remove(), { once: true });
}

export function watchFirstResult() {
  const template = /** @type {HTMLTemplateElement | null} */ (
    document.getElementById("keep-player-offer")
  );
  const dialog = document.getElementById("score-panel");
  if (!template || !dialog || madeAlready()) return;
  const watcher = new MutationObserver(() => {
    if (!(/** @type {HTMLDialogElement} */ (dialog).open)) return;
    if (window.cardavia?.view?.phase !== "over" || madeAlready()) return;
    watcher.disconnect();
    offer(dialog, template);
  });
  watcher.observe(dialog, { attributes: true, attributeFilter: ["open"] });
}
