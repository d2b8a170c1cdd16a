// The parts of a staff member's page loaded when their section is opened: pay rates (pay.view: amounts with their
// currency, SPEC §4.6) and the calendar link (copy it; rotate it, with a confirmation, with people.edit).

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { money } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useOnOpen, useWrite } from "../../load.js";

export function Section({ title, id, onToggle, children }) {
  return html`<details class="person-part" id=${id} onToggle=${onToggle}>
    <summary><h2>${title}</h2></summary>
    ${children}
  </details>`;
}

export function PayRates({ member }) {
  const { api } = useConsole();
  const rates = useOnOpen(() =>
    api.get("/staff-member-product-rates", { "filter[staff_member_id]": member.id, expand: "product", limit: 200 }),
  );
  return html`<${Section} title="Pay rates" id="pay-rates" onToggle=${rates.onToggle}>
    <${ErrorMessage} error=${rates.error} />
    ${rates.opened && !rates.answer && !rates.error ? html`<${Loading} />` : null}
    ${rates.answer && rates.answer.data.length === 0 ? html`<p>No rates of their own: the roles' rates apply.</p>` : null}
    ${rates.answer && rates.answer.data.length > 0
      ? html`<ul class="plain-list">
          ${rates.answer.data.map(
            (rate) => html`<li key=${rate.id}>${`${rate.product ? rate.product.name : "A product"}: `}<strong>${money(rate.amount_cents, rate.currency)}</strong></li>`,
          )}
        </ul>`
      : null}
  <//>`;
}

export function CalendarLink({ member, canEdit }) {
  const { api } = useConsole();
  const path = `/staff-members/${encodeURIComponent(member.id)}/calendar-url`;
  const link = useOnOpen(() => api.get(path));
  const [rotated, setRotated] = useState(null);
  const { error: problem, run } = useWrite();
  const url = rotated || (link.answer && link.answer.data.url);
  function rotate() {
    if (!confirm("Give this calendar a new address? The old address stops working: they will have to add the new one.")) return;
    run(async () => setRotated((await api.post(`${path}/rotate`)).data.url));
  }
  return html`<${Section} title="Calendar link" id="calendar-link" onToggle=${link.onToggle}>
    <${ErrorMessage} error=${link.error || problem} />
    ${link.opened && !url && !link.error ? html`<${Loading} />` : null}
    ${url
      ? html`<p>Their gigs as a calendar feed, for their phone's calendar app.</p>
          <label for="calendar-url">Calendar address</label>
          <input id="calendar-url" class="calendar-url" readonly value=${url} onFocus=${(event) => event.target.select()} />
          <p class="actions">
            <button type="button" class="quiet" onClick=${() => navigator.clipboard && navigator.clipboard.writeText(url)}>Copy</button>
            ${canEdit ? html`<button type="button" class="quiet" onClick=${rotate}>New address…</button>` : null}
            ${rotated ? html`<span role="status">A new address: the old one no longer works.</span>` : null}
          </p>`
      : null}
  <//>`;
}
