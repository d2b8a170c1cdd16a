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

# The words of a text, of a record's fields and of a query. Fixed to the schema they are made in (search_path),
# so that they read the same words wherever they are called from.
FUNCTIONS = [
    "CREATE EXTENSION IF NOT EXISTS unaccent",
    # A text as search sees it: its runs of letters and digits, lower case and without accents, one space apart.
    """CREATE FUNCTION "band_search_text"("value" TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT AS $$
  SELECT btrim(regexp_replace(lower(unaccent('unaccent'::regdictionary, "value") COLLATE "und-x-icu"),
                              '[^[:alnum:]]+', ' ', 'g'))
$$""",
    # A record's words: those of each field in their order (a position between fields, so that no phrase spans
    # two). A word over 2046 bytes (the most a tsvector holds of one) is left out, as to_tsvector leaves it.
    """CREATE FUNCTION "band_search_document"(VARIADIC "fields" TEXT[]) RETURNS TSVECTOR
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT AS $$
  SELECT coalesce(string_agg('''' || w."word" || ''':' || w."n", ' ')::TSVECTOR, ''::TSVECTOR)
    FROM unnest(string_to_array(array_to_string(ARRAY(SELECT "band_search_text"(f) FROM unnest("fields") f), ' , '),
                                ' ')) WITH ORDINALITY w("word", "n")
   WHERE w."word" NOT IN ('', ',') AND octet_length(w."word") <= 2046
$$""",
    # The query of the words asked, each word the phrase of its runs of letters and digits, its last run the
    # beginning of a word unless a single letter (`m.` asks for the word `m`), all of them ANDed; a word with no
    # letter or digit asks nothing; no such word at all: null, which no record matches (as SQLite's FTS5 does).
    """CREATE FUNCTION "band_search_query"("words" TEXT[]) RETURNS TSQUERY
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT AS $$
  SELECT string_agg('(' || (
           SELECT string_agg('''' || r."run" || ''''
                             || CASE WHEN r."n" = cardinality(q."runs") AND length(r."run") >= 2 THEN ':*' ELSE '' END,
                             ' <-> ' ORDER BY r."n")
             FROM unnest(q."runs") WITH ORDINALITY r("run", "n")) || ')', ' & ')::TSQUERY
    FROM (SELECT string_to_array("band_search_text"(w), ' ') AS "runs" FROM unnest("words") w) q
   WHERE cardinality(q."runs") > 0
$$""",
]


def apply(database):
    for statement in FUNCTIONS:
        database.execute_sql(statement)
    for table, columns in SEARCHED.items():
        for statement in search_index(table, columns):
            database.execute_sql(statement)
