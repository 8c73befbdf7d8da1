// Cardavia's service worker (served as /sw.js, scope "/"): every static file the pages need
// (each script and every module it imports, each style) and the pages of the visitor's own
// language (the `lang` of its registration, /sw.js?lang=fr: pwa.js names the page's) are kept
// in a cache when it installs, so that the rules and the problems open without a connection,
// and the table and the rooms' pages open too, their scripts running, to say that play needs
// the connection, and My games, to say that its list does (or to show the one last read):
// test_installable.py checks the list against the pages. The other five languages are never
// fetched ahead (a phone on its first visit would download every rules page six times over,
// issue 37): a page of another language is kept when it is read, and a visitor who changes
// language registers the worker again with it, which keeps that language's pages too. Pages:
// the network first, the cache when offline or when the network stays silent (NETWORK_WAIT).
// Static files: the cache at once, refreshed from the network behind. The games API and the
// table's WebSocket always go to the server.

const VERSION = "cardavia-25";
const LANGUAGES = ["fr", "en", "ar", "pl", "hi", "es"];
const RULES = ["", "cardavia", "maison", "coinche", "maghreb", "legal-cards", "announcements", "scoring", "problems", "fairness"];
const STATIC = [
  "/static/css/base.css",
  "/static/css/table.css",
  "/static/css/rules.css",
  "/static/css/learn.css",
  "/static/css/room.css",
  "/static/css/quick.css",
  "/static/css/home.css",
  "/static/css/history.css",
  "/static/js/settings.js",
  "/static/js/notify.js",
  "/static/js/push.js",
  "/static/js/zone.js",
  "/static/js/player.js",
  "/static/js/cards.js",
  "/static/js/table.js",
  "/static/js/table_state.js",
  "/static/js/table_words.js",
  "/static/js/table_view.js",
  "/static/js/table_connection.js",
  "/static/js/table_messages.js",
  "/static/js/table_board.js",
  "/static/js/table_hand.js",
  "/static/js/table_controls.js",
  "/static/js/table_bidding.js",
  "/static/js/table_info.js",
  "/static/js/table_result.js",
  "/static/js/table_flow.js",
  "/static/js/table_replay.js",
  "/static/js/room.js",
  "/static/js/room_join.js",
  "/static/js/room_flow.js",
  "/static/js/room_invite.js",
  "/static/js/clock.js",
  "/static/js/plurals.js",
  "/static/js/room_safety.js",
  "/static/js/pwa.js",
  "/static/js/nav.js",
  "/static/js/home.js",
  "/static/js/keep_player.js",
  "/static/js/countdown.js",
  "/static/js/history.js",
  "/static/js/learn.js",
  "/static/js/learn_state.js",
  "/static/js/learn_analysis.js",
  "/static/js/learn_board.js",
  "/static/js/fair.js",
  "/static/js/friends.js",
  "/static/js/friend_news.js",
  "/static/js/problems.js",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/manifest.webmanifest",
];
const ASKED = new URL(self.location.href).searchParams.get("lang") ?? "";
/** The language whose pages are kept ahead: the registration's, English if it names none. */
const LANG = LANGUAGES.includes(ASKED) ? ASKED : "en";
// My games too, never read yet: offline, its script says that the list needs the connection
// (or shows the one kept at the last visit), where the table's page would answer for it.
const PAGES = [
  `/${LANG}/`,
  `/${LANG}/room/`,
  `/${LANG}/me/games`,
  ...RULES.map((page) => `/${LANG}/rules/${page}`),
];

/** How many files the installation fetches at once: a browser opens six connections to a
 * site, and the page being read (its navigation, its scripts, its socket's first request)
 * must not wait behind sixty files kept ahead — on a phone's first visit, or on a busy
 * server, it did, for seconds. */
const AT_ONCE = 2;

/** Keep `url` unless it is kept already (a second language's installation fetches only its
 * pages, not the static files again: those are refreshed as they are used). Fetched at low
 * priority: whatever the page asks for goes first. */
async function keep(cache, url) {
  if (STATIC.includes(url) && (await cache.match(url))) return;
  const response = await fetch(url, { priority: "low" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  await cache.put(url, response);
}

/** Keep every file of `urls`, AT_ONCE at a time; a file that fails does not stop the others. */
async function keepAll(cache, urls) {
  const queue = [...urls];
  const worker = async () => {
    while (queue.length) {
      const url = queue.shift();
      await keep(cache, url).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      await keepAll(await caches.open(VERSION), [...STATIC, ...PAGES]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key !== VERSION) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

/** Seconds a page waits for the network before the kept copy is shown: a phone on a network
 * that connects but never answers (a train's, a café's before its sign-in) would otherwise
 * wait for the browser to give up. The network's answer, should it come later, still
 * refreshes the kept copy. */
const NETWORK_WAIT = 4;

async function networkFirst(request, event) {
  const cache = await caches.open(VERSION);
  const network = fetch(request).then((response) => {
    if (response.ok) cache.put(request, response.clone());
    return response;
  });
  event.waitUntil(network.catch(() => undefined));
  let timer;
  const silent = new Promise((resolve) => {
    timer = setTimeout(() => resolve(undefined), NETWORK_WAIT * 1000);
  });
  try {
    const first = await Promise.race([network, silent]);
    if (first) return first;
    // The network is silent: the kept copy of this page if there is one, else its answer.
    const kept = await cache.match(request, { ignoreSearch: true });
    return kept ?? (await network);
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept) return kept;
    // A page never kept (a room's own link, say): the table page of its language, which
    // says that play needs the connection, rather than the browser's error page.
    const lang = new URL(request.url).pathname.split("/")[1];
    const fallback = LANGUAGES.includes(lang) ? await cache.match(`/${lang}/`) : undefined;
    if (fallback) return fallback;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function cacheFirst(request, event) {
  const cache = await caches.open(VERSION);
  const cached = await cache.match(request);
  const refresh = fetch(request)
    .then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    })
    .catch(() => undefined);
  if (cached) {
    event.waitUntil(refresh);
    return cached;
  }
  const response = await refresh;
  return response ?? Response.error();
}

// A message the site pushed while its pages may all be closed (push.js subscribed this
// browser; cardavia.live.push sends): a friend's invitation, a tournament about to close.
// Shown unless a page of the site is on screen (that page says it itself).
self.addEventListener("push", (event) => {
  /** @type {{title?: string, body?: string, url?: string, tag?: string, lang?: string}} */
  let note = {};
  try {
    note = event.data ? event.data.json() : {};
  } catch {
    note = {};
  }
  event.waitUntil(
    (async () => {
      const pages = await self.clients.matchAll({ type: "window" });
      if (pages.some((page) => page.visibilityState === "visible")) return;
      await self.registration.showNotification(note.title || "Cardavia", {
        body: note.body || "",
        tag: note.tag || "cardavia",
        lang: note.lang || "",
        dir: "auto",
        icon: "/static/icons/icon-192.png",
        data: { url: note.url || "/" },
      });
    })(),
  );
});

// A click on a notification: the page it names (a pushed one's), brought forward where it
// is open, else opened; a page's own notification (notify.js) brings the site's page forward.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data?.url;
  event.waitUntil(
    (async () => {
      const pages = await self.clients.matchAll({ type: "window" });
      if (!url) return pages[0] ? pages[0].focus() : undefined;
      const target = new URL(url, self.location.origin);
      if (target.origin !== self.location.origin) return undefined;
      const open = pages.find((page) => new URL(page.url).pathname === target.pathname);
      return open ? open.focus() : self.clients.openWindow(target.href);
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/") || url.pathname === "/healthz") return;
  if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
    event.respondWith(cacheFirst(request, event));
  } else if (request.mode === "navigate" || request.headers.get("accept")?.includes("text/html")) {
    event.respondWith(networkFirst(request, event));
  }
});
