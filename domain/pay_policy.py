"""Who may see a pay amount, and where (SPEC §4.6, §8, §9, §10): the one home of the rule. Every answer, event,
webhook payload and message that carries an amount asks one of these functions; none decides on its own.

The amounts: a gig role's `pay_cents` (a field private to the pay group: `field_types.Pay`), the amounts of the
pay group's own records (rates and the pay sheets need `pay.view` to be read at all, as any group's records do:
`auth.require`), and what a member earns on a role (candidates, /me, the answer page, the invitation's message).
Who sees them:

- an office caller (a session or key) with `pay.view`; without it they read null, and filtering or sorting on
  them is refused (403). Lists, reads, `expand` and filters through a reference mask them in SQL, by
  `masked_columns`; the event stream and a gig's history by `hidden_to_caller`; candidates by
  `candidates_shown`; a 409's clashing record is its own read (`web/clash_details.py`);
- a musician, on their own pages and in the invitation's message, what they earn on a role they hold or one a
  pending invitation offers them; never what a role pays once another member holds it (`member_sees_role_pay`);
- the public answer endpoint (an answer link, no caller): as the invitation's message, by the same rule;
- a webhook endpoint with `include_pay`; without it every amount reads null (`hidden_to_endpoint`);
- nobody in a mail's subject, a push or `/me/notifications`: titles and summaries never carry an amount
  (`delivery/notifications/queue.py`)."""

from domain.errors import ApiError
from domain.payroll import pay_of

PAY = "pay"
PAY_VIEW = f"{PAY}.view"


def office_sees_pay(can):
    """An office caller holding the capabilities `can` reads pay amounts."""
    return PAY_VIEW in can


def reading_needs(group):
    """The capability a caller needs to read a field private to `group` (pay_cents: pay.view)."""
    return f"{group}.view"


def writing_needs(group):
    """The capability a caller needs to set a field private to `group` (pay_cents: pay.edit)."""
    return f"{group}.edit"


def hides(group, can):
    """A field private to `group` (pay_cents: the pay group) reads null to a caller holding `can`."""
    return group is not None and reading_needs(group) not in can


def is_amount(collection_group, column):
    """`column` of a collection of `collection_group` holds a pay amount: a field private to the pay group, or an
    amount of the pay group's own records (a rate's amount_cents)."""
    return column.group == PAY or (collection_group == PAY and column.name.endswith("_cents"))


# --- the office: lists, reads, expand, filters and sorts, events, candidates -------------------------------------


def masked_columns(columns, can):
    """`columns` {name: listing.Column} as a caller holding `can` reads them: a hidden one reads null in SQL
    (`Column.masked`) and is neither filtered nor sorted on (`refused`)."""
    if not any(hides(column.group, can) for column in columns.values()):
        return columns
    return {name: column.masked() if hides(column.group, can) else column for name, column in columns.items()}


def refused(name, column):
    """The 403 for filtering or sorting on `name`, a column `masked_columns` hid."""
    required = f"{column.group}.view"
    return ApiError(403, "forbidden", f"Filtering or sorting on {name} needs {required}.", {"required": required})


def hidden_to_caller(private, can):
    """{collection: [field]} of an event's fields that read null to an office caller holding `can`; `private`:
    {collection: {field: group}} of the fields private to a group (`resources.private_fields`)."""
    return {
        collection: [name for name, group in fields.items() if hides(group, can)]
        for collection, fields in private.items()
    }


def candidates_shown(candidates, can):
    """The candidates of a gig role (`availability.candidates`) as a caller holding `can` reads their pay."""
    if office_sees_pay(can):
        return candidates
    return [{**candidate, "amount_cents": None} for candidate in candidates]


# --- a musician, an answer link, the invitation's message --------------------------------------------------------


def member_sees_role_pay(holder_id, member_id, offered):
    """A member sees what a gig role held by `holder_id` pays them while it is theirs, or while it is open and
    `offered` to them (a pending invitation). Once another holds it, what it pays is no longer theirs to know: its
    own pay_cents may have been agreed with whoever the office asked next."""
    return holder_id == member_id or (offered and holder_id is None)


def offered_pay(gig_role, member_id):
    """What the member a pending invitation asks to play `gig_role` (a GigRole) earns on it, as the answer page
    and the invitation's message show it: None once another member holds the role."""
    if not member_sees_role_pay(gig_role.staff_member_id, member_id, offered=True):
        return None
    return pay_of(gig_role, member_id)


# --- a webhook endpoint ------------------------------------------------------------------------------------------


def hidden_to_endpoint(endpoint, amounts, sales_fields):
    """{collection: [field]} of the amounts that read null in the payloads to `endpoint` (a WebhookEndpoint);
    `amounts`: every pay amount by collection (`events.resource.pay_amounts`); `sales_fields`: money in among other
    groups' records (`events.resource.sales_fields`), hidden unless the endpoint includes sales (SPEC §15), as the
    sales group's own events are never sent it."""
    hidden = {} if endpoint.include_pay else dict(amounts)
    if not endpoint.include_sales:
        for collection, names in sales_fields.items():
            hidden[collection] = [*hidden.get(collection, []), *names]
    return hidden
