// Money, dates and times as SPEC §12 shows them: money with its currency (Intl.NumberFormat), dates in the
// browser's locale, times exactly as the API gives them (the venue's local time, never converted).

import { officeCurrency } from "./me.js";

/** 45000, "EUR" -> "€450.00" (in the browser's locale). */
export function money(cents, currency) {
  if (cents === null || cents === undefined) return "";
  return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(cents / 100);
}

/** Any amount in cents, in its record's own currency when it has one (a rate, a price), else in the office's
 * (GET /me's office.currency: a gig role's pay, a gig product's price). */
export function amount(cents, record) {
  return money(cents, (record && record.currency) || officeCurrency());
}

/** A calendar date "2026-11-28" as a local Date (no time zone shift). */
export function localDate(iso) {
  const [year, month, day] = iso.split("-").map(Number);
  return new Date(year, month - 1, day);
}

/** A local Date as "2026-11-28" (its calendar day in the browser's zone); today's when none is given. */
export function isoDay(day = new Date()) {
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
}

/** "2026-11-28" -> "Sat, 28 Nov 2026" (the browser's locale decides the order and words). */
export function date(iso, options = { weekday: "short", day: "numeric", month: "short", year: "numeric" }) {
  return iso ? localDate(iso).toLocaleDateString(undefined, options) : "";
}

/** A timestamp ("2026-11-26T05:51:02Z") in the browser's locale and zone: when something happened. */
export function moment(timestamp) {
  return timestamp ? new Date(timestamp).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "";
}

/** "18:30" stays "18:30": a gig's times are the venue's. */
export function time(text) {
  return text || "";
}

/** "18:30", "00:30" -> "18:30–00:30"; either may be missing. */
export function timeRange(start, end) {
  return [start, end].filter(Boolean).join("–");
}

/** 2026, 11 -> "November 2026". */
export function monthName(year, month) {
  return new Date(year, month - 1, 1).toLocaleDateString(undefined, { month: "long", year: "numeric" });
}

/** "2026-11" of the browser's today. */
export function thisMonth() {
  const today = new Date();
  return `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}`;
}

/** "2026-11" -> ["2026-11-01", "2026-11-30"]. */
export function monthBounds(month) {
  const [year, number] = month.split("-").map(Number);
  const last = new Date(year, number, 0).getDate();
  return [`${month}-01`, `${month}-${String(last).padStart(2, "0")}`];
}

/** "2026-11", ±1 -> "2026-12". */
export function shiftMonth(month, by) {
  const [year, number] = month.split("-").map(Number);
  const moved = new Date(year, number - 1 + by, 1);
  return `${moved.getFullYear()}-${String(moved.getMonth() + 1).padStart(2, "0")}`;
}

const MINUTE_MS = 60 * 1000;

/** "2026-11-27T07:26:02Z" -> "2 days 3 h left", "40 min left", "expired". */
export function timeLeft(expiresAt, now = Date.now()) {
  const minutes = Math.floor((new Date(expiresAt).getTime() - now) / MINUTE_MS);
  if (minutes <= 0) return "expired";
  const days = Math.floor(minutes / (24 * 60));
  const hours = Math.floor((minutes % (24 * 60)) / 60);
  if (days > 0) return `${days} ${days === 1 ? "day" : "days"}${hours > 0 ? ` ${hours} h` : ""} left`;
  return hours > 0 ? `${hours} h ${minutes % 60} min left` : `${minutes} min left`;
}
