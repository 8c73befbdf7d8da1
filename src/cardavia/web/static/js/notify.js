// Telling a player whose page is hidden (another tab, another window, the phone's screen on
// something else) that it is their turn: a system notification, with the browser's
// permission, and the turn's tone. The "Tell me when it is my turn" setting (off by default)
// asks for the permission when it is switched on; a browser that refuses it keeps the
// setting off and says where to allow it. Only the page's own notifications while it is
// open or installed: what reaches a closed site is push.js's (invitations, tournaments).

const SUPPORTED = "Notification" in window;

/** The browser's answer for this site ("granted", "denied" or "default": not asked yet): the
 * Permissions API's, which follows a change made in the browser's settings while the page is
 * open, else the Notification API's own. */
let permission = SUPPORTED ? Notification.permission : "denied";

async function askedPermission() {
  try {
    const status = await navigator.permissions.query({ name: "notifications" });
    const follow = () => {
      permission = status.state === "prompt" ? "default" : status.state;
    };
    follow();
    status.addEventListener("change", follow);
  } catch {
    // No Permissions API for notifications: Notification.permission says it.
  }
  return permission;
}

const known = SUPPORTED ? askedPermission() : Promise.resolve("denied");

/** Settled once the browser's answer is known (the page's first moments). */
export function permissionKnown() {
  return known;
}

/** Whether the page may notify: the setting on (`settings`, the page's), the permission
 * granted. */
export function mayNotify(settings) {
  return SUPPORTED && Boolean(settings.notify) && permission === "granted";
}

/** Notify `text` (the turn's sentence, in the page's language) if the page is hidden and the
 * player asked for it (`settings`); one notification at a time (a new one replaces the last),
 * and a click on it brings the page back. Answers whether one was shown. */
export function notifyHidden(text, settings) {
  if (!document.hidden || !mayNotify(settings)) return false;
  try {
    const note = new Notification("Cardavia", {
      body: text,
      tag: "cardavia-turn",
      lang: document.documentElement.lang,
      dir: "auto",
      icon: "/static/icons/icon-192.png",
    });
    note.addEventListener("click", () => {
      window.focus();
      note.close();
    });
    return true;
  } catch {
    // A browser that shows notifications from its service worker only (Chrome on Android)
    // refuses the constructor: the worker shows it instead.
    navigator.serviceWorker?.ready
      .then((registration) => registration.showNotification("Cardavia", { body: text, tag: "cardavia-turn", lang: document.documentElement.lang }))
      .catch(() => undefined);
    return true;
  }
}

/** Wire the setting's box in the settings panel: switched on, the permission is asked for;
 * refused, the box goes back off and the line under it says so. */
export function wireNotifySetting(box, update) {
  const said = document.getElementById("set-notify-status");
  if (!SUPPORTED) {
    box.disabled = true;
    if (said) said.textContent = said.dataset.unsupported ?? "";
    return;
  }
  box.addEventListener("change", async () => {
    if (!box.checked) {
      update({ notify: false });
      if (said) said.textContent = "";
      return;
    }
    if ((await known) === "default") permission = await Notification.requestPermission();
    const granted = permission === "granted";
    box.checked = granted;
    update({ notify: granted });
    if (said) said.textContent = granted ? "" : (said.dataset.denied ?? "");
  });
}
