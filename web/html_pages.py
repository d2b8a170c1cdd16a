"""The service's own small HTML pages (/answer, /client, /inquire, /setup, /signin) as answers: each runs its inline
script and style under a nonce of its own Content-Security-Policy, and is never cached; each says the office's name."""

import secrets

from flask import render_template

from domain import office


def page_with_nonce(template, frame_ancestors=("'none'",), **context):
    """`frame_ancestors`: the origins whose pages may show this one in a frame (none, but the inquiry form's)."""
    nonce = secrets.token_urlsafe(18)
    policy = (
        f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; connect-src 'self'; "
        f"base-uri 'none'; form-action 'none'; frame-ancestors {' '.join(frame_ancestors)}"
    )
    headers = {"Content-Security-Policy": policy, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    return render_template(template, nonce=nonce, office_name=office.current().name, **context), headers
