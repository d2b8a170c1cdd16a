// Admin (SPEC §12, screen 7): where the sign-in side of the office is managed: users and access roles (the
// generic record pages), the letterhead (SPEC §15), API keys, webhook endpoints with their deliveries, the
// notifications log. Each part is shown only to whom GET /me's `can` allows it.

import { useConsole } from "../../context.js";
import { html } from "../../lib.js";
import { can } from "../../me.js";

const PARTS = [
  {
    title: "Users",
    text: "Who may sign in, their access roles, and who is switched off.",
    links: [["All users", "/records/users"], ["New user", "/records/users/new", "admin.edit"]],
    shown: (me) => can(me, "admin.view"),
  },
  {
    title: "Access roles",
    text: "What each role may see and change.",
    links: [["All access roles", "/records/access-roles"], ["New access role", "/records/access-roles/new", "admin.edit"]],
    shown: (me) => can(me, "admin.view"),
  },
  {
    title: "Letterhead",
    text: "The address, tax and bank details and the logo on quotes, contracts and invoices.",
    links: [["The letterhead", "/admin/letterhead"]],
    shown: (me) => can(me, "admin.view"),
  },
  {
    title: "Contract templates",
    text: "The text a new contract starts from, with the couple's names, the date and the amounts filled in.",
    links: [["Contract templates", "/admin/contract-templates"], ["New template", "/admin/contract-templates/new", "sales.edit"]],
    shown: (me) => can(me, "sales.view"),
  },
  {
    title: "API keys",
    text: "Your keys for scripts and other programs.",
    links: [["Your API keys", "/admin/api-keys"]],
    shown: () => true,
  },
  {
    title: "Webhooks",
    text: "Where the office's changes are sent, and how each delivery went.",
    links: [["Webhook endpoints", "/admin/webhooks"], ["Delivery log", "/records/webhook-deliveries"]],
    shown: (me) => can(me, "admin.view"),
  },
  {
    title: "Notifications",
    text: "What went out to whom, by mail and push.",
    links: [["Notifications log", "/admin/notifications"]],
    shown: (me) => can(me, "staffing.view"),
  },
];

export default function Admin() {
  const { me } = useConsole();
  return html`<section class="screen admin">
    <header class="screen-header"><h1>Admin</h1></header>
    <div class="admin-sections">
      ${PARTS.filter((part) => part.shown(me)).map(
        (part) => html`<section aria-labelledby=${`admin-${part.title}`}>
          <h2 id=${`admin-${part.title}`}>${part.title}</h2>
          <p>${part.text}</p>
          <ul>${part.links
            .filter(([, , capability]) => !capability || can(me, capability))
            .map(([words, href]) => html`<li><a href=${href}>${words}</a></li>`)}</ul>
        </section>`,
      )}
    </div>
  </section>`;
}
