// Money, dates and times in the office's words (SPEC §12.1, GET /office): money in the office's currency and its
// language's format (`4.500,00 €` or `€4,500.00`), typed either way; dates in the office's date style and
// language, times of day on the office's clock; a timestamp in the office's zone. A gig's times stay exactly as the
// API gives them (the venue's local time, never converted). main.js hands the office over once (followOffice) before
// anything is drawn; every function formats with it unless given another.

export const DEFAULT_OFFICE = Object.freeze({
  name: "Band Office",
  time_zone: undefined, // the browser's, until the office says
  currency: "EUR",
  language: "en",
  date_style: "dd.mm.yyyy",
  clock: "24h",
});

let current = DEFAULT_OFFICE;

/** The office every format follows from now on (main.js, once GET /office has answered). */
export function followOffice(office) {
  current = { ...DEFAULT_OFFICE, ...office };
}

/** The office's name (the console's until the office names itself). */
export function officeName(office = current) {
  return office.name || DEFAULT_OFFICE.name;
}

/** "2 hours ago" in the office's language, not the browser's. */
export function relativeTime() {
  return new Intl.RelativeTimeFormat(localeOf(current), { numeric: "auto" });
}

/** A tab's title: what the page shows, then the office's name ("November 2026 · Hofer Band"). */
export function pageTitle(words) {
  return `${words} · ${officeName()}`;
}

/** The locale whose words and order fit the office: its language, in the region its date style implies
 * ("en" writing mm/dd/yyyy is "en-US", else "en-GB"). */
function localeOf(office) {
  const language = office.language || "en";
  if (language.includes("-")) return language;
  if (language === "en") return office.date_style === "mm/dd/yyyy" ? "en-US" : "en-GB";
  return language;
}

/** 450000, "EUR" -> "€4,500.00" (English) or "4.500,00 €" (German): in the office's language. */
export function formatMoney(cents, currency = current.currency, office = current) {
  if (cents === null || cents === undefined) return "";
  return new Intl.NumberFormat(localeOf(office), { style: "currency", currency: currency || office.currency }).format(cents / 100);
}

/** Money typed either way ("4500", "4.500,00", "4,500.00", "€ 4500", "4.500 €") -> 450000 cents; null for
 * nonsense. A separator followed by one or two digits at the end is the decimal one; any other separates
 * thousands. */
export function parseMoney(text, office = current) {
  const bare = String(text ?? "").replace(/[\s\u00a0\u202f']/g, "").replace(/^([-−]?)(?:[A-Za-z]{3}|[^\d.,\-−]{1,3})/, "$1").replace(/(?:[A-Za-z]{3}|[^\d.,]{1,3})$/, "");
  const match = /^([-−]?)(\d{1,3}(?:([.,])\d{3})*(?:(?!\3)[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)$/.exec(bare);
  if (!match) return null;
  const sign = match[1] ? -1 : 1;
  const decimal = /[.,](\d{1,2})$/.exec(match[2]);
  const whole = (decimal ? match[2].slice(0, decimal.index) : match[2]).replace(/[.,]/g, "");
  const fraction = decimal ? decimal[1].padEnd(2, "0") : "00";
  return sign * (Number(whole) * 100 + Number(fraction));
}

/** Cents as a person types them in the office's language, without the currency: 450000 -> "4500.00"/"4500,00". */
export function moneyText(cents, office = current) {
  if (cents === null || cents === undefined || cents === "") return "";
  return new Intl.NumberFormat(localeOf(office), { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(cents / 100);
}

/** 45000, "EUR" -> "€450.00": money in the office's format. */
export function money(cents, currency) {
  return formatMoney(cents, currency);
}

/** Any amount in cents, in its record's own currency when it has one (a rate, a price), else in the office's
 * (a gig role's pay, a gig product's price). */
export function amount(cents, record) {
  return formatMoney(cents, (record && record.currency) || current.currency);
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

/** "2026-11-28" -> "Sat 28 Nov 2026" in the office's language and order; `options` as Intl's. */
export function date(iso, options = { weekday: "short", day: "numeric", month: "short", year: "numeric" }) {
  return iso ? localDate(iso).toLocaleDateString(localeOf(current), options) : "";
}

/** An Intl.DateTimeFormat of `options` in the office's language and order (for a screen that formats many days). */
export function dateFormat(options) {
  return new Intl.DateTimeFormat(localeOf(current), options);
}

/** "2026-11-28" -> "28.11.2026", "28/11/2026", "11/28/2026" or "2026-11-28": the office's date style. */
export function numericDate(iso, office = current) {
  if (!iso) return "";
  const [year, month, day] = iso.slice(0, 10).split("-");
  const style = office.date_style || DEFAULT_OFFICE.date_style;
  return style.replace("yyyy", year).replace("mm", month).replace("dd", day);
}

/** A Date's time of day on the office's clock ("17:46" or "5:46 PM"), in the office's zone unless `zone` says. */
export function clockTime(instant, { zone = current.time_zone, office = current } = {}) {
  const twelve = office.clock === "12h";
  return instant.toLocaleTimeString(localeOf(office), { hour: twelve ? "numeric" : "2-digit", minute: "2-digit", hourCycle: twelve ? "h12" : "h23", timeZone: zone });
}

/** A timestamp ("2026-11-26T05:51:02Z") in the office's zone, date style and clock: when something happened. */
export function moment(timestamp) {
  if (!timestamp) return "";
  const instant = new Date(timestamp);
  const parts = new Intl.DateTimeFormat("en", { timeZone: current.time_zone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(instant);
  const part = (type) => parts.find((one) => one.type === type).value;
  return `${numericDate(`${part("year")}-${part("month")}-${part("day")}`)} ${clockTime(instant)}`;
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
  return new Date(year, month - 1, 1).toLocaleDateString(localeOf(current), { month: "long", year: "numeric" });
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
