// Plural messages on the page's side (docs/languages/README.md, "Numbers in sentences"): a
// template gives a message's forms for a few numbers (PLURAL_SAMPLES, one of each plural
// category of every language), and the form for n is the one of the number in n's category by
// Intl.PluralRules — the CLDR's rules, the same as the catalogs' Plural-Forms.

/** The form of a plural message for `n`: `forms` maps sample numbers to the message's forms
 * (a plain string is a message without plural). */
export function pluralText(forms, n, lang) {
  if (typeof forms === "string") return forms;
  if (!forms || typeof forms !== "object") return "";
  const rules = new Intl.PluralRules(lang || document.documentElement.lang || "en");
  const category = rules.select(n);
  const samples = Object.keys(forms);
  const sample = samples.find((key) => rules.select(Number(key)) === category) ?? samples[samples.length - 1];
  return forms[sample] ?? "";
}
