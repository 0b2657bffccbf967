"""Uploading a match record into the analysis board: it replays, phase by phase, to the final
state it names; anything else is a clear 4xx and stores nothing."""

from __future__ import annotations

import html
import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

import engine
from analysis.models import Analysis
from analysis.records import MAX_BYTES, state_sha256
from engine import rng_for
from games import services
from games.models import Match, Phase

pytestmark = pytest.mark.django_db


def duel_record(toy_duel, capture) -> dict:
    """The record of a finished Toy Duel (North wins 2–0), in the match-record format."""
    match = toy_duel(options={"target": 2})
    for phase in (1, 2):
        for seat, user, number in ((1, match.alice, 5), (2, match.bob, 3)):
            services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                   phase_number=phase, data={"number": number}, source="web")
        with capture():
            services.phase_resolve(match_id=match.pk, phase_number=phase)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    phases = Phase.objects.filter(match=match).order_by("number")
    return {
        "game": match.game, "options": match.options, "seed": match.seed,
        "seats": [{"number": s.number} for s in match.seats.order_by("number")],
        "phases": [{"number": p.number, "kind": p.kind, "submissions": p.revealed,
                    "events": p.events, "resolved_at": p.resolved_at.isoformat()}
                   for p in phases],
        "result": match.result, "state_sha256": state_sha256(match.state),
    }


def panzer_record(steps: int = 8) -> dict:
    """A Panzer Squadron record played by the engine's bots (sequential phases, dice)."""
    game = engine.get("panzer-squadron")
    options = game.validate_options(game.default_options())
    state = game.start(2, options, 99)
    phases = []
    for number in range(1, steps + 1):
        (seat,) = game.prompts(state)
        sheet = game.bot_submission(state, seat, "random", random.Random(number))
        at = f"2026-01-0{1 + number // 4}T10:00:00+00:00"
        from datetime import datetime
        state = game.apply(state, seat, sheet, datetime.fromisoformat(at),
                           rng_for(99, number)).state
        phases.append({"number": number, "kind": "sequential",
                       "submissions": {str(seat): {"data": sheet}}, "resolved_at": at})
        if game.result(state) is not None:
            break
    return {"game": "panzer-squadron", "options": options, "seats": 2, "seed": 99,
            "phases": phases, "state_sha256": state_sha256(state)}


def upload(client, content: bytes, name="record.json"):
    return client.post(reverse("analysis:upload"),
                       {"record": SimpleUploadedFile(name, content, "application/json")})


def test_a_record_replays_to_every_phase(client, toy_duel, django_capture_on_commit_callbacks):
    record = duel_record(toy_duel, django_capture_on_commit_callbacks)
    client.force_login(toy_duel().alice)
    response = upload(client, json.dumps(record).encode())
    analysis = Analysis.objects.get()
    assert response.status_code == 302 and analysis.token in response["Location"]
    assert [n["label"] for n in analysis.nodes] == ["Start", "Phase 1", "Phase 2"]
    assert [n["parent"] for n in analysis.nodes] == [None, 0, 1]
    assert state_sha256(analysis.nodes[-1]["state"]) == record["state_sha256"]
    last = client.get(reverse("analysis:detail", args=[analysis.token]), {"node": "2"})
    assert "Game over: North won" in last.content.decode()
    first = client.get(reverse("analysis:detail", args=[analysis.token]), {"node": "1"})
    assert first.status_code == 200 and "Step forward" in first.content.decode()


def test_a_sequential_game_with_dice_replays_to_its_state(client, make_user):
    record = panzer_record()
    client.force_login(make_user("alice"))
    assert upload(client, json.dumps(record).encode()).status_code == 302
    analysis = Analysis.objects.get()
    assert len(analysis.nodes) == len(record["phases"]) + 1
    assert state_sha256(analysis.nodes[-1]["state"]) == record["state_sha256"]
    for node in analysis.nodes:
        page = client.get(reverse("analysis:detail", args=[analysis.token]),
                          {"node": str(node["id"])})
        assert page.status_code == 200


@pytest.mark.parametrize(("change", "status", "says"), [
    (lambda r: r.update(state_sha256="0" * 64), 400, "state_sha256 differs"),
    (lambda r: r["phases"][0]["submissions"]["1"].update(data={"number": 9}), 400,
     "does not replay"),
    (lambda r: r.update(game="no-such-game"), 400, "no game"),
    (lambda r: r.update(seats="two"), 400, "“seats” must be"),
    (lambda r: r.update(phases={"1": {}}), 400, "“phases” must be"),
    (lambda r: r.update(options={"target": "many"}), 400, "options are not valid"),
    (lambda r: r["phases"][0].update(resolved_at="yesterday"), 400, "not a date"),
])
def test_a_broken_record_is_a_4xx_saying_why(client, toy_duel, change, status, says,
                                            django_capture_on_commit_callbacks):
    record = duel_record(toy_duel, django_capture_on_commit_callbacks)
    change(record)
    client.force_login(toy_duel().alice)
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == status and says in response.content.decode()
    assert not Analysis.objects.exists()


@pytest.mark.parametrize(("content", "says"), [
    (b"not json", "not a JSON match record"),
    (b"[1, 2]", "not a JSON match record"),
    (b"\xff\xfe", "not a JSON match record"),
    (b"{}", "“game” must name the game"),
])
def test_an_upload_that_is_no_record_is_a_400(client, make_user, content, says):
    client.force_login(make_user("alice"))
    response = upload(client, content)
    assert response.status_code == 400 and says in response.content.decode()


def test_a_huge_upload_is_refused_with_413_and_no_file_with_400(client, make_user):
    client.force_login(make_user("alice"))
    response = upload(client, b" " * (MAX_BYTES + 100_000))
    assert response.status_code == 413 and "too large" in response.content.decode()
    assert client.post(reverse("analysis:upload")).status_code == 400
    assert not Analysis.objects.exists()


def test_uploading_needs_a_login(client):
    response = upload(client, b"{}")
    assert response.status_code == 302 and "login" in response["Location"]


def test_an_upload_without_the_csrf_token_is_refused(make_user):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("alice"))
    assert upload(client, b"{}").status_code == 403
    huge = upload(client, b" " * (MAX_BYTES + 100_000))  # refused on its length, before all
    assert huge.status_code == 413
    assert not Analysis.objects.exists()


@pytest.mark.parametrize("entries", [
    [{"kind": "action", "seat": 1, "action": {"type": "move"}}],  # no seq, no time
    [{"seq": 1, "kind": "action", "seat": "x", "action": [], "at": 5}],
    [{"seq": 1, "kind": "tick", "at": "not a time"}],
    [{"seq": 1, "kind": "action", "seat": 1, "action": {"type": "fly"},
      "at": "2026-01-01T10:00:00+00:00"}],
])
def test_broken_logbook_entries_are_a_400(client, make_user, entries):
    game = engine.get("tank-game")
    record = {"game": "tank-game", "options": game.default_options(), "seats": 2, "seed": 3,
              "phases": [], "entries": entries}
    client.force_login(make_user("alice"))
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 400, response.content.decode()[-500:]
    assert not Analysis.objects.exists()


def test_a_logbook_game_record_replays_entry_by_entry(client, make_user):
    from datetime import UTC, datetime, timedelta

    game = engine.get("tank-game")
    options = game.validate_options(game.default_options())
    state, seed = game.start(2, options, 5), 5
    at = game.next_tick_at(state, datetime(2026, 1, 5, 8, tzinfo=UTC))
    entries = [{"seq": 1, "kind": "tick", "seat": None, "action": None, "at": at.isoformat()}]
    state = game.tick(state, at, rng_for(seed, 1)).state
    for seq, seat in ((2, 1), (3, 2)):
        action = game.bot_submission(state, seat, "random", random.Random(seq))
        when = at + timedelta(minutes=seq)
        state = game.apply(state, seat, action, when, rng_for(seed, seq)).state
        entries.append({"seq": seq, "kind": "action", "seat": seat, "action": action,
                        "at": when.isoformat()})
    record = {"game": "tank-game", "options": options, "seats": 2, "seed": seed,
              "phases": [{"number": 1, "kind": "continuous", "submissions": {}}],
              "entries": entries, "state_sha256": state_sha256(state)}
    client.force_login(make_user("alice"))
    assert upload(client, json.dumps(record).encode()).status_code == 302
    analysis = Analysis.objects.get()
    assert [n["label"] for n in analysis.nodes] == [
        "Start", "Scheduled event", f"{game.seat_name(1)} acts", f"{game.seat_name(2)} acts"]
    assert analysis.nodes[2]["moves"] and analysis.nodes[-1]["state"] == state


# --- small hand-made records the engine cannot replay: a 400 with the reason, never a 500 --

AT = "2026-01-01T10:00:00+00:00"


def site_record(game: str, phases: list, **extra) -> dict:
    return {"record": "tank-games-match-record", "version": 1, "game": game, "options": {},
            "seats": [{"number": 1}, {"number": 2}], "dice": {"seed": 7}, "phases": phases,
            **extra}


@pytest.mark.parametrize(("content", "says"), [
    (json.dumps(site_record("final-act", [
        {"number": 1, "kind": "simultaneous", "submissions": [], "resolved_at": AT,
         "settings": [{"seat": 1, "data": {"reactions": []}, "at": AT}]}])),
     "takes no out-of-turn setting"),
    (json.dumps(site_record("tank-game", [
        {"number": 1, "kind": "simultaneous", "submissions": [], "resolved_at": AT}])),
     "not a simultaneous one"),
    (json.dumps({"game": "tank-game", "options": {}, "seats": 2, "seed": 7, "phases": [
        {"number": 1, "kind": "simultaneous", "submissions": {}, "resolved_at": AT}]}),
     "not a simultaneous one"),
    (json.dumps(site_record("final-strategy", [
        {"number": 1, "kind": "sequential", "submissions": [], "resolved_at": AT,
         "removed": [1e999]}])).replace("Infinity", "1e999"), "not finite"),
    (json.dumps(site_record("final-strategy", [
        {"number": 1, "kind": "sequential", "submissions": [], "resolved_at": AT,
         "removed": [7]}])), "is not a seat of this match"),
    (json.dumps(site_record("final-act", [], end="draw")), "end must be an object"),
], ids=["final act setting", "tank game simultaneous", "hand-made tank game simultaneous",
        "removed 1e999", "removed no seat", "end a word"])
def test_a_record_its_game_cannot_replay_is_a_400_with_the_reason(client, make_user, content,
                                                                  says):
    client.force_login(make_user("analyst"))
    response = upload(client, content.encode())
    assert response.status_code == 400 and says in html.unescape(response.content.decode())
    assert not Analysis.objects.exists()
