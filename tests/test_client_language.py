"""SPEC §16, the client's language: a contact's `language` (en or de; the office's by default), which picks the words,
dates and money of every mail, document and page the client reads; the words come from the catalogues in
`translations/`, and every word the code marks is in each of them (this file fails, naming it, when one is not)."""

import datetime as dt
import re
import string
from pathlib import Path

import pytest
from babel.dates import format_date
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from app import configure
from formats import client_words
from models import CLIENT_LANGUAGES, Contact, db
from storage import migrations
from tests.support import postgresql
from tests.support.api import error_of
from tests.support.database import execute, nth_id
from tests.support.notified import send_what_is_due
from tests.support.pdfs import pdf_text
from tests.support.smtp_server import smtp_server
from tests.support.waiting import wait_for

PROJECT = Path(__file__).resolve().parent.parent
GIG_DATE = (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=120)).replace(day=3)


def contact(build, **fields):
    return build("contacts", first_name="Anna", email="anna@couple.example", **fields)


def test_a_contact_reads_the_offices_language_unless_told_and_keeps_it(admin, build):
    assert contact(build)["language"] == "en"  # the office's, a new database's default
    assert admin.patch("/office", json={"language": "de-AT"}).status_code == 200
    german = contact(build)
    assert german["language"] == "de"
    assert contact(build, language="en")["language"] == "en"
    assert admin.patch(f"/contacts/{german['id']}", json={"phone": "+43 1 234"}).get_json()["data"]["language"] == "de"
    assert admin.get(f"/contacts?filter[language]=de&filter[id]={german['id']}").get_json()["data"][0]["id"]
    assert admin.patch("/office", json={"language": "fr"}).status_code == 200
    assert contact(build)["language"] == "en"  # no client reads French yet


@pytest.mark.parametrize("wrong", ["fr", "DE", "de-AT", "", None, 7])
def test_a_language_no_client_reads_is_refused_naming_the_field_and_changes_nothing(admin, build, wrong):
    anna = contact(build, language="de")
    error = error_of(admin.patch(f"/contacts/{anna['id']}", json={"language": wrong}), 422, "validation_failed")
    assert list(error["details"]) == ["language"]
    assert admin.get(f"/contacts/{anna['id']}").get_json()["data"]["language"] == "de"
    error_of(admin.post("/contacts", json={"first_name": "Cleo", "language": wrong}), 422, "validation_failed")
    assert admin.get("/contacts?filter[first_name]=Cleo").get_json()["data"] == []


# --- what they read ----------------------------------------------------------------------------------------------


def booked(admin, build, language):
    """A gig of a couple reading `language`, its primary contact, and an office with bank details."""
    office = {"name": "Elmau Band", "iban": "DE89370400440532013000", "bic": "COBADEFFXXX"}
    assert admin.patch("/office", json=office).status_code == 200
    gig = build("gigs", gig_date=GIG_DATE.isoformat(), title="Anna & Ben")
    anna = contact(build, language=language)
    link = build("gig-contacts", gig_id=gig["id"], contact_id=anna["id"], is_primary=True)
    return gig, link


def invoice_pdf_text(admin, gig):
    invoice = admin.create("invoices", {"gig_id": gig["id"], "kind": "deposit", "due_date": GIG_DATE.isoformat()})
    line = {"invoice_id": invoice["id"], "description": "Band", "unit_price_cents": 123457, "tax_rate_bp": 0}
    admin.create("invoice-lines", line)
    assert admin.post(f"/invoices/{invoice['id']}/issue").status_code == 200
    answer = admin.get(f"/invoices/{invoice['id']}/pdf")
    assert answer.status_code == 200
    return pdf_text(answer.data)


def test_a_german_couples_invoice_is_written_in_german(admin, build):
    gig, _ = booked(admin, build, "de")
    text = invoice_pdf_text(admin, gig)
    for words in ("Anzahlungsrechnung", "Gesamtbetrag", "Bitte überweisen Sie", "Verwendungszweck", "Fällig am"):
        assert words in text, (words, text)
    assert "1.234,57\xa0€" in text and f"{GIG_DATE.day}. " in text
    assert "Deposit invoice" not in text and "Total" not in text


def test_an_english_couples_invoice_is_written_in_english_even_from_a_german_office(admin, build):
    gig, _ = booked(admin, build, "en")
    assert admin.patch("/office", json={"language": "de"}).status_code == 200
    text = invoice_pdf_text(admin, gig)
    for words in ("Deposit invoice", "Total", "Please transfer", "€1,234.57", f"{GIG_DATE:%B} {GIG_DATE.day}, "):
        assert words in text, (words, text)
    assert "Gesamtbetrag" not in text


def test_a_german_couples_contract_is_written_and_printed_in_german(admin, build):
    gig, _ = booked(admin, build, "de")
    build("contract-templates", name="Standard", body="{{ client_names }}, {{ gig_date }}: {{ quote_total }}.")
    quote = admin.create("quotes", {"gig_id": gig["id"], "valid_until": GIG_DATE.isoformat()})
    line = {"quote_id": quote["id"], "description": "Band", "unit_price_cents": 123457, "tax_rate_bp": 0}
    admin.create("quote-lines", line)
    for step in ("send", "accept"):
        assert admin.post(f"/quotes/{quote['id']}/{step}", json={}).status_code == 200
    template = admin.get("/contract-templates").get_json()["data"][0]["id"]
    contract = admin.create("contracts", {"gig_id": gig["id"], "template_id": template})
    assert contract["body"] == f"Anna, {format_date(GIG_DATE, 'full', locale='de')}: 1.234,57\xa0€."
    answer = admin.get(f"/contracts/{contract['id']}/pdf")
    text = pdf_text(answer.data)
    for words in ("Vertrag", "ENTWURF", "Ort, Datum, Unterschrift", "Auftraggeber: Anna"):
        assert words in text, (words, text)


@pytest.fixture
def inbox(app):
    with smtp_server() as (inbox, port):
        configure(app, {**app.config, "MAIL_URL": f"smtp://127.0.0.1:{port}"})
        yield inbox


def test_the_mail_of_a_couples_link_speaks_their_language(app, admin, build, inbox):
    gig, anna = booked(admin, build, "de")
    ben = build("contacts", first_name="Ben", email="ben@couple.example", language="en")
    bens = build("gig-contacts", gig_id=gig["id"], contact_id=ben["id"])
    for link in (anna, bens):
        assert admin.post(f"/gig-contacts/{link['id']}/client-link").status_code == 200
    send_what_is_due(app)
    wait_for(lambda: len(inbox.messages()) == 2)
    [german] = inbox.messages("anna@couple.example")
    [english] = inbox.messages("ben@couple.example")
    assert german["Subject"] == "Ihre Seite für Anna & Ben"
    text = german.get_body(("plain",)).get_content()
    assert text.startswith("Hallo Anna,") and "Mit freundlichen Grüßen" in text and f"{GIG_DATE.day}. " in text
    assert english["Subject"] == "Your page for Anna & Ben"
    assert english.get_body(("plain",)).get_content().startswith("Hello Ben,")


def test_the_client_view_names_the_language_the_page_speaks(admin, build, anon):
    _, anna = booked(admin, build, "de")
    assert admin.patch("/office", json={"language": "de-AT"}).status_code == 200
    token = admin.post(f"/gig-contacts/{anna['id']}/client-link").get_json()["data"]["url"].split("token=")[1]
    view = anon.get("/client", headers={"Authorization": f"Bearer {token}"}).get_json()["data"]
    assert view["language"] == "de-AT"  # German, as the office's Austria writes it


# --- the catalogues ----------------------------------------------------------------------------------------------


def used_words():
    """{English: where} of every word a client reads, as `pybabel extract -F babel.cfg -k t` finds them."""
    with (PROJECT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    keywords = {**DEFAULT_KEYWORDS, "t": None}
    used = {}
    for path, line, text, _, _ in extract_from_dir(PROJECT, method_map, options_map, keywords=keywords):
        used.setdefault(text, f"{path}:{line}")
    return used


def placeholders(text):
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name)


@pytest.fixture(scope="module")
def used():
    return used_words()


def test_every_word_a_client_reads_is_in_every_catalogue_with_its_placeholders(used):
    assert {"Gesamtbetrag", "Ihre Buchung", "Ihre Seite für {event}"} <= {  # mails, documents, page
        client_words.ClientWords("de")(text) for text in used
    }
    for language in client_words.languages()[1:]:
        catalogue = client_words.catalogue(language)
        for text, where in used.items():
            message = catalogue.get(text)
            assert message and message.string and not message.fuzzy, f"{where}: {text!r} has no {language} words"
            assert placeholders(message.string) == placeholders(text), f"{where}: {text!r} in {language}"


def test_a_catalogue_keeps_no_word_the_code_no_longer_says(used):
    for language in client_words.languages()[1:]:
        kept = {message.id for message in client_words.catalogue(language) if message.id}
        assert kept - set(used) == set(), f"translations/{language}: run pybabel update (docs/development.md)"


def test_the_languages_a_contact_may_read_are_those_with_words():
    assert client_words.languages() == CLIENT_LANGUAGES


def test_the_client_page_is_given_its_own_words_and_no_others(used):
    page = client_words.page_catalogues()["de"]
    assert page["Your day"] == "Ihr Tag" and page["Please transfer {amount} to:"].startswith("Bitte überweisen")
    assert "Your page for {event}" not in page  # a mail's words stay on the server
    on_page = {text for text, where in used.items() if where.startswith(client_words.PAGE_SOURCES)}
    assert on_page <= set(page)


# --- step 22 -----------------------------------------------------------------------------------------------------

CONTACT_SQL = "INSERT INTO contacts (id, created_at, updated_at, first_name, custom_fields) VALUES (?, '', '', ?, ?)"


@pytest.mark.parametrize("office_language", ["en", "de-AT"])
def test_step_22_gives_each_contact_the_language_their_custom_field_named_else_the_offices(tmp_path, office_language):
    app = migrated_to_21(tmp_path)
    with app.app_context():
        execute(
            "UPDATE settings SET value = ? WHERE key = 'office'",
            (f'{{"name": "Band", "language": "{office_language}"}}',),
        )
        for n, fields in enumerate(('{"language": "de-DE"}', '{"language": "en"}', "{}", '{"language": 3}')):
            execute(CONTACT_SQL, (nth_id(n), f"Contact {n}", fields))
        migrations.upgrade()
        read = {row.id: row.language for row in Contact.select()}
        kept = execute("SELECT custom_fields FROM contacts WHERE id = ?", (nth_id(0),)).fetchone()[0]
    db.close()
    office = "de" if office_language.startswith("de") else "en"
    # a field naming no language, or none it knows: the office's
    assert read == {nth_id(0): "de", nth_id(1): "en", nth_id(2): office, nth_id(3): office}
    assert re.search(r'"language": ?"de-DE"', kept)  # the custom field's value stays


def migrated_to_21(tmp_path):
    from app import create_app

    app = create_app({"DB": postgresql.location(tmp_path), "BACKUP_DIR": str(tmp_path / "backups")})
    with app.app_context():
        migrations.upgrade(migrations.steps()[:21])
        assert execute("SELECT count(*) FROM settings WHERE key = 'office'").fetchone()[0] == 1
    return app
