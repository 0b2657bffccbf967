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

from tests.portal.tls import Holding, TLSServer, answer_empty

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


class Receiver(Holding):
    def __init__(self) -> None:
        self.posts: list[Post] = []
        self.answers: dict[str, tuple[int, dict[str, str]]] = {}
        self.secrets: dict[str, str] = {}
        self.lock = threading.Lock()
        Holding.__init__(self)  # paths whose posts wait until released
        self.verify = documented_verify()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive: one session, one connection

            def do_POST(self) -> None:  # noqa: N802  (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if receiver.waited(self.path):  # a slow chat service, then a refusal
                    answer_empty(self, 503)
                    return
                secret = receiver.secrets.get(self.path)
                verified = None if secret is None else receiver.verify(secret, self.headers,
                                                                       body)
                with receiver.lock:
                    receiver.posts.append(Post(self.path, self.headers, body, verified))
                status, headers = receiver.answers.get(self.path, (204, {}))
                if verified is False:
                    status = 401
                answer_empty(self, status, headers)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = TLSServer(Handler)
        self.port = self.server.port

    def url(self, path: str) -> str:
        return f"https://localhost:{self.port}{path}"

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
