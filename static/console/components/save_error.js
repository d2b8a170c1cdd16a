// A failed save said in words (SPEC §12): a 409 names the record it clashed with and links to it, a 422 is said
// at its field (the caller shows details[field]), anything else by its message.

import { date } from "../format.js";
import { html, useEffect, useRef } from "../lib.js";
import { recordPath } from "../paths.js";
import { fieldWords } from "../records/words.js";

/** The path and words of the record a 409's details name (a gig role or equipment on another gig, a blockout). */
export function clashOf(details) {
  for (const [key, value] of Object.entries(details || {})) {
    if (!value || typeof value !== "object") continue;
    if (value.gig_id) {
      const words = [date(value.gig_date), value.gig_title].filter(Boolean).join(" · ") || "the other gig";
      return { path: recordPath("gigs", value.gig_id), words };
    }
    if (key === "blockout" && value.staff_member_id) {
      return { path: recordPath("staff-members", value.staff_member_id), words: "the blockout" };
    }
  }
  return null;
}

/** An ApiError in words: its message, and for a 409 a link to what it clashed with. */
export function SaveError({ error, id }) {
  if (!error) return null;
  const clash = error.status === 409 ? clashOf(error.details) : null;
  return html`<p class="error field-error" id=${id} role="alert">
    ${error.status === 409 ? "Not saved: " : ""}${error.message}
    ${clash ? html` See <a href=${clash.path}>${clash.words}</a>.` : null}
  </p>`;
}

/** What a 422 says about `field` ("title", "custom_fields.dress_code"), in words, or null. */
export function fieldMessage(error, field) {
  if (!error || error.status !== 422 || !error.details) return null;
  const said = error.details[field];
  if (said === undefined) return null;
  return fieldWords(field, Array.isArray(said) ? said.join(" ") : String(said));
}

/** A form's ref: after a refusal, the focus moves to the form's first field marked invalid. */
export function useFocusOnInvalid(error) {
  const form = useRef(null);
  useEffect(() => {
    const invalid = error && error.status === 422 && form.current && form.current.querySelector('[aria-invalid="true"]');
    if (invalid) invalid.focus();
  }, [error]);
  return form;
}
