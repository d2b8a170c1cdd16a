"""A contract's drawn signature as it may be kept (SPEC §16): the SVG the client's signature pad draws, parsed with
defusedxml and written again (formats/logos.py's sanitiser) keeping only strokes: paths, polylines, lines and
circles with their geometry and stroke, nothing that runs, links or fetches."""

from formats.logos import Allowed, refused, sanitised_svg

MAX_BYTES = 64 * 1024
FIELD = "signature_svg"
SIGNATURE = Allowed(
    elements=frozenset({"path", "polyline", "line", "circle"}),
    attributes=frozenset(
        """
        viewBox width height d points x1 y1 x2 y2 cx cy r fill stroke stroke-width stroke-linecap stroke-linejoin
        stroke-opacity fill-opacity
        """.split()  # noqa: SIM905 (a table to read, not a list of quoted words)
    ),
    links=False,
    field=FIELD,
    what="Not a drawn signature",
)
STROKES = ("path", "polyline", "line", "circle")


def checked(text):
    """The signature's SVG text as kept, or 422 at `signature_svg` saying what is wrong."""
    data = text.encode()
    if len(data) > MAX_BYTES:
        raise refused(f"The signature is {len(data) // 1024} KB; it may be at most {MAX_BYTES // 1024} KB.", FIELD)
    kept = sanitised_svg(data, SIGNATURE).decode()
    if not any(f"<{name} " in kept for name in STROKES):
        raise refused("The signature is empty: draw it in the box.", FIELD)
    return kept
