"""The office's logo as it may be kept (SPEC §15): a PNG checked to be one (Pillow reads it, every chunk's checksum
included), or an SVG made safe to show anywhere. The SVG is parsed with defusedxml (no entities, no external
DTD) and written again from an allow-list: the elements and attributes of static drawing only, so that no script,
event attribute, foreign object, animation or reference outside the file survives; its CSS is parsed with tinycss2
and kept declaration by declaration, the same way."""

import io
import re
import xml.etree.ElementTree as ElementTree
from typing import NamedTuple

import tinycss2
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring
from PIL import Image, UnidentifiedImageError

from domain.errors import invalid

MAX_BYTES = 256 * 1024
MAX_SIDE = 4096  # pixels: a logo larger than this would cost every document that prints it
PNG, SVG = "image/png", "image/svg+xml"
SVG_NS, XLINK_NS, XML_NS = (
    "http://www.w3.org/2000/svg",
    "http://www.w3.org/1999/xlink",
    "http://www.w3.org/XML/1998/namespace",
)
ElementTree.register_namespace("xlink", XLINK_NS)

ELEMENTS = frozenset(
    """
    svg g defs title desc symbol use path rect circle ellipse line polyline polygon text tspan textPath image
    linearGradient radialGradient stop clipPath mask pattern marker style filter feBlend feColorMatrix
    feComponentTransfer feComposite feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur feMerge
    feMergeNode feMorphology feOffset
    """.split()  # noqa: SIM905 (a table to read, not a list of quoted words)
)
ATTRIBUTES = frozenset(
    """
    id class style x y x1 y1 x2 y2 cx cy r rx ry fx fy fr width height d points transform viewBox version
    preserveAspectRatio fill fill-opacity fill-rule stroke stroke-width stroke-linecap stroke-linejoin
    stroke-miterlimit stroke-dasharray stroke-dashoffset stroke-opacity opacity clip-path clip-rule mask filter color
    display visibility font-family font-size font-weight font-style font-variant text-anchor dominant-baseline
    alignment-baseline baseline-shift letter-spacing word-spacing text-decoration textLength lengthAdjust rotate
    dx dy startOffset offset stop-color stop-opacity gradientUnits gradientTransform spreadMethod patternUnits
    patternContentUnits patternTransform clipPathUnits maskUnits maskContentUnits filterUnits primitiveUnits in
    in2 result stdDeviation mode operator k1 k2 k3 k4 values type tableValues slope intercept amplitude exponent
    radius flood-color flood-opacity color-interpolation-filters markerWidth markerHeight markerUnits refX refY
    orient marker-start marker-mid marker-end paint-order vector-effect shape-rendering image-rendering overflow
    mix-blend-mode isolation
    """.split()  # noqa: SIM905
)
LINKS = frozenset({"href", f"{{{XLINK_NS}}}href"})  # within the file (#id), or an embedded picture on <image>
PICTURE_RE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*")
# colours, and a transform's steps: the only functions a value may call (a url() is checked on its own)
CSS_FUNCTIONS = frozenset({"rgb", "rgba", "hsl", "hsla", "matrix", "translate", "scale", "rotate", "skewx", "skewy"})
MAX_DEPTH = 64  # elements inside elements: a drawing needs a few, a hostile file nests thousands
CSS_TOKENS = ("ident", "hash", "number", "percentage", "dimension", "whitespace", "literal", "string")
SELECTOR_TOKENS = ("ident", "hash", "whitespace", "literal")


class Allowed(NamedTuple):
    """What an SVG may keep: its elements and attributes, whether links inside the file stay, and the field a
    refusal names (formats/signatures.py keeps a drawn signature with an allow-list of its own)."""

    elements: frozenset
    attributes: frozenset
    links: bool
    field: str
    what: str  # what a refused file is not


LOGO = Allowed(ELEMENTS, ATTRIBUTES, True, "file", "Not a PNG or SVG image")


def checked(data):
    """(media type, bytes to keep) of an uploaded logo, or 422 at `file` saying what it is not."""
    if len(data) > MAX_BYTES:
        raise refused(f"The logo is {len(data) // 1024} KB; it may be at most {MAX_BYTES // 1024} KB.")
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG, checked_png(data)
    return SVG, sanitised_svg(data)


def refused(message, field="file"):
    return invalid({field: [message]})


def checked_png(data):
    try:
        with Image.open(io.BytesIO(data), formats=["PNG"]) as image:
            width, height = image.size
            image.verify()
    except (OSError, SyntaxError, ValueError, UnidentifiedImageError, Image.DecompressionBombError):
        raise refused("This PNG is damaged: it cannot be read.") from None
    if max(width, height) > MAX_SIDE:
        raise refused(f"The logo is {width} × {height} pixels; it may be at most {MAX_SIDE} on each side.")
    return data


def sanitised_svg(data, allowed=LOGO):
    """The SVG `data` written again with only what `allowed` keeps (bytes), or 422 at its field."""
    try:
        root = fromstring(data)
    except (ElementTree.ParseError, DefusedXmlException, ValueError):
        message = f"{allowed.what} (an SVG must be well-formed XML without entities)."
        raise refused(message, allowed.field) from None
    if root.tag != f"{{{SVG_NS}}}svg":
        raise refused(f"{allowed.what}: an SVG's outermost element is <svg>.", allowed.field)
    kept = kept_element(root, MAX_DEPTH, allowed)
    kept.set("xmlns", SVG_NS)  # the elements are kept by their plain names, in the one namespace this declares
    return ElementTree.tostring(kept, encoding="utf-8", xml_declaration=True)


def kept_element(element, depth, allowed):
    """A copy of `element` with only the allowed attributes and children (a child not allowed is left out whole)."""
    if depth == 0:
        raise refused(f"This SVG nests its elements more than {MAX_DEPTH} deep.", allowed.field)
    name = local_name(element)
    kept = ElementTree.Element(name)
    for attribute, value in element.attrib.items():
        safe = kept_attribute(allowed, name, attribute, value)
        if safe is not None:
            kept.set(attribute, safe)
    if name == "style":
        kept.text = kept_stylesheet(element.text or "")
        return kept
    kept.text = element.text
    for child in element:
        if local_name(child) in allowed.elements:
            copy = kept_element(child, depth - 1, allowed)
            copy.tail = child.tail
            kept.append(copy)
    return kept


def local_name(element):
    """An SVG element's name without its namespace; None for anything else (comments included)."""
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.removeprefix(f"{{{SVG_NS}}}") if tag.startswith(f"{{{SVG_NS}}}") else None


def kept_attribute(allowed, element, attribute, value):
    """`value` if the attribute may stay, as it may stay; None if it goes."""
    if attribute in LINKS and allowed.links:
        return value if value.startswith("#") or (element == "image" and PICTURE_RE.fullmatch(value)) else None
    if attribute == f"{{{XML_NS}}}space":
        return value
    if attribute not in allowed.attributes:
        return None
    if attribute == "style":
        return kept_declarations(value)
    # read as CSS reads a presentation attribute (escapes decoded), so that no spelling hides a call or a url()
    return value if plain(tinycss2.parse_component_value_list(value, skip_comments=True)) else None


def kept_stylesheet(css):
    """The rules of a <style> whose selectors are plain and whose declarations are kept (at-rules never are)."""
    rules = []
    for rule in tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True):
        if rule.type == "qualified-rule" and all(token.type in SELECTOR_TOKENS for token in rule.prelude):
            declarations = kept_declarations(rule.content)
            if declarations:
                rules.append(f"{tinycss2.serialize(rule.prelude).strip()}{{{declarations}}}")
    return "\n".join(rules)


def kept_declarations(css):
    """The declarations of a style attribute or rule (text or tinycss2's tokens) whose value is plain: colours,
    numbers, names, and urls inside the file."""
    kept = []
    for declaration in tinycss2.parse_blocks_contents(css, skip_whitespace=True, skip_comments=True):
        if declaration.type == "declaration" and declaration.lower_name in ATTRIBUTES and plain(declaration.value):
            important = " !important" if declaration.important else ""
            kept.append(f"{declaration.lower_name}:{tinycss2.serialize(declaration.value).strip()}{important}")
    return ";".join(kept)


def plain(tokens):
    for token in tokens:
        if token.type == "url":
            if not token.value.startswith("#"):
                return False
        elif token.type == "function":
            local = token.lower_name == "url" and [t.type for t in token.arguments] == ["string"]
            if not (token.lower_name in CSS_FUNCTIONS and plain(token.arguments)) and not (
                local and token.arguments[0].value.startswith("#")
            ):
                return False
        elif token.type not in CSS_TOKENS:
            return False
    return True
