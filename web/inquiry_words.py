"""Every word of the inquiry form (`/inquire`, SPEC §16), in one place: its labels, what its script says, the
thank-you; `{office}` is the office's name. Marked for the client's catalogues (formats/client_words.py); the page
reads them in its language as `words` (templates/inquire.html)."""

from formats.client_words import N_

WORDS = {
    "title": N_("Ask for your date"),
    "heading": N_("Ask {office} for your date"),
    "intro": N_("Tell us about your celebration: we answer every inquiry in person."),
    "names": N_("Your names"),
    "names_hint": N_("For example: Anna & Ben"),
    "email": N_("E-mail"),
    "phone": N_("Phone (optional)"),
    "gig_date": N_("Date of the celebration"),
    "venue_name": N_("Venue (optional)"),
    "city": N_("City (optional)"),
    "guest_count": N_("Number of guests (optional)"),
    "products": N_("What would you like? (optional)"),
    "message": N_("Your message (optional)"),
    "consent": N_("I agree that {office} keeps these details to answer my inquiry."),
    "honeypot": N_("Leave this field empty"),
    "send": N_("Send the inquiry"),
    "sending": N_("Sending…"),
    "required": N_("Please fill this in."),
    "email_invalid": N_("Please check this e-mail address."),
    "date_free": N_("That date is still free."),
    "date_taken": N_("That date is already taken, but ask us anyway: we may know a band."),
    "invalid": N_("Please look at the marked fields."),
    "date_range": N_("Please choose a date from today up to three years ahead."),
    "field_invalid": N_("Please check what you wrote here."),
    "too_many": N_("Too many inquiries from here just now: please try again in a while."),
    "failed": N_("Your inquiry could not be sent. Please try again, or write to us."),
    "thanks_heading": N_("Thank you!"),
    "thanks": N_("We have received your inquiry and will answer you soon. A confirmation is on its way to {email}."),
    "needs_script": N_("This form needs JavaScript. Please write to us instead."),
}
