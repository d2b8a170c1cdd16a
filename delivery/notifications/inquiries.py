"""A new couple's inquiry told (SPEC §16): the sender's acknowledgement by mail, and the office's news of it for
every active user holding `sales.edit` (in-app, push and mail, as their settings say), in the inquiry's
transaction. The acknowledgement's words are the client's (ACKNOWLEDGEMENT, ASKED: in the catalogues), the office's
plain English (WORDS)."""

from delivery.notifications import queue
from delivery.notifications.client_messages import Writer
from delivery.notifications.messages import message
from delivery.notifications.words import day, facts
from domain import office
from domain.capabilities import held_capabilities
from formats import client_words
from formats.client_words import N_
from models import User

ACKNOWLEDGEMENT = {  # the sender's, in their language (formats/client_words.py)
    "title": N_("Your inquiry to {office}"),
    "hello": N_("Hello {names},"),
    "opening": N_("Thank you for your inquiry: we have received it and will answer you soon."),
    "regards": N_("Kind regards,\n{office}"),
}
ASKED = {"date": N_("Date"), "venue_name": N_("Venue"), "city": N_("City"), "guest_count": N_("Guests")}
WORDS = {  # the office's news, in English as the console
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
    """Mail the sender their acknowledgement in their contact's language and tell the office of the inquiry that
    made `gig` and `contact`."""
    settings = office.current()
    writer = Writer(client_words.language_of(contact.language, settings.language))
    words, date = writer.words, writer.date(values["gig_date"])
    about = {"names": values["names"], "office": settings.name}
    asked = {**values, "date": date, "products": ", ".join(product.name for product in products)}
    shown = facts([(words(label), asked.get(name)) for name, label in ASKED.items()])
    said = {key: words(text, **about) for key, text in ACKNOWLEDGEMENT.items()}
    paragraphs = (said["hello"], said["opening"], shown, said["regards"])
    queue.add(
        "inquiry_received", message(said["title"], paragraphs, said["title"]), queue.ids(gig.id), to=contact.email
    )
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
