// The installable app, on every page: the service worker (/sw.js) that keeps the static files
// and the rules pages of the page's language for offline reading (?lang= names it: a page of
// another language registers it again, and its pages are kept too). Nothing else: the
// manifest is a <link> of base.html.

if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    const lang = encodeURIComponent(document.documentElement.lang || "en");
    navigator.serviceWorker.register(`/sw.js?lang=${lang}`, { scope: "/" }).catch(() => {
      // Without a worker the site works as before, online.
    });
  });
}
