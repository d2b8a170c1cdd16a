"""An API client over Flask's test client, and the check of the error envelope; a record read back, a record
without its stamps, and the fields a 422 names."""


class Api:
    """A test client speaking the API's JSON, with a bearer token when it has one."""

    def __init__(self, client, token=None):
        self.client, self.token = client, token

    def with_token(self, token):
        return Api(self.client, token)

    def request(self, method, path, json=None, headers=None, **kwargs):
        headers = dict(headers or {})
        if self.token:
            headers.setdefault("Authorization", f"Bearer {self.token}")
        url = path if path.startswith("/v1") or path.startswith("/signin") else "/v1" + path
        if json is not None:
            kwargs["json"] = json
        return self.client.open(url, method=method, headers=headers, **kwargs)

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, json=None, **kwargs):
        return self.request("POST", path, json=json, **kwargs)

    def patch(self, path, json=None, **kwargs):
        return self.request("PATCH", path, json=json, **kwargs)

    def delete(self, path, **kwargs):
        return self.request("DELETE", path, **kwargs)

    def create(self, collection, body):
        """POST that must succeed: the new record."""
        response = self.post(f"/{collection}", body)
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]


def error_of(response, status, code):
    """The error envelope of `response`, after checking its status, code and shape."""
    body = response.get_json()
    assert response.status_code == status, body
    assert set(body) == {"error"}, body
    error = body["error"]
    assert error["code"] == code and error["status"] == status, body
    assert isinstance(error["message"], str) and error["message"]
    assert set(error) <= {"code", "message", "status", "details"}
    return error


def without_stamps(record):
    return {k: v for k, v in record.items() if k not in ("id", "created_at", "updated_at")}


def read(admin, collection, record_id):
    r = admin.get(f"/{collection}/{record_id}")
    assert r.status_code == 200, r.get_json()
    return r.get_json()["data"]


def keys_of(response, status=422, code="validation_failed"):
    return set(error_of(response, status, code)["details"])
