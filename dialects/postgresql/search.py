"""`q`: words searched in the full-text index (tsvector) of a table's text fields, kept by triggers (SPEC §11); the
indexes and the functions that make their words and queries are the schema's (dialects/postgresql/search_index.py,
sql/postgresql/0010_search.py)."""

from peewee import SQL

from dialects.postgresql.search_index import search_columns, search_index, search_table

__all__ = ["matching_words", "search_columns", "search_index"]


def matching_words(model, words):
    """The condition: every word begins a word of the record's searched fields (case and accents aside).

    Every word is the phrase of its runs of letters and digits (`huber–mai`: `huber`, then a word beginning `mai`),
    its last run a beginning unless it is a single letter (`band_search_query`). The index is asked for the ids that
    match; the planner, which knows how common each word is (ANALYZE), decides whether to start from them or to walk
    the list's own order and keep the rows that match."""
    index = search_table(model._meta.table_name)
    asked = [word.replace("\0", " ") for word in words]  # no text PostgreSQL takes holds a NUL
    matches = SQL(f'(SELECT "id" FROM "{index}" WHERE "words" @@ "band_search_query"(%s::text[]))', [asked])
    return model._meta.primary_key.in_(matches)
