"""The service's configuration: one table of settings, read from `BAND_*` variables or a dict."""

import os
import re
import zoneinfo

from delivery.addresses import Allowed
from domain.errors import ConfigError
from formats.currencies import CURRENCIES
from models import CLOCKS, DATE_STYLES
from server.client_addresses import proxy_networks

# name: (default, parser, meaning). A default of None means "derived" (see `load`).
SETTINGS = {
    "DB": ("band.db", str, "a path: a SQLite file; postgresql://user:password@host:port/db: PostgreSQL"),
    "SECRET_KEY": (None, str, "signing key for itsdangerous values (generated once, kept in the database)"),
    "PUBLIC_URL": ("http://127.0.0.1:8080", str, "how clients reach the server, for links"),
    "SIGNIN_URL": (None, str, "sign-in link template, default {public_url}/signin#token={token}"),
    "MAIL_URL": ("console:", str, "console:, file:DIR or smtp[s]://user:pass@host:port[?starttls=1]"),
    "MAIL_FROM": ("Band Office <office@localhost>", str, "sender of the sign-in mail"),
    "MAIL_RETRY_SECONDS": ("5,15,30,60,120,300,600", str, "waits between attempts to send a mail; the last repeats"),
    "OFFICE_NAME": ("", str, "a new database's office name (then /office); empty: Band Office"),
    "CURRENCY": ("", str, "a new database's ISO 4217 currency (then /office); empty: EUR"),
    "LANGUAGE": ("", str, "a new database's language, BCP 47 (then /office); empty: en"),
    "DATE_STYLE": (
        "",
        str,
        "a new database's date style (then /office): dd.mm.yyyy (empty), dd/mm/yyyy, mm/dd/yyyy, yyyy-mm-dd",
    ),
    "CLOCK": ("", str, "a new database's clock (then /office): 24h (empty) or 12h"),
    "MAX_UPLOAD_MB": (25, int, "attachment size limit"),
    "MAX_JSON_KB": (1024, int, "JSON body size limit"),
    "INVITATION_HOURS": (72, int, "invitation lifetime"),
    "PLANNING_LOCK_DAYS": (14, int, "the couple's wishes lock this many days before the gig (SPEC §16)"),
    "QUOTE_DAYS": (14, int, "how long a new quote is valid (its valid_until from today)"),
    "DEPOSIT_PERCENT": (30, int, "a new quote's deposit, percent of its gross (0..100)"),
    "TAX_RATE_BP": (2000, int, "a new quote or invoice line's tax rate, in basis points (2000 = 20 %; 0..10000)"),
    "AUTH_RATE_LIMIT": ("10/minute", str, "requests per client address to /auth/link and /auth/confirm"),
    "CLIENT_RATE": ("120/minute", str, "requests per client address with a live client link (bcl_) to /v1/client/..."),
    "MEMBER_WRITE_RATE": ("60/minute", str, "writes of a user without any .edit capability (a musician)"),
    "INQUIRY_RATE": ("5/hour", str, "inquiries (POST /v1/inquiries) per client address"),
    "INQUIRY_EMBED_ORIGINS": ("", str, "origins (space-separated) whose pages may show /inquire in an iframe"),
    "GIGS_PER_DAY": (1, int, "tentative or confirmed gigs a day holds before /v1/availability says it is taken"),
    "MAX_CONNECTIONS_PER_CLIENT": (20, int, "open connections one client address may hold (§2.3)"),
    "TRUSTED_PROXIES": ("", str, "reverse proxies (addresses or networks) whose X-Forwarded-For names the client"),
    "QUERY_BUDGET_MS": (250, int, "CPU ms the statements of a read may spend together before it is stopped (§2.3)"),
    "HEADER_TIMEOUT": (10.0, float, "seconds a request's line and headers may take from their first byte"),
    "BODY_TIMEOUT": (10.0, float, "seconds a request body may fall behind a pace of 8 KB/s before it is dropped"),
    "TIMEZONE": ("", str, "a new database's IANA time zone (then /office), of gigs whose venue names none; empty: UTC"),
    "FEED_PAST_DAYS": (180, int, "calendar feeds hold the gigs from this many days ago on"),
    "WORKER": ("on", str, "on or off: the background worker of serve (expiry, pruning, backups)"),
    "WORKER_INTERVAL": (15.0, float, "seconds between the worker's looks for timed work"),
    "EVENT_DAYS": (365, int, "how long events are kept"),
    "BACKUP_DIR": ("", str, "where the worker writes a daily backup (on PostgreSQL also the pre-migration copy)"),
    "BACKUP_KEEP": (14, int, "how many daily backups are kept"),
    "BACKUP_TIME": ("03:00", str, "when the daily backup is taken, server local time HH:MM"),
    "WEBHOOK_TIMEOUT": (10.0, float, "seconds a webhook receiver has to answer"),
    "WEBHOOK_RETRY_SECONDS": ("5,300,1800,7200,18000,36000,36000", str, "waits between webhook attempts"),
    "NOTIFY_DELAY_SECONDS": (60.0, float, "how long an invitation's message is held (withdrawn meanwhile: never sent)"),
    "GIG_CHANGED_MINUTES": (10.0, float, "changes of a gig this close to each other make one message"),
    "INVITATION_REMINDER_HOURS": (24.0, float, "a pending invitation is recalled this long before it expires"),
    "GIG_REMINDER_TIME": ("10:00", str, "when the day-before reminder of a gig goes out, server local time HH:MM"),
    "DIGEST_MINUTES": (15.0, float, "how often the office digest goes out, when something happened"),
    "WEBHOOK_FAILING_DAYS": (5.0, float, "days of nothing but failed deliveries before an endpoint is disabled"),
    "PUSH_TIMEOUT": (10.0, float, "seconds a push gateway has to answer"),
    "PUSH_PRIVATE_HOSTS": ("", str, "push endpoints' hosts allowed on a private address (names, addresses, networks)"),
    "PAGE_MEMORY_KB": (4096, int, "musicians' pages of their own gigs and invitations kept until anything changes"),
    "APNS_KEY_FILE": ("", str, "APNs: the .p8 signing key's file; with the three below, push to ios"),
    "APNS_KEY_ID": ("", str, "APNs: the signing key's id"),
    "APNS_TEAM_ID": ("", str, "APNs: the Apple developer team's id"),
    "APNS_TOPIC": ("", str, "APNs: the iOS app's bundle id"),
    "APNS_URL": ("", str, "APNs: a gateway URL instead of Apple's host for the device's environment (tests)"),
    "FCM_CREDENTIALS": ("", str, "FCM: the Firebase service account's JSON file; set, push to android"),
    "FCM_URL": ("https://fcm.googleapis.com", str, "FCM: the HTTP v1 API's base URL (tests)"),
    "VAPID_PRIVATE_KEY": (
        "",
        str,
        "Web Push: the VAPID private key (a PEM file or base64url); with the subject, push to web",
    ),
    "VAPID_SUBJECT": ("", str, "Web Push: a mailto: or https: URL the push services can reach us at"),
}

RATE_PERIODS = {"second": 1, "minute": 60, "hour": 3600}


def load(overrides=None, environ=None):
    """The settings: defaults, then `BAND_*` environment variables, then `overrides` (tests pass a dict)."""
    environ = os.environ if environ is None else environ
    config = {}
    for name, (default, parse, _) in SETTINGS.items():
        raw = environ.get(f"BAND_{name}")
        try:
            config[name] = default if raw in (None, "") else parse(raw)
        except ValueError:
            raise ConfigError(f"BAND_{name}={raw!r} is not a valid {parse.__name__}") from None
    config.update(overrides or {})
    config["PUBLIC_URL"] = config["PUBLIC_URL"].rstrip("/")
    if not config["SIGNIN_URL"]:
        config["SIGNIN_URL"] = config["PUBLIC_URL"] + "/signin#token={token}"
    config["AUTH_RATE"] = parse_rate("AUTH_RATE_LIMIT", config["AUTH_RATE_LIMIT"])
    config["MEMBER_WRITES"] = parse_rate("MEMBER_WRITE_RATE", config["MEMBER_WRITE_RATE"])
    config["CLIENT_REQUESTS"] = parse_rate("CLIENT_RATE", config["CLIENT_RATE"])
    config["INQUIRIES"] = parse_rate("INQUIRY_RATE", config["INQUIRY_RATE"])
    config["EMBED_ORIGINS"] = embed_origins(config["INQUIRY_EMBED_ORIGINS"])
    if config["GIGS_PER_DAY"] < 1:
        raise ConfigError("BAND_GIGS_PER_DAY must be 1 or more")
    try:
        config["TRUSTED_NETWORKS"] = proxy_networks(config["TRUSTED_PROXIES"])
    except ValueError as e:
        raise ConfigError(str(e)) from None
    check_worker(config)
    try:
        config["PUSH_PRIVATE"] = Allowed.parse(config["PUSH_PRIVATE_HOSTS"])
    except ValueError as e:
        raise ConfigError(f"BAND_PUSH_PRIVATE_HOSTS: {e}") from None
    config["MAIL_RETRIES"] = waits("MAIL_RETRY_SECONDS", config["MAIL_RETRY_SECONDS"])
    config["WEBHOOK_RETRIES"] = waits("WEBHOOK_RETRY_SECONDS", config["WEBHOOK_RETRY_SECONDS"])
    if not 0 < config["WEBHOOK_TIMEOUT"] <= 60 or not config["WEBHOOK_FAILING_DAYS"] > 0:
        raise ConfigError("BAND_WEBHOOK_TIMEOUT must be 0 to 60 seconds and BAND_WEBHOOK_FAILING_DAYS above 0")
    if config["QUERY_BUDGET_MS"] < 1:
        raise ConfigError("BAND_QUERY_BUDGET_MS must be 1 or more")
    if config["FEED_PAST_DAYS"] < 0:
        raise ConfigError("BAND_FEED_PAST_DAYS must be 0 (from today on) or more")
    if config["PAGE_MEMORY_KB"] < 0:
        raise ConfigError("BAND_PAGE_MEMORY_KB must be 0 (remember none) or more")
    config["UPLOAD_BYTES"] = config["MAX_UPLOAD_MB"] * 1024 * 1024  # the file's limit
    config["UPLOAD_BODY_BYTES"] = config["UPLOAD_BYTES"] + 1024 * 1024  # with room for the multipart framing
    if config["TIMEZONE"] and config["TIMEZONE"] not in zoneinfo.available_timezones():
        raise ConfigError(f"BAND_TIMEZONE={config['TIMEZONE']!r} is not an IANA time zone name")
    check_office(config)
    check_sales(config)
    return config


def check_sales(config):
    """The defaults of new quotes and their lines (SPEC §15), refused at start rather than stored wrong."""
    ranges = {"QUOTE_DAYS": (0, 3650), "DEPOSIT_PERCENT": (0, 100), "TAX_RATE_BP": (0, 10000)}
    ranges["PLANNING_LOCK_DAYS"] = (0, 365)
    for name, (low, high) in ranges.items():
        if not low <= config[name] <= high:
            raise ConfigError(f"BAND_{name}={config[name]!r}: expected {low} to {high}")


def check_office(config):
    """The office's settings a new database starts with (SPEC §12.1), refused at start rather than stored wrong."""
    choices = {"DATE_STYLE": DATE_STYLES, "CLOCK": CLOCKS, "CURRENCY": CURRENCIES}
    for name, allowed in choices.items():
        if config[name] and config[name] not in allowed:
            raise ConfigError(f"BAND_{name}={config[name]!r}: expected one of " + ", ".join(sorted(allowed)))


def check_worker(config):
    if config["WORKER"] not in ("on", "off"):
        raise ConfigError(f"BAND_WORKER={config['WORKER']!r}: expected on or off")
    if not config["WORKER_INTERVAL"] > 0 or config["EVENT_DAYS"] < 1 or config["BACKUP_KEEP"] < 1:
        raise ConfigError("BAND_WORKER_INTERVAL, BAND_EVENT_DAYS and BAND_BACKUP_KEEP must be above 0")
    for name in ("BACKUP_TIME", "GIG_REMINDER_TIME"):
        if not re.fullmatch(r"([01][0-9]|2[0-3]):[0-5][0-9]", config[name]):
            raise ConfigError(f"BAND_{name}={config[name]!r}: expected HH:MM (24 h)")
    timings = ("NOTIFY_DELAY_SECONDS", "GIG_CHANGED_MINUTES", "INVITATION_REMINDER_HOURS", "DIGEST_MINUTES")
    if not all(0 < config[name] < float("inf") for name in timings):
        raise ConfigError("BAND_" + ", BAND_".join(timings) + " must be above 0")


def waits(name, text):
    """`5,300,1800` -> (5.0, 300.0, 1800.0): seconds between attempts, each above 0 (fractions for tests)."""
    try:
        found = tuple(float(part) for part in text.split(","))
    except ValueError:
        found = ()
    if not found or not all(0 < wait < float("inf") for wait in found):  # NaN fails the comparison too
        raise ConfigError(f"BAND_{name}={text!r}: expected seconds between attempts, such as 5,15,30,60")
    return found


ORIGIN_RE = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def embed_origins(text):
    """`https://band.example http://localhost:8000` -> those origins: scheme, host and port alone, so that none can
    add anything to the page's Content-Security-Policy."""
    origins = text.split()
    for origin in origins:
        if not ORIGIN_RE.fullmatch(origin):
            raise ConfigError(f"BAND_INQUIRY_EMBED_ORIGINS: {origin!r} is not an origin such as https://band.example")
    return tuple(origins)


def parse_rate(name, text):
    """`10/minute` -> (10, 60): requests allowed per window of seconds."""
    match = re.fullmatch(r"\s*([0-9]+)\s*/\s*(second|minute|hour)\s*", text)
    if not match or int(match[1]) < 1:
        raise ConfigError(f"BAND_{name}={text!r}: expected N/second, N/minute or N/hour")
    return int(match[1]), RATE_PERIODS[match[2]]
