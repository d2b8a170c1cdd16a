"""`q`'s search indexes (SPEC §11) as the schema keeps them: a table `<table>_search` beside each searched
collection, a row per record, (id, words), its `words` a tsvector of the searched fields under a GIN index, kept by
triggers. The words are what `band_search_document` makes of the fields and a query is what `band_search_query`
makes of the words asked (sql/postgresql/0010_search.py defines both): lower case without accents, split at anything
but letters and digits, every word of the query the beginning of a word of a field."""

from dialects.postgresql.database import db


def search_table(table):
    return f"{table}_search"


def search_index(table, columns):
    """The statements that make the search index of `table`'s `columns`, the triggers that keep it (on a change of
    one of the columns, their list in that order), and fill it from the stored rows."""
    index, names = search_table(table), ", ".join(f'"{c}"' for c in columns)
    document = f'"band_search_document"({", ".join(f"NEW.{name}" for name in names.split(", "))})'
    learn, forget = f"{index}_learn", f"{index}_forget"
    return [
        f'CREATE TABLE "{index}" ("id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY, "words" TSVECTOR NOT NULL)',
        f'CREATE INDEX "{index}_words" ON "{index}" USING GIN ("words")',
        f"""CREATE FUNCTION "{learn}"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "{index}" ("id", "words") VALUES (NEW."id", {document})
    ON CONFLICT ("id") DO UPDATE SET "words" = EXCLUDED."words";
  RETURN NULL;
END $$""",
        f"""CREATE FUNCTION "{forget}"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "{index}" WHERE "id" = OLD."id";
  RETURN NULL;
END $$""",
        f'CREATE TRIGGER "{index}_insert" AFTER INSERT ON "{table}" FOR EACH ROW EXECUTE FUNCTION "{learn}"()',
        f'CREATE TRIGGER "{index}_delete" AFTER DELETE ON "{table}" FOR EACH ROW EXECUTE FUNCTION "{forget}"()',
        f'CREATE TRIGGER "{index}_update" AFTER UPDATE OF {names} ON "{table}" FOR EACH ROW '
        f'EXECUTE FUNCTION "{learn}"()',
        f'INSERT INTO "{index}" ("id", "words") SELECT "id", "band_search_document"({names}) FROM "{table}"',
    ]


# The columns whose change the index's update trigger follows, in their order: the fields it holds.
COLUMNS_SQL = """SELECT a.attname
  FROM pg_trigger t, unnest(t.tgattr::int2[]) WITH ORDINALITY k(attnum, n), pg_attribute a
 WHERE t.tgrelid = to_regclass(quote_ident(%s)) AND t.tgname = %s AND a.attrelid = t.tgrelid AND a.attnum = k.attnum
 ORDER BY k.n"""


def search_columns(table):
    """The fields the search index of `table` holds (none: it has no index)."""
    rows = db.execute_sql(COLUMNS_SQL, (table, f"{search_table(table)}_update")).fetchall()
    return [row[0] for row in rows]
