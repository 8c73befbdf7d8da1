// The bidding box: a button for each legal take, coinche, surcoinche and pass, and for the
// bids of the chosen value (chosen in a menu), each named by what it shows.

import { sendAction } from "./table_connection.js";
import { renderControls } from "./table_controls.js";
import { $, el, state } from "./table_state.js";
import { actionText, strainNode, t, valueText } from "./table_words.js";

function actionButton(action, index, content, cls = "bid-button") {
  const button = el("button", cls);
  button.type = "button";
  button.dataset.kind = action.kind;
  button.dataset.index = String(index);
  if (action.strain) button.dataset.strain = action.strain;
  if (action.value !== undefined) button.dataset.value = String(action.value);
  if (content instanceof Node) button.append(content);
  else button.textContent = content;
  // Named by what it shows ("Take ♠ spades"), so that the name holds the visible label.
  button.addEventListener("click", () => sendAction(action));
  return button;
}

export function biddingControls(view) {
  const legal = view.legal ?? [];
  const box = el("div", "bidding");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("your_turn_bid"));
  const row = el("div", "bid-row");
  legal.forEach((action, index) => {
    if (action.kind === "take") {
      const content = document.createDocumentFragment();
      content.append(el("span", null, t("take_short")), strainNode(action.strain));
      row.append(actionButton(action, index, content, "bid-button take"));
    }
  });
  const bids = legal.map((a, i) => [a, i]).filter(([a]) => a.kind === "bid");
  if (bids.length) {
    const values = [...new Set(bids.map(([a]) => String(a.value)))];
    if (!values.includes(String(state.bidValue))) state.bidValue = values[0];
    const label = el("label", "bid-value");
    label.append(el("span", null, t("bid_value")));
    const select = document.createElement("select");
    select.name = "bid-value";
    for (const value of values) {
      const option = el("option", null, valueText(value));
      option.value = value;
      select.append(option);
    }
    select.value = state.bidValue;
    select.addEventListener("change", () => {
      state.bidValue = select.value;
      renderControls(state.view);
      $("controls").querySelector('select[name="bid-value"]')?.focus();
    });
    label.append(select);
    const strains = el("div", "bid-row strains");
    for (const [action, index] of bids) {
      if (String(action.value) !== state.bidValue) continue;
      const content = document.createDocumentFragment();
      content.append(el("bdi", "value", valueText(action.value)), strainNode(action.strain));
      strains.append(actionButton(action, index, content, "bid-button bid"));
    }
    box.append(label, strains);
  }
  legal.forEach((action, index) => {
    if (action.kind === "coinche" || action.kind === "surcoinche") {
      row.append(actionButton(action, index, actionText(action), "bid-button double"));
    }
  });
  legal.forEach((action, index) => {
    if (action.kind === "pass") row.append(actionButton(action, index, t("pass"), "bid-button pass"));
  });
  box.prepend(row);
  return box;
}
