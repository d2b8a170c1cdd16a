"""Step 10: `q` search (SPEC §11). Each collection with text to search gets an index of those fields (a tsvector
under a GIN index, see dialects/postgresql/search_index.py), kept by triggers and filled from the rows already
stored: a search of 100 000 gigs reads the index, not every title. As sql/sqlite/0010_search.py, with the words
made as SQLite's FTS5 makes them (unicode61, diacritics removed): lower case, accents removed (`unaccent`), split
at anything but letters and digits (as Unicode says: an ICU collation, whatever the database's locale)."""

from dialects.postgresql.search_index import search_index

# The fields each collection searched when this step shipped (resources.SEARCHED_FIELDS says it for today).
SEARCHED = {
    "gigs": ("title",),
    "venues": ("name", "city", "email"),
    "gig_moments": ("name",),
    "gig_songs": ("title", "artist"),
    "gig_contacts": ("relationship",),
    "attachments": ("filename",),
    "products": ("name",),
    "ensembles": ("name",),
    "roles": ("name",),
    "teams": ("name",),
    "prices": ("label",),
    "moments": ("name",),
    "songs": ("title", "artist"),
    "gig_statuses": ("name",),
    "gig_types": ("name",),
    "custom_fields": ("key", "label"),
    "staff_member_blockouts": ("reason",),
    "equipment_types": ("name",),
    "equipment": ("name", "serial_number"),
    "equipment_issues": ("title",),
    "staff_members": ("first_name", "last_name", "email"),
    "contacts": ("first_name", "last_name", "email", "company"),
    "users": ("email", "name"),
    "access_roles": ("name",),
    "webhook_endpoints": ("url",),
}

# The words of a text, of a record's fields and of a query, in PL/pgSQL (a SQL function calling another is set up
# anew at each call: six times slower to index a row). The record's and the query's are fixed to the schema they
# are made in (search_path), so that they read the same words wherever they are called from (the text's is called
# by them: a search_path set at each call of every field would cost twice the time).
FUNCTIONS = [
    "CREATE EXTENSION IF NOT EXISTS unaccent",
    # A text as search sees it: its runs of letters and digits, lower case and without accents, one space apart.
    """CREATE FUNCTION "band_search_text"("value" TEXT) RETURNS TEXT
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN btrim(regexp_replace(lower(unaccent('unaccent'::regdictionary, "value") COLLATE "und-x-icu"),
                              '[^[:alnum:]]+', ' ', 'g'));
END $$""",
    # A record's words: those of its fields, in their order (so a word asked may run on from one field into the
    # next: `ann-smith` finds Ann Smith, which SQLite's index does not). The parser that splits them (PostgreSQL's)
    # splits the query too (below), so that both agree on every word.
    """CREATE FUNCTION "band_search_document"(VARIADIC "fields" TEXT[]) RETURNS TSVECTOR
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT AS $$
BEGIN
  RETURN to_tsvector('pg_catalog.simple', "band_search_text"(array_to_string("fields", ' ')));
END $$""",
    # The query of the words asked, each word the phrase of its runs of letters and digits, its last run the
    # beginning of a word unless a single letter (`m.` asks for the word `m`), all of them ANDed; a word with no
    # letter or digit asks nothing; no such word at all: null, which no record matches (as SQLite's FTS5 does).
    """CREATE FUNCTION "band_search_query"("words" TEXT[]) RETURNS TSQUERY
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT AS $$
DECLARE
  "asked" TSQUERY;
  "word" TEXT;
  "runs" TEXT[];
  "last" TEXT;
  "phrase" TSQUERY;
BEGIN
  FOREACH "word" IN ARRAY "words" LOOP
    "runs" := string_to_array("band_search_text"("word"), ' ');
    CONTINUE WHEN coalesce(cardinality("runs"), 0) = 0;
    "last" := "runs"[cardinality("runs")];
    IF length("last") >= 2 THEN
      "phrase" := to_tsquery('pg_catalog.simple', quote_literal("last") || ':*');
    ELSE
      "phrase" := phraseto_tsquery('pg_catalog.simple', "last");
    END IF;
    IF cardinality("runs") > 1 THEN
      "phrase" := tsquery_phrase(
        phraseto_tsquery('pg_catalog.simple', array_to_string("runs"[1:cardinality("runs") - 1], ' ')), "phrase");
    END IF;
    "asked" := CASE WHEN "asked" IS NULL THEN "phrase" ELSE "asked" && "phrase" END;
  END LOOP;
  RETURN "asked";
END $$""",
]


def apply(database):
    for statement in FUNCTIONS:
        database.execute_sql(statement)
    for table, columns in SEARCHED.items():
        for statement in search_index(table, columns):
            database.execute_sql(statement)
