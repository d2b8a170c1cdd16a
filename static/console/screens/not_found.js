// What the console shows at a path no screen answers.

import { html } from "../lib.js";

export default function NotFound() {
  return html`<section class="screen">
    <h1>Not found</h1>
    <p>There is no page at this address in the band office.</p>
    <p><a href="/">Go to the start</a></p>
  </section>`;
}
