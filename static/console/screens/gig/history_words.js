// A gig's history (SPEC §8 events) in words: "Eva Maier changed the date from Fri, 27 Nov 2026 to Sat, 28 Nov
// 2026", "Eva Maier invited Lukas Holzer", "Lukas Holzer accepted the invitation". Pay the caller may not see
// reads null in the event (SPEC §4.6): to a viewer without pay.view a pay change is said with "(amounts hidden)",
// never guessed; to one with it, a null amount is "nothing".

import { date, money, relativeTime } from "../../format.js";

const FIELDS = {
  title: "the title",
  gig_date: "the date",
  gig_status_id: "the status",
  gig_type_id: "the type",
  venue_id: "the venue",
  start_time: "the start",
  end_time: "the end",
  load_in_time: "the load-in",
  guest_count: "the number of guests",
  notes: "the notes",
  name: "the name",
  time: "the time",
  position: "the place in the order",
  kind: "the kind",
  price_cents: "the price",
  pay_cents: "the pay",
  ensemble_id: "the ensemble",
  product_id: "the product",
  staff_member_id: "the musician",
  call_time: "the call time",
  relationship: "the relationship",
  is_primary: "the primary contact",
  description: "the description",
  filename: "the file's name",
  gig_moment_id: "the moment",
  expires_at: "the expiry",
  message: "the message",
};
const MONEY_FIELDS = ["price_cents", "pay_cents", "amount_cents"];
const PAY_FIELDS = ["pay_cents", "amount_cents"]; // the amounts the API masks to those without pay.view
const SONG_KINDS = { request: "requested", do_not_play: "do not play", setlist: "setlist" };
const LONGEST = 80;

/** What a record of the gig is called in a sentence. */
function thing(collection, data, names) {
  const quoted = (text) => (text ? ` “${text}”` : "");
  switch (collection) {
    case "gigs":
      return "the gig";
    case "gig_moments":
      return `the moment${quoted(data.name)}`;
    case "gig_songs":
      return `the song${quoted(data.title)}`;
    case "attachments":
      return `the file${quoted(data.filename)}`;
    case "gig_products":
      return `the product${quoted(names[data.product_id])}`;
    case "gig_contacts":
      return `the contact${quoted(names[data.contact_id])}`;
    case "gig_equipment":
      return `the equipment${quoted(names[data.equipment_id])}`;
    case "gig_roles":
      return `the role${quoted(names[data.role_id])}`;
    default:
      return "a record of the gig";
  }
}

function said(field, value, { names, currency }) {
  if (value === null || value === undefined) return "nothing";
  if (MONEY_FIELDS.includes(field)) return money(value, currency);
  if (field.endsWith("_date")) return date(value);
  if (field === "kind" && SONG_KINDS[value]) return SONG_KINDS[value];
  if (field.endsWith("_id")) return names[value] || "another";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return JSON.stringify(value);
  const text = String(value);
  return `“${text.length > LONGEST ? `${text.slice(0, LONGEST)}…` : text}”`.replace(/^“(\d[\d:.]*)”$/, "$1");
}

function customChanges(change, context) {
  const from = change.from || {};
  const to = change.to || {};
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].filter((key) => from[key] !== to[key]);
  return keys.map((key) => {
    const label = context.customLabels[key] || key;
    return `${label} from ${said(key, from[key], context)} to ${said(key, to[key], context)}`;
  });
}

function changeWords(field, change, of, context) {
  if (field === "custom_fields") return customChanges(change, context);
  if (PAY_FIELDS.includes(field) && !context.seesPay) return [`${FIELDS[field]}${of} (amounts hidden)`];
  const label = FIELDS[field] || `the ${field.replaceAll("_", " ")}`;
  return [`${label}${of} from ${said(field, change.from, context)} to ${said(field, change.to, context)}`];
}

function invitationWords(verb, actor, event, context) {
  const member = context.names[event.data.staff_member_id] || "a musician";
  if (verb === "created") return `${actor} invited ${member}`;
  if (verb === "withdrawn") return `${actor} withdrew the invitation to ${member}`;
  if (verb === "expired") return `The invitation to ${member} expired`;
  const answer = verb === "accepted" ? "accepted" : "declined";
  // an answer with no signed-in actor came through the link of the invitation itself: the member's own
  if (!event.actor) return `${member} ${answer} the invitation from its link`;
  return actor === member ? `${member} ${answer} the invitation` : `${actor} ${answer} the invitation on behalf of ${member}`;
}

/** One event as a sentence (without the time). */
export function eventWords(event, context) {
  const actor = event.actor ? event.actor.name || "Someone" : "The office";
  const [record, verb] = event.type.split(".");
  const collection = event.subject.collection.replaceAll("-", "_");
  if (record === "gig_role_invitation") return invitationWords(verb, actor, event, context);
  if (event.type === "gig.roles_generated") return `${actor} generated the roles`;
  if (event.type === "gig.equipment_generated") return `${actor} generated the equipment`;
  const what = thing(collection, event.data || {}, context.names);
  if (verb === "created") return collection === "gigs" ? `${actor} created the gig` : `${actor} added ${what}`;
  if (verb === "deleted") return collection === "gigs" ? `${actor} deleted the gig` : `${actor} removed ${what}`;
  if (verb === "updated") {
    const of = collection === "gigs" ? "" : ` of ${what}`;
    const parts = Object.entries(event.changes || {}).flatMap(([field, change]) => changeWords(field, change, of, context));
    return parts.length ? `${actor} changed ${parts.join("; ")}` : `${actor} saved ${what} unchanged`;
  }
  return `${actor}: ${event.type}`;
}

/** "2 hours ago", "yesterday", "in 3 days" for a timestamp, from `now`. */
export function ago(timestamp, now = Date.now()) {
  const seconds = (new Date(timestamp).getTime() - now) / 1000;
  const format = relativeTime();
  const steps = [["second", 60], ["minute", 60], ["hour", 24], ["day", 30], ["month", 12], ["year", Infinity]];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return "";
}
