// People (SPEC §12, screen 4): the band's staff members and the clients' contacts, two lists searched together
// (?q=) and paged apart (?staff=20, ?contacts=20, their offsets). Two API calls.

import { ErrorMessage, Loading } from "../../components/index.js";
import { Pager, withQuery } from "../../components/paging.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";
import { recordPath } from "../../paths.js";
import { navigate } from "../../router.js";

const PAGE = 25;
const STAFF_FIELDS = "id,first_name,last_name,email,phone,active";
const CONTACT_FIELDS = "id,first_name,last_name,company,email,phone";

function offsetOf(text) {
  const number = Number(text);
  return Number.isInteger(number) && number > 0 ? number : 0;
}

function listOf(api, collection, fields, q, offset) {
  return api.get(`/${collection}`, { q: q || null, fields, limit: PAGE, offset });
}

export function fullName(person) {
  return [person.first_name, person.last_name].filter(Boolean).join(" ");
}

/** The list's answer once it has come, or its error. */
function useList(collection, fields, q, offset) {
  const { api } = useConsole();
  return useLoad(() => listOf(api, collection, fields, q, offset), [q, offset], { fresh: true });
}

function SearchForm({ q, query }) {
  const [text, setText] = useState(q);
  function submit(event) {
    event.preventDefault();
    navigate(withQuery("/people", {}, { q: text.trim() || null }));
  }
  return html`<form class="people-search" role="search" onSubmit=${submit}>
    <label for="people-q">Find people</label>
    <input id="people-q" type="search" value=${text} onInput=${(event) => setText(event.target.value)} />
    <button type="submit">Search</button>
    ${query.q ? html`<a href="/people">Show everyone</a>` : null}
  </form>`;
}

function PeopleTable({ caption, columns, rows, collection }) {
  return html`<div class="table-wrap"><table class="people-table">
    <caption class="visually-hidden">${caption}</caption>
    <thead><tr><th scope="col">Name</th>${columns.map(([label]) => html`<th scope="col">${label}</th>`)}</tr></thead>
    <tbody>
      ${rows.map(
        (person) => html`<tr key=${person.id}>
          <th scope="row"><a href=${recordPath(collection, person.id)}>${fullName(person) || "(no name)"}</a></th>
          ${columns.map(([label, cell]) => html`<td data-label=${label}>${cell(person)}</td>`)}
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

const STAFF_COLUMNS = [
  ["E-mail", (person) => person.email || ""],
  ["Phone", (person) => person.phone || ""],
  ["Status", (person) => (person.active ? "Active" : "Inactive")],
];
const CONTACT_COLUMNS = [
  ["Company", (person) => person.company || ""],
  ["E-mail", (person) => person.email || ""],
  ["Phone", (person) => person.phone || ""],
];

function ListSection({ title, id, state, collection, columns, query, parameter, none }) {
  const { answer, error } = state;
  return html`<section class="people-section" aria-labelledby=${id}>
    <h2 id=${id}>${title}${answer ? html` <span class="count">(${answer.meta.total})</span>` : null}</h2>
    <${ErrorMessage} error=${error} />
    ${!answer && !error ? html`<${Loading} />` : null}
    ${answer && answer.data.length === 0 ? html`<p>${none}</p>` : null}
    ${answer && answer.data.length > 0
      ? html`<${PeopleTable} caption=${title} columns=${columns} rows=${answer.data} collection=${collection} />`
      : null}
    ${answer ? html`<${Pager} meta=${answer.meta} path="/people" query=${query} parameter=${parameter} label=${title} />` : null}
  </section>`;
}

function AddLinks() {
  const { me } = useConsole();
  if (!can(me, "people.edit")) return null;
  return html`<p class="actions add-people">
    <a class="button" href="/people/musicians/new">Add musician</a>
    <a class="button" href="/people/contacts/new">Add contact</a>
  </p>`;
}

export default function People({ query }) {
  const q = query.q || "";
  const staff = useList("staff-members", STAFF_FIELDS, q, offsetOf(query.staff));
  const contacts = useList("contacts", CONTACT_FIELDS, q, offsetOf(query.contacts));
  return html`<section class="screen people">
    <header class="screen-header"><h1>People</h1><${SearchForm} key=${q} q=${q} query=${query} /></header>
    <${AddLinks} />
    <${ListSection} title="Staff members" id="staff-members-heading" state=${staff} collection="staff-members"
      columns=${STAFF_COLUMNS} query=${query} parameter="staff" none=${q ? "No staff member matches." : "No staff members yet."} />
    <${ListSection} title="Contacts" id="contacts-heading" state=${contacts} collection="contacts"
      columns=${CONTACT_COLUMNS} query=${query} parameter="contacts" none=${q ? "No contact matches." : "No contacts yet."} />
  </section>`;
}
