"""A text as a QR code's modules, for a page to draw (SPEC §13: the phone scans the calendar feed's address off the
office laptop's screen; a QR service on the internet is out of reach at a gig and would learn the address).
Encoded by segno, a maintained pure-Python encoder."""

import functools

import segno


@functools.lru_cache(maxsize=256)  # a feed's address is asked for again and again; an encoding costs ~10 ms
def rows_of(text):
    """`text` as a QR code: its rows top to bottom, each a string of "1" (a dark module) and "0" (a light one);
    square, and without the quiet zone (a reader needs 4 light modules around it). Error correction M at least:
    segno raises it while the code's size stays the same."""
    code = segno.make_qr(text, error="m")
    return tuple("".join("1" if dark else "0" for dark in row) for row in code.matrix)
