"""The views of a collection and of its records: the capability each operation needs, then the Resource's work."""

from flask import request
from flask.views import MethodView

from auth import require
from resources.parameters import reject_parameters
from web.lifecycle import json_body


class CollectionView(MethodView):
    init_every_request = False

    def __init__(self, resource):
        self.resource = resource

    def get(self):
        """List the collection."""
        require(self.resource.group, "view")
        return self.resource.list(request.args)

    def post(self):
        """Create a record."""
        require(self.resource.group, "edit")
        options = self.resource.write_options(request.args)
        record = self.resource.create(self.resource.create_body(), options)
        return self.resource.created_answer(record, f"/v1/{self.resource.name}/{record.id}")


class RecordView(MethodView):
    init_every_request = False

    def __init__(self, resource):
        self.resource = resource

    def get(self, id):
        """Read a record."""
        require(self.resource.group, "view")
        return self.resource.record_answer(id, self.resource.parse_record(request.args))

    def patch(self, id):
        """Change some fields of a record."""
        require(self.resource.group, "edit")
        options = self.resource.write_options(request.args)
        body = json_body()
        self.resource.require_private_edits(body)
        record = self.resource.get(id)
        self.resource.update(record, body, options)
        return {"data": self.resource.read(record.id)}

    def delete(self, id):
        """Delete a record that nothing references."""
        require(self.resource.group, "edit")
        reject_parameters(request.args)
        self.resource.delete(self.resource.get(id))
        return "", 204
