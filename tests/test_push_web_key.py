"""SPEC §13: the public `GET /v1/push/web-key`, the VAPID public key a browser subscribes with, or 404 when the
office has not set up Web Push."""

import base64

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

from tests.support.api import error_of


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@pytest.fixture
def vapid_key(app, tmp_path, monkeypatch):
    """The office's VAPID private key, set up as `key_as` (a PEM file or base64url)."""

    def set_up(key_as):
        key = ec.generate_private_key(ec.SECP256R1())
        if key_as == "file":
            path = tmp_path / "private_key.pem"
            path.write_bytes(
                key.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                )
            )
            value = str(path)
        else:
            value = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
        monkeypatch.setitem(app.config, "VAPID_PRIVATE_KEY", value)
        monkeypatch.setitem(app.config, "VAPID_SUBJECT", "mailto:office@band.example")
        return key

    return set_up


@pytest.mark.parametrize("key_as", ["file", "string"])
def test_the_web_key_is_the_public_half_of_the_vapid_key_for_anyone(anon, documented, vapid_key, key_as):
    key = vapid_key(key_as)
    r = anon.get("/push/web-key")
    documented.check("GET", "/push/web-key", r)
    assert r.status_code == 200 and list(r.get_json()["data"]) == ["public_key"]
    published = r.get_json()["data"]["public_key"]
    assert "=" not in published and unb64url(published)[0] == 4  # base64url of an uncompressed point
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(published))
    public.verify(key.sign(b"a VAPID claim", ec.ECDSA(hashes.SHA256())), b"a VAPID claim", ec.ECDSA(hashes.SHA256()))


def test_without_vapid_the_web_key_is_not_found_in_words(anon, documented):
    r = anon.get("/push/web-key")
    documented.check("GET", "/push/web-key", r)
    assert "has not set up Web Push" in error_of(r, 404, "not_found")["message"]
