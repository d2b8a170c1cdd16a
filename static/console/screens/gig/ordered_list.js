// A list a person puts in order (the run sheet's moments and songs): by dragging a row, or by keys: each row's
// "Move up" / "Move down" buttons, or Alt+↑ / Alt+↓ anywhere in the row. The focus stays on the moved row, and
// a live region says where it went. The caller saves the new order (onMove(from, to)).

import { html, useEffect, useRef, useState } from "../../lib.js";

function moveFocus(list, key, button) {
  const row = list && list.querySelector(`[data-key="${CSS.escape(key)}"]`);
  const target = row && (row.querySelector(`button[data-move="${button}"]:not([disabled])`) || row.querySelector("button[data-move]:not([disabled])"));
  if (target) target.focus();
}

export function OrderedList({ items, keyOf, nameOf, render, onMove, editable, label }) {
  const list = useRef(null);
  const [dragged, setDragged] = useState(null);
  const [said, setSaid] = useState("");
  const [focusAfter, setFocusAfter] = useState(null);
  useEffect(() => {
    if (focusAfter) moveFocus(list.current, focusAfter.key, focusAfter.button);
  }, [items, focusAfter]);
  const move = (from, to, button) => {
    if (to < 0 || to >= items.length || from === to) return;
    const item = items[from];
    setFocusAfter({ key: keyOf(item), button });
    setSaid(`${nameOf(item)} moved to place ${to + 1} of ${items.length}.`);
    onMove(from, to);
  };
  const onKeyDown = (index) => (event) => {
    if (!editable || !event.altKey || !["ArrowUp", "ArrowDown"].includes(event.key)) return;
    event.preventDefault();
    event.stopPropagation(); // a song's row sits inside its moment's
    move(index, index + (event.key === "ArrowUp" ? -1 : 1), event.key === "ArrowUp" ? "up" : "down");
  };
  const drag = (index) =>
    editable
      ? {
          draggable: true,
          onDragStart: (event) => {
            event.stopPropagation();
            setDragged(index);
            event.dataTransfer.effectAllowed = "move";
            event.dataTransfer.setData("text/plain", keyOf(items[index]));
          },
          onDragOver: (event) => {
            if (dragged === null) return;
            event.preventDefault();
            event.stopPropagation();
          },
          onDrop: (event) => {
            if (dragged === null) return;
            event.preventDefault();
            event.stopPropagation();
            move(dragged, index, "up");
            setDragged(null);
          },
          onDragEnd: () => setDragged(null),
        }
      : {};
  return html`<ol class="ordered" ref=${list} aria-label=${label}>
    ${items.map(
      (item, index) => html`<li key=${keyOf(item)} data-key=${keyOf(item)} class=${dragged === index ? "dragging" : ""}
        onKeyDown=${onKeyDown(index)} ...${drag(index)}>
        ${editable ? html`<span class="grip" aria-hidden="true">⋮⋮</span>` : null}
        <div class="ordered-body">${render(item, index)}</div>
        ${editable
          ? html`<span class="move">
              <button type="button" class="quiet" data-move="up" disabled=${index === 0}
                aria-label=${`Move ${nameOf(item)} up`} onClick=${() => move(index, index - 1, "up")}>↑</button>
              <button type="button" class="quiet" data-move="down" disabled=${index === items.length - 1}
                aria-label=${`Move ${nameOf(item)} down`} onClick=${() => move(index, index + 1, "down")}>↓</button>
            </span>`
          : null}
      </li>`,
    )}
  </ol>
  <p class="visually-hidden" role="status">${said}</p>`;
}

/** `items` with the one at `from` put at `to`. */
export function moved(items, from, to) {
  const next = items.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}
