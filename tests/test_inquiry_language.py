"""SPEC §16, new couples in their language: the inquiry form speaks `?lang=`, else the browser's language when a client
may read it, else the office's; the inquiry's `language` (the form sends its own) is the new contact's and picks
the acknowledgement's words and dates; the office's news stays English. The form in a browser:
tests/test_inquire_page.py."""

import datetime as dt
import re

import pytest
from babel.dates import format_date

from tests.support import pages
from tests.support.api import error_of
from tests.support.inquiries import inquiry, stored
from tests.support.mail import mails, text_of
from tests.support.notified import send_what_is_due
from tests.support.users import make_user

GIG_DATE = (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=200)).replace(day=3)
GERMAN_HEADING = "Fragen Sie Ihren Termin bei Elmau Swing Band an"
ENGLISH_HEADING = "Ask Elmau Swing Band for your date"


@pytest.fixture
def office_in(admin):
    def set_language(language):
        answer = admin.patch("/office", json={"name": "Elmau Swing Band", "language": language})
        assert answer.status_code == 200, answer.get_json()

    return set_language


def new_contact(admin, before):
    [contact_id] = stored(admin)["contacts"] - before["contacts"]
    return admin.get(f"/contacts/{contact_id}").get_json()["data"]


def test_a_german_inquiry_is_acknowledged_in_german_and_the_office_told_in_english(app, admin, anon, office_in):
    office_in("en")
    make_user(roles=("office",), email="office@band.example")
    before = stored(admin)
    sent = anon.post("/inquiries", json=inquiry(app, gig_date=GIG_DATE.isoformat(), language="de"))
    assert sent.status_code == 202

    assert new_contact(admin, before)["language"] == "de"
    send_what_is_due(app)
    [acknowledgement] = mails(app, "anna@couple.example")
    assert acknowledgement["Subject"] == "Ihre Anfrage an Elmau Swing Band"
    text = text_of(acknowledgement)
    for words in ("Hallo Anna & Ben,", "Vielen Dank für Ihre Anfrage", "Gäste", "Stadt", "Mit freundlichen Grüßen"):
        assert words in text, text
    assert format_date(GIG_DATE, "long", locale="de") in text  # `3. Juni 2027`, as German writes it
    [told] = mails(app, "office@band.example")
    assert told["Subject"].startswith("New inquiry: Anna & Ben, ") and "Guests" in text_of(told)


@pytest.mark.parametrize(("office_language", "read"), [("de-AT", "de"), ("en", "en"), ("fr", "en")])
def test_an_inquiry_without_a_language_reads_the_offices(app, admin, anon, office_in, office_language, read):
    office_in(office_language)
    before = stored(admin)
    assert anon.post("/inquiries", json=inquiry(app)).status_code == 202
    assert new_contact(admin, before)["language"] == read
    send_what_is_due(app)
    [acknowledgement] = mails(app, "anna@couple.example")
    subject = {"de": "Ihre Anfrage an Elmau Swing Band", "en": "Your inquiry to Elmau Swing Band"}[read]
    assert acknowledgement["Subject"] == subject


@pytest.mark.parametrize("wrong", ["fr", "DE", "de-AT", "", 7])
def test_an_inquiry_in_a_language_no_client_reads_is_422_naming_it_and_keeps_nothing(app, admin, anon, wrong):
    before = stored(admin)
    error = error_of(anon.post("/inquiries", json=inquiry(app, language=wrong)), 422, "validation_failed")
    assert list(error["details"]) == ["language"]
    assert stored(admin) == before


def heading_and_language(anon, path="/inquire", **headers):
    answer = anon.client.get(path, headers=headers)
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    [root] = pages.Elements(text).find("html")
    return re.search(r"<h1>(.*?)</h1>", text).group(1), root["lang"]


def test_the_form_speaks_the_offices_language_by_default(anon, office_in):
    office_in("de-AT")
    assert heading_and_language(anon) == (GERMAN_HEADING, "de")
    office_in("fr")  # no client reads French: English
    assert heading_and_language(anon) == (ENGLISH_HEADING, "en")


def test_the_form_speaks_the_browsers_language_when_a_client_may_read_it(anon, office_in):
    office_in("en")
    assert heading_and_language(anon, **{"Accept-Language": "de-CH,de;q=0.9,en;q=0.5"}) == (GERMAN_HEADING, "de")
    office_in("de")
    assert heading_and_language(anon, **{"Accept-Language": "en-US,en;q=0.9"}) == (ENGLISH_HEADING, "en")
    assert heading_and_language(anon, **{"Accept-Language": "fr-FR,fr;q=0.9"}) == (GERMAN_HEADING, "de")


def test_a_website_asks_for_the_forms_language_and_a_language_no_client_reads_is_400(anon, office_in):
    office_in("en")
    german_browser = {"Accept-Language": "de-DE"}
    assert heading_and_language(anon, "/inquire?lang=en", **german_browser) == (ENGLISH_HEADING, "en")
    assert heading_and_language(anon, "/inquire?lang=de") == (GERMAN_HEADING, "de")
    for wrong in ("fr", "DE", ""):
        error = error_of(anon.client.get(f"/inquire?lang={wrong}"), 400, "invalid_query")
        assert list(error["details"]) == ["lang"]
