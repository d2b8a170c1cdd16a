"""Schemathesis hooks for scripts/fuzz.py (named in scripts/schemathesis.toml)."""

from urllib.parse import parse_qsl, urlsplit

import jsonschema_rs
import schemathesis


@schemathesis.hook
def filter_failure(ctx, failure, case, response):
    """A request accepted although the fuzzer made a value inside a list's `filter` object invalid is a failure
    only if what reached the service is invalid too.

    The object's keys are the filters (openapi.params.filter_param), and their values reach the service as query
    text: a value made invalid in type or shape can be valid on the wire (`5` for `"5"` arrives as `5`; an empty
    list or a null may leave the filter out; one value where a list was declared is that list of one). Schemathesis
    forgives these for a parameter of its own, not for a key inside one. So the filters are read back from the
    request as sent and judged as text: any key or value that is invalid there, accepted, fails the fuzzing."""
    if failure.code != "ST201" or case.meta is None:  # ST201: schema-violating request accepted
        return True
    data = case.meta.phase.data
    names = {data.parameter} if getattr(data, "parameter", None) else {m.parameter for m in data.mutations}
    if names != {"filter"}:
        return True
    schema = case.operation.query.get("filter").definition["schema"]
    others = {parameter.name for parameter in case.operation.query} - {"filter"}
    return not filters_valid_as_sent(schema, response.request.url, others)


def filters_valid_as_sent(schema, url, others=()):
    """Whether every query parameter of `url` but the `others` is a key that the `filter` object's `schema`
    names, with text (or, repeated, a list of texts) that the key's value schema takes."""
    sent = {}
    for key, value in parse_qsl(urlsplit(url).query, keep_blank_values=True):
        if key not in others:
            sent.setdefault(key, []).append(value)
    return jsonschema_rs.validator_for(schema, validate_formats=True).is_valid(
        {key: values[0] if len(values) == 1 else values for key, values in sent.items()}
    )
