"""A new couple's inquiry told (SPEC §16): the sender's acknowledgement by mail, and the office's news of it for
every active user holding `sales.edit` (in-app, push and mail, as their settings say), in the inquiry's
transaction. Each message's words are plain English, in one place (WORDS)."""

from delivery.notifications import queue
from delivery.notifications.client_messages import Writer
from delivery.notifications.messages import message
from delivery.notifications.words import day, facts
from domain import office
from domain.capabilities import held_capabilities
from models import User

WORDS = {
    "acknowledgement": {
        "title": "Your inquiry to {office}",
        "hello": "Hello {names},",
        "opening": "Thank you for your inquiry: we have received it and will answer you soon.",
        "regards": "Kind regards,\n{office}",
    },
    "inquiry": {
        "title": "New inquiry: {names}, {date}",
        "opening": "{names} asked for {date} through the inquiry form.",
        "closing": "Their gig is in the office with the status of an inquiry.",
    },
    "facts": {
        "date": "Date",
        "venue_name": "Venue",
        "city": "City",
        "guest_count": "Guests",
        "products": "Asked for",
        "email": "E-mail",
        "phone": "Phone",
        "message": "Message",
    },
}


def tell(gig, contact, values, products):
    """Mail the sender their acknowledgement and tell the office of the inquiry that made `gig` and `contact`."""
    settings = office.current()
    date = Writer(settings.language).date(values["gig_date"])  # as the client's mails write it
    about = {"names": values["names"], "office": settings.name, "date": date}
    asked = {**values, "date": date, "products": ", ".join(product.name for product in products)}
    words = WORDS["acknowledgement"]
    shown = facts([(WORDS["facts"][name], asked.get(name)) for name in ("date", "venue_name", "city", "guest_count")])
    paragraphs = (words["hello"].format(**about), words["opening"], shown, words["regards"].format(**about))
    title = words["title"].format(**about)
    queue.add("inquiry_received", message(title, paragraphs, title), queue.ids(gig.id), to=contact.email)
    office_date = day(values["gig_date"], settings)  # as the office's other news write it
    tell_office(gig, {**about, "date": office_date}, {**asked, "date": office_date})


def tell_office(gig, about, asked):
    words = WORDS["inquiry"]
    listed = facts([(label, asked.get(name)) for name, label in WORDS["facts"].items() if name != "message"])
    said = asked.get("message") and f"{WORDS['facts']['message']}:\n" + "\n".join(
        "  " + line for line in asked["message"].splitlines()
    )
    title = words["title"].format(**about)
    paragraphs = (words["opening"].format(**about), listed, said, words["closing"])
    news = message(title, paragraphs, title)  # the summary names no address: the couple and the date alone
    for user_id in sales_editors():
        queue.add("inquiry", news, queue.ids(gig.id), user_id=user_id)


def sales_editors():
    """The active users holding sales.edit."""
    users = User.select(User.id).where(User.active == True)  # noqa: E712
    return [user_id for (user_id,) in users.tuples() if "sales.edit" in held_capabilities(user_id)]
