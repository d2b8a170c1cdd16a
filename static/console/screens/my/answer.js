// An invitation answered in one tap (SPEC §13, §5.3): POST /gig-role-invitations/{id}/accept or /decline, then
// what happened said in words (accepted; declined; someone else took the role; withdrawn; expired; a blockout or
// another gig that night) for the screen to show while it reloads. No button while offline: the app is read only.

import { useConsole } from "../../context.js";
import { date } from "../../format.js";
import { html, useEffect, useRef, useState } from "../../lib.js";
import { refreshUnreadCount } from "../../my_tabs.js";
import { useOffline } from "../../offline.js";
import { myGigPath } from "../../paths.js";

const MINUTE_MS = 60 * 1000;
const DAY_MINUTES = 24 * 60;

/** "answer within 2 days", "answer within 30 hours", "answer within 40 minutes", "expired" (from expires_at): rounded
 * down, so that it never promises more time than there is; in hours below two days, where a day's rounding is much. */
export function answerWithin(expiresAt, now = Date.now()) {
  const minutes = Math.floor((new Date(expiresAt).getTime() - now) / MINUTE_MS);
  if (minutes <= 0) return "expired";
  const [n, unit] =
    minutes >= 2 * DAY_MINUTES ? [Math.floor(minutes / DAY_MINUTES), "day"] : minutes >= 60 ? [Math.floor(minutes / 60), "hour"] : [minutes, "minute"];
  return `answer within ${n} ${unit}${n === 1 ? "" : "s"}`;
}

function days(blockout) {
  const first = date(blockout.start_date);
  return blockout.end_date && blockout.end_date !== blockout.start_date ? `${first} to ${date(blockout.end_date)}` : first;
}

/** What a refusal of the answer means for the musician: {words, link?: {href, text}}. */
function refusal(error, what) {
  const details = error.details || {};
  const reason = details.reason || error.code;
  if (error.status === 0) return { words: "The band office cannot be reached: nothing was sent. Try again when you are online." };
  if (reason === "gig_role_filled") return { words: `Someone else has taken the role ${what}: it is no longer open to you. Nothing changed.` };
  if (reason === "invitation_expired") return { words: `Too late: the invitation ${what} has expired. Ask the office whether the role is still open.` };
  if (reason === "invitation_not_pending") return { words: `The invitation ${what} is no longer waiting for an answer: answered already, or withdrawn by the office.` };
  if (reason === "gig_closed") return { words: `The gig ${what} is no longer on (cancelled or over). Nothing changed.` };
  if (reason === "staff_member_blocked_out" && details.blockout) {
    return { words: `Not accepted: you have blocked out ${days(details.blockout)}. Remove that blockout to accept, or decline.`, link: { href: "/my/blockouts", text: "Your blockouts" } };
  }
  if (reason === "double_booked" && details.gig_role && details.gig_role.gig_id) {
    const other = details.gig_role;
    return { words: `Not accepted: you play ${other.gig_title} at that time (${date(other.gig_date)}). Call the office.`, link: { href: myGigPath(other.gig_id), text: `See ${other.gig_title}` } };
  }
  return { words: error.message };
}

/** `invitation`: {id, gig: {title, gig_date}, role: {role}}. Resolves to the outcome {done, words, link?}. */
export async function answer(api, invitation, choice) {
  const what = `${invitation.role.role} at ${invitation.gig.title} (${date(invitation.gig.gig_date)})`;
  try {
    await api.post(`/gig-role-invitations/${encodeURIComponent(invitation.id)}/${choice}`);
    refreshUnreadCount(); // answering marks the invitation's notifications read
    if (choice === "accept") return { done: true, words: `Accepted: you play ${what}. The office sees your answer.` };
    return { done: true, words: `Declined: ${what}. The office sees your answer; thank you for letting them know.` };
  } catch (error) {
    return { done: false, ...refusal(error, what) };
  }
}

/** Accept and Decline, or while offline why there are none; `onAnswered(outcome)` after a tap. */
export function AnswerButtons({ invitation, onAnswered }) {
  const { api } = useConsole();
  const { offline } = useOffline();
  const [sending, setSending] = useState(null);
  if (offline) return html`<p class="my-answer muted">You can answer when you are online again.</p>`;
  const tap = async (choice) => {
    setSending(choice);
    const outcome = await answer(api, invitation, choice);
    setSending(null);
    onAnswered(outcome);
  };
  return html`<div class="my-answer" role="group" aria-label=${`Answer: ${invitation.role.role} at ${invitation.gig.title}`}>
    <button type="button" class="accept" disabled=${Boolean(sending)} onClick=${() => tap("accept")}>${sending === "accept" ? "Accepting…" : "Accept"}</button>
    <button type="button" class="decline quiet" disabled=${Boolean(sending)} onClick=${() => tap("decline")}>${sending === "decline" ? "Declining…" : "Decline"}</button>
  </div>`;
}

/** What the last tap did, said where the focus goes (the buttons it came from are gone after the reload). */
export function Outcome({ outcome }) {
  const box = useRef(null);
  useEffect(() => {
    if (outcome && box.current) box.current.focus();
  }, [outcome]);
  return html`<div class="my-outcome-region" role="status">
    ${outcome
      ? html`<p ref=${box} tabindex="-1" class=${outcome.done ? "my-outcome done" : "my-outcome refused"}>
          ${outcome.words} ${outcome.link ? html`<a href=${outcome.link.href}>${outcome.link.text}</a>` : null}
        </p>`
      : null}
  </div>`;
}
