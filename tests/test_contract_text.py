"""SPEC §15 `/contract-templates`: a template's body is text with exactly SPEC's merge fields, written in a sandbox
(no attribute access, no code); an unknown field or a syntax error is a 422 at `body` naming it and its line; the
values are written as the client's language writes dates, times, money and lists. The engines the contract
templates' resource and a contract's creation call (domain/sales/contract_text.py, domain/sales/contract_values.py)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import ApiError
from domain.sales.contract_text import MAX_DEPTH, check, merge_fields, render
from domain.sales.contract_values import ContractFacts, Product, split_total, values_for
from formats.client_words import language_of

SPEC_FIELDS = [
    "client_names",
    "client_address",
    "gig_date",
    "start_time",
    "end_time",
    "venue_name",
    "venue_address",
    "products",
    "quote_total",
    "deposit_amount",
    "deposit_due_date",
    "balance_amount",
    "balance_due_date",
    "office_name",
    "office_address",
]
FIELD_LIST = ", ".join(SPEC_FIELDS)
# What bodies are made of, for the test that any body is refused or written: Jinja's syntax, fields and text.
PIECES = ["{{", "}}", "{%", "%}", "{#", "#}", " if ", " endif ", " else ", " not ", " raw ", " endraw ", "-", "\n"]
PIECES += ["(", ")", "[", "]", ".", "|", "'", "x", " ", "venue_name", "__class__", "{% if venue_name %}", "{% endif %}"]

WEDDING = ContractFacts(
    client_names=["Anna Berger", "Ben Huber"],
    client_address="Hauptstraße 1, 1010 Wien",
    gig_date="2027-06-12",
    start_time="18:00",
    end_time="23:30",
    venue_name="Schloss Hof",
    venue_address="Schlosshof 1, 2294 Marchegg, AT",
    products=[Product("Ceremony", "14:00", "15:00"), Product("Reception", "18:00", "23:30"), Product("Dance lesson")],
    currency="EUR",
    quote_total_cents=450000,
    deposit_percent=30,
    deposit_due_days=14,
    balance_due_days=14,
    office_name="Die Hochzeitsband",
    office_address="Ring 5, 1010 Wien",
)

TEMPLATE = """Agreement between {{ office_name }}, {{ office_address }}, and {{ client_names }}.

The band plays on {{ gig_date }} from {{ start_time }} to {{ end_time }} at {{ venue_name }} ({{ venue_address }}):
{{ products }}

Total: {{ quote_total }}.
{% if deposit_amount %}
A deposit of {{ deposit_amount }} is due {{ deposit_due_date }} after signing.
{% endif %}
The balance of {{ balance_amount }} is due on {{ balance_due_date }}.
"""


def refusal(body):
    """The messages of the 422 that `check` answers `body` with."""
    with pytest.raises(ApiError) as refused:
        check(body)
    assert (refused.value.status, refused.value.code) == (422, "validation_failed")
    assert list(refused.value.details) == ["body"]
    return refused.value.details["body"]


def test_a_template_is_written_with_every_value_in_the_clients_language():
    text = render(TEMPLATE, values_for(WEDDING, "en"))
    assert text == (
        "Agreement between Die Hochzeitsband, Ring 5, 1010 Wien, and Anna Berger and Ben Huber.\n\n"
        "The band plays on Saturday, June 12, 2027 from 6:00\u202fPM to 11:30\u202fPM at Schloss Hof "
        "(Schlosshof 1, 2294 Marchegg, AT):\n"
        "Ceremony, 2:00\u202fPM–3:00\u202fPM\nReception, 6:00\u202fPM–11:30\u202fPM\nDance lesson\n\n"
        "Total: €4,500.00.\n"
        "A deposit of €1,350.00 is due 14 days after signing.\n"
        "The balance of €3,150.00 is due on May 29, 2027.\n"
    )


def test_german_in_austria_writes_its_own_dates_times_money_and_lists():
    values = values_for(WEDDING, "de-AT")
    assert values["client_names"] == "Anna Berger und Ben Huber"
    assert values["gig_date"] == "Samstag, 12. Juni 2027"
    assert (values["start_time"], values["end_time"]) == ("18:00", "23:30")
    assert values["products"] == "Ceremony, 14:00–15:00\nReception, 18:00–23:30\nDance lesson"
    assert values["quote_total"] == "€\xa04.500,00"
    assert (values["deposit_amount"], values["deposit_due_date"]) == ("€\xa01.350,00", "14 Tage")
    assert (values["balance_amount"], values["balance_due_date"]) == ("€\xa03.150,00", "29. Mai 2027")


def test_a_language_of_an_unknown_region_is_its_language_and_an_unknown_one_english():
    assert values_for(WEDDING, "de-XY")["gig_date"] == "Samstag, 12. Juni 2027"
    for unknown in ("xq", "", "-", "i-klingon"):
        assert values_for(WEDDING, unknown)["gig_date"] == "Saturday, June 12, 2027"


def test_the_clients_own_language_wins_over_the_offices_written_in_the_offices_region():
    assert language_of("en", "de-AT") == "en"
    assert language_of("de", "de-AT") == "de-AT"  # an Austrian office's German client: € 1.234,50
    assert language_of("de", "en-GB") == "de"
    assert language_of(None, "de-AT") == "de-AT"  # no contact: the office's
    assert values_for(WEDDING, language_of("en", "de"))["gig_date"] == "Saturday, June 12, 2027"


def test_without_a_deposit_its_paragraph_is_left_out_without_an_empty_line():
    text = render(TEMPLATE, values_for(WEDDING._replace(deposit_percent=0), "en"))
    assert "deposit" not in text
    assert "Total: €4,500.00.\nThe balance of €4,500.00 is due on May 29, 2027.\n" in text


def test_the_deposit_is_rounded_half_up_to_the_cent_and_the_balance_is_the_rest():
    assert split_total(12345, 50) == (6173, 6172)
    assert split_total(450000, 30) == (135000, 315000)
    assert split_total(450000, 0) == (0, 450000)
    assert split_total(450000, 100) == (450000, 0)


def test_values_are_text_never_read_as_a_template_nor_escaped():
    facts = WEDDING._replace(client_names=["{{ office_name }}", "<b>Ben</b> & Co"])
    assert render("{{ client_names }}", values_for(facts, "en")) == "{{ office_name }} and <b>Ben</b> & Co"


def test_unknown_facts_are_empty_and_an_if_on_them_leaves_them_out():
    facts = WEDDING._replace(start_time=None, end_time=None, venue_name=None, venue_address=None, client_address=None)
    body = "{% if venue_name %}at {{ venue_name }}{% else %}venue to be agreed{% endif %}|{{ start_time }}"
    assert render(body, values_for(facts, "en")) == "venue to be agreed|"


def test_braces_are_written_inside_raw():
    assert render("{% raw %}{{ not a field }}{% endraw %}", values_for(WEDDING, "en")) == "{{ not a field }}"


def test_the_merge_fields_are_exactly_the_specs_each_described():
    fields = merge_fields()
    assert [field["name"] for field in fields] == SPEC_FIELDS
    assert all(field["description"] for field in fields)
    assert set(values_for(WEDDING, "en")) == set(SPEC_FIELDS)


def test_an_unknown_field_is_refused_at_body_naming_it_its_line_and_the_fields():
    assert refusal("Dear couple,\n\n{{ client_nmes }}, thank you.") == [
        f"line 3: unknown merge field `client_nmes` (did you mean `client_names`?); the fields are {FIELD_LIST}"
    ]
    assert refusal("{% if honeymoon %}x{% endif %}") == [
        f"line 1: unknown merge field `honeymoon`; the fields are {FIELD_LIST}"
    ]


def test_a_syntax_error_is_refused_at_body_with_its_line():
    assert refusal("Dear {{ client_names }},\nsee you {{ gig_date }\n") == ["line 2: unexpected '}'"]
    [message] = refusal("{% if deposit_amount %}\nDeposit\n")
    assert message.startswith("line 2: Unexpected end of template.")


def test_every_problem_is_named_in_the_order_of_its_lines():
    assert [message[:7] for message in refusal("{{ a }}\n{{ gig_date }}\n{{ b.c }}\n{{ d }} {{ d }}")] == [
        "line 1:",
        "line 3:",
        "line 4:",
    ]


@pytest.mark.parametrize(
    "body, construct",
    [
        ("{{ client_names.__class__ }}", "attribute access (`.`)"),
        ("{{ client_names['x'] }}", "item access (`[]`)"),
        ("{{ client_names|upper }}", "a filter (`|`)"),
        ("{{ client_names is defined }}", "a test (`is`)"),
        ("{{ range(10) }}", "a call"),
        ("{{ lipsum() }}", "a call"),
        ("{{ cycler.__init__.__globals__ }}", "attribute access (`.`)"),
        ("{% for x in products %}{{ x }}{% endfor %}", "a loop (`for`)"),
        ("{% set client_names = 'x' %}", "an assignment (`set`)"),
        ("{% set x %}y{% endset %}", "an assignment (`set`)"),
        ("{% macro m() %}x{% endmacro %}", "a macro"),
        ("{% include 'base.html' %}", "another template (`include`)"),
        ("{% extends 'base.html' %}", "another template (`extends`)"),
        ("{% import 'base.html' as b %}", "another template (`import`)"),
        ("{{ 'text' }}", "a literal value"),
        ("{{ quote_total * 2 }}", "an expression (`mul`)"),
    ],
)
def test_code_is_refused_and_never_run(body, construct):
    [message] = refusal("Contract\n" + body)
    assert message.startswith(f"line 2: {construct} is not allowed: a contract template holds text, merge fields")
    with pytest.raises(ApiError):
        render(body, values_for(WEDDING, "en"))


def test_an_if_takes_one_field_or_not_and_one():
    assert render(
        "{% if not venue_name %}none{% elif venue_name %}{{ venue_name }}{% endif %}", values_for(WEDDING, "en")
    ) == ("Schloss Hof")
    [message] = refusal("\n{% if quote_total == '0' %}free{% endif %}")
    assert message == "line 2: `{% if %}` takes one merge field (or `not` and one), not an expression (`compare`)"
    [message] = refusal("{% if venue_name and venue_address %}x{% endif %}")
    assert message == "line 1: `{% if %}` takes one merge field (or `not` and one), not an expression (`and`)"


def test_ifs_nested_too_deeply_are_refused_with_the_line_never_a_crash():
    deep = "".join(f"{{% if venue_name %}}{n}\n" for n in range(MAX_DEPTH + 1)) + "{% endif %}" * (MAX_DEPTH + 1)
    assert refusal(deep) == [f"line {MAX_DEPTH + 1}: `{{% if %}}` blocks nested more than {MAX_DEPTH} deep"]
    allowed = "{% if venue_name %}" * MAX_DEPTH + "x" + "{% endif %}" * MAX_DEPTH
    assert render(allowed, values_for(WEDDING, "en")) == "x"
    hostile = "{{" + "(" * 5000 + "gig_date" + ")" * 5000 + "}}"
    assert refusal(hostile) == ["the body nests its blocks or brackets more deeply than a template may"]
    many = "{% if venue_name %}" * 5000 + "{% endif %}" * 5000  # refused before it is parsed
    assert refusal(many) == ["the body holds 10000 merge fields and blocks: a template holds at most 200"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join) | st.text(max_size=200))
def test_any_body_is_either_refused_with_a_422_or_written(body):
    try:
        check(body)
    except ApiError as refused:
        assert refused.status == 422 and refused.details["body"]
        return
    assert isinstance(render(body, values_for(WEDDING, "en")), str)
