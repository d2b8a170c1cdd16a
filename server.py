"""waitress, answering with the error envelope where it answers by itself (a body over its limit, say)."""

import json
import uuid

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask

from errors import HTTP_CODES, envelope


class JsonErrorTask(ErrorTask):
    def execute(self):
        error = self.request.error
        code = HTTP_CODES.get(error.code, "bad_request" if error.code < 500 else "internal_error")
        message = "The body is larger than the server accepts." if error.code == 413 else error.reason + "."
        body = json.dumps(envelope(error.code, code, message)).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.extend([("Content-Type", "application/json"), ("X-Request-Id", uuid.uuid4().hex)])
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class JsonErrorChannel(HTTPChannel):
    error_task_class = JsonErrorTask
