// The pay sheet of a period as a CSV file made in the browser from the API's JSON: every page of GET /pay-sheet,
// one row per staff member (last name, first name, gigs, total, currency) and a last row with the totals.

import { csvText, download } from "../../components/csv.js";

const LIMIT = 200;

async function wholeSheet(api, from, to) {
  const lines = [];
  let meta = null;
  do {
    const answer = await api.get("/pay-sheet", { from, to, limit: LIMIT, offset: lines.length });
    lines.push(...answer.data);
    meta = answer.meta;
    if (answer.data.length === 0) break;
  } while (lines.length < meta.total);
  return { lines, currency: meta.currency };
}

function amount(cents) {
  return (cents / 100).toFixed(2);
}

export function sheetRows(lines, currency) {
  const header = ["Last name", "First name", "Gigs", "Total", "Currency"];
  const rows = lines.map((line) => [line.last_name, line.first_name, line.gigs, amount(line.total_cents), currency]);
  const cents = lines.reduce((total, line) => total + line.total_cents, 0);
  return [header, ...rows, ["Total", "", "", amount(cents), currency]];
}

export async function downloadSheet(api, from, to) {
  const { lines, currency } = await wholeSheet(api, from, to);
  download(csvText(sheetRows(lines, currency)), `pay-sheet-${from}-to-${to}.csv`);
}
