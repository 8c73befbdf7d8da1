// Checking a deal in the browser (docs/fair-deals.md, "cardavia-deck/1"): the revealed seed's
// SHA-256 must be the hash shown before the deal, and the deck the seed gives must be the
// deck dealt. Web Crypto does the hashing (SHA-256 and HMAC-SHA256); nothing is sent anywhere.

export const ALGORITHM = "cardavia-deck/1";
const RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"];
const SUITS = ["S", "H", "D", "C"];
/** The cards in code order: 7S 8S … AS 7H … AC are 0 to 31. */
export const CODES = SUITS.flatMap((s) => RANKS.map((r) => r + s));

export function fromHex(text) {
  const clean = String(text ?? "").trim().toLowerCase();
  if (clean.length !== 64 || !/^[0-9a-f]+$/.test(clean)) return null;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i += 1) bytes[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function toHex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(bytes) {
  return toHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** The 32 card codes in the order dealt, derived from the 32-byte seed. */
export async function deckFromSeed(seed) {
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const prefix = new TextEncoder().encode(ALGORITHM);
  let counter = 0;
  let numbers = [];
  async function next() {
    if (numbers.length === 0) {
      const message = new Uint8Array(prefix.length + 4);
      message.set(prefix);
      new DataView(message.buffer).setUint32(prefix.length, counter, false);
      counter += 1;
      const block = new DataView(await crypto.subtle.sign("HMAC", key, message));
      numbers = [];
      for (let start = 0; start < 32; start += 4) numbers.push(block.getUint32(start, false));
    }
    return numbers.shift();
  }
  const deck = CODES.slice();
  for (let i = 31; i > 0; i -= 1) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let x = await next();
    while (x >= limit) x = await next();
    const j = x % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** Check a revealed seed against the hash shown before the deal and the deck dealt:
 * {ok, problem} with problem one of bad_seed, bad_hash, seed_mismatch, deck_mismatch. */
export async function checkDeal(seedHex, hashHex, dealt) {
  const seed = fromHex(seedHex);
  if (!seed) return { ok: false, problem: "bad_seed", deck: [] };
  const deck = await deckFromSeed(seed);
  if (!fromHex(hashHex)) return { ok: false, problem: "bad_hash", deck };
  if ((await sha256Hex(seed)) !== String(hashHex).trim().toLowerCase()) {
    return { ok: false, problem: "seed_mismatch", deck };
  }
  if (dealt && (dealt.length !== 32 || dealt.some((code, i) => code !== deck[i]))) {
    return { ok: false, problem: "deck_mismatch", deck };
  }
  return { ok: true, problem: null, deck };
}

/** The fairness page's check (its form, if on the page): the fields filled from the
 * address (the table's "Check this deal"), checked at once, and again on each submit. */
function wireCheckForm() {
  const form = /** @type {HTMLFormElement} */ (document.getElementById("fair-check-form"));
  if (!form) return;
  const result = document.getElementById("fair-result");
  const deckOut = document.getElementById("fair-deck-out");
  const check = async () => {
    const data = new FormData(form);
    const dealt = String(data.get("deck") ?? "").toUpperCase().match(/[0-9TJQKA][SHDC]/g);
    const outcome = await checkDeal(data.get("seed"), data.get("hash"), dealt?.length ? dealt : null);
    const key = outcome.ok ? (dealt?.length ? "ok" : "okNoDeck") : camel(outcome.problem);
    result.textContent = form.dataset[key] ?? "";
    result.dataset.ok = String(outcome.ok);
    const showDeck = outcome.deck.length && (!outcome.ok || !dealt?.length) && outcome.problem !== "seed_mismatch";
    deckOut.textContent = showDeck && outcome.problem !== "bad_hash" ? outcome.deck.join(" ") : "";
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    check();
  });
  const query = new URLSearchParams(location.search);
  for (const name of ["seed", "hash", "deck"]) {
    if (query.get(name)) form.elements[name].value = query.get(name);
  }
  if (query.get("seed")) check();
}

function camel(code) {
  return String(code).replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
}

if (typeof document !== "undefined") wireCheckForm();
