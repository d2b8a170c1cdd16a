// What the couple does on their page (SPEC §16): answer a quote, fetch a document's PDF, see an invoice's QR code.
// Plain DOM, as the page is; every word through `t`. The signature is signing.js's.
import { saveBlob } from "../console/save_file.js";
import { t } from "./words.js";

/** The API as the link's holder calls it: `send(method, path, body, query)`, `post(path, body)` and
 *  `download(path, filename)`, each resolving to `{ok, status, body}` (a 204's body null). */
export function clientApi(base, token) {
  const headers = { Authorization: "Bearer " + token, Accept: "application/json" };
  async function answer(response) {
    const body = response.status === 204 ? null : await response.json().catch(() => null);
    return { ok: response.ok, status: response.status, body };
  }
  async function send(method, path, body, query) {
    const response = await fetch(base + path + (query ? "?" + new URLSearchParams(query) : ""), {
      method,
      headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
    return answer(response);
  }
  return {
    send,
    post: (path, body) => send("POST", path, body || {}),
    async download(path, filename) {
      const response = await fetch(base + path, {
        headers: { Authorization: headers.Authorization },
        cache: "no-store",
      });
      if (!response.ok) {
        return answer(response);
      }
      saveBlob(await response.blob(), filename);
      return { ok: true, status: response.status, body: null };
    },
  };
}

/** An error answer in words: each field's first message, or the answer's own. */
export function refusal(result) {
  const error = (result.body && result.body.error) || {};
  if (result.status === 429) {
    return t("Too many tries from this device. Wait a minute, then try again.");
  }
  if (result.status === 401) {
    return t("This link does not work any more: ask the office for a new one.");
  }
  const details = error.details && typeof error.details === "object" ? Object.values(error.details) : [];
  const first = details.find((messages) => Array.isArray(messages) && messages.length);
  if (first) {
    return first[0];
  }
  return error.message || t("The server answered {status}. Please try again later.", { status: result.status });
}

/** An element with its text (as text, never markup) and class. */
export function make(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined && text !== null) {
    made.textContent = text;
  }
  if (className) {
    made.className = className;
  }
  return made;
}

function button(text, className) {
  const made = make("button", text, className);
  made.type = "button";
  return made;
}

/** A button that busies itself while `act()` runs, and says what went wrong in `problem`. */
function acting(control, problem, act) {
  control.addEventListener("click", async () => {
    control.disabled = true;
    problem.textContent = "";
    try {
      const result = await act();
      if (result && !result.ok) {
        problem.textContent = refusal(result);
      }
    } catch {
      problem.textContent = t("The office's service could not be reached. Check your connection, then try again.");
    } finally {
      control.disabled = false;
    }
  });
}

/** "Accept" and "Decline with a message" for a sent quote; `done(words)` once answered. */
export function quoteAnswer(quote, api, done) {
  const box = make("div", null, "answer");
  const id = "decline-message-" + quote.id;
  const label = make("label", t("A message to the office, if you decline (optional)"));
  const message = make("textarea");
  const problem = make("p", null, "error");
  const accept = button(t("Accept the quote"));
  const decline = button(t("Decline with a message"), "quiet");
  label.htmlFor = message.id = id;
  message.maxLength = 2000;
  message.rows = 2;
  problem.setAttribute("role", "alert");
  acting(accept, problem, async () => {
    const result = await api.post("/client/quotes/" + quote.id + "/accept");
    if (result.ok) {
      done(t("Thank you: you accepted the quote {number}.", { number: quote.number }));
    }
    return result;
  });
  acting(decline, problem, async () => {
    const said = message.value.trim() ? { message: message.value } : {};
    const result = await api.post("/client/quotes/" + quote.id + "/decline", said);
    if (result.ok) {
      done(t("You declined the quote {number}; the office has been told.", { number: quote.number }));
    }
    return result;
  });
  const buttons = make("div", null, "buttons");
  buttons.append(accept, decline);
  box.append(buttons, label, message, problem);
  return box;
}

/** A button that downloads the document's PDF with the link's token (`kind`: quotes, contracts, invoices). */
export function pdfButton(kind, record, api) {
  const box = make("div", null, "pdf");
  const problem = make("p", null, "error");
  const control = button(t("Download the PDF"), "quiet");
  control.setAttribute("aria-label", t("Download {number} as PDF", { number: record.number || "" }));
  problem.setAttribute("role", "alert");
  const path = "/client/" + kind + "/" + record.id + "/pdf";
  acting(control, problem, () => api.download(path, (record.number || kind) + ".pdf"));
  box.append(control, problem);
  return box;
}

/** The invoice's EPC QR code (the server's SVG, parsed as an image: nothing in it runs), to scan with a banking app. */
export function paymentCode(svg, invoice) {
  const parsed = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
  if (parsed.nodeName !== "svg") {
    return null;
  }
  const figure = make("figure", null, "qr");
  const code = document.importNode(parsed, true);
  code.setAttribute("role", "img");
  code.setAttribute("aria-label", t("QR code to pay invoice {number} with a banking app", { number: invoice.number }));
  figure.append(code, make("figcaption", t("Scan with your banking app to pay")));
  return figure;
}
