// The site's menu, on every page: on a phone its links are one line that scrolls sideways
// (base.css), so the page's own link is brought into that line's view, and so is each link
// the keyboard reaches (the browser leaves one that shows in part as it is), and the line
// fades at an edge where more links wait (data-more, base.css). The header's two menus that
// open (the language, the settings) close with Escape.

function scrolls(nav) {
  return nav.scrollWidth > nav.clientWidth;
}

/** Centre the page's own link in the menu, by the menu's own scrolling only (the page does
 * not move), in either direction of writing: the x axis is the same for both. */
function showCurrent() {
  const nav = document.querySelector(".site-nav");
  const current = nav?.querySelector('[aria-current="page"]');
  if (!nav || !current || !scrolls(nav)) return;
  const link = current.getBoundingClientRect();
  const line = nav.getBoundingClientRect();
  nav.scrollBy({ left: link.left + link.width / 2 - (line.left + line.width / 2) });
}

/** Bring a focused link wholly into the menu's line. */
function showFocused(event) {
  const nav = event.currentTarget;
  const link = event.target.getBoundingClientRect();
  const line = nav.getBoundingClientRect();
  if (!scrolls(nav)) return;
  if (link.left < line.left) nav.scrollBy({ left: link.left - line.left });
  else if (link.right > line.right) nav.scrollBy({ left: link.right - line.right });
}

/** Mark the edges of the menu's line beyond which links are hidden ("start", "end": in the
 * order of writing; scrollLeft runs from 0 towards the end, negative right to left). */
function markMore(nav) {
  const hidden = nav.scrollWidth - nav.clientWidth;
  const done = Math.abs(nav.scrollLeft);
  const more = [];
  if (hidden > 1 && done > 1) more.push("start");
  if (hidden > 1 && hidden - done > 1) more.push("end");
  nav.dataset.more = more.join(" ");
}

/** Escape, with the focus in an open menu of the header: the menu closes and the focus goes
 * back to its button (a select's own list, open, takes the key first). */
function closeOnEscape(event) {
  if (event.key !== "Escape") return;
  const menu = /** @type {HTMLDetailsElement} */ (document.activeElement?.closest(".site-header details[open]"));
  if (!menu) return;
  menu.open = false;
  menu.querySelector("summary")?.focus();
  event.preventDefault();
  event.stopPropagation();
}

function start() {
  document.addEventListener("keydown", closeOnEscape);
  const nav = document.querySelector(".site-nav");
  if (!nav) return;
  nav.addEventListener("focusin", showFocused);
  nav.addEventListener("scroll", () => markMore(nav), { passive: true });
  window.addEventListener("resize", () => markMore(nav));
  showCurrent();
  markMore(nav);
  // The links' widths change once the page's fonts have come.
  document.fonts?.ready.then(() => {
    showCurrent();
    markMore(nav);
  });
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
