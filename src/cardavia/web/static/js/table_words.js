// The table's words: the page's strings filled in (t, tNode, plural), and the names of
// cards, strains, seats, values, bids, announcements and contracts, in the page's language and
// the deck the player sees.

import { suitMark } from "./cards.js";
import { loadSettings } from "./settings.js";
import { el, S, state, ui } from "./table_state.js";

export function t(key, params = {}) {
  let text = ui[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

/** A sentence with parts that stay readable left to right (card codes, numbers) isolated. */
export function tNode(key, params = {}) {
  const frag = document.createDocumentFragment();
  const text = ui[key] ?? key;
  const parts = text.split(/(\{[a-z_]+\})/);
  for (const part of parts) {
    const m = part.match(/^\{([a-z_]+)\}$/);
    if (!m || !(m[1] in params)) {
      if (part) frag.append(part);
      continue;
    }
    const value = params[m[1]];
    if (value instanceof Node) frag.append(value);
    else {
      const bdi = el("bdi", null, String(value));
      frag.append(bdi);
    }
  }
  return frag;
}

export function plural(key, n) {
  const forms = S.plurals?.[key];
  const form = Array.isArray(forms) ? forms[Math.min(n, forms.length - 1)] : null;
  return (form ?? "{count}").split("{count}").join(String(n)).split("{n}").join(String(n));
}

export function deck() {
  // The settings' deck if one is chosen there, else the game's (the server keeps the deck
  // chosen in the new-game form: view.deck).
  const settings = loadSettings();
  return settings.deck || state.view?.deck || state.game?.deck || "french";
}

export function cardName(code) {
  const d = deck();
  const named = S.names?.[d]?.[code];
  if (named) return named;
  const ranks = S.rank_names?.[d];
  const suits = S.suit_names?.[d];
  const rankIndex = ["7", "8", "9", "T", "J", "Q", "K", "A"].indexOf(code[0]);
  const suitIndex = ["S", "H", "D", "C"].indexOf(code[1]);
  if (ranks && suits && rankIndex >= 0 && suitIndex >= 0) {
    return t("card_name", { rank: ranks[rankIndex], suit: suits[suitIndex] });
  }
  return code;
}

/** A card's name in every form the table's sentences use: {card} and {card_the} ("l’as de
 *  pique"), {card_acc}, {card_gen} and {card_nom} ("asa pik", "damy kier", "dama kier"). */
export function cardWords(code) {
  const name = cardName(code);
  const forms = S.forms?.[deck()]?.[code] ?? {};
  const words = { card: name };
  for (const form of ["the", "acc", "gen", "nom"]) words[`card_${form}`] = forms[form] ?? name;
  return words;
}

function strainName(strain) {
  if (strain === "NT") return t("no_trump");
  if (strain === "AT") return t("all_trump");
  const suits = S.suit_names?.[deck()];
  const index = ["S", "H", "D", "C"].indexOf(strain);
  return suits && index >= 0 ? suits[index] : strain;
}

/** The strain as a little picture and its name, for buttons and the contract. */
export function strainNode(strain, withName = true) {
  const span = el("span", "strain");
  span.dataset.suit = strain;
  if (["S", "H", "D", "C"].includes(strain)) span.append(suitMark(strain, deck()));
  if (withName) span.append(el("span", "strain-name", strainName(strain)));
  return span;
}

export function seatName(seat) {
  return S.seats?.[seat] ?? seat;
}

export function valueText(value) {
  if (value === "capot" || value === 250) return t("capot");
  if (value === "generale" || value === 500) return t("generale");
  return String(value);
}

/** Words for an action of `legal` or a bid of the history's text form. */
export function actionText(action) {
  switch (action.kind) {
    case "pass":
      return t("pass");
    case "take":
      return t("take", { strain: strainName(action.strain) });
    case "bid":
      return t("bid", { value: valueText(action.value), strain: strainName(action.strain) });
    case "coinche":
      return t("coinche");
    case "surcoinche":
      return t("surcoinche");
    default:
      return action.kind;
  }
}

export function bidText(bid) {
  // Worded here from the bid itself (the page's deck may differ from the rules' deck), as the
  // bidding history records it: "Takes clubs", never the button's "Take: clubs".
  if (bid.kind === "take") return t("take_said", { strain: strainName(bid.strain) });
  if (bid.kind) return actionText(bid);
  const text = String(bid.text ?? "").trim();
  let m;
  if (/^pass$/i.test(text)) return t("pass");
  if (/^coinche$/i.test(text)) return t("coinche");
  if (/^surcoinche$/i.test(text)) return t("surcoinche");
  if ((m = text.match(/^take\s+(\w+)$/i))) return t("take_said", { strain: strainName(m[1].toUpperCase()) });
  if ((m = text.match(/^bid\s+(\S+)\s+(\w+)$/i))) {
    return t("bid", { value: valueText(m[1].toLowerCase()), strain: strainName(m[2].toUpperCase()) });
  }
  return text;
}

export function announcementName(name) {
  const key = `ann_${String(name).toLowerCase().replace("é", "e").replace(/\s+/g, "_")}`;
  return key in ui ? t(key) : String(name);
}

/** A bid as a whole sentence: "East passes.", "North takes hearts." */
export function bidSentence(bid) {
  const seat = seatName(bid.seat);
  switch (bid.kind) {
    case "pass":
      return t("seat_passes", { seat });
    case "take":
      return t("seat_takes", { seat, strain: strainName(bid.strain) });
    case "bid":
      return t("seat_bids", { seat, value: valueText(bid.value), strain: strainName(bid.strain) });
    case "coinche":
      return t("seat_coinches", { seat });
    case "surcoinche":
      return t("seat_surcoinches", { seat });
    default:
      return t("seat_said", { seat, bid: bidText(bid) });
  }
}

/** Belote or rebelote: the first word a seat says is belote, the second rebelote. */
export function beloteWord(event, view) {
  const own = (view?.belote ?? []).filter((e) => e.seat === event.seat);
  const index = own.indexOf(event);
  if (index >= 0) return index === 0 ? t("belote") : t("rebelote");
  return /rebelote/i.test(String(event.word)) ? t("rebelote") : t("belote");
}

export function contractNode(contract) {
  const frag = document.createDocumentFragment();
  if (!contract) {
    frag.append(t("no_contract"));
    return frag;
  }
  const who = seatName(contract.taker);
  if (contract.bid !== null && contract.bid !== undefined) {
    frag.append(tNode("contract_bid", { seat: who, value: valueText(contract.bid), strain: strainNode(contract.strain) }));
  } else {
    frag.append(tNode("contract_take", { seat: who, strain: strainNode(contract.strain) }));
  }
  const level = Number(contract.coinche ?? 0);
  if (level === 1) frag.append(" ", el("span", "chip", t("coinched")));
  else if (level >= 2) frag.append(" ", el("span", "chip", t("surcoinched")));
  return frag;
}
