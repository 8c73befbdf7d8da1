// Told while Cardavia is closed (Web Push, where the site was given a key: base.html then has
// the setting, its key in `data-push-key`): switched on, the browser asks for the permission
// to notify, subscribes to its push service with the site's key and hands the subscription
// to the site (POST /api/push), which then posts a friend's invitation or a tournament about
// to close to it; the service worker shows it even with every page closed (sw.js, "push").
// Switched off, the subscription is ended on both sides. The box says what this browser is
// subscribed to, not a setting of the player: each browser answers for itself.

const lang = document.documentElement.lang || "en";

/** `text` of unpadded base64url as bytes (the site's key, as pushManager wants it). */
function bytes(text) {
  const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function tell(method, subscription) {
  const response = await fetch("/api/push", {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...subscription, lang }),
  });
  return response.ok;
}

/** The worker's registration, or null where the page has none (no worker, offline first). */
async function registration() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return null;
  return navigator.serviceWorker.ready;
}

/** Wire the "even when Cardavia is closed" box (its label `row` hidden until this browser is
 * known to be able to): checked where this browser is subscribed; `said` tells a refusal. */
export async function wirePushSetting(box) {
  const row = /** @type {HTMLElement | null} */ (box.closest("[data-push-key]"));
  const key = row?.dataset.pushKey;
  const said = document.getElementById("set-push-status");
  const ready = key ? await registration() : null;
  if (!row || !key || !ready) return;
  row.hidden = false;
  box.checked = (await ready.pushManager.getSubscription()) !== null;
  box.addEventListener("change", async () => {
    if (said) said.textContent = "";
    if (!box.checked) {
      const subscription = await ready.pushManager.getSubscription();
      if (subscription) {
        await tell("DELETE", { endpoint: subscription.endpoint }).catch(() => false);
        await subscription.unsubscribe().catch(() => false);
      }
      return;
    }
    try {
      if ((await Notification.requestPermission()) !== "granted") throw new Error("denied");
      const subscription = await ready.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytes(key),
      });
      if (!(await tell("POST", subscription.toJSON()))) {
        await subscription.unsubscribe();
        throw new Error("refused");
      }
    } catch {
      box.checked = false;
      if (said) said.textContent = said.dataset.failed ?? "";
    }
  });
}
