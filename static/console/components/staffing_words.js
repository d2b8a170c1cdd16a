// Staffing's codes in words (SPEC §5.2, §5.3): why a candidate is not free, and why the API refused to invite
// someone or put them on a role. The one table of each: a screen never shows a code.

import { date, timeRange } from "../format.js";

/** A candidate's `reasons` (GET /gig-roles/{id}/candidates). */
export const REASON_WORDS = {
  blocked_out: "blocked out on this day",
  double_booked: "plays another gig at that time",
  invited: "already invited",
  declined: "declined before",
};

/** A candidate's reasons in words; double booked names the other gig when the API shows it (`busy_with`):
 * "plays Seidl party 19:00–23:00". */
export function candidateReasons(candidate) {
  const busy = candidate.busy_with;
  return candidate.reasons.map((reason) =>
    reason === "double_booked" && busy
      ? `plays ${busy.title}${busy.start_time ? ` ${timeRange(busy.start_time, busy.end_time)}` : " that day"}`
      : REASON_WORDS[reason] || reason,
  );
}

/** A refusal's `details.reason` (409 conflict) or its `code` when it has none. */
const REFUSAL_WORDS = {
  staff_member_blocked_out: "blocked out on this day",
  double_booked: "playing another gig at that time",
  gig_role_filled: "too late: the role has been filled",
  gig_closed: "too late: the gig is no longer live",
  invitation_not_pending: "no longer waiting for an answer",
  invitation_expired: "too late: the invitation has expired",
  already_exists: "already invited (the invitation is waiting for an answer)",
};

function blockoutDays(blockout) {
  if (!blockout || !blockout.start_date) return "";
  const days = blockout.start_date === blockout.end_date ? date(blockout.start_date) : `${date(blockout.start_date)} to ${date(blockout.end_date)}`;
  return blockout.reason ? ` (${days}: ${blockout.reason})` : ` (${days})`;
}

/** An ApiError of an invitation or a placement, in words: "blocked out on this day (Sat, 28 Nov 2026)". */
export function conflictWords(error) {
  const details = error.details || {};
  const words = REFUSAL_WORDS[details.reason] || REFUSAL_WORDS[error.code];
  if (!words) return error.message;
  return details.reason === "staff_member_blocked_out" ? words + blockoutDays(details.blockout) : words;
}
