"""What an operation takes besides a JSON body: no query parameter but those it declares (`reject_parameters`),
a write's boolean flags (`Flag`), a create's multipart/form-data body (`Multipart`)."""

from dataclasses import dataclass

from flask import request

from domain.errors import ApiError, invalid
from web.lifecycle import raise_body_error


@dataclass(frozen=True)
class Flag:
    """A boolean query parameter of a resource's writes (`?allow_conflicts=true`), strictly true or false."""

    name: str
    description: str

    def parse(self, args):
        value = args.get(self.name, "false")
        if value not in ("true", "false"):
            raise ApiError(400, "invalid_query", "Invalid query parameters.", {self.name: "Expected true or false."})
        return value == "true"


@dataclass(frozen=True)
class Multipart:
    """A create body sent as multipart/form-data: its parts as JSON schemas, the `files` among them."""

    parts: dict
    required: tuple
    files: tuple = ("file",)

    def read(self):
        """{part: value} (a file part as werkzeug's FileStorage): 415 unless multipart, 422 for a part that is
        unknown or given twice (never silently the last one)."""
        if request.mimetype != "multipart/form-data":
            raise ApiError(415, "unsupported_media_type", "Upload the file as multipart/form-data.")
        raise_body_error()
        given = [*request.form.lists(), *request.files.lists()]
        problems = {}
        for key, values in given:
            is_file = key in request.files
            if key not in self.parts or is_file != (key in self.files):
                problems[key] = ["Unknown field."]
            elif len(values) > 1:
                problems[key] = ["Give this field once."]
        if problems:
            raise invalid(problems)
        return {key: values[0] for key, values in given}

    def schema(self):
        return {"type": "object", "required": list(self.required), "properties": self.parts}


def reject_parameters(args, allowed=()):
    unknown = {key: "Unknown parameter." for key in args if key not in allowed}
    if unknown:
        raise ApiError(400, "invalid_query", "Invalid query parameters.", unknown)
