// "This phone" of /my/settings (SPEC §13): notifications on this phone turned on or off, or, when they cannot be,
// why in words (plain HTTP, a browser without push, an office without Web Push, notifications blocked).

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useLoad } from "../../load.js";
import { PushRefused, permission, pushUnavailable, rememberedDevice, subscribe, unsubscribe } from "../../phone_push.js";

/** Where this browser stands: "insecure", "unsupported", "not_set_up", "denied", "on" or "off" (with the key). */
async function standing(api) {
  const unavailable = pushUnavailable();
  if (unavailable) return { state: unavailable };
  let key;
  try {
    key = (await api.get("/push/web-key")).data.public_key;
  } catch (failure) {
    if (failure.status === 404) return { state: "not_set_up" };
    throw failure;
  }
  if (permission() === "denied") return { state: "denied", key };
  const device = rememberedDevice();
  if (!device || permission() !== "granted") return { state: "off", key };
  const listed = (await api.get("/devices", { "filter[id]": device.id })).data;
  return { state: listed.length > 0 ? "on" : "off", key };
}

function Why({ state }) {
  if (state === "insecure") {
    return html`<p class="notice">Notifications cannot reach this phone from this address: it is plain HTTP
      (${location.origin}), and browsers let a web page notify only over a secure (HTTPS) connection. Ask the office
      to serve the band office over HTTPS on the LAN (its documentation says how: docs/lan.md, “On the office LAN”,
      under “HTTPS on the LAN, with Caddy”) and open it at that address.</p>`;
  }
  if (state === "unsupported") {
    return html`<p class="notice">This browser cannot receive notifications from a web page. On an iPhone or iPad,
      add the band office to the Home Screen first (Share, then Add to Home Screen) and open it from there.</p>`;
  }
  if (state === "not_set_up") {
    return html`<p class="notice">The office has not set up notifications to phones (Web Push) yet. You still get
      every message by e-mail and in your inbox.</p>`;
  }
  if (state === "denied") {
    return html`<p class="notice">Notifications are blocked for this site in this browser. To allow them, open the
      site's settings (the icon left of the address, then Permissions or Site settings), set Notifications to Allow,
      and reload this page.</p>`;
  }
  return null;
}

export function PhonePush({ offline, pushOff }) {
  const { api } = useConsole();
  // Offline, what this browser remembers (the server's key and devices cannot be asked: nothing changes then)
  const found = useLoad(() => (offline ? Promise.resolve({ state: rememberedDevice() ? "on" : "off" }) : standing(api)), [offline]);
  const status = found.answer;
  const setStatus = (next) => found.update(() => next);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState("");
  const [failure, setFailure] = useState(null);
  const error = failure || found.error;
  async function act(action, after, done) {
    setBusy(true);
    setSaid("");
    setFailure(null);
    try {
      await action();
      setStatus({ ...status, state: after });
      setSaid(done);
    } catch (failure) {
      if (failure instanceof PushRefused && failure.permission === "denied") setStatus({ ...status, state: "denied" });
      else if (failure instanceof PushRefused) setSaid("You did not allow notifications: press the button to be asked again.");
      else setFailure(failure);
    } finally {
      setBusy(false);
    }
  }
  const turnOn = () => act(() => subscribe(api, status.key), "on", "This phone now gets notifications.");
  const turnOff = () => act(() => unsubscribe(api), "off", "This phone gets no more notifications.");
  if (!status && !error) return html`<${Loading} />`;
  const state = status && status.state;
  return html`<div class="phone-push">
    <div aria-live="polite"><${Why} state=${state} /></div>
    ${state === "on" ? html`<p>This phone gets a notification for each new message.</p>` : null}
    ${state === "on" && pushOff ? html`<p class="notice">Push is off above: switch it on, or this phone gets nothing.</p>` : null}
    ${state === "off" && offline ? html`<p>Notifications on this phone are off.</p>` : null}
    ${state === "off" && !offline ? html`<p>Get a notification on this phone when you are invited or a gig of yours changes.</p>` : null}
    ${!offline && state === "on"
      ? html`<button type="button" class="quiet big" disabled=${busy} onClick=${turnOff}>Stop notifications</button>`
      : null}
    ${!offline && state === "off"
      ? html`<button type="button" class="big" disabled=${busy} onClick=${turnOn}>Notify me on this phone</button>`
      : null}
    <p class="saved" role="status">${said}</p>
    <${ErrorMessage} error=${error} />
  </div>`;
}
