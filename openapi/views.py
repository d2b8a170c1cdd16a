"""How a view that is not a generic resource view declares itself: `@operation`, which the OpenAPI document shows
and `auth.authorise` holds every caller to (its capability)."""


def operation(
    *,
    capability=None,
    body=None,
    response=None,
    status=200,
    errors=(),
    listing=None,
    many=False,
    media_type="application/json",
    params=(),
    fields=None,
    partial=False,
):
    """Describe a view that is not a generic resource view; its docstring is the summary.

    `body`/`response` are schemas (`partial`: the body may leave out any field, as a PATCH's does; a body may
    also be a `resources.parameters.Multipart` upload); `listing` is
    "paged" (limit and offset) or a columns dict (the full list parameters) and makes the answer a list with
    `meta`; `many` answers `{data: [...]}` without it; `status` may be a tuple; `errors` are the statuses besides
    401 and 403 (which views marked `public` never give); `fields` (a columns dict) is the `fields` parameter of
    a single record's read; `capability` (`"admin.edit"`) is what the view requires of every caller, refused
    before the view runs (`auth.authorise`) and shown as the operation's `x-capability` (none: any signed-in user,
    or the record decides in the view's own code, as for one's own invitation).
    """

    def decorate(view):
        view.openapi = {
            "summary": " ".join((view.__doc__ or "").split()),
            "body": body,
            "response": response,
            "status": status,
            "errors": errors,
            "listing": listing,
            "many": many,
            "media_type": media_type,
            "params": params,
            "fields": fields,
            "partial": partial,
            "capability": capability,
        }
        return view

    return decorate
