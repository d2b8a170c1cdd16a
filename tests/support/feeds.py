"""Calendar feed URLs as the office reads them, and their paths for the test client."""


def path_of(url):
    """The path of a feed URL, for the test client."""
    return "/v1/" + url.split("/v1/", 1)[1]


def url_of(response):
    body = response.get_json()
    assert response.status_code == 200, body
    assert set(body) == {"data"} and set(body["data"]) == {"url"}, body
    return body["data"]["url"]


def staff_url(api, member_id):
    return url_of(api.get(f"/staff-members/{member_id}/calendar-url"))


def office_url(api):
    return url_of(api.get("/calendar-url"))
