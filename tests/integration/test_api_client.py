"""scripts/api_client.py plays a whole match against the bot through the API of a live server,
with a real Celery worker resolving the phases and playing the bot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.models import Match, Phase
from portal.api.services import api_token_create
from tests.portal.builders import make_user

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CLIENT = Path(__file__).resolve().parents[2] / "scripts" / "api_client.py"


@pytest.mark.long
@pytest.mark.parametrize("game", ["toy-duel", "final-act"])
def test_the_example_client_plays_a_whole_match_against_the_bot(game, stack, live_server):
    stack.worker()
    alice = make_user("alice")
    token = api_token_create(user=alice, name="example client").token
    run = subprocess.run(
        [sys.executable, str(CLIENT), "--url", live_server.url, "--token", token, "--game", game,
         "--poll", "0.2", "--timeout", "240"],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    outcome = json.loads(run.stdout.strip().splitlines()[-1])
    match = Match.objects.get(pk=outcome["match"])
    assert match.status == Match.Status.FINISHED == outcome["status"]
    assert outcome["result"] == match.result and match.result["reason"]
    phases = list(Phase.objects.filter(match=match, status=Phase.Status.RESOLVED))
    assert phases and outcome["sheets_sent"] >= 1
    # Every sheet of the client's seat was sent through the API (none was a missed deadline).
    mine = [p.revealed[str(outcome["my_seat"])] for p in phases
            if str(outcome["my_seat"]) in (p.revealed or {})]
    assert mine and {sheet["source"] for sheet in mine} == {"api"}
