// A quote's or an invoice's lines on the Sales tab (SPEC §15): while the document is a draft and the user holds
// sales.edit, each line's description, quantity, unit price (money as the office writes it, MoneyInput) and tax
// rate (a percent) are edited where they are shown, a field saved (PATCH of that field) when it is left; a refusal
// stays at its field with what was typed. Otherwise the lines are read. Then the document's totals.

import { MoneyInput } from "../../components/money_input.js";
import { fieldMessage } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { money } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useWrite } from "../../load.js";

const percentOf = (bp) => (typeof bp === "number" ? String(bp / 100) : "");

function typedOf(line) {
  return {
    description: line.description,
    quantity: String(line.quantity),
    unit_price_cents: line.unit_price_cents,
    tax_rate_bp: percentOf(line.tax_rate_bp),
  };
}

/** What a typed field means to the API (a number left as typed when it is none: the API says so at the field). */
function apiValue(field, typed) {
  if (field === "quantity") return /^\s*-?\d+\s*$/.test(typed) ? Number(typed) : typed;
  if (field === "tax_rate_bp") return typed.trim() !== "" && Number.isFinite(Number(typed)) ? Math.round(Number(typed) * 100) : typed;
  return typed;
}

function FieldError({ id, message }) {
  return message ? html`<span class="field-error" id=${id} role="alert">${message}</span>` : null;
}

function EditedLine({ line, number, collection, currency, done }) {
  const { api } = useConsole();
  const [typed, setTyped] = useState(() => typedOf(line));
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(false);
  const removing = useWrite();
  const type = (field) => (value) => setTyped((before) => ({ ...before, [field]: value }));
  const save = async (field) => {
    const value = apiValue(field, typed[field]);
    if (value === line[field]) return;
    try {
      await api.patch(`/${collection}/${line.id}`, { [field]: value });
      setError(null);
      setSaved(true);
      await done();
    } catch (failure) {
      setError(failure);
      setSaved(false);
    }
  };
  const id = (field) => `${line.id}-${field}`;
  const said = (field) => fieldMessage(error, field);
  const input = (field, label, attributes = {}) => html`<span class="line-field">
    <label for=${id(field)}>${label}<span class="visually-hidden">, line ${number}</span></label>
    <input id=${id(field)} value=${typed[field]} ...${attributes} aria-invalid=${said(field) ? "true" : null}
      aria-describedby=${said(field) ? `${id(field)}-error` : null}
      onInput=${(event) => type(field)(event.currentTarget.value)} onBlur=${() => save(field)} />
    <${FieldError} id=${`${id(field)}-error`} message=${said(field)} />
  </span>`;
  return html`<li class="sales-line editing">
    ${input("description", "Description", { type: "text", class: "line-description" })}
    ${input("quantity", "Quantity", { type: "text", inputmode: "numeric", class: "line-quantity" })}
    <span class="line-field" onfocusout=${() => save("unit_price_cents")}>
      <label for=${id("unit_price_cents")}>Unit price<span class="visually-hidden">, line ${number}</span></label>
      <${MoneyInput} id=${id("unit_price_cents")} cents=${typed.unit_price_cents} currency=${currency}
        onChange=${type("unit_price_cents")} invalid=${Boolean(said("unit_price_cents"))} />
      <${FieldError} id=${`${id("unit_price_cents")}-error`} message=${said("unit_price_cents")} />
    </span>
    ${input("tax_rate_bp", "Tax %", { type: "text", inputmode: "decimal", class: "line-tax" })}
    <span class="line-net">${money(line.quantity * line.unit_price_cents, currency)}</span>
    <button type="button" class="quiet" onClick=${() => removing.run(async () => { await api.delete(`/${collection}/${line.id}`); await done(); })}>
      Remove<span class="visually-hidden"> line ${number}</span></button>
    ${error && !Object.keys(typed).some(said) ? html`<span class="error" role="alert">${error.message}</span>` : null}
    ${removing.error ? html`<span class="error" role="alert">${removing.error.message}</span>` : null}
    <span class="saved" role="status">${saved ? "Saved" : ""}</span>
  </li>`;
}

function ReadLine({ line, currency }) {
  return html`<li class="sales-line">
    <span class="line-description">${line.description}</span>
    <span class="line-quantity">${line.quantity} ×</span>
    <span class="line-price">${money(line.unit_price_cents, currency)}</span>
    <span class="line-tax">${percentOf(line.tax_rate_bp)} %</span>
    <span class="line-net">${money(line.quantity * line.unit_price_cents, currency)}</span>
  </li>`;
}

function Totals({ document }) {
  const currency = document.currency;
  return html`<dl class="sales-totals">
    <div><dt>Net</dt><dd>${money(document.net_cents, currency)}</dd></div>
    <div><dt>Tax</dt><dd>${money(document.tax_cents, currency)}</dd></div>
    <div><dt>Total</dt><dd class="gross">${money(document.gross_cents, currency)}</dd></div>
  </dl>`;
}

/** The lines of `document` (a quote or invoice; `parent` "quote" or "invoice"), edited when `editable`. */
export function Lines({ document, parent, lines, editable, done }) {
  const { api } = useConsole();
  const adding = useWrite();
  const collection = `${parent}-lines`;
  const add = () => adding.run(async () => {
    await api.post(`/${collection}`, { [`${parent}_id`]: document.id, description: "New line", unit_price_cents: 0 });
    await done();
  });
  return html`<div class="sales-lines">
    ${lines.length === 0 ? html`<p class="quiet-text">No lines yet.</p>` : null}
    <ol class="sales-line-list" aria-label="Lines">
      ${lines.map((line, i) => editable
        ? html`<${EditedLine} key=${line.id} line=${line} number=${i + 1} collection=${collection} currency=${document.currency} done=${done} />`
        : html`<${ReadLine} key=${line.id} line=${line} currency=${document.currency} />`)}
    </ol>
    ${editable ? html`<button type="button" onClick=${add} disabled=${adding.busy}>Add a line</button>` : null}
    ${adding.error ? html`<span class="error" role="alert">${adding.error.message}</span>` : null}
    <${Totals} document=${document} />
  </div>`;
}
