// CSV made in the browser (SPEC §12: the pay sheet's download): every cell quoted (RFC 4180, CRLF lines), and a
// cell a spreadsheet would read as a formula (starting with = + - @) given a leading apostrophe, so that a name
// like "=HYPERLINK(…)" stays text.

import { saveBlob } from "../save_file.js";

const FORMULA_START = /^[=+\-@]/;

export function csvCell(value) {
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** rows: arrays of cells -> the CSV text (with a byte-order mark, so that spreadsheets read it as UTF-8). */
export function csvText(rows) {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

/** Offer the CSV `text` as a download named `filename`. */
export function download(text, filename) {
  saveBlob(new Blob([text], { type: "text/csv;charset=utf-8" }), filename);
}
