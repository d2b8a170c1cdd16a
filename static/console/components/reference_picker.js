// A reference as a searchable picker (SPEC §12: "references as searchable pickers"): a combobox that shows the
// chosen record by name and, as one types, the records of `collection` whose words match (the list's `q`; a
// collection without `q` is searched among its first 100 records by name). Keyboard: ↓/↑ move through the
// choices, Enter takes one, Escape closes; "Clear" empties a reference that may be empty.
//
//   <${ReferencePicker} collection="teams" value=${teamId} onChange=${(id) => setTeamId(id)} label="Team" />
//
// Optional: `id` (the input's, for an outside <label for>), `required`, `invalid` and `describedBy` (an error's
// id, for aria-describedby), `chosenRecord` (the record `value` names, when the caller has it already: an
// expanded reference; otherwise the picker reads it to show its name).

import { api, ApiError } from "../api.js";
import { html, useEffect, useRef, useState } from "../lib.js";
import { recordLabel } from "../records/label.js";

const SHOWN = 10;
let pickers = 0;

async function search(collection, text) {
  const words = text.trim();
  if (words.length < 2) return (await api.get(`/${collection}`, { limit: SHOWN })).data;
  try {
    return (await api.get(`/${collection}`, { q: words, limit: SHOWN })).data;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 400)) throw error;
    const folded = words.toLocaleLowerCase();
    const all = (await api.get(`/${collection}`, { limit: 100 })).data;
    return all.filter((record) => recordLabel(record).toLocaleLowerCase().includes(folded)).slice(0, SHOWN);
  }
}

function useChosenLabel(collection, value, known) {
  const [chosen, setChosen] = useState(known && known.id === value ? { id: value, label: recordLabel(known) } : { id: null, label: "" });
  useEffect(() => {
    if (!value) return setChosen({ id: null, label: "" });
    if (chosen.id === value) return;
    api.get(`/${collection}/${encodeURIComponent(value)}`).then(
      (answer) => setChosen({ id: value, label: recordLabel(answer.data) }),
      () => setChosen({ id: value, label: `#${value.slice(0, 8)}` }),
    );
  }, [collection, value]);
  return [chosen, setChosen];
}

export function ReferencePicker({ collection, value, onChange, label, id, required, invalid, describedBy, chosenRecord }) {
  const own = useRef(`picker-${++pickers}`).current;
  const inputId = id || `${own}-input`;
  const [chosen, setChosen] = useChosenLabel(collection, value, chosenRecord);
  const [text, setText] = useState(null); // null: not typing, the chosen record's name is shown
  const [choices, setChoices] = useState([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [failure, setFailure] = useState(null);
  const asked = useRef(0);

  function look(words) {
    const number = ++asked.current;
    search(collection, words).then(
      (found) => {
        if (number !== asked.current) return; // an older answer, overtaken by the typing
        setChoices(found);
        setActive(found.length ? 0 : -1);
        setOpen(true);
        setFailure(null);
      },
      (error) => setFailure(error.message),
    );
  }

  useEffect(() => {
    if (text === null) return;
    const timer = setTimeout(() => look(text), 200);
    return () => clearTimeout(timer);
  }, [text]);

  function take(record) {
    setChosen({ id: record.id, label: recordLabel(record) });
    setText(null);
    setOpen(false);
    onChange(record.id);
  }

  function onKeyDown(event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) return look(text || "");
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((now) => (choices.length ? (now + step + choices.length) % choices.length : -1));
    } else if (event.key === "Enter" && open) {
      event.preventDefault();
      if (choices[active]) take(choices[active]);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
      setText(null);
    }
  }

  const listId = `${own}-list`;
  const optionId = (i) => `${own}-option-${i}`;
  return html`<div class="reference-picker">
    ${label && !id ? html`<label for=${inputId}>${label}</label>` : null}
    <div class="picker-row">
      <input id=${inputId} type="text" role="combobox" autocomplete="off" aria-autocomplete="list"
        aria-expanded=${open ? "true" : "false"} aria-controls=${listId} required=${required}
        aria-invalid=${invalid ? "true" : null} aria-describedby=${describedBy || null}
        aria-activedescendant=${open && active >= 0 ? optionId(active) : null}
        placeholder="Type to search…" value=${text === null ? chosen.label : text}
        onInput=${(event) => setText(event.currentTarget.value)} onKeyDown=${onKeyDown}
        onBlur=${() => setTimeout(() => { setOpen(false); setText(null); }, 150)} />
      ${value && !required
        ? html`<button type="button" class="quiet" aria-label=${`Clear ${label || "the choice"}`}
            onClick=${() => { setChosen({ id: null, label: "" }); onChange(null); }}>Clear</button>`
        : null}
    </div>
    <ul id=${listId} role="listbox" class="picker-choices" hidden=${!open} aria-label=${label || collection}>
      ${choices.length === 0 ? html`<li class="picker-none">Nothing found.</li>` : null}
      ${choices.map((record, i) => html`<li id=${optionId(i)} role="option" aria-selected=${i === active ? "true" : "false"}
          class=${i === active ? "active" : null} onMouseDown=${(event) => { event.preventDefault(); take(record); }}>
          ${recordLabel(record)}</li>`)}
    </ul>
    ${failure ? html`<p class="field-error">${failure}</p>` : null}
  </div>`;
}
