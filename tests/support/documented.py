"""Answers checked against the OpenAPI document, as the fuzzing checks them: the status is one the operation
documents, the media type one that status documents (when it names any), and a JSON body valid by that status's
schema (formats included). Tests that walk the API call `Documented.check` on every answer they get (through the
`documented` fixture), over the document's `operations`."""

import functools
import json

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match


class Documented:
    """The OpenAPI document of the service, to check answers of its operations against."""

    def __init__(self, document):
        self.document = document

    def response(self, method, path, status):
        """The documented response of `method path` (a path as the document names it) for `status`. An error may
        be the `default` answer, whose schema says which statuses it carries (`error.status`)."""
        operation = self.document["paths"][path][method.lower()]
        responses = operation["responses"]
        for key in (str(status), f"{str(status)[0]}XX", *(["default"] if status >= 400 else [])):
            if key in responses:
                return self.resolved(responses[key])
        raise AssertionError(f"{method} {path} answered {status}, which it does not document ({sorted(responses)})")

    def error_statuses(self, operation):
        """The statuses of the errors an operation (of the document) documents: those its `default` answer's
        `error.status` may be."""
        schema = self.resolved(operation["responses"]["default"])["content"]["application/json"]["schema"]
        return set(schema["properties"]["error"]["properties"]["status"]["enum"])

    def resolved(self, node):
        while "$ref" in node:
            node = functools.reduce(
                lambda at, key: at[key.replace("~1", "/").replace("~0", "~")],
                node["$ref"].removeprefix("#/").split("/"),
                self.document,
            )
        return node

    @functools.cache  # noqa: B019 (one document per test; a validator is built once per schema)
    def validator(self, method, path, status):
        schema = self.response(method, path, status)["content"]["application/json"].get("schema", {})
        # the schema's references point into the document's components: the root it is validated from holds them
        root = {**schema, "components": self.document.get("components", {})}
        return Draft202012Validator(root, format_checker=Draft202012Validator.FORMAT_CHECKER)

    def check(self, method, path, response):
        """Fail unless `response` (Flask's test response to `method path`) is one the document describes."""
        documented = self.response(method, path, response.status_code).get("content", {})
        where = f"{method} {path} → {response.status_code}"
        if not documented or not response.data:  # a response that names no content is not checked further
            return
        media_type = response.mimetype
        assert media_type in documented or "*/*" in documented, f"{where}: {media_type} is not in {sorted(documented)}"
        if media_type == "application/json" and "application/json" in documented:
            error = best_match(self.validator(method, path, response.status_code).iter_errors(response.get_json()))
            assert error is None, f"{where}: the body breaks its schema at {error.json_path}: {error.message}"


@functools.lru_cache(maxsize=2)
def parsed(served: bytes) -> Documented:
    """The document as `GET /openapi.json` serves it, read once per process (it takes a quarter of a second)."""
    return Documented(json.loads(served))


# Values for the query parameters operations require: a period's, /availability's date, the repertoire's q.
REQUIRED_QUERY = {"from": "2000-01-01", "to": "2099-12-31", "date": "2099-12-31", "q": "Perfect"}


def operations(document):
    """(method, path, operation) of every operation; signing out last, since it ends the walk's session."""
    found = [
        (method.upper(), path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method != "parameters"
    ]
    return sorted(found, key=lambda op: op[1] == "/auth/signout")


def required_query(operation):
    """The query string (`?…`, or nothing) giving the operation's required query parameters a value."""
    required = [p["name"] for p in operation.get("parameters", []) if p.get("required") and p["in"] == "query"]
    return "?" + "&".join(f"{name}={REQUIRED_QUERY[name]}" for name in required) if required else ""
