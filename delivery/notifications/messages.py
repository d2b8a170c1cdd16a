"""What each notification says (SPEC §9), in plain English: a subject a person recognises at a glance, a
plain-text body with the facts, and a summary for a push. Titles and summaries never carry an amount or an
address (a push may show on a lock screen); the body may (it is the person's own mail and in-app message).
A body's layout (paragraphs a blank line apart, facts as indented `Label:  value` lines, quotes indented) is what
mail_html reads to write the mail's HTML alternative."""

import collections

from delivery.notifications.queue import Message
from delivery.notifications.words import (
    change,
    clock,
    day,
    facts,
    indented,
    listing,
    moment,
    money,
    person,
    short,
    when,
)
from domain import office, postal_addresses

SUMMARY_CHARS = 300
MOST_LINES = 100  # of a digest's lists: a catch-up of thousands still makes a mail one reads


def message(title, paragraphs, summary):
    """A title and a summary on one line each (a mail's subject, a push), the body's paragraphs apart."""
    body = "\n\n".join(paragraph for paragraph in paragraphs if paragraph) + "\n"
    return Message(short(one_line(title), 200), body, short(one_line(summary), SUMMARY_CHARS))


def one_line(text):
    return " ".join(text.split())


def greeting(member):
    return f"Hello {member.first_name},"


def welcome(member, inviter, office_name, link, days):
    """A new musician's first mail: who added them, and the sign-in link (in the body only: never in a push)."""
    title = f"Welcome to {office_name}"
    paragraphs = (
        greeting(member),
        f"{inviter} added you to {office_name}: your gigs, invitations and pay are waiting for you there.",
        f"To sign in, open this link within {days} days (it works once):\n  {link}",
        "Later, ask for a new link on the sign-in page.",
    )
    return message(title, paragraphs, f"{inviter} added you to {office_name}.")


def headline(label, gig, style, role=None):
    """`Invitation: Bass at Müller wedding, Sat 12.06.2027`."""
    what = f"{role} at {short(gig.title)}" if role else short(gig.title)
    return f"{label}: {what}, {day(gig.gig_date, style)}"


def gig_facts(view, style, part=None, pay=None):
    gig = view.gig
    call_time = part.gig_role.call_time if part else None
    return facts(
        [
            ("When", when(gig, style)),
            ("Call time", clock(call_time, style)),
            ("Where", postal_addresses.one_line(view.venue)),
            ("Role", part.role if part else None),
            ("Product", part.product if part else None),
            ("Pay", pay),
        ]
    )


def invitation(about, link, reminder=False):
    """The invitation (or its reminder): the gig, the role, the pay, the office's message and the answer link."""
    gig, role, style = about.gig.gig, about.part.role, office.current()
    expires = moment(about.invitation.expires_at, about.gig.zone(), style)
    if reminder:
        title = headline("Please answer", gig, style, role)
        opening = f"You have not answered the invitation to {gig.title} as {role} yet. It expires {expires}."
    else:
        title = headline("Invitation", gig, style, role)
        opening = f"You are invited to {gig.title} as {role}."
    pay = money(about.pay_cents, style.currency)
    note = f"Message from the office:\n{indented(about.invitation.message)}" if about.invitation.message else None
    paragraphs = [
        greeting(about.member),
        opening,
        gig_facts(about.gig, style, about.part, pay),
        note,
        f"Please answer by {expires}. Accept or decline here:\n  {link}",
    ]
    return message(title, paragraphs, f"{role} at {gig.title}, {when(gig, style)}. Please answer by {expires}.")


def invitation_withdrawn(about, reason):
    gig, role, style = about.gig.gig, about.part.role, office.current()
    said = f"The invitation to {gig.title} ({day(gig.gig_date, style)}) as {role} is withdrawn{reason}."
    paragraphs = [greeting(about.member), said, "There is nothing more to answer."]
    return message(headline("Withdrawn", gig, style, role), paragraphs, said)


def role_removed(view, member, role):
    gig, style = view.gig, office.current()
    said = f"You are no longer down as {role} at {gig.title} ({day(gig.gig_date, style)})."
    paragraphs = [greeting(member), said, "If this is news to you, please ask the office."]
    return message(headline("Taken off", gig, style, role), paragraphs, said)


def changed_lines(changes, names, style):
    """[(`Date`, `Sat 12.06.2027 → Sun 13.06.2027`), ...] in a fixed order; `names` ({field: function})
    says what an id of `venue_id` and of `gig_status_id` is called."""
    lines = []
    for field, label, shown in (
        ("gig_date", "Date", lambda value: day(value, style) if value else None),
        ("start_time", "Starts", lambda value: clock(value, style)),
        ("end_time", "Ends", lambda value: clock(value, style)),
        ("venue_id", "Venue", names["venue_id"]),
        ("gig_status_id", "Status", names["gig_status_id"]),
    ):
        if field in changes:
            lines.append((label, change(shown(changes[field]["from"]), shown(changes[field]["to"]))))
    return lines


def gig_changed(view, holder, changes, names, status_word):
    """`status_word`: `Cancelled` or `Back on` when the status changed so, else None."""
    gig, roles, style = view.gig, listing(part.role for part in holder.parts), office.current()
    lines = changed_lines(changes, names, style)
    news = {"Cancelled": "is cancelled", "Back on": "is back on"}.get(status_word, "has changed")
    paragraphs = [
        greeting(holder.member),
        f"{gig.title}, where you are down as {roles}, {news}:",
        facts(lines),
        "As it stands now:\n" + gig_facts(view, style),
    ]
    summary = "; ".join(f"{label}: {said}" for label, said in lines)
    return message(headline(status_word or "Changed", gig, style), paragraphs, summary)


def gig_reminder(view, holder, lineup):
    """The day before: call time, where, and who plays what (`lineup`: the gig's holders)."""
    gig, roles, style = view.gig, listing(part.role for part in holder.parts), office.current()
    call_times = sorted(part.gig_role.call_time for part in holder.parts if part.gig_role.call_time)
    call = clock(call_times[0] if call_times else gig.start_time, style)
    who = [
        f"  {person(other.member.first_name, other.member.last_name)}: {listing(p.role for p in other.parts)}"
        for other in lineup
    ]
    paragraphs = [
        greeting(holder.member),
        f"Tomorrow is {gig.title}, where you are down as {roles}.",
        facts([("Call time", call), ("When", when(gig, style)), ("Where", postal_addresses.one_line(view.venue))]),
        "Lineup:\n" + "\n".join(who),
    ]
    venue = view.venue.name if view.venue else None
    summary = ", ".join(part for part in (roles, f"call time {call}" if call else None, venue) if part)
    return message(headline("Tomorrow", gig, style), paragraphs, summary)


def office_digest(answered, open_roles, money_in=()):
    """`answered`: (what: accepted|declined|expired, member name, role, gig title, gig date) since the last
    digest; `open_roles`: (gig date, gig title, [(role, pending invitations)]) of the next 14 days (None: not the
    reader's business); `money_in`: (what: quote accepted|quote declined|contract signed, line) since the last."""
    counts, style = collections.Counter(what for what, *_ in (*answered, *money_in)), office.current()
    said = ", ".join(f"{count} {what}" for what, count in counts.items())
    if open_roles is None:
        paragraphs = ["From the clients since the last digest:", at_most([f"  {line}" for _, line in money_in])]
        return message(f"Office digest: {said}", paragraphs, said)
    open_count = sum(len(roles) for _, _, roles in open_roles)
    lines = [
        f"  {what.capitalize():<9}{member}: {role} at {title}, {day(date, style)}"
        for what, member, role, title, date in answered
    ]
    gigs = [
        f"  {day(date, style)}, {title}: " + ", ".join(f"{role} ({pending_words(pending)})" for role, pending in roles)
        for date, title, roles in open_roles
    ]
    open_part = "No open roles on gigs of the next 14 days."
    if gigs:
        open_part = "Open roles on gigs of the next 14 days:\n\n" + at_most(gigs)
    paragraphs = ["Since the last digest:", at_most(lines), open_part]
    if money_in:
        paragraphs[2:2] = ["From the clients:", at_most([f"  {line}" for _, line in money_in])]
    summary = f"{said}; {open_count} open role{'s' if open_count != 1 else ''} in the next 14 days"
    return message(f"Office digest: {said}", paragraphs, summary)


def pending_words(count):
    if not count:
        return "no invitation pending"
    return f"{count} invitation{'s' if count != 1 else ''} pending"


def at_most(lines):
    if len(lines) <= MOST_LINES:
        return "\n".join(lines)
    return "\n".join(lines[:MOST_LINES]) + f"\n  … and {len(lines) - MOST_LINES} more"
