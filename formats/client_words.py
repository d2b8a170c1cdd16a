"""The words a client reads (SPEC §16: their mails, documents, page, the inquiry form) in their language: English as
the code writes it, the others from `translations/<language>/LC_MESSAGES/client.po`, read with Babel at the start (no
compiled catalogue to keep in step with its source); and money, rates, dates and times as that language writes them
(Babel, CLDR's data). A word is marked where it is written: `N_("…")` in Python, `_('…')` in a document's template,
`t("…")` on the client's page; `pybabel extract -F babel.cfg` finds them all (docs/development.md)."""

import io
import re
from decimal import Decimal
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_datetime
from babel.messages.extract import extract_javascript
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_currency, format_decimal
from babel.support import NullTranslations, Translations

TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
DOMAIN = "client"
ENGLISH = "en"  # the words as written: no catalogue
PAGE_SOURCES = ("templates/client.html", "static/client/")  # where the client's page says its words
SCRIPT_BLOCK = re.compile(r"{%-?\s*block\s+script\s*-?%}(.*?){%-?\s*endblock", re.DOTALL)


def N_(text):
    """`text`, marked as a word a client reads: extracted into the catalogues, translated where it is said."""
    return text


def load():
    """Every catalogue read and compiled now (once a process), so that a broken one stops the start, not a mail."""
    for language in languages():
        translations(language)
        page_words(language)


def catalogue_path(language):
    return TRANSLATIONS / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def languages():
    """The languages a client may read: English, and each with a catalogue."""
    found = sorted(path.name for path in TRANSLATIONS.iterdir() if catalogue_path(path.name).is_file())
    return (ENGLISH, *found)


@cache
def catalogue(language):
    """The catalogue of `language` (babel's Catalog) as the repository holds it."""
    with catalogue_path(language).open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


@cache
def translations(language):
    if language == ENGLISH:
        return NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, catalogue(language))  # fuzzy or empty translations left out: they read English
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


@cache
def page_words(language):
    """{English: translation} of the words of the client's page in `language`, for the page to say them."""
    if language == ENGLISH:
        return {}
    return {
        message.id: message.string
        for message in catalogue(language)
        if message.id and message.string and not message.fuzzy and on_the_page(message.locations)
    }


def page_catalogues():
    """{language: its page_words} of every language but English: what the client's page may speak."""
    return {language: page_words(language) for language in languages() if language != ENGLISH}


def on_the_page(locations):
    return any(path.startswith(PAGE_SOURCES) for path, _ in locations)


def locale_of(language):
    """Babel's locale of a BCP 47 tag (`de-AT`), its language alone when the region is unknown (`de-XY`), else
    English: a client's words are always written."""
    for tag in (language, str(language).split("-")[0], ENGLISH):
        try:
            return Locale.parse(tag, sep="-")
        except (UnknownLocaleError, ValueError, TypeError):
            continue
    raise AssertionError("English is known")


def default_language(office_language):
    """A new contact's language: the office's, when a client may read it, else English."""
    language = locale_of(office_language).language
    return language if language in languages() else ENGLISH


def form_language(asked, browser, office_language):
    """The language of the page a client opens without a link (the inquiry form, SPEC §16): `asked` (its `?lang=`,
    for a band's website that embeds it per language) when given, else the browser's first a client may read
    (`browser`: the request's Accept-Language), else the office's (`default_language`)."""
    return asked or browser.best_match(languages()) or default_language(office_language)


def language_of(contact_language, office_language):
    """The BCP 47 tag a client reads: their contact's language (no contact: the office's), written as the office's
    region writes it when the office speaks it too (`de` with an office in `de-AT`: `de-AT`)."""
    if contact_language is None:
        return office_language
    return office_language if locale_of(office_language).language == contact_language else contact_language


class ClientWords:
    """A client's language: `words("Pay {amount}", amount=…)` says a word in it; money, rates, dates and moments as
    it writes them. A language without a catalogue reads English words, with its own formats."""

    def __init__(self, language):
        self.locale = locale_of(language)
        self.tag = str(self.locale).replace("_", "-")
        self.language = self.locale.language if self.locale.language in languages() else ENGLISH
        self.gettext = translations(self.language).gettext

    def __call__(self, text, **values):
        said = self.gettext(text)
        return said.format(**values) if values else said

    def money(self, cents, currency):
        return format_currency(Decimal(cents).scaleb(-2), currency, locale=self.locale)

    def rate(self, basis_points):
        return format_decimal(Decimal(basis_points).scaleb(-2), "#,##0.##", locale=self.locale) + "\u00a0%"

    def date(self, day):
        """`3. April 2027`, `April 3, 2027`; the empty text for no day."""
        return format_date(day, "long", locale=self.locale) if day else ""

    def moment(self, at, zone):
        """`at` (aware) as the clock in `zone` read it, seconds and zone written out."""
        return format_datetime(at, "long", tzinfo=ZoneInfo(zone), locale=self.locale)


def extract_page_script(source, keywords, comment_tags, options):
    """Babel's extractor of a page template's `{% block script %}` (babel.cfg): its `t("…")` calls, found by the
    JavaScript extractor in the script alone, whose lexer would read the page's HTML and Jinja as script."""
    text = source.read().decode(options.get("encoding", "utf-8"))
    script, written = [], 0
    for block in SCRIPT_BLOCK.finditer(text):
        script += [re.sub(r"[^\n]", " ", text[written : block.start(1)]), block.group(1)]
        written = block.end(1)
    yield from extract_javascript(io.BytesIO("".join(script).encode()), keywords, comment_tags, options)
