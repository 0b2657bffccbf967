#!/usr/bin/env python3
"""A small example client of the JSON API: creates a match against a bot and plays it to the
end, then prints the result as one JSON line.

    python scripts/api_client.py --url http://127.0.0.1:8000 --token tp_… --game <slug>

The token comes from your profile page (or the TANK_API_TOKEN environment variable). Only the
standard library is used, so the script runs anywhere. It knows no game: each turn it takes the
prompt's legal actions when they are a list of complete actions (a random one), and otherwise
sends the prompt's ``default_sheet`` (what the seat would play at the deadline). A real bot
would look at ``board`` (the match as its seat sees it) and choose better.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
from typing import Any


class ApiError(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status, self.body = status, body
        super().__init__(f"{status}: {body.get('message', body)} {body.get('problems', '')}")


class Client:
    def __init__(self, url: str, token: str) -> None:
        self.base = url.rstrip("/") + "/api/v1"
        self.token = token

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """One request; waits and retries when the rate limit answers 429."""
        data = None if body is None else json.dumps(body).encode()
        while True:
            request = urllib.request.Request(self.base + path, data=data, method=method, headers={
                "Authorization": f"Bearer {self.token}", "Content-Type": "application/json",
                "Accept": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return json.loads(response.read() or b"null")
            except urllib.error.HTTPError as error:
                payload = json.loads(error.read() or b"{}")
                if error.code == 429:
                    time.sleep(float(error.headers.get("Retry-After") or 1))
                    continue
                raise ApiError(error.code, payload) from None


def choose(prompt: dict[str, Any], rng: random.Random) -> Any:
    legal = prompt.get("legal_actions")
    if isinstance(legal, list) and legal:
        return rng.choice(legal)
    return prompt["default_sheet"]


def play(client: Client, *, game: str | None, bot: str | None, poll: float, timeout: float,
         seed: int, log: Any = sys.stderr) -> dict[str, Any]:
    rng = random.Random(seed)
    games = {g["slug"]: g for g in client.call("GET", "/games")}
    game = game or next(iter(games))
    if game not in games:
        raise SystemExit(f"no game {game!r}; the site offers {', '.join(games)}")
    info = games[game]
    bot = bot or (info["bots"][0] if info["bots"] else None)
    if bot is None:
        raise SystemExit(f"{game} has no bot to play against")
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": bot}] * (info["min_seats"] - 1)
    match = client.call("POST", "/matches", {"game": game, "seats": seats,
                                             "title": f"API client vs {bot}"})
    match_id = match["id"]
    print(f"match {match_id}: {info['name']} against the {bot} bot", file=log)
    sent = 0
    last_phase = None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = client.call("GET", f"/matches/{match_id}")
        if view["status"] in ("finished", "aborted"):
            result = client.call("GET", f"/matches/{match_id}/result")
            return {"match": match_id, "status": result["status"], "result": result["result"],
                    "my_seat": view["my_seat"], "sheets_sent": sent}
        prompt = view["prompt"]
        if prompt and not prompt["my_sheet"] and (prompt["phase_number"], prompt["phase"]) \
                != last_phase:
            try:
                receipt = client.call("POST", f"/matches/{match_id}/orders", {
                    "phase_number": prompt["phase_number"], "data": choose(prompt, rng)})
            except ApiError as error:
                if error.status != 409:  # 409: the phase moved on meanwhile; look again
                    raise
            else:
                sent += 1
                if prompt["phase_kind"] != "continuous":
                    last_phase = (prompt["phase_number"], prompt["phase"])
                print(f"phase {prompt['phase_number']} ({prompt['phase']}): sent, receipt "
                      f"{receipt['receipt'][:12]}…", file=log)
                continue
        time.sleep(poll)
    raise SystemExit(f"match {match_id} did not finish within {timeout} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("TANK_API_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("TANK_API_TOKEN"))
    parser.add_argument("--game", default=None,
                        help="the game's slug (GET /api/v1/games; default: the first offered)")
    parser.add_argument("--bot", default=None, help="the bot's name (default: the game's first)")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between looks")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not args.token:
        raise SystemExit("give --token (or TANK_API_TOKEN): create one on your profile page")
    outcome = play(Client(args.url, args.token), game=args.game, bot=args.bot, poll=args.poll,
                   timeout=args.timeout, seed=args.seed)
    print(json.dumps(outcome))


if __name__ == "__main__":
    main()
