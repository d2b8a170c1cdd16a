"""`q`: words searched in the full-text index (tsvector) of a table's text fields, kept by triggers (SPEC §11); the
indexes and the functions that make their words and queries are the schema's (dialects/postgresql/search_index.py,
sql/postgresql/0010_search.py)."""

from peewee import SQL, fn

from dialects.postgresql.pages import counted
from dialects.postgresql.search_index import search_columns, search_index, search_table

__all__ = ["matching_words", "search_columns", "search_index"]

# Matches from which a page is better found by walking the list's own order and keeping the rows that match than by
# looking up every match and sorting them all (as on SQLite: dialects/sqlite/search.py).
COMMON_MATCHES = 2000


def matching_words(model, words):
    """The condition: every word begins a word of the record's searched fields (case and accents aside).

    Every word is the phrase of its runs of letters and digits (`huber–mai`: `huber`, then a word beginning `mai`),
    its last run a beginning unless it is a single letter (`band_search_query`). How many records match is counted
    first (remembered until the database changes), as the planner cannot know it for a prefix (it guesses 2 % of
    the rows, and for a rare word walked 100 000 gigs in their order to find a few, 1.1 s): a few matches are
    looked up as an array of ids, which the planner reads through the primary key; many are left to the planner,
    which may walk the list's order and keep the rows that match."""
    index = search_table(model._meta.table_name)
    asked = [word.replace("\0", " ") for word in words]  # no text PostgreSQL takes holds a NUL
    found = f'SELECT "id" FROM "{index}" WHERE "words" @@ "band_search_query"(%s::text[])'
    if counted((f"SELECT count(*) FROM ({found}) AS m", [asked])) < COMMON_MATCHES:
        return model._meta.primary_key == fn.ANY(SQL(f"ARRAY({found})", [asked]))
    return model._meta.primary_key.in_(SQL(f"({found})", [asked]))
