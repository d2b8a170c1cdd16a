// A list page made from the OpenAPI document (SPEC §12, screen 6: the generic pages of every other collection): the record's
// fields as columns in its order, headers that sort (`sort`), filters from the documented `filter` parameter
// (equality for choices, references and yes/no; ranges for dates, times and numbers; "contains" for text), `q`
// where the list offers it, paging with the total. The page's query string is the list's own parameters, so a
// filtered, sorted page has its URL. References show the referenced record's name (`expand`) and link to it.
//
//   <${RecordList} collection=${described} query=${query} basePath="/records/teams" />

import { ErrorMessage, Loading } from "../components/index.js";
import { MoneyInput } from "../components/money_input.js";
import { useConsole } from "../context.js";
import { html, useState } from "../lib.js";
import { useLoad } from "../load.js";
import { navigate } from "../router.js";
import { usableBy } from "./document.js";
import { FieldText, ReferenceInput } from "./fields.js";
import { recordLabel } from "./label.js";

const PAGE = 50;
const HIDDEN_COLUMNS = new Set(["id", "created_at", "updated_at", "custom_fields"]);
const OWN_PARAMETERS = /^(sort|offset|q|filter\[[^\]]+\]\[[a-z_]+\])$/;

/** The list's parameters the page's query holds (anything else is left out). */
export function listQuery(query) {
  return Object.fromEntries(Object.entries(query).filter(([key, value]) => OWN_PARAMETERS.test(key) && value !== ""));
}

function hrefWith(basePath, query, changes) {
  const next = { ...listQuery(query), ...changes };
  const params = new URLSearchParams(Object.entries(next).filter(([, value]) => value !== null && value !== undefined && value !== ""));
  const search = params.toString();
  return search ? `${basePath}?${search}` : basePath;
}

/** The references worth embedding: those whose collection the user may read. */
export function expansions(collection, doc, me) {
  return collection.fields
    .filter((field) => field.reference && collection.expandable.includes(field.name.slice(0, -3)))
    .filter((field) => doc.collection(field.reference)?.mayView(me))
    .map((field) => field.name.slice(0, -3));
}

export function columnsOf(collection, me) {
  return collection.fields.filter((field) => !HIDDEN_COLUMNS.has(field.name) && !field.opaque).filter(usableBy(me));
}

function SortHeader({ field, collection, query, basePath }) {
  const sort = query.sort || "";
  const state = sort === field.name ? "ascending" : sort === `-${field.name}` ? "descending" : null;
  if (!collection.sortable.has(field.name)) return html`<th scope="col">${field.label}</th>`;
  const next = state === "ascending" ? `-${field.name}` : field.name;
  const arrow = state === "ascending" ? " ▲" : state === "descending" ? " ▼" : "";
  return html`<th scope="col" aria-sort=${state || null}>
    <a href=${hrefWith(basePath, query, { sort: next, offset: null })}
      aria-label=${`${field.label}: sort ${next.startsWith("-") ? "descending" : "ascending"}`}>${field.label}${arrow}</a>
  </th>`;
}

/** The words of the row's link: its first column as text (a reference by the referenced record's name). */
function linkText(field, record) {
  const embedded = field.kind === "reference" ? record[field.name.slice(0, -3)] : null;
  const text = field.kind === "reference" ? (embedded ? recordLabel(embedded) : "") : FieldText({ field, record });
  return text === "" ? recordLabel(record) : text;
}

function Row({ record, columns, linked, basePath }) {
  const [first, ...rest] = columns;
  return html`<tr>
    <th scope="row">${linked
      ? html`<a href=${`${basePath}/${encodeURIComponent(record.id)}`}>${linkText(first, record)}</a>`
      : html`<${FieldText} field=${first} record=${record} />`}</th>
    ${rest.map((field) => html`<td class=${`kind-${field.kind}`}><${FieldText} field=${field} record=${record} /></td>`)}
  </tr>`;
}

/** The filter controls: one per field the list filters on, as its kind suits. */
function filterControls(collection, doc, me) {
  const controls = [];
  for (const field of columnsOf(collection, me)) {
    const operators = collection.filters[field.name];
    if (!operators) continue;
    const key = (operator) => `filter[${field.name}][${operator}]`;
    if (field.kind === "reference" && operators.has("eq") && doc.collection(field.reference)?.mayView(me)) {
      controls.push({ field, keys: [key("eq")], kind: "reference" });
    } else if ((field.kind === "enum" || field.kind === "boolean") && operators.has("eq")) {
      controls.push({ field, keys: [key("eq")], kind: "choice" });
    } else if (["date", "time", "timestamp", "integer", "number"].includes(field.kind) && operators.has("gte")) {
      controls.push({ field, keys: [key("gte"), key("lte")], kind: "range" });
    } else if (["text", "email", "url"].includes(field.kind) && operators.has("contains")) {
      controls.push({ field, keys: [key("contains")], kind: "text" });
    }
  }
  return controls;
}

const RANGE_TYPES = { date: "date", time: "time", integer: "number", number: "number", timestamp: "text" };

function FilterControl({ control, values, setValue }) {
  const { field, keys } = control;
  const id = (key) => `filter-${key.replace(/[^a-z0-9_]/gi, "-")}`;
  if (control.kind === "reference") {
    return html`<div class="filter">
      <${ReferenceInput} field=${{ ...field, required: false }} id=${id(keys[0])} value=${values[keys[0]] || null}
        onChange=${(chosen) => setValue(keys[0], chosen || "")} /></div>`;
  }
  if (control.kind === "choice") {
    const choices = field.kind === "boolean" ? [["true", "Yes"], ["false", "No"]] : field.enum.map((one) => [one, one.replace(/_/g, " ")]);
    return html`<div class="filter"><label for=${id(keys[0])}>${field.label}</label>
      <select id=${id(keys[0])} value=${values[keys[0]] || ""} onChange=${(event) => setValue(keys[0], event.currentTarget.value)}>
        <option value="">Any</option>
        ${choices.map(([value, words]) => html`<option value=${value}>${words}</option>`)}
      </select></div>`;
  }
  if (control.kind === "range" && field.money) {
    const cents = (key) => (values[key] === undefined || values[key] === "" || Number.isNaN(Number(values[key])) ? values[key] : Number(values[key]));
    return html`<fieldset class="filter range"><legend>${field.label}</legend>
      ${keys.map((key, i) => html`<span><label for=${id(key)}>${i === 0 ? "from" : "to"}</label>
        <${MoneyInput} id=${id(key)} cents=${cents(key)} onChange=${(typed) => setValue(key, typed === null ? "" : String(typed))} /></span>`)}
    </fieldset>`;
  }
  if (control.kind === "range") {
    const type = RANGE_TYPES[field.kind];
    return html`<fieldset class="filter range"><legend>${field.label}</legend>
      ${keys.map((key, i) => html`<label>${i === 0 ? "from" : "to"}
        <input type=${type} value=${values[key] || ""} onInput=${(event) => setValue(key, event.currentTarget.value)} /></label>`)}
    </fieldset>`;
  }
  return html`<div class="filter"><label for=${id(keys[0])}>${field.label} contains</label>
    <input id=${id(keys[0])} type="text" value=${values[keys[0]] || ""} onInput=${(event) => setValue(keys[0], event.currentTarget.value)} /></div>`;
}

function Filters({ collection, doc, query, basePath }) {
  const { me } = useConsole();
  const controls = filterControls(collection, doc, me);
  const [values, setValues] = useState(listQuery(query));
  const setValue = (key, value) => setValues((now) => ({ ...now, [key]: value }));
  const active = Object.keys(listQuery(query)).some((key) => key.startsWith("filter["));
  function apply(event) {
    event.preventDefault();
    navigate(hrefWith(basePath, {}, { ...values, sort: query.sort, offset: null }));
  }
  return html`<form class="list-filters" role="search" aria-label=${`Search and filter ${collection.title.toLowerCase()}`} onSubmit=${apply}>
    ${collection.searchable
      ? html`<div class="filter search"><label for="list-q">Search</label>
          <input id="list-q" type="search" value=${values.q || ""} title=${collection.searchHint}
            onInput=${(event) => setValue("q", event.currentTarget.value)} /></div>`
      : null}
    ${controls.length > 0
      ? html`<details open=${active}>
          <summary>Filters${active ? " (on)" : ""}</summary>
          <div class="filter-grid">${controls.map((control) => html`<${FilterControl} control=${control} values=${values} setValue=${setValue} />`)}</div>
        </details>`
      : null}
    <div class="filter-actions">
      <button type="submit">Show</button>
      ${Object.keys(listQuery(query)).length > 0 ? html`<a href=${basePath}>Clear all</a>` : null}
    </div>
  </form>`;
}

function Paging({ meta, shown, query, basePath }) {
  const offset = meta.offset;
  const words = meta.total === 0 ? "None found." : `${offset + 1}–${offset + shown} of ${meta.total}`;
  return html`<nav class="paging" aria-label="Pages">
    <span role="status">${words}</span>
    ${offset > 0 ? html`<a href=${hrefWith(basePath, query, { offset: Math.max(0, offset - PAGE) || null })}>Previous</a>` : null}
    ${offset + shown < meta.total ? html`<a href=${hrefWith(basePath, query, { offset: offset + PAGE })}>Next</a>` : null}
  </nav>`;
}

export function RecordList({ collection, doc, query, basePath, linked = true, fixed = {} }) {
  const { api, me } = useConsole();
  const parameters = listQuery(query);
  const key = JSON.stringify(parameters);
  const { answer, error } = useLoad(({ signal }) => {
    const expand = expansions(collection, doc, me).join(",") || null;
    return api.get(collection.path, { ...parameters, ...fixed, expand, limit: PAGE }, { signal });
  }, [collection.path, key]);
  const columns = columnsOf(collection, me);
  return html`<div class="record-list">
    <${Filters} key=${key} collection=${collection} doc=${doc} query=${query} basePath=${basePath} />
    <${ErrorMessage} error=${error} />
    ${!answer && !error ? html`<${Loading} />` : null}
    ${answer
      ? html`<div class="table-scroll" role="region" aria-label=${collection.title} tabindex="0">
          <table class="records">
            <thead><tr>${columns.map((field) => html`<${SortHeader} field=${field} collection=${collection} query=${query} basePath=${basePath} />`)}</tr></thead>
            <tbody>${answer.data.map((record) => html`<${Row} key=${record.id} record=${record} columns=${columns} linked=${linked} basePath=${basePath} />`)}</tbody>
          </table>
        </div>
        <${Paging} meta=${answer.meta} shown=${answer.data.length} query=${query} basePath=${basePath} />`
      : null}
  </div>`;
}
