// Money typed as a person writes it (SPEC §12.1): a text input showing the amount in the office's format
// ("€4,500.00", "4.500,00 €"), typed either way ("4500", "4.500,00", "4,500.00", "€ 4500"), reporting cents.
//
//   <${MoneyInput} id="price" label="Price" cents=${cents} onChange=${setCents} />
//   onChange(450000) for an amount, null for an emptied box, the typed text itself when it is no amount (the
//   input says so under it; a save that sends it is refused at the field by the API)
//
// Without `label` it is the bare input, for a form that labels its fields itself (`id` is then the label's).

import { formatMoney, parseMoney } from "../format.js";
import { html, useEffect, useState } from "../lib.js";

const shown = (cents, currency) => (typeof cents === "number" ? formatMoney(cents, currency) : cents || "");

export function MoneyInput({ id, label, cents, currency, onChange, required, invalid, describedBy }) {
  const [text, setText] = useState(() => shown(cents, currency));
  const [left, setLeft] = useState(false); // the box was left once: say what is wrong with it from then on
  useEffect(() => {
    if (typeof cents === "number" && parseMoney(text) !== cents) setText(shown(cents, currency));
  }, [cents, currency]);
  const typed = (value) => {
    setText(value);
    const parsed = parseMoney(value);
    onChange(value.trim() === "" ? null : parsed === null ? value : parsed);
  };
  const leave = () => {
    setLeft(true);
    const parsed = parseMoney(text);
    if (parsed !== null) setText(formatMoney(parsed, currency));
  };
  const wrong = left && text.trim() !== "" && parseMoney(text) === null;
  const wrongId = `${id}-not-money`;
  const input = html`<input id=${id} class="money" type="text" inputmode="decimal" autocomplete="off" value=${text} required=${required}
    aria-invalid=${invalid || wrong ? "true" : null} aria-describedby=${[describedBy, wrong ? wrongId : null].filter(Boolean).join(" ") || null}
    onInput=${(event) => typed(event.currentTarget.value)} onBlur=${leave} />`;
  const hint = wrong ? html`<span class="field-error" id=${wrongId}>Not an amount: type it as 4500, 4.500,00 or 4,500.00.</span>` : null;
  if (!label) return html`${input}${hint}`;
  return html`<span class="money-input"><label for=${id}>${label}</label>${input}${hint}</span>`;
}
