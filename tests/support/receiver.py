"""A webhook receiver for the tests: a real HTTP server on 127.0.0.1 that checks every request's signature with
the `standardwebhooks` library, as a band's website would, and answers as a test tells it to."""

import contextlib
import http.server
import json
import threading
import time
from dataclasses import dataclass, field

from standardwebhooks import Webhook, WebhookVerificationError


@dataclass
class Received:
    headers: dict
    body: bytes
    at: float  # time.time() of arrival
    verified: bool  # the signature checked out with one of the receiver's secrets

    @property
    def payload(self):
        return json.loads(self.body)

    @property
    def webhook_id(self):
        return self.headers["webhook-id"]


@dataclass
class Answer:
    status: int = 200
    headers: dict = field(default_factory=dict)
    body: bytes = b"ok"
    delay: float = 0.0  # seconds before answering


class Receiver:
    """`answer(number)` says how to answer the number-th request (from 1); the default is 200 at once."""

    def __init__(self, answer=None, secrets=()):
        self.answer = answer or (lambda number: Answer())
        self.secrets = list(secrets)
        self.received = []
        self.lock = threading.Lock()
        self.in_flight, self.most_in_flight = {}, {}  # webhook-id -> requests now / at most at once
        self.released = threading.Event()  # set at close: answers still waiting end
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = self.rfile.read(length)
                if len(body) < length:  # the sender died mid-request (a test's kill -9): no request to a receiver
                    self.close_connection = True
                    return
                receiver.arrived(dict(self.headers.items()), body, self)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def arrived(self, headers, body, handler):
        headers = {k.lower(): v for k, v in headers.items()}
        message_id = headers.get("webhook-id", "")
        with self.lock:
            self.received.append(Received(headers, body, time.time(), self.verify(headers, body)))
            number = len(self.received)
            self.in_flight[message_id] = self.in_flight.get(message_id, 0) + 1
            self.most_in_flight[message_id] = max(self.most_in_flight.get(message_id, 0), self.in_flight[message_id])
        try:
            answer = self.answer(number)
            if answer.delay:
                self.released.wait(answer.delay)
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the sender gave up waiting
                handler.send_response(answer.status)
                for name, value in answer.headers.items():
                    handler.send_header(name, value)
                handler.send_header("Content-Length", str(len(answer.body)))
                handler.end_headers()
                handler.wfile.write(answer.body)
        finally:
            with self.lock:
                self.in_flight[message_id] -= 1

    def verify(self, headers, body):
        for secret in self.secrets:
            try:
                Webhook(secret).verify(body, headers)
                return True
            except WebhookVerificationError:
                continue
        return False

    def ids(self):
        with self.lock:
            return [r.webhook_id for r in self.received]

    def close(self):
        self.released.set()
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
