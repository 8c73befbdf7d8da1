// The installable app, on every page: the service worker (/sw.js) that keeps the static files
// and the rules pages for offline reading. Nothing else: the manifest is a <link> of base.html.

if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // Without a worker the site works as before, online.
    });
  });
}
