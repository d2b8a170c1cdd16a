"""Local stand-ins for the four push gateways of SPEC §9, on 127.0.0.1, each speaking its protocol and checking
what the real one checks: APNs over HTTP/2 only (h2, prior knowledge) with an ES256 provider token verified with
the team's public key; FCM's OAuth token endpoint (the service account's signed assertion) and its HTTP v1 send
(the bearer it issued); a Web Push service that verifies the VAPID signature and decrypts the message with the
subscription's private key (http_ece); a UnifiedPush server that takes a plain POST. A test says how each
request is answered (`answer(number)`, from 1) and reads what arrived (`received`)."""

import base64
import http.server
import json
import selectors
import socket
import socketserver
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import http_ece
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


@dataclass
class Answer:
    status: int = 200
    headers: dict = field(default_factory=dict)
    body: bytes = b""
    delay: float = 0.0  # seconds before answering
    endless: bool = False  # after the body, blank filler until the client hangs up (at most FILLER_CAP bytes)

    @classmethod
    def json(cls, status, document, headers=None):
        return cls(status, {"content-type": "application/json", **(headers or {})}, json.dumps(document).encode())


@dataclass
class Request:
    method: str
    path: str
    headers: dict  # lower-case names
    body: bytes
    protocol: str  # HTTP/1.1 or HTTP/2
    seen: dict = field(default_factory=dict)  # what the server made of it: claims, the decrypted message, ...


FILLER = b" " * 65536
FILLER_CAP = 1 << 30  # bytes of filler after an endless answer's body, should the client never hang up


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Server:
    """Common ground: the record of requests, their numbering and the answers a test asked for."""

    default = Answer(200)

    def __init__(self, answer=None):
        self.answer = answer or (lambda number: None)
        self.received = []
        self.lock = threading.Lock()
        self.closing = threading.Event()

    def respond(self, request):
        """Check the request as the real gateway would; then the test's answer, or the default."""
        refusal = self.check(request)
        with self.lock:
            self.received.append(request)
            number = len(self.received)
        answer = refusal or self.answer(number) or self.default
        if answer.delay:
            self.closing.wait(answer.delay)
        return answer

    def check(self, request):
        return None


class Http1Server(Server):
    def __init__(self, answer=None):
        super().__init__(answer)
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                answer = owner.respond(Request("POST", self.path, headers, body, self.request_version))
                self.send_response(answer.status)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                if answer.endless:
                    self.send_header("transfer-encoding", "chunked")
                    self.end_headers()
                    self.stream(answer.body)
                    return
                self.send_header("content-length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)

            def stream(self, body):
                chunks = [body] * bool(body) + [FILLER] * (FILLER_CAP // len(FILLER))  # an empty chunk ends it
                try:
                    for chunk in chunks:
                        if owner.closing.is_set():
                            break
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.write(b"0\r\n\r\n")
                except OSError:  # the client hung up, as it should
                    pass
                self.close_connection = True

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda request, address: None  # a client that hung up on a slow answer
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()

    def close(self):
        self.closing.set()
        self.server.shutdown()
        self.server.server_close()


class Http2Server(Server):
    """HTTP/2 with prior knowledge (h2c): a client speaking HTTP/1.1 is cut off at its first line."""

    def __init__(self, answer=None):
        super().__init__(answer)
        owner = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                owner.serve(self.request)

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()

    def serve(self, sock):
        connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        connection.initiate_connection()
        sock.sendall(connection.data_to_send())
        streams, endless = {}, {}  # endless: stream id -> bytes of filler still to send
        while not self.closing.is_set():
            try:
                data = sock.recv(65536)
                events = connection.receive_data(data) if data else []
            except (OSError, h2.exceptions.ProtocolError):
                return
            if not data:
                return
            for event in events:
                self.on(connection, streams, endless, event)
            self.fill(connection, endless)
            try:
                sock.sendall(connection.data_to_send())
            except OSError:
                return

    def fill(self, connection, endless):
        """Filler on each endless stream, as much as the client's flow-control window takes now."""
        for stream_id, left in list(endless.items()):
            room = min(left, connection.local_flow_control_window(stream_id), connection.max_outbound_frame_size)
            while room > 0:
                connection.send_data(stream_id, FILLER[:room])
                left -= room
                room = min(left, connection.local_flow_control_window(stream_id), connection.max_outbound_frame_size)
            endless[stream_id] = left
            if not left:
                connection.end_stream(stream_id)
                del endless[stream_id]

    def on(self, connection, streams, endless, event):
        if isinstance(event, h2.events.StreamReset):
            endless.pop(event.stream_id, None)
        elif isinstance(event, h2.events.RequestReceived):
            streams[event.stream_id] = (dict(event.headers), bytearray())
        elif isinstance(event, h2.events.DataReceived):
            streams[event.stream_id][1].extend(event.data)
            connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, h2.events.StreamEnded):
            headers, body = streams.pop(event.stream_id)
            request = Request(headers[":method"], headers[":path"], headers, bytes(body), "HTTP/2")
            answer = self.respond(request)
            reply = [(":status", str(answer.status))]
            if not answer.endless:
                reply.append(("content-length", str(len(answer.body))))
            connection.send_headers(event.stream_id, reply + list(answer.headers.items()))
            connection.send_data(event.stream_id, answer.body, end_stream=not answer.endless)
            if answer.endless:
                endless[event.stream_id] = FILLER_CAP

    def close(self):
        self.closing.set()
        self.server.shutdown()
        self.server.server_close()


class ApnsServer(Http2Server):
    """APNs: `POST /3/device/<token>` with a provider token signed by `public_key` (kid `key_id`, iss
    `team_id`, at most an hour old), `apns-topic` and `apns-push-type`; refusals as Apple words them."""

    default = Answer(200, {"apns-id": "00000000-0000-0000-0000-000000000001"})

    def __init__(self, public_key, key_id, team_id, topic, answer=None):
        self.public_key, self.key_id, self.team_id, self.topic = public_key, key_id, team_id, topic
        super().__init__(answer)

    def check(self, request):
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        try:
            header = jwt.get_unverified_header(token)
            claims = jwt.decode(token, self.public_key, algorithms=["ES256"], options={"require": ["iss", "iat"]})
        except jwt.PyJWTError:
            return apns_refusal(403, "InvalidProviderToken")
        request.seen = {"token": token, "claims": claims, "kid": header.get("kid")}
        if scheme != "bearer" or header.get("kid") != self.key_id or claims["iss"] != self.team_id:
            return apns_refusal(403, "InvalidProviderToken")
        if time.time() - claims["iat"] > 3600:
            return apns_refusal(403, "ExpiredProviderToken")
        if request.headers.get("apns-topic") != self.topic:
            return apns_refusal(400, "BadTopic")
        if request.headers.get("apns-push-type") != "alert" or not request.path.startswith("/3/device/"):
            return apns_refusal(400, "BadPath")
        request.seen["payload"] = json.loads(request.body)
        return None


def apns_refusal(status, reason, headers=None):
    return Answer.json(status, {"reason": reason}, headers)


GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token"  # the audience of a grant, wherever it is sent


class FcmServer(Http1Server):
    """FCM: `/token` swaps the service account's signed assertion for an access token; `/v1/projects/<id>/
    messages:send` takes a message with one of those tokens."""

    def __init__(self, public_key, client_email, answer=None):
        self.public_key, self.client_email = public_key, client_email
        self.issued, self.revoked = [], set()
        super().__init__(answer)
        self.token_uri = f"{self.origin}/token"

    def respond(self, request):
        if request.path == "/token":
            return self.token(request)
        return super().respond(request)

    def token(self, request):
        form = dict(urllib.parse.parse_qsl(request.body.decode()))
        try:
            claims = jwt.decode(form["assertion"], self.public_key, algorithms=["RS256"], audience=GOOGLE_TOKEN_URI)
        except (KeyError, jwt.PyJWTError):
            return Answer.json(400, {"error": "invalid_grant"})
        if (
            form["grant_type"] != "urn:ietf:params:oauth:grant-type:jwt-bearer"
            or claims["iss"] != self.client_email
            or "firebase.messaging" not in claims.get("scope", "")
        ):
            return Answer.json(400, {"error": "invalid_scope"})
        with self.lock:
            self.issued.append(f"ya29.local-{len(self.issued) + 1}")
            return Answer.json(200, {"access_token": self.issued[-1], "expires_in": 3600, "token_type": "Bearer"})

    def check(self, request):
        bearer = request.headers.get("authorization", "").removeprefix("Bearer ")
        if bearer not in self.issued or bearer in self.revoked:
            return fcm_error(401, "UNAUTHENTICATED")
        request.seen = {"bearer": bearer, "message": json.loads(request.body)["message"]}
        return None


def fcm_error(status, code, headers=None):
    detail = {"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code}
    return Answer.json(status, {"error": {"code": status, "status": code, "details": [detail]}}, headers)


class WebPushServer(Http1Server):
    """A Web Push service (RFC 8030): checks the VAPID signature (RFC 8292) against the application server's
    public key and decrypts the message (RFC 8291) with the subscription's keys, made here."""

    default = Answer(201)

    def __init__(self, vapid_public_key, subject, answer=None):
        self.vapid_public_key, self.subject = vapid_public_key, subject
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = b"sixteen byte key"
        super().__init__(answer)

    def subscription(self, name="device-1"):
        """The browser's PushSubscription JSON, as a device registers it."""
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        keys = {"p256dh": b64url(point), "auth": b64url(self.auth)}
        return json.dumps({"endpoint": f"{self.origin}/push/{name}", "keys": keys})

    def check(self, request):
        scheme, _, params = request.headers.get("authorization", "").partition(" ")
        parts = dict(part.split("=", 1) for part in params.split(",") if "=" in part)
        if scheme != "vapid" or parts.get("k") != self.vapid_public_key:
            return Answer(401)
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
        try:
            claims = jwt.decode(parts.get("t", ""), key, algorithms=["ES256"], audience=self.origin)
        except jwt.PyJWTError:
            return Answer(403)
        if claims.get("sub") != self.subject or claims["exp"] > time.time() + 24 * 3600:
            return Answer(403)
        if request.headers.get("content-encoding") != "aes128gcm" or "ttl" not in request.headers:
            return Answer(400)
        plain = http_ece.decrypt(request.body, private_key=self.private_key, auth_secret=self.auth)
        request.seen = {"claims": claims, "message": json.loads(plain)}
        return None


class UnifiedPushServer(Http1Server):
    default = Answer(201)


def free_port():
    """A port on 127.0.0.1 that nothing listens on (for a refused connection)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SilentServer:
    """A server on 127.0.0.1 that accepts every connection, reads what comes and never answers: a push endpoint
    or a webhook receiver that hangs. `open` counts the connections open now, `most_open` the most at once;
    `close()` drops them all and stops listening."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
        self.origin = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.listener, selectors.EVENT_READ)
        self.connections, self.most_open, self.accepted = set(), 0, 0
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    @property
    def open(self):
        return len(self.connections)

    def serve(self):
        while not self.closing.is_set():
            for key, _ in self.selector.select(0.02):
                if key.fileobj is self.listener:
                    connection, _ = self.listener.accept()
                    self.selector.register(connection, selectors.EVENT_READ)
                    self.connections.add(connection)
                    self.accepted += 1
                    self.most_open = max(self.most_open, len(self.connections))
                elif not self.read(key.fileobj):
                    self.selector.unregister(key.fileobj)
                    self.connections.discard(key.fileobj)
                    key.fileobj.close()
        for connection in [*self.connections, self.listener]:
            connection.close()
        self.connections.clear()

    @staticmethod
    def read(connection):
        """Whether the connection is still open (the request is read and forgotten)."""
        try:
            return bool(connection.recv(65536))
        except OSError:
            return False

    def close(self):
        self.closing.set()
        self.thread.join(5)
