// The keyboard shortcuts (as Miniflux has them): "/" the search, "g" then a menu entry's key, "?" this list.

import { html, useEffect, useRef } from "./lib.js";
import { navigate } from "./router.js";

const CHORD_MS = 1500;

function typing(target) {
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** Listen for the shortcuts; `entries` are the menu's (each with an optional key), `onHelp` opens the list. */
export function listenForKeys({ entries, focusSearch, onHelp }) {
  let chordUntil = 0;
  const onKey = (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const chord = Date.now() < chordUntil;
    chordUntil = 0;
    if (event.key === "/") focusSearch();
    else if (event.key === "?") onHelp();
    else if (event.key === "g") chordUntil = Date.now() + CHORD_MS;
    else if (chord && entries().some((entry) => entry.key === event.key)) {
      navigate(entries().find((entry) => entry.key === event.key).path);
    } else return;
    event.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}

/** The dialog listing the keys; Esc closes it (the browser's <dialog> does). */
export function KeysDialog({ open, entries, onClose }) {
  const dialog = useRef(null);
  useEffect(() => {
    const element = dialog.current;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  const keys = [
    ["/", "Search"],
    ...entries.filter((entry) => entry.key).map((entry) => [`g ${entry.key}`, entry.label]),
    ["?", "This list of keys"],
    ["Esc", "Close this list"],
  ];
  return html`<dialog ref=${dialog} class="keys" aria-labelledby="keys-title" onClose=${onClose}>
    <h2 id="keys-title">Keyboard shortcuts</h2>
    <dl>${keys.map(([key, what]) => html`<div><dt><kbd>${key}</kbd></dt><dd>${what}</dd></div>`)}</dl>
    <button type="button" onClick=${onClose}>Close</button>
  </dialog>`;
}
