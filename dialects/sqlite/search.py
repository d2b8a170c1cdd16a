"""`q`: words searched in an FTS5 index of a table's text fields, kept by triggers (SPEC §11)."""

import re

from peewee import SQL, Column, NodeList

from dialects.sqlite.database import db
from dialects.sqlite.pages import counted

# Words split at anything but letters and digits, without case or accents: `müll` finds `Müller`.
SEARCH_TOKENIZER = "unicode61 remove_diacritics 2"


def search_table(table):
    return f"{table}_search"


def search_index(table, columns):
    """The statements that make the search index of `table`'s `columns` (an FTS5 table over the rows, by rowid,
    which a VACUUM keeps for tables with an index), the triggers that keep it, and fill it from the stored rows."""
    index, names = search_table(table), ", ".join(f'"{c}"' for c in columns)
    new, old = ", ".join(f'new."{c}"' for c in columns), ", ".join(f'old."{c}"' for c in columns)
    forget = f'INSERT INTO "{index}" ("{index}", rowid, {names}) VALUES (\'delete\', old.rowid, {old});'
    learn = f'INSERT INTO "{index}" (rowid, {names}) VALUES (new.rowid, {new});'
    return [
        f'CREATE VIRTUAL TABLE "{index}" USING fts5({names}, content="{table}", tokenize="{SEARCH_TOKENIZER}")',
        f'CREATE TRIGGER "{index}_insert" AFTER INSERT ON "{table}" BEGIN {learn} END',
        f'CREATE TRIGGER "{index}_delete" AFTER DELETE ON "{table}" BEGIN {forget} END',
        f'CREATE TRIGGER "{index}_update" AFTER UPDATE OF {names} ON "{table}" BEGIN {forget} {learn} END',
        f'INSERT INTO "{index}" ("{index}") VALUES (\'rebuild\')',
    ]


def search_columns(table):
    """The fields the search index of `table` holds (none: it has no index)."""
    return [row[1] for row in db.execute_sql(f'PRAGMA table_info("{search_table(table)}")')]


# Matches from which a page is found by walking the list's order and keeping the rows that match, not by looking up
# every match and sorting them all: `wedding` in 76 000 of 100 000 gigs took 60 ms the second way.
COMMON_MATCHES = 2000


def matching_words(model, words):
    """The condition: every word begins a word of the record's searched fields (case and accents aside).

    The planner would always start from the matches (a rowid each). Words found in many rows are better checked
    row by row as the list's own index is walked in its order (the `+` keeps the rowid from driving the query):
    how many match is counted once, and remembered until the database changes."""
    index = search_table(model._meta.table_name)
    query = " ".join(_phrase(word) for word in words)
    subquery = SQL(f'(SELECT rowid FROM "{index}" WHERE "{index}" MATCH ?)', [query])
    rowid = Column(model._meta.table, "rowid")
    if counted((f'SELECT count(*) FROM "{index}" WHERE "{index}" MATCH ?', [query])) >= COMMON_MATCHES:
        rowid = NodeList((SQL("+"), rowid), glue="")
    return rowid.in_(subquery)


def _phrase(word):
    """A word as an FTS5 phrase, so that no word is query syntax (a NUL would end the query text early): its runs of
    letters and digits in a row, the last one as a beginning unless it is a single letter (`m.` asks for the word
    `m`, not for every word that begins with an m)."""
    runs = re.findall(r"\w+", word)
    prefix = "*" if runs and len(runs[-1]) >= 2 else ""
    return '"' + word.replace('"', '""').replace("\0", " ") + '"' + prefix
