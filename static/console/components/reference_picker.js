// A searchable picker for a reference (venue_id, gig_status_id, product_id…): a combobox that asks the referenced
// collection with `q` as the person types (all of it, by `sort`, before they type), keyboard usable (arrows,
// Enter picks, Esc closes), and optionally a last option "New venue… <typed>" that opens a small form to create one.
// While something is typed, "None" is not offered; what is typed and not picked goes when the focus leaves.
//
//   <${ReferencePicker} id="venue" label="Venue" collection="venues" value=${venue}
//     text=${(venue) => venue.name} onChange=${(venue) => save({venue_id: venue ? venue.id : null})}
//     create=${{label: "New venue…", Form: NewVenue}} />
//
// value:    the record picked (or null); it is only read for its text
// text:     record -> the words shown for it (default: its name)
// query:    extra query parameters (fields, filter[…]…); sort: the order before anything is typed ("name")
// optional: true to offer "None" (onChange(null))
// create:   {label, Form}: Form gets {text (what was typed), onCreated(record), onCancel}
// autoFocus, onCancel (Esc on a closed list): for pickers shown in place of a value while it is edited

import { useConsole } from "../context.js";
import { html, useEffect, useLayoutEffect, useRef, useState } from "../lib.js";
import { useLoad } from "../load.js";
import { searchable } from "../search.js";

const DEBOUNCE_MS = 200;
const SHOWN = 10;

function useOptions(collection, text, open, query, sort) {
  const { api } = useConsole();
  const q = searchable(text);
  const found = useLoad(
    ({ signal }) => (open ? api.get(`/${collection}`, { ...query, limit: SHOWN, ...(q ? { q } : { sort }) }, { signal }) : null),
    [collection, q, open],
    { wait: q ? DEBOUNCE_MS : 0 },
  );
  return { records: (!found.error && found.answer?.data) || [], error: found.error, settled: !found.loading };
}

export function ReferencePicker(props) {
  const { id, label, collection, value, onChange, onCancel, create, optional, autoFocus } = props;
  const text = props.text || ((record) => record.name);
  const shownText = value ? text(value) : "";
  const [typed, setTyped] = useState(shownText);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [creating, setCreating] = useState(null);
  const input = useRef(null);
  const box = useRef(null);
  const quiet = useRef(false);
  const [entered, setEntered] = useState(false);
  const { records, error, settled } = useOptions(collection, typed === shownText ? "" : typed, open, props.query, props.sort || "name");
  // Both at once, not a frame later (when a useEffect runs): a late reset would wipe what is typed meanwhile,
  // a late focus would take it into this box.
  useLayoutEffect(() => setTyped(shownText), [shownText]);
  useLayoutEffect(() => autoFocus && input.current && input.current.focus(), []);
  // keyed: an option keeps its element as results arrive, so a click aimed at "New venue…" never lands on the
  // venue that took its place
  // while something is typed, Enter picks the first match or makes what was typed, never "None"
  const searching = typed !== shownText && typed.trim() !== "";
  const options = [
    ...(optional && !searching ? [{ kind: "none", label: "None" }] : []),
    ...records.map((record) => ({ kind: "record", record, label: text(record) })),
    ...(create ? [{ kind: "create", label: searching ? `${create.label} ${typed.trim()}` : create.label }] : []),
  ];
  // the option chosen, within the list: matches that arrive after an arrow key may be fewer than were shown
  const chosen = Math.min(active, Math.max(options.length - 1, 0));
  const pick = (option) => {
    setOpen(false);
    if (option.kind === "create") return setCreating(typed === shownText ? "" : typed);
    onChange(option.kind === "none" ? null : option.record);
  };
  // back from the small form, the focus returns to the box without opening its list over the next field
  const back = () => {
    quiet.current = true;
    if (input.current) input.current.focus();
    quiet.current = false;
  };
  // the box shows what is saved: what was typed and not picked goes when the focus leaves
  const leave = () => {
    setOpen(false);
    setTyped(shownText);
    setEntered(false);
  };
  // an Enter pressed before the matches of what was typed arrived picks among them once they have
  useEffect(() => {
    if (!entered || !settled) return;
    setEntered(false);
    if (options[chosen]) pick(options[chosen]);
  }, [entered, settled]);
  const onKeyDown = (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) return setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((chosen + step + options.length) % Math.max(options.length, 1));
    } else if (event.key === "Enter" && open && (options[chosen] || !settled)) {
      event.preventDefault();
      if (settled) pick(options[chosen]);
      else setEntered(true);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      if (open) setOpen(false);
      else if (onCancel) onCancel();
      setTyped(shownText);
      setEntered(false);
    }
  };
  const listId = `${id}-options`;
  const optionId = (i) => `${id}-option-${i}`;
  // the list is no stop for Tab (Chromium stops at a scrolling box): Tab leaves the picker
  // an option is picked on mousedown, which keeps the focus in the box: a blur is the focus leaving the picker
  return html`<div class="picker" ref=${box}>
    <label for=${id} class=${props.hideLabel ? "visually-hidden" : ""}>${label}</label>
    <input id=${id} ref=${input} type="text" role="combobox" autocomplete="off" aria-autocomplete="list"
      aria-expanded=${open ? "true" : "false"} aria-controls=${listId}
      aria-activedescendant=${open && options[chosen] ? optionId(chosen) : undefined}
      value=${typed} placeholder="Type to search…"
      onInput=${(event) => { setTyped(event.target.value); setActive(0); setOpen(true); setEntered(false); }}
      onFocus=${() => !quiet.current && setOpen(true)} onClick=${() => setOpen(true)}
      onBlur=${(event) => !box.current.contains(event.relatedTarget) && leave()}
      onKeyDown=${onKeyDown} />
    ${open && options.length > 0 ? html`<ul id=${listId} role="listbox" aria-label=${label} class="picker-options" tabindex="-1">
      ${options.map((option, i) => html`<li key=${option.kind === "record" ? option.record.id : option.kind} id=${optionId(i)} role="option" aria-selected=${i === chosen ? "true" : "false"}
        class=${`picker-option ${option.kind}`} onMouseDown=${(event) => { event.preventDefault(); pick(option); }}>${option.label}</li>`)}
    </ul>` : null}
    ${open && error ? html`<p class="error">${error.message}</p>` : null}
    ${creating !== null && create
      ? html`<${create.Form} text=${creating}
          onCreated=${(record) => { setCreating(null); onChange(record); back(); }}
          onCancel=${() => { setCreating(null); back(); }} />`
      : null}
  </div>`;
}
