// What a record is called where another record shows it (a reference in a list, a picker's choice): its name,
// title, a person's names, a label, an e-mail address, a date; else the start of its id.

export function recordLabel(record) {
  if (!record) return "";
  const person = [record.first_name, record.last_name].filter(Boolean).join(" ");
  const named = record.name || record.title || person || record.label || record.email || record.url || record.gig_date;
  return named ? String(named) : `#${String(record.id || "").slice(0, 8)}`;
}
