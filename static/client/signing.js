// Signing the contract on the couple's page (SPEC §16): the typed full name, the consent box and a signature drawn
// with the vendored signature pad (static/vendor/signature_pad/), sent as SVG. Every word through `t`.
import SignaturePad from "../vendor/signature_pad/signature_pad.js";
import { make, refusal } from "./actions.js";
import { t } from "./words.js";

function labelled(id, text, control) {
  const label = make("label", text);
  label.htmlFor = control.id = id;
  return label;
}

/** The canvas's drawing buffer at its shown size and the screen's density, the strokes kept. */
function fitted(canvas, pad) {
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  const strokes = pad.toData();
  canvas.width = canvas.offsetWidth * ratio;
  canvas.height = canvas.offsetHeight * ratio;
  canvas.getContext("2d").scale(ratio, ratio);
  pad.clear();
  pad.fromData(strokes);
}

/** The signing form of a sent contract; `done(words)` once it is signed. */
export function signingForm(contract, api, done) {
  const form = make("form", null, "sign");
  const name = make("input");
  const consent = make("input");
  const canvas = make("canvas", null, "pad");
  const clear = make("button", t("Clear the signature"), "quiet");
  const submit = make("button", t("Sign the contract"));
  const problem = make("p", null, "error");
  const consentLine = make("div", null, "consent");
  const padLabel = make("p", t("Draw your signature in the box, with your finger or the mouse:"), "pad-label");
  form.noValidate = true; // its own words, in the client's language, say what is missing
  name.autocomplete = "name";
  name.maxLength = 200;
  name.required = true;
  consent.type = "checkbox";
  consent.required = true;
  clear.type = "button";
  submit.type = "submit";
  padLabel.id = "pad-label-" + contract.id;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-labelledby", padLabel.id);
  problem.setAttribute("role", "alert");
  const agreement = t("I agree to sign this contract electronically");
  consentLine.append(consent, labelled("consent-" + contract.id, agreement, consent));
  form.append(
    make("h4", t("Sign the contract")),
    labelled("full-name-" + contract.id, t("Your full name"), name),
    name,
    consentLine,
    padLabel,
    canvas,
    clear,
    submit,
    problem,
  );
  const pad = new SignaturePad(canvas, { penColor: "black", backgroundColor: "rgba(0,0,0,0)" });
  new ResizeObserver(() => fitted(canvas, pad)).observe(canvas); // shown, and whenever its width changes
  clear.addEventListener("click", () => pad.clear());
  pad.addEventListener("beginStroke", () => {
    problem.textContent = "";
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    if (!name.value.trim()) {
      problem.textContent = t("Type your full name.");
      return name.focus();
    }
    if (!consent.checked) {
      problem.textContent = t("Tick the box to agree to sign this contract electronically.");
      return consent.focus();
    }
    if (pad.isEmpty()) {
      problem.textContent = t("Draw your signature in the box.");
      return canvas.focus();
    }
    submit.disabled = true;
    try {
      const body = { full_name: name.value, consent: true, signature_svg: pad.toSVG() };
      const result = await api.post("/client/contracts/" + contract.id + "/sign", body);
      if (result.ok) {
        done(
          t("Thank you: you signed the contract {number}. Your signed copy is on its way by e-mail.", {
            number: contract.number,
          }),
        );
      } else {
        problem.textContent = refusal(result);
      }
    } catch {
      problem.textContent = t("The office's service could not be reached. Check your connection, then try again.");
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
