// The screen registry: one line per screen, its path pattern and its module (loaded when first shown).
// A screen module's default export is a Preact component given {params, query} (`api` and `me` come from
// useConsole, context.js); it renders its <h1> at once (the shell moves the focus there and names the browser tab
// after it). Adding a screen is a module in screens/ and a line here (and its prefix in routes/console.py's
// CONSOLE_PATHS if it is a new one: tests/test_console_shell.py holds the two lists and the menu's to each other).

import { compile } from "./router.js";

export const SCREENS = [
  ["/agenda", () => import("./screens/agenda/index.js")],
  ["/staffing", () => import("./screens/staffing/index.js")],
  ["/records", () => import("./screens/records/index.js")],
  ["/records/:collection", () => import("./screens/records/collection.js")],
  ["/records/:collection/new", () => import("./screens/records/record.js")],
  ["/records/:collection/:id", () => import("./screens/records/record.js")],
  ["/admin", () => import("./screens/admin/index.js")],
  ["/admin/api-keys", () => import("./screens/admin/api_keys.js")],
  ["/admin/letterhead", () => import("./screens/admin/letterhead.js")],
  ["/admin/webhooks", () => import("./screens/admin/webhooks.js")],
  ["/admin/webhooks/:id", () => import("./screens/admin/webhook.js")],
  ["/admin/contract-templates", () => import("./screens/admin/contract_templates.js")],
  ["/admin/contract-templates/:id", () => import("./screens/admin/contract_template.js")],
  ["/money", () => import("./screens/money/index.js")],
  ["/admin/notifications", () => import("./screens/admin/notifications.js")],
  ["/gigs/new", () => import("./screens/gig/new.js")],
  ["/gigs/:id", () => import("./screens/gig/index.js")],
  ["/people", () => import("./screens/people/index.js")],
  ["/people/musicians/new", () => import("./screens/people/add_musician.js")],
  ["/people/contacts/new", () => import("./screens/people/add_contact.js")],
  ["/people/staff-members/:id", () => import("./screens/people/staff_member.js")],
  ["/people/contacts/:id", () => import("./screens/people/contact.js")],
  ["/first-day/office", () => import("./screens/first_day/office.js")],
  ["/first-day/product", () => import("./screens/first_day/product.js")],
  ["/first-day/ensemble", () => import("./screens/first_day/ensemble.js")],
  ["/pay", () => import("./screens/pay/index.js")],
  ["/my/pay", () => import("./screens/my/pay.js")],
  ["/my/blockouts", () => import("./screens/my/blockouts.js")],
  ["/my", () => import("./screens/my/index.js")],
  ["/my/gigs/:id", () => import("./screens/my/gig.js")],
  ["/my/invitations/:id", () => import("./screens/my/invitation.js")],
  ["/my/calendar", () => import("./screens/my/calendar.js")],
  ["/my/inbox", () => import("./screens/my/inbox.js")],
  ["/my/settings", () => import("./screens/my/settings.js")],
].map(([pattern, load]) => ({ pattern, load, compiled: compile(pattern) }));
