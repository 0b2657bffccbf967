"""TLS for the tests' local stand-ins: a certificate authority of the tests' own (trustme)
whose certificate for ``localhost`` and 127.0.0.1 they serve, so the site's requests to them
verify certificates as they would on the internet (``settings.OUTBOUND_CA_BUNDLE``).

``StandIn`` is an https server on a local port that answers every request the same way and
keeps what arrived: a target that must, or must not, be contacted."""

from __future__ import annotations

import functools
import ssl
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import trustme


@functools.cache
def authority() -> trustme.CA:
    return trustme.CA()


@functools.cache
def ca_bundle() -> str:
    """A PEM file with the tests' CA (for OUTBOUND_CA_BUNDLE)."""
    path = Path(tempfile.mkdtemp(prefix="tests-ca-")) / "ca.pem"
    authority().cert_pem.write_to_path(str(path))
    return str(path)


@functools.cache
def server_context() -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority().issue_cert("localhost", "127.0.0.1").configure_cert(context)
    return context


class TLSServer(ThreadingHTTPServer):
    """An https server on 127.0.0.1 (a free port); the handshake runs in the request's thread."""

    daemon_threads = True

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.connections = 0  # TCP connections accepted: a contact even if TLS then fails
        super().__init__(("127.0.0.1", 0), handler)
        self.port = self.server_address[1]
        # (polled every 10 ms: ``shutdown`` waits for the next poll, half a second by default,
        # which was half a second of every test that stopped a stand-in)
        self.thread = threading.Thread(target=self.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def get_request(self) -> tuple[Any, Any]:
        sock, address = self.socket.accept()
        self.connections += 1
        return server_context().wrap_socket(sock, server_side=True,
                                            do_handshake_on_connect=False), address

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that refused our certificate, or hung up: not the server's concern

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


def answer_empty(handler: BaseHTTPRequestHandler, status: int,
                 headers: dict[str, str] | None = None) -> None:
    """Answer ``handler``'s request with ``status``, ``headers`` and no body."""
    handler.send_response(status)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", "0")
    handler.end_headers()


class Holding:
    """A slow service on demand: requests for a held key wait unanswered until ``release``
    (``holding`` is set once one waits); the service then refuses them and keeps nothing."""

    def __init__(self) -> None:
        self.held: set[str] = set()
        self.holding = threading.Event()
        self.released = threading.Event()

    def hold(self, key: str) -> None:
        self.held.add(key)
        self.released.clear()

    def release(self) -> None:
        self.held.clear()
        self.released.set()

    def waited(self, key: str) -> bool:
        """Wait while ``key`` is held; whether it was (then refuse the request)."""
        if key not in self.held:
            return False
        self.holding.set()
        self.released.wait(120)
        return True


class StandIn:
    """Answers every request with ``status`` and ``headers``; ``requests`` lists
    ``(method, path, host header)`` of what arrived."""

    def __init__(self, status: int = 201, headers: dict[str, str] | None = None) -> None:
        self.requests: list[tuple[str, str, str]] = []
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def answer(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                stand_in.requests.append((self.command, self.path, self.headers.get("Host")))
                answer_empty(self, status, headers)

            do_GET = do_POST = answer  # noqa: N815  (http.server's names)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = TLSServer(Handler)
        self.port = self.server.port

    @property
    def connections(self) -> int:
        return self.server.connections

    def url(self, path: str = "/", host: str = "localhost") -> str:
        return f"https://{host}:{self.port}{path}"

    def stop(self) -> None:
        self.server.stop()
