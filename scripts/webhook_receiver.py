"""A webhook receiver for trying webhooks on a development site (`make run`).

    python scripts/webhook_receiver.py [--port 9911] [--status 204]

Listens on http://127.0.0.1:PORT/ and prints every post it gets (the path, the headers a
webhook sends, the body as indented JSON), answering STATUS. On the site, add a webhook with
the address http://127.0.0.1:9911/hook and press "Send a test message". Only a development
site (DEBUG, with OUTBOUND_ALLOW_LOOPBACK, which `make run` turns on) posts to this machine or
over plain http; a production site refuses both.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SHOWN_HEADERS = ("Content-Type", "X-Webhook-Event", "X-Webhook-Delivery", "X-Webhook-Timestamp",
                 "X-Webhook-Signature")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=9911)
    parser.add_argument("--status", type=int, default=204, help="the answer to every post")
    args = parser.parse_args()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802  (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            print(f"--- POST {self.path}")
            for name in SHOWN_HEADERS:
                if self.headers.get(name):
                    print(f"{name}: {self.headers[name]}")
            try:
                print(json.dumps(json.loads(body), indent=2, ensure_ascii=False))
            except ValueError:
                print(body.decode("utf-8", "replace"))
            self.send_response(args.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *values: object) -> None:
            pass  # the post itself is printed above

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"Waiting for webhook posts at http://127.0.0.1:{args.port}/ (Ctrl-C stops)",
          flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
