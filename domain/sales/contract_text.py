"""Contract templates' text (SPEC §15 `/contract-templates`): plain text with merge fields `{{ name }}`, exactly those
of MERGE_FIELDS, and `{% if name %}…{% elif name %}…{% else %}…{% endif %}` on a field having a value; nothing else
(no attribute access, filters, tests, calls, loops or assignments). `check` refuses any other body with a 422 at
`body` naming the line; `render` writes a checked body with the fields' values (domain/sales/contract_values.py), in
Jinja2's sandbox, an unknown name an error."""

import difflib
import functools

from jinja2 import StrictUndefined, TemplateSyntaxError, nodes
from jinja2.sandbox import SandboxedEnvironment

from domain.errors import invalid

# Each merge field and what it holds, as the console's editor and the OpenAPI document describe it.
MERGE_FIELDS = {
    "client_names": "the gig's clients (its contacts) by name: `Anna Berger and Ben Huber`",
    "client_address": "the primary contact's postal address",
    "gig_date": "the gig's date, with its day: `Saturday, June 12, 2027`",
    "start_time": "when the gig starts: `6:00 PM` (empty when not set)",
    "end_time": "when the gig ends (empty when not set)",
    "venue_name": "the venue's name (empty without a venue)",
    "venue_address": "the venue's address on one line",
    "products": "what is sold, one line per product with its times: `Reception, 6:00 PM–11:00 PM`",
    "quote_total": "the accepted quote's total with tax: `€4,500.00`",
    "deposit_amount": "the deposit (the quote's deposit percent of its total); empty when there is none",
    "deposit_due_date": "when the deposit is due, counted from signing: `14 days`; empty when there is none",
    "balance_amount": "the rest of the total, due before the gig",
    "balance_due_date": "the day the balance is due: `May 29, 2027`",
    "office_name": "the office's name",
    "office_address": "the office's postal address on one line",
}
SYNTAX = (
    "Plain text with merge fields written `{{ client_names }}`, and `{% if deposit_amount %}…{% else %}…{% endif %}` "
    "for text shown only when a field has a value; `{% raw %}{{{% endraw %}` writes braces."
)
ALLOWED = "a contract template holds text, merge fields (`{{ client_names }}`) and `{% if field %}…{% endif %}`"
MAX_DEPTH = 8  # of `{% if %}` blocks inside each other: a template needs two or three
# Merge fields and blocks (each `{{` or `{%`) in a body: a contract needs a few dozen. Checking and compiling a body
# costs some 70 µs a field, so a body of 100 000 characters of them would cost a save or a preview most of a second.
MAX_TAGS = 200

_environment = SandboxedEnvironment(
    autoescape=False,  # plain text: the PDF's HTML template escapes it
    undefined=StrictUndefined,
    trim_blocks=True,  # a line holding only `{% if %}` or `{% endif %}` leaves no empty line
    lstrip_blocks=True,
    keep_trailing_newline=True,
)


def merge_fields():
    """The merge fields in their order: [{name, description}]."""
    return [{"name": name, "description": description} for name, description in MERGE_FIELDS.items()]


def check(body):
    """Refuse a body that is not a valid template of merge fields: ApiError 422 at `body`, one message a problem,
    each naming its line (`line 3: unknown merge field `client_nmes` …`)."""
    problems = problems_of(body)
    if problems:
        raise invalid({"body": problems}, "The contract template's body has errors.")


def render(body, values):
    """The text of `body` (checked) with `values`, {merge field: text}, every field among them."""
    template = _checked(body)
    missing = MERGE_FIELDS.keys() - values.keys()
    if missing:
        raise ValueError(f"no values for the merge fields {', '.join(sorted(missing))}")
    return template.render(values)


@functools.lru_cache(maxsize=64)
def _checked(body):
    """`body` checked (`check`) and compiled, kept: a preview renders one body again and again."""
    check(body)
    return _environment.from_string(body)


def problems_of(body):
    """What is wrong with `body` as a template, one message a problem (the same on one line once) in the order of
    their lines (none: it is valid)."""
    tags = body.count("{{") + body.count("{%")
    if tags > MAX_TAGS:
        return [f"the body holds {tags} merge fields and blocks: a template holds at most {MAX_TAGS}"]
    try:
        tree = _environment.parse(body)
    except TemplateSyntaxError as error:
        return [f"line {error.lineno}: {error.message}"]
    except RecursionError:
        return ["the body nests its blocks or brackets more deeply than a template may"]
    return [f"line {line}: {message}" for line, message in sorted(set(_problems_in(tree)))]


def _problems_in(tree):
    """(line, message) of each problem, the parsed template walked without recursion (its depth is the body's)."""
    pending = [(child, 0) for child in tree.body]
    while pending:
        node, depth = pending.pop()
        if isinstance(node, nodes.Output):
            pending += [(child, depth) for child in node.nodes]
        elif isinstance(node, nodes.If):
            if depth == MAX_DEPTH:
                yield node.lineno, f"`{{% if %}}` blocks nested more than {MAX_DEPTH} deep"
                continue
            yield from _condition_problems(node.test)
            pending += [(child, depth + 1) for child in (*node.body, *node.else_)]
            pending += [(branch, depth) for branch in node.elif_]  # an `{% elif %}` is its own `If`, no deeper
        elif isinstance(node, nodes.Name):
            yield from _name_problems(node)
        elif not isinstance(node, nodes.TemplateData):
            yield node.lineno, f"{_what(node)} is not allowed: {ALLOWED}"


def _condition_problems(test):
    """`{% if name %}` or `{% if not name %}`, nothing else."""
    named = test.node if isinstance(test, nodes.Not) else test
    if isinstance(named, nodes.Name):
        yield from _name_problems(named)
    else:
        yield test.lineno, f"`{{% if %}}` takes one merge field (or `not` and one), not {_what(named)}"


def _name_problems(name):
    if name.name in MERGE_FIELDS:
        return
    message = f"unknown merge field `{name.name}`"
    close = difflib.get_close_matches(name.name, MERGE_FIELDS, n=1)
    if close:
        message += f" (did you mean `{close[0]}`?)"
    yield name.lineno, f"{message}; the fields are {', '.join(MERGE_FIELDS)}"


# What a refused construct is called in a message (by the class of its node).
CONSTRUCTS = {
    "Getattr": "attribute access (`.`)",
    "Getitem": "item access (`[]`)",
    "Filter": "a filter (`|`)",
    "Test": "a test (`is`)",
    "Call": "a call",
    "For": "a loop (`for`)",
    "Assign": "an assignment (`set`)",
    "AssignBlock": "an assignment (`set`)",
    "Macro": "a macro",
    "CallBlock": "a macro",
    "Include": "another template (`include`)",
    "Import": "another template (`import`)",
    "FromImport": "another template (`import`)",
    "Extends": "another template (`extends`)",
    "Block": "a block",
    "Const": "a literal value",
}


def _what(node):
    return CONSTRUCTS.get(type(node).__name__, f"an expression (`{type(node).__name__.lower()}`)")
