"""SPEC §13: a calendar feed's address as a `webcal://` link and as a QR code of it, drawn by the console (the
phone scans it off the office laptop's screen): the rows the API gives are read back by a QR reader (zxing-cpp),
an encoder's other than the service's."""

import pytest
import zxingcpp
from PIL import Image

from tests.support.feeds import office_url, path_of, staff_url
from tests.support.musicians import Band, data

QUIET_ZONE = 4  # light modules around the code, as the documented answer asks a drawer to leave
MODULE_PIXELS = 4


@pytest.fixture
def band(admin, build, anon):
    return Band(admin, build, anon)


def read_qr(rows):
    """The text a QR reader finds in `rows` ("1" dark, "0" light) drawn as an image with its quiet zone."""
    size = len(rows)
    assert all(len(row) == size and set(row) <= {"0", "1"} for row in rows), rows
    side = (size + 2 * QUIET_ZONE) * MODULE_PIXELS
    image = Image.new("L", (side, side), 255)
    for y, row in enumerate(rows):
        for x, module in enumerate(row):
            if module == "1":
                left, top = ((x + QUIET_ZONE) * MODULE_PIXELS, (y + QUIET_ZONE) * MODULE_PIXELS)
                image.paste(0, (left, top, left + MODULE_PIXELS, top + MODULE_PIXELS))
    found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
    assert len(found) == 1, found
    return found[0].text


def test_a_feed_is_given_as_a_webcal_link_and_a_qr_code_of_it(band, anon, documented):
    answer = band.me.get("/me/calendar-url")
    documented.check("GET", "/me/calendar-url", answer)
    feed = data(answer)
    assert feed["webcal_url"] == "webcal:" + feed["url"].removeprefix("http:")
    assert read_qr(feed["qr_code"]) == feed["webcal_url"]
    assert anon.get(path_of(feed["url"])).status_code == 200


def test_a_new_address_comes_with_its_own_qr_code(band, anon, documented):
    old = data(band.me.get("/me/calendar-url"))
    answer = band.me.post("/me/calendar-url/rotate")
    documented.check("POST", "/me/calendar-url/rotate", answer)
    new = data(answer)
    assert new["webcal_url"] != old["webcal_url"] and new["qr_code"] != old["qr_code"]
    assert read_qr(new["qr_code"]) == new["webcal_url"] == data(band.me.get("/me/calendar-url"))["webcal_url"]
    assert anon.get(path_of(old["url"])).status_code == 404


def test_every_feed_address_carries_its_qr_code(app, band, admin):
    app.config["PUBLIC_URL"] = "https://office.example.com/band"
    for answer in (admin.get(f"/staff-members/{band.kim['id']}/calendar-url"), admin.get("/calendar-url")):
        feed = data(answer)
        assert feed["webcal_url"] == "webcal:" + feed["url"].removeprefix("https:")
        assert read_qr(feed["qr_code"]) == feed["webcal_url"]
    assert staff_url(admin, band.kim["id"]).startswith("https://") and office_url(admin).startswith("https://")
