// The words a client reads on their pages (SPEC §16), in their language. Every word of the client's page goes
// through `t`: `t("Pay {amount} by {date}", { amount, date })`. The catalogues arrive with the language work; until
// then the English text is the answer.
let catalogue = {};

export function useLanguage(words) {
  catalogue = words || {};
}

export function t(text, values) {
  const said = catalogue[text] || text;
  return values ? said.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole)) : said;
}
