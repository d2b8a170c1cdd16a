"""The HTML alternative of a plain-text mail: the same words, read from the text as messages write it (paragraphs
a blank line apart; facts as indented `Label:  value` lines; a line of dashes between parts), every value escaped
by the template, and web addresses as links."""

import re
from pathlib import Path

import jinja2

TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).resolve().parent.parent / "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)
FACT = re.compile(r"  (\S[^:]*?):\s+(\S.*)")
RULE = re.compile(r"-{3,}")
# http and https only (never javascript: and the like); punctuation that ends a sentence is not part of a link
LINK = re.compile(r"https?://[^\s<>\"']*[^\s<>\"'.,;:!?)\]}]")


def html_of(subject, text):
    """The whole HTML document of a mail with this subject and plain text."""
    blocks = [block_of(paragraph) for paragraph in text.strip("\n").split("\n\n") if paragraph.strip()]
    return TEMPLATES.get_template("mail.html").render(subject=subject, blocks=blocks)


def block_of(paragraph):
    """{kind: rule}, {kind: facts, rows: [(label, pieces)]} or {kind: lines, lines: [(indented, pieces)]}."""
    lines = paragraph.strip("\n").splitlines()
    if len(lines) == 1 and RULE.fullmatch(lines[0].strip()):
        return {"kind": "rule"}
    facts = [FACT.fullmatch(line) for line in lines]
    if all(facts):
        return {"kind": "facts", "rows": [(fact[1], pieces(fact[2])) for fact in facts]}
    return {"kind": "lines", "lines": [(line.startswith(" "), pieces(line.strip())) for line in lines]}


def pieces(line):
    """The line as [(text, link or None)]: its web addresses apart from the words around them."""
    found, at = [], 0
    for link in LINK.finditer(line):
        found += [(line[at : link.start()], None), (link[0], link[0])]
        at = link.end()
    return [piece for piece in [*found, (line[at:], None)] if piece[0]]
