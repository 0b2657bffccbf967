"""A push service on a local port (https, with the tests' own CA: tests/portal/tls.py), for
the tests: it takes what the site posts the way a real
one would (RFC 8030), checks the VAPID signature and claims (RFC 8292) against the site's public
key, decrypts the body with the subscription's private key and auth secret (RFC 8291,
aes128gcm, with ``http_ece``), keeps what arrived, and answers as told per endpoint (201, or
404/410 for a subscription that is gone, 429 with Retry-After, 500 ...).

``Browser`` plays the other end of a subscription: a P-256 key pair and an auth secret, as a
browser makes them when it subscribes."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from tests.portal.tls import Holding, TLSServer, answer_empty


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """The keys a browser makes for one subscription (RFC 8291 §2)."""

    def __init__(self) -> None:
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives in a browser."""
        return {"endpoint": endpoint, "expirationTime": None,
                "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    claims: dict[str, Any]
    vapid_key: str
    payload: dict[str, Any] | None
    at: float = field(default_factory=time.time)

    @property
    def ttl(self) -> int:
        return int(self.headers["ttl"])


class VapidError(Exception):
    pass


def verify_vapid(authorization: str) -> tuple[dict[str, Any], str]:
    """Check ``Authorization: vapid t=<JWT>, k=<key>`` (RFC 8292 §3): an ES256 JWT signed by
    the key ``k``. Returns the claims and ``k``."""
    scheme, _, params = authorization.partition(" ")
    if scheme.lower() != "vapid":
        raise VapidError(f"scheme {scheme!r}, not vapid")
    parts = dict(item.strip().split("=", 1) for item in params.split(","))
    token, key = parts["t"], parts["k"]
    header_b64, claims_b64, signature_b64 = token.split(".")
    header = json.loads(b64url_decode(header_b64))
    if header.get("alg") != "ES256":
        raise VapidError(f"alg {header.get('alg')!r}, not ES256")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(key))
    raw = b64url_decode(signature_b64)
    if len(raw) != 64:
        raise VapidError("the signature is not 64 bytes (r || s)")
    signature = encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                     int.from_bytes(raw[32:], "big"))
    try:
        public.verify(signature, f"{header_b64}.{claims_b64}".encode(),
                      ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as error:
        raise VapidError("bad signature") from error
    return json.loads(b64url_decode(claims_b64)), key


class PushService(Holding):
    """The local push service. ``endpoint(name)`` is a subscription's URL on it;
    ``answer(name, status, headers)`` makes it answer that endpoint so from now on."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.refused: list[str] = []
        self.browsers: dict[str, Browser] = {}
        self.answers: dict[str, tuple[int, dict[str, str]]] = {}
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)
        Holding.__init__(self)  # endpoints whose requests wait until released
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802  (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status, extra = service.take(self.path, dict(self.headers.items()), body)
                answer_empty(self, status, extra)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = TLSServer(Handler)
        self.origin = f"https://localhost:{self.server.port}"

    def stop(self) -> None:
        self.server.stop()

    def reset(self) -> None:
        with self.lock:
            self.received.clear()
            self.refused.clear()
            self.answers.clear()
            self.server.connections = 0

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def browser(self, name: str) -> Browser:
        """A new subscription's keys at endpoint ``name``."""
        self.browsers[name] = Browser()
        return self.browsers[name]

    def answer(self, name: str, status: int, headers: dict[str, str] | None = None) -> None:
        self.answers[name] = (status, headers or {})

    def take(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict]:
        name = path.rsplit("/", 1)[-1]
        if self.waited(name):  # a slow push service, then a refusal: nothing accepted
            return 503, {}
        headers = {key.lower(): value for key, value in headers.items()}
        try:
            claims, key = verify_vapid(headers.get("authorization", ""))
            if claims.get("aud") != self.origin:
                raise VapidError(f"aud {claims.get('aud')!r} is not {self.origin}")
            if not time.time() < claims["exp"] <= time.time() + 24 * 3600:
                raise VapidError("exp is not within the next 24 hours")
            if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
                raise VapidError(f"sub {claims.get('sub')!r}")
            if headers.get("content-encoding") != "aes128gcm" or "ttl" not in headers:
                raise VapidError("not aes128gcm, or no TTL")
        except (VapidError, KeyError, ValueError) as error:
            with self.lock:
                self.refused.append(str(error))
            return 403, {}
        status, extra = self.answers.get(name, (201, {}))
        payload = None
        if status == 201:
            browser = self.browsers[name]
            plain = http_ece.decrypt(body, private_key=browser.private_key,
                                     auth_secret=browser.auth, version="aes128gcm")
            payload = json.loads(plain)
        with self.arrived:
            if status == 201:
                self.received.append(Received(path, headers, claims, key, payload))
                self.arrived.notify_all()
        return status, extra

    def wait_for(self, count: int, timeout: float = 30) -> list[Received]:
        """Block until ``count`` messages arrived (a worker sends them), or fail."""
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"{len(self.received)} of {count} pushes arrived; "
                                     f"refused: {self.refused}")
            return list(self.received)

    def to(self, name: str) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.path.endswith(f"/{name}")]
