// The site's menu, on every page: on a phone (base.css) its links are a list that the "Menu"
// button opens under the header, and closes again with Escape, a second press, or a tap
// elsewhere; on a wider screen they are a line and the button is not shown. The header's two
// menus that open (the language, the settings) close with Escape too.

/** Open or close the phone's menu: the button says which (aria-expanded), base.css shows the
 * list from data-open. */
function setOpen(nav, open) {
  nav.dataset.open = open ? "on" : "off";
  nav.querySelector(".menu-button")?.setAttribute("aria-expanded", String(open));
}

/** Escape, with the focus in an open menu of the header: the menu closes and the focus goes
 * back to its button (a select's own list, open, takes the key first). */
function closeOnEscape(event) {
  if (event.key !== "Escape") return;
  const nav = /** @type {HTMLElement | null} */ (document.querySelector(".site-nav"));
  if (nav?.dataset.open === "on" && nav.contains(document.activeElement)) {
    setOpen(nav, false);
    /** @type {HTMLElement | null} */ (nav.querySelector(".menu-button"))?.focus();
    event.preventDefault();
    event.stopPropagation();
    return;
  }
  const menu = /** @type {HTMLDetailsElement} */ (document.activeElement?.closest(".site-header details[open]"));
  if (!menu) return;
  menu.open = false;
  menu.querySelector("summary")?.focus();
  event.preventDefault();
  event.stopPropagation();
}

function start() {
  document.addEventListener("keydown", closeOnEscape);
  const nav = /** @type {HTMLElement | null} */ (document.querySelector(".site-nav"));
  const button = nav?.querySelector(".menu-button");
  if (!nav || !button) return;
  button.addEventListener("click", () => setOpen(nav, nav.dataset.open !== "on"));
  // A tap or a click outside the menu closes it, as the focus leaving it does.
  document.addEventListener("click", (event) => {
    if (nav.dataset.open === "on" && !nav.contains(/** @type {Node} */ (event.target))) setOpen(nav, false);
  });
  nav.addEventListener("focusout", (event) => {
    const next = /** @type {Node | null} */ (event.relatedTarget);
    if (next && !nav.contains(next)) setOpen(nav, false);
  });
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
