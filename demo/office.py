"""The `Office` every part of the demo writes through (its seeded random source, its clock, its size, the rows so
far and those still to write), and the name and time helpers the parts share."""

import datetime as dt
import functools
import unicodedata
from collections import defaultdict

from peewee import BooleanField, CharField, Field, ForeignKeyField, IntegerField

from demo.data import PHONE_PREFIX
from domain.rules import catalog_price
from models import MODELS, db, timestamp

# Most rows of a gig are created when it was booked: the stored form of that moment is worked out once.
stored_time = functools.lru_cache(maxsize=1024)(timestamp)


class Office:
    """One demo band office being written: its random source, its clock, and what it holds so far."""

    def __init__(self, rng, today, size, season_of):
        self.rng, self.today, self.size = rng, today, size
        # The server's clock says what is upcoming, so the rows are placed around today; the calendar the season is
        # drawn on (its weekdays and months) is that of `season_of`, so that one such day is always the same band.
        self.calendar_shift = today - season_of
        self.now = dt.datetime.now(dt.UTC)
        self.founded = self.now - dt.timedelta(days=size.days_back + 400)
        self.named = {}  # (model, name) -> row
        self.members = []  # the staff members, in the order they were written
        self.holders = defaultdict(list)  # role id -> [(active staff member, is_primary)]
        self.blocked = defaultdict(list)  # staff member id -> [(start date, end date)]
        self.booked = defaultdict(dict)  # date -> {staff member id: (gig id, the gig's window)}
        self.gear = defaultdict(list)  # equipment type id -> its items (once equipped: its available items)
        self.gear_out = defaultdict(int)  # (equipment type id, date) -> how many of its items are out on gigs
        self.songs = defaultdict(list)  # use -> songs
        self.staffed = []  # (gig role, gig, when the gig was booked), until its invitations are written
        self.cancelled = {}  # cancelled gig id -> when it was called off
        self.filled = {}  # gig role id -> when it was filled
        self.windows = {}  # gig id -> its window and the dates of the gigs it may meet
        self.price_changes = set()  # the dates on which a catalogue price starts or stops to apply
        self.prices = {}  # (product id, ensemble id, number of price changes by then) -> the catalogue price
        self.pending = defaultdict(list)  # model -> rows not yet written
        self.venues, self.planners, self.crew_user, self.musician = [], [], None, None
        self.last_day = None  # of the season: its gigs are inquiries, not planned yet
        self.musician_invited = 0  # pending invitations of the musician (staff@band.example's member) so far
        self.ids_made = FIRST_ID  # the sequence of ids (see `new_id`)

    def add(self, model, when=None, **fields):
        """A new row with an id from the seeded generator, created (and last changed) `when`."""
        stamp = stored_time(when or self.founded)
        data = {**defaults(model), "id": self.new_id(), "created_at": stamp, "updated_at": stamp}
        return self.keep(made(model, data, fields))

    def new_id(self):
        self.ids_made += 1
        return new_id(self.rng, self.ids_made)

    def keep(self, row):
        """Write `row` at the next flush, with whatever changes it gets until then."""
        self.pending[type(row)].append(row)
        return row

    def flush(self):
        """Write the rows kept since the last flush, parents before children, many to a statement."""
        for model in sorted(self.pending, key=MODELS.index):
            insert_rows(model, self.pending[model])
        self.pending.clear()

    def add_named(self, model, name, **fields):
        self.named[model, name] = self.add(model, name=name, **fields)
        return self.named[model, name]

    def get(self, model, name):
        return self.named[model, name]

    def price(self, product, ensemble, day):
        """The catalogue price of §5.1, looked up once for each product, ensemble and run of days between two
        price changes."""
        key = (product.id, ensemble.id if ensemble else None, sum(change <= day for change in self.price_changes))
        if key not in self.prices:
            self.prices[key] = catalog_price(key[0], key[1], day)
        return self.prices[key]

    def between(self, start, end):
        """A moment between two datetimes, to the second."""
        # One draw whatever the span, so that the clock's seconds never change the choices made after it.
        return start + dt.timedelta(seconds=int(max((end - start).total_seconds(), 0) * self.rng.random()))

    def pick(self, weighted):
        """One key of {choice: weight}."""
        return self.rng.choices(list(weighted), weights=list(weighted.values()))[0]

    def phone(self, country="AT"):
        return f"{PHONE_PREFIX[country]} {self.rng.randint(100, 999)} {self.rng.randint(1000, 9999)}"

    def drawn(self, day):
        """The day of the calendar the season is drawn on that stands where `day` stands to today."""
        return day - self.calendar_shift

    def days_until(self, gig):
        return (dt.date.fromisoformat(gig.gig_date) - self.today).days

    def noon(self, day):
        return dt.datetime.combine(day, dt.time(12), dt.UTC)


FIRST_ID = 0x5EA50000_0000  # the first id's first 48 bits (any value would do)
RANDOM_PART = (1 << 80) - 1  # of 128 bits drawn, as ever: the generator's later draws (the band) stay the same


def new_id(rng, sequence):
    """A version 4 UUID as `str(uuid.UUID(int=bits, version=4))` writes it (in a third of the time), whose first 48
    bits are `sequence` and the rest from `rng`: ids in the order the rows are made, so that millions of them go to
    the ends of their indexes, not all over them (a random id's insert reads and splits pages anywhere: most of a big
    demo's time)."""
    bits = (
        sequence << 80
        | rng.getrandbits(128) & RANDOM_PART & ~(0xF000 << 64 | 0xC000 << 48)
        | (0x4000 << 64 | 0x8000 << 48)
    )
    text = f"{bits:032x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def defaults(model):
    """The model's defaults but the id and timestamps: peewee would make those for each row, only to have them
    replaced."""
    return {name: value() if callable(value) else value for name, value in default_values(model)}


@functools.cache
def default_values(model):
    stamps = ("id", "created_at", "updated_at")
    return [(f.name, f.default) for f in model._meta.sorted_fields if f.default is not None and f.name not in stamps]


def made(model, data, fields):
    """`model(**data, **fields)`, as peewee's accessors would set the fields, in a fraction of their time."""
    row = model.__new__(model)
    row.__data__, row.__rel__, row._dirty = data, {}, set()
    references, plain = field_kinds(model)
    for name, value in fields.items():
        if name in plain:
            data[name] = value
        elif name in references and isinstance(value, references[name][0]):
            data[name] = value.__data__.get(references[name][1])
            row.__rel__[name] = value
        else:
            setattr(row, name, value)
    row._dirty.update(data)
    return row


@functools.cache
def field_kinds(model):
    """The model's references by name (the model referred to, and the field of its that is stored), and the names of
    its other fields."""
    fields = model._meta.sorted_fields
    references = {f.name: (f.rel_model, f.rel_field.name) for f in fields if isinstance(f, ForeignKeyField)}
    return references, {f.name for f in fields if f.name not in references}


def insert_rows(model, rows):
    """The rows in one `executemany`: peewee's own inserts build a statement for each row or batch, which takes
    longer than the database takes to store it."""
    fields = model._meta.sorted_fields
    columns = ", ".join(f'"{field.column_name}"' for field in fields)
    sql = f'INSERT INTO "{model._meta.table_name}" ({columns}) VALUES ({", ".join([db.param] * len(fields))})'
    stored = [(field.name, stored_as_is(field), field.db_value) for field in fields]
    values = (
        [
            v if (v := row.__data__.get(name)) is None or v.__class__ is kind else convert(v)
            for name, kind, convert in stored
        ]
        for row in rows
    )
    db.cursor().executemany(sql, values)


# The fields whose `db_value` returns a value of this class unchanged (and None): most values need no call.
AS_IS = {CharField.adapt: str, IntegerField.adapt: int, BooleanField.adapt: bool}


def stored_as_is(field):
    """The class of the values the field stores as they are (None: none is)."""
    while isinstance(field, ForeignKeyField):
        field = field.rel_field
    if type(field).db_value is not Field.db_value:
        return None
    return AS_IS.get(type(field).adapt)


def ascii_name(*parts):
    """`Horváth`, `Brandstätter` -> `horvath`, `brandstatter`: for e-mail addresses and web sites."""
    text = unicodedata.normalize("NFKD", ".".join(parts)).encode("ascii", "ignore").decode()
    return "".join(c for c in text.lower() if c.isalnum() or c in ".-")


def clock(minutes):
    """Minutes after midnight as `HH:MM` (past midnight wraps to the next day's wall clock)."""
    return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"
