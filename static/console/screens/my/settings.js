// /my/settings (SPEC §9, §13): how the signed-in user hears about their work. The channels of
// GET/PATCH /v1/me/notification-settings as switches saved at once (the office digest only for those who staff
// gigs, staffing.edit), and "Notify me on this phone" / "Stop notifications" (phone_push.js). Read only
// while the app shows what it kept offline.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { can } from "../../me.js";
import { useOffline } from "../../offline.js";
import { PhonePush } from "./settings_phone.js";

const CHANNELS = [
  { name: "email", label: "E-mail", hint: "Invitations, changes and reminders by mail to your address." },
  { name: "push", label: "Push to my phones", hint: "The same on each phone or browser that has notifications on." },
  {
    name: "office_digest",
    label: "Office digest",
    hint: "A summary by mail and push when invitations were answered or ran out, with the open roles.",
    capability: "staffing.edit",
  },
];

function Channel({ channel, on, saving, offline, onChange }) {
  const id = `channel-${channel.name}`;
  if (offline) {
    return html`<li class="channel"><span id=${id}>${channel.label}</span> <strong>${on ? "On" : "Off"}</strong>
      <p class="muted">${channel.hint}</p></li>`;
  }
  return html`<li class="channel">
    <label class="switch">
      <input type="checkbox" role="switch" checked=${on} disabled=${saving} aria-describedby=${`${id}-hint`}
        onChange=${(event) => onChange(channel.name, event.currentTarget.checked)} />
      <span>${channel.label}</span>
    </label>
    <p class="muted" id=${`${id}-hint`}>${channel.hint}</p>
  </li>`;
}

export default function Settings() {
  const { api, me } = useConsole();
  const { offline } = useOffline();
  const found = useLoad(() => api.get("/me/notification-settings"), []);
  const settings = found.answer && found.answer.data;
  const [saved, setSaved] = useState("");
  const saving = useWrite();
  const error = saving.error || found.error;
  function change(name, on) {
    setSaved("");
    return saving.run(async () => {
      const answer = await api.patch("/me/notification-settings", { [name]: on });
      found.update(() => answer);
      const label = CHANNELS.find((channel) => channel.name === name).label;
      setSaved(`Saved: ${label} ${on ? "on" : "off"}.`);
    });
  }
  const shown = CHANNELS.filter((channel) => !channel.capability || can(me, channel.capability));
  return html`<section class="screen my-settings-screen">
    <p class="my-back"><a href="/my">← My gigs</a></p>
    <h1>Settings</h1>
    ${offline ? html`<p class="notice">You are offline: these settings can be changed once the office can be reached.</p>` : null}
    <h2>How you hear about your work</h2>
    <p>You always find every message in your <a href="/my/inbox">inbox</a>. Besides:</p>
    <${ErrorMessage} error=${error} />
    ${!settings && !error ? html`<${Loading} />` : null}
    ${settings
      ? html`<ul class="channels">${shown.map((channel) => html`<${Channel} key=${channel.name} channel=${channel}
          on=${settings[channel.name]} saving=${saving.busy} offline=${offline} onChange=${change} />`)}</ul>`
      : null}
    <p class="saved" role="status">${saved}</p>
    <h2>This phone</h2>
    ${settings ? html`<${PhonePush} offline=${offline} pushOff=${!settings.push} />` : null}
  </section>`;
}
