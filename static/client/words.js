// The words a client reads on their pages (SPEC §16), in their language. Every word of the client's page goes
// through `t`: `t("Pay {amount} by {date}", { amount, date })`, English as written; `useLanguage(words)` gives the
// catalogue of the language the page speaks ({English: translation}, formats/client_words.py's page_words, which
// the page carries as JSON), and a word it lacks reads English.
let catalogue = {};

export function useLanguage(words) {
  catalogue = words || {};
}

export function t(text, values) {
  const said = catalogue[text] || text;
  return values ? said.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole)) : said;
}
