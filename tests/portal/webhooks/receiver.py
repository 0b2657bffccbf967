"""A chat service on a local port (https, the tests' own CA: tests/portal/tls.py): it keeps
every post (path, headers, raw body, JSON) and answers as told per path. Posts to a path
registered with a secret are verified with the snippet in docs/webhooks.md, read from the page
(so the documented code is the code that is tested): a bad or stale signature answers 401."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from tests.portal.tls import TLSServer

DOCS = Path(__file__).resolve().parents[3] / "docs" / "webhooks.md"


def documented_verify() -> Any:
    """The ``verify`` function of the Python snippet in docs/webhooks.md."""
    [code] = re.findall(r"```python\n(.*?)```", DOCS.read_text(), flags=re.S)
    namespace: dict[str, Any] = {}
    exec(compile(code, str(DOCS), "exec"), namespace)  # noqa: S102  (our own documentation)
    return namespace["verify"]


@dataclass
class Post:
    path: str
    headers: Any
    body: bytes
    verified: bool | None  # None: not a signed path

    @property
    def json(self) -> Any:
        return json.loads(self.body)


class Receiver:
    def __init__(self) -> None:
        self.posts: list[Post] = []
        self.answers: dict[str, tuple[int, dict[str, str]]] = {}
        self.secrets: dict[str, str] = {}
        self.lock = threading.Lock()
        self.held: set[str] = set()  # paths whose posts wait until released
        self.holding = threading.Event()  # set once a held post is waiting
        self.released = threading.Event()
        self.verify = documented_verify()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive: one session, one connection

            def do_POST(self) -> None:  # noqa: N802  (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path in receiver.held:  # a slow chat service, then a refusal
                    receiver.holding.set()
                    receiver.released.wait(120)
                    self.send_response(503)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                secret = receiver.secrets.get(self.path)
                verified = None if secret is None else receiver.verify(secret, self.headers,
                                                                       body)
                with receiver.lock:
                    receiver.posts.append(Post(self.path, self.headers, body, verified))
                status, headers = receiver.answers.get(self.path, (204, {}))
                if verified is False:
                    status = 401
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = TLSServer(Handler)
        self.port = self.server.port

    def url(self, path: str) -> str:
        return f"https://localhost:{self.port}{path}"

    def hold(self, path: str) -> None:
        """Leave posts to ``path`` unanswered until ``release``; then answer 503 and keep
        nothing (the post was never accepted)."""
        self.held.add(path)
        self.released.clear()

    def release(self) -> None:
        self.held.clear()
        self.released.set()

    def to(self, path: str) -> list[Post]:
        with self.lock:
            return [post for post in self.posts if post.path == path]

    def reset(self) -> None:
        with self.lock:
            self.posts.clear()
        self.answers.clear()
        self.secrets.clear()

    def stop(self) -> None:
        self.release()
        self.server.stop()
