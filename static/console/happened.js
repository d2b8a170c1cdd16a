// What a create or an add did, said where the person lands (SPEC §12.1: "Created", "Added Tom", "Invited Tom and
// Mia"). A screen that opens another after a write leaves its words with tell() before navigate(); the screen
// shown next takes them once with useTold() and shows them in <Happened> beside its heading (the shell moves the
// focus to the heading). A screen that stays says its own words in <Happened> the same way.
//
//   tell("Created"); navigate(recordPath("gigs", gig.id));
//   const told = useTold(); ... <${Happened} words=${told} />

import { html, useState } from "./lib.js";

let left = null;

export function tell(words) {
  left = words;
}

/** The words told before this screen opened (null when none), taken once. */
export function useTold() {
  const [words] = useState(() => {
    const told = left;
    left = null;
    return told;
  });
  return words;
}

/** The words in a status line; with an `id`, a write whose control went away may move the focus here. */
export function Happened({ words, id }) {
  return html`<p class="happened" role="status" id=${id} tabindex=${id ? "-1" : undefined}>${words || ""}</p>`;
}

/** "Tom", "Tom and Mia", "Tom, Mia and Jakob". */
export function namesInWords(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
