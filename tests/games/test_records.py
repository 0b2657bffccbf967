"""Match records and verifiable dice: a match of each game played to its end through the
services (missed deadlines, a setting, a strike-out, a forfeit on the way), its record
downloaded and replayed offline by ``python -m engine replay`` in a subprocess to the same
result and final state; the seed commitment verifies and a tampered seed does not. A match in
play has no record for anyone and shows only its commitment."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import engine
from durable import outbox
from durable.models import OutboxEvent
from engine import rng_for
from engine.record import RecordError, seed_commitment, state_sha256, verify_record
from games import services
from games.models import Match, Phase, Seat, Submission
from portal.api.services import api_token_create

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TANK_OPTIONS = {"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60},
                "cooldown_minutes": 0}
REACTION = {"reactions": {"L3": {"mode": "side-rear", "max_range": 6}}}


def carry_out_outbox(match: Match) -> None:
    """What the workers do after each commit: every promised side effect."""
    for _ in range(50):
        ids = list(OutboxEvent.objects.filter(series=match.pk, done_at__isnull=True)
                   .values_list("pk", flat=True))
        if not ids or not outbox.outbox_dispatch(ids=ids):
            return


def new_match(make_user, slug: str, *, options=None, **kwargs) -> Match:
    one, two = make_user(f"one-{slug}"), make_user(f"two-{slug}")
    match = services.match_create(creator=one, game=slug, options=options or {},
                                  hours_per_phase=24, title=f"Record {slug}",
                                  seats=[{"kind": "human", "user": one},
                                         {"kind": "human", "user": two}], **kwargs)
    match.players = {1: one, 2: two}
    return match


def miss_deadline(match: Match) -> None:
    """The open phase's deadline passes: the lifecycle plays the defaults of missing seats."""
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    Phase.objects.filter(match=match, number=match.phase_number).update(deadline=past)
    services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)


def play_sheets(match: Match, *, miss_at=(2,), until_phase=None, max_steps=3000) -> None:
    """Both seats play the random bot's sheets through the services (to the end, or until
    phase ``until_phase`` opens), except that seat 2 misses the deadline of the phases in
    ``miss_at`` (it gets the default)."""
    game = engine.get(match.game)
    for _ in range(max_steps):
        carry_out_outbox(match)
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or match.phase_number == until_phase:
            return
        number = match.phase_number
        prompts = game.prompts(match.state)
        sent = set(Submission.objects.filter(phase__match=match, phase__number=number)
                   .values_list("seat__number", flat=True))
        waiting = [seat for seat in sorted(prompts) if seat not in sent
                   and not (seat == 2 and number in miss_at)]
        if not waiting:
            miss_deadline(match)
            continue
        seat = waiting[0]
        data = game.bot_submission(match.state, seat, "random",
                                   rng_for(f"record:{match.seed}:{seat}", number))
        services.sheet_submit(match_id=match.pk, seat_number=seat,
                              user=match.players[seat], phase_number=number, data=data,
                              source="web")
    raise AssertionError(f"{match.game} did not finish in {max_steps} steps")


def aggressive(game, state, seat, rng):
    legal = game.legal_actions(state, seat)
    living = {t["at"] for t in state["tanks"].values() if t["status"] == "alive"}
    shots = [a for a in legal if a["type"] == "shoot" and a.get("at") in living]
    moves = [a for a in legal if a["type"] == "move"]
    pool = shots or moves or list(legal)
    # (in a fixed order: the engine lists some actions in a set's order, which changes from
    # one process to the next, and the choice with it)
    pool = sorted(pool, key=lambda action: json.dumps(action, sort_keys=True, default=str))
    return rng.choice(pool) if pool else None


# Steps a Tank Game duel played by ``aggressive`` may take: its tanks wander at random until
# they meet, which took from 51 to 2,878 steps in twenty runs (a cap of 3,000 or 4,000 made a
# run give up before the end now and then).
TANK_GAME_STEPS = 30_000


def play_tank_game(match: Match, *, strike_at: int = 3, max_steps=TANK_GAME_STEPS) -> None:
    """Both seats act through the services in simulated time (a gameday an hour), shooting
    when they can; a moderator strikes out entry ``strike_at`` of the logbook on the way."""
    game = engine.get(match.game)
    moderator = type(match.players[1]).objects.create_user("record-mod", is_staff=True,
                                                           is_superuser=True)
    rng = random.Random(7)
    now = timezone.now()
    struck = False
    for step in range(max_steps):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            assert struck
            return
        now += timedelta(minutes=5)
        if match.deadline is not None and match.deadline <= now:
            services.gameday_tick(match_id=match.pk, now=now)
            continue
        seat = 1 + step % 2
        action = aggressive(game, match.state, seat, rng)
        if action is None:
            continue
        with contextlib.suppress(services.ServiceError):
            services.actions_apply(match_id=match.pk, seat_number=seat,
                                   user=match.players[seat], action=action, source="api",
                                   now=now)
        if not struck and match.logbook_seq >= strike_at + 1:
            row = match.actions.filter(seq__gte=strike_at, kind="action").order_by("seq")[0]
            assert services.logbook_strike(action_id=row.pk, by=moderator,
                                           reason="a test strike-out")
            struck = True
    raise AssertionError("the Tank Game did not finish")


def download(match: Match, user=None) -> dict:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("games:record_json", args=[match.pk]))
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/json")
    text = client.get(reverse("games:record_text", args=[match.pk]))
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    assert f"Phase {match.phase_number}" in text.content.decode()
    return json.loads(response.content)


def replay_offline(record: dict, tmp_path: Path, command: str = "replay"
                   ) -> tuple[int, dict]:
    path = tmp_path / f"{command}-record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "engine", command, str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, (done.stdout, done.stderr)
    return done.returncode, json.loads(lines[0])


def check_replays(match: Match, tmp_path: Path) -> dict:
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    record = download(match, match.players[1])
    assert record["state_sha256"] == state_sha256(match.state)
    token = api_token_create(user=match.players[2], name="records").token
    api = Client().get(f"/api/v1/matches/{match.pk}/record",
                       HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.status_code == 200 and api.json() == record  # the same JSON
    view = Client().get(f"/api/v1/matches/{match.pk}", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert view.json()["dice"] == {"commitment": record["dice"]["commitment"],
                                   "seed": match.seed, "salt": record["dice"]["salt"]}
    code, out = replay_offline(record, tmp_path)
    assert code == 0
    assert out["result"] == record["result"] == json.loads(json.dumps(match.result))
    assert out["state_sha256"] == record["state_sha256"]
    assert out["events_match"], out
    code, verified = replay_offline(record, tmp_path, "verify")
    assert (code, verified["commitment"], verified["ok"]) == (0, "ok", True), verified
    forged = copy.deepcopy(record)  # an event (a die) the engine did not roll
    for phase in forged["phases"]:
        found = [phase] if phase.get("events") else [
            entry for entry in phase.get("inputs", []) if entry["events"] and not entry["struck"]]
        if found:
            found[0]["events"].append({"type": "forged"})
            break
    checked = verify_record(forged)
    assert not checked["ok"] and checked["first_mismatch"] == phase["number"]
    tampered = copy.deepcopy(record)
    tampered["dice"]["seed"] += 1
    code, out = replay_offline(tampered, tmp_path, "verify")
    assert code == 1 and out["commitment"] == "mismatch" and not out["ok"]
    seedless = copy.deepcopy(record)  # a commitment with no seed to check it against
    del seedless["dice"]["seed"]
    try:
        checked = verify_record(seedless)
    except RecordError:
        pass  # (refused as a record, with its reason)
    else:
        assert checked["commitment"] == "mismatch" and not checked["ok"]
    check_uploads_into_the_analysis_board(match, record)
    return record


def check_uploads_into_the_analysis_board(match: Match, record: dict) -> None:
    """The downloaded record, uploaded into the analysis board, replays to every phase and
    ends on the match's final state."""
    from analysis.models import Analysis

    client = Client()
    client.force_login(match.players[1])
    upload = SimpleUploadedFile("record.json", json.dumps(record).encode(),
                                content_type="application/json")
    response = client.post(reverse("analysis:upload"), {"record": upload})
    assert response.status_code == 302, response.content.decode()[:2000]
    analysis = Analysis.objects.filter(owner=match.players[1]).latest("pk")
    assert len(analysis.nodes) == len(record["phases"]) + 1
    assert state_sha256(analysis.nodes[-1]["state"]) == record["state_sha256"]


@pytest.mark.long
@pytest.mark.parametrize("slug", ["final-act", "final-strategy"])
def test_a_finished_match_replays_offline_to_its_result_and_state(make_user, tmp_path, slug):
    match = new_match(make_user, slug)
    play_sheets(match)
    record = check_replays(match, tmp_path)
    defaults = [s for p in record["phases"] for s in p["submissions"] if s["source"] == "default"]
    assert defaults, "seat 2's missed deadline is in the record"


def test_panzer_squadron_replays_with_its_standing_reactions(make_user, tmp_path):
    match = new_match(make_user, "panzer-squadron")
    services.orders_submit(match_id=match.pk, seat_number=2, user=match.players[2],
                           phase_number=1, data=REACTION, source="web")
    play_sheets(match)
    record = check_replays(match, tmp_path)
    assert record["phases"][0]["settings"][0]["data"] == REACTION
    without = copy.deepcopy(record)
    without["phases"][0]["settings"] = []
    assert verify_record(without)["state_sha256"] != record["state_sha256"]


def test_tank_game_replays_across_a_strike_out(make_user, tmp_path):
    match = new_match(make_user, "tank-game", options=TANK_OPTIONS)
    play_tank_game(match)
    record = check_replays(match, tmp_path)
    inputs = record["phases"][0]["inputs"]
    assert [i["seq"] for i in inputs] == list(range(1, len(inputs) + 1))
    struck = [i for i in inputs if i["struck"]]
    assert len(struck) == 1 and struck[0]["struck_reason"] == "a test strike-out"
    unstruck = copy.deepcopy(record)
    for entry in unstruck["phases"][0]["inputs"]:
        entry["struck"] = False
    assert not verify_record(unstruck)["ok"]


def test_a_forfeit_for_missed_deadlines_replays_to_the_same_result(make_user, tmp_path):
    match = new_match(make_user, "final-act", miss_policy=Match.MissPolicy.FORFEIT,
                      miss_limit=1, is_public=False)
    play_sheets(match, miss_at=(1,))
    assert Seat.objects.get(match=match, number=2).status == Seat.Status.FORFEITED
    record = check_replays(match, tmp_path)
    assert record["end"] == {"by": "forfeit", "forfeited": [2]}
    assert record["result"]["winners"] == [1]
    # A private match's record is as invisible as the match to outsiders.
    outsider = Client()
    outsider.force_login(make_user("outsider"))
    for name in ("games:record_json", "games:record_text"):
        assert outsider.get(reverse(name, args=[match.pk])).status_code == 404
        assert Client().get(reverse(name, args=[match.pk])).status_code == 404


# -- in play: no record, only the commitment -----------------------------------------------------

def roles(match: Match, make_user) -> dict:
    staff = make_user("record-staff", is_staff=True, is_superuser=True)
    return {"anonymous": None, "player": match.players[1], "other player": match.players[2],
            "spectator": make_user("record-spectator"), "owner": match.created_by,
            "moderator": staff}


def test_a_match_in_play_has_no_record_and_shows_only_its_commitment(make_user):
    match = new_match(make_user, "final-act")
    services.sheet_submit(match_id=match.pk, seat_number=1, user=match.players[1],
                          phase_number=1, source="web",
                          data=engine.get("final-act").default_submission(match.state, 1))
    match.refresh_from_db()
    commitment = seed_commitment(match.seed, match.seed_salt)
    assert match.seed_commitment == commitment
    for role, user in roles(match, make_user).items():
        client = Client()
        if user is not None:
            client.force_login(user)
        for name in ("games:record_json", "games:record_text"):
            response = client.get(reverse(name, args=[match.pk]))
            assert response.status_code == 409, (role, name)
            assert b"finished" in response.content
        page = client.get(reverse("games:match", args=[match.pk])).content.decode()
        assert commitment in page, role
        assert str(match.seed) not in page and match.seed_salt not in page, role
        if user is None:
            continue
        token = api_token_create(user=user, name="t").token
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
        api = Client().get(f"/api/v1/matches/{match.pk}/record", **headers)
        assert api.status_code == 409, role
        view = Client().get(f"/api/v1/matches/{match.pk}", **headers).json()
        assert view["dice"] == {"commitment": commitment, "seed": None, "salt": None}, role
        assert str(match.seed) not in json.dumps(view) and match.seed_salt not in json.dumps(view)


@pytest.mark.long
def test_an_older_match_without_a_salt_says_it_has_no_commitment(make_user, tmp_path):
    match = new_match(make_user, "final-strategy")
    Match.objects.filter(pk=match.pk).update(seed_salt="")
    play_sheets(match, miss_at=())
    match.refresh_from_db()
    assert match.seed_commitment == ""
    page = Client().get(reverse("games:match", args=[match.pk])).content.decode()
    assert "before seed commitments were published" in page
    record = download(match)
    assert record["dice"]["commitment"] is None and record["dice"]["salt"] is None
    code, out = replay_offline(record, tmp_path, "verify")
    assert code == 1 and out["commitment"] == "none"
    assert out["result_matches"] and out["state_matches"] and out["events_match"]


def test_the_command_refuses_a_file_that_is_not_a_record(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}')
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not a match record" in done.stderr
    assert Phase.objects.count() == 0


def test_a_rolled_back_match_replays_with_its_settings(make_user, tmp_path):
    """A moderator's roll-back replays the phases before it with their settings (as a record
    does); the record holds the phases played again, not the voided ones."""
    match = new_match(make_user, "panzer-squadron")
    services.orders_submit(match_id=match.pk, seat_number=2, user=match.players[2],
                           phase_number=1, data=REACTION, source="web")
    play_sheets(match, miss_at=(), until_phase=4)
    match.refresh_from_db()
    assert match.phase_number == 4
    moderator = make_user("record-rollback-mod", is_staff=True, is_superuser=True)
    services.match_rollback(match_id=match.pk, to_phase=2, by=moderator, reason="a test")
    play_sheets(match)
    record = check_replays(match, tmp_path)
    assert [p["number"] for p in record["phases"]] == list(range(1, len(record["phases"]) + 1))
    assert record["phases"][0]["settings"][0]["data"] == REACTION


def test_a_match_with_moves_played_from_plans_replays_to_the_same_result(make_user, tmp_path):
    """Final Strategy, seat 2 planning its answer to seat 1's coming move every other turn:
    the record marks those moves ``conditional`` and replays offline all the same."""
    match = new_match(make_user, "final-strategy")
    game = engine.get("final-strategy")
    now, turns = timezone.now(), 0
    for step in range(3000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        seat = match.state["to_move"]
        data = game.bot_submission(match.state, seat, "random",
                                   rng_for(f"plans:{match.seed}:{seat}", match.phase_number))
        turns += seat == 1
        if seat == 1 and turns % 2:
            after = game.apply(match.state, 1, game.validate(match.state, 1, data), now,
                               rng_for(match.seed, match.phase_number)).state
            if game.prompts(after).get(2) is not None:
                answer = game.bot_submission(after, 2, "random", rng_for("answer", step))
                services.plan_set(match_id=match.pk, seat_number=2, user=match.players[2],
                                  tree=[{"when": [{"seat": 1, "move": data}], "play": answer,
                                         "then": []}])
        services.orders_submit(match_id=match.pk, seat_number=seat, user=match.players[seat],
                               phase_number=match.phase_number, data=data, source="web")
    record = check_replays(match, tmp_path)
    planned = [s for p in record["phases"] for s in p["submissions"]
               if s["source"] == "conditional"]
    assert len(planned) >= 3 and {s["seat"] for s in planned} == {2}


def test_a_final_act_match_with_sheets_entered_ahead_replays_to_the_same_result(make_user,
                                                                                tmp_path):
    """Seat 1 enters each round's sheet ahead (every unit holds), with a condition that
    holds: the record marks those sheets ``conditional`` and replays."""
    match = new_match(make_user, "final-act")
    game = engine.get("final-act")
    for _ in range(400):
        carry_out_outbox(match)
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        number = match.phase_number
        if match.state["phase"] == "orders" and not match.sheets_ahead:
            services.sheet_ahead_set(match_id=match.pk, seat_number=1, user=match.players[1],
                                     conditions=[{"kind": "unit_on_board", "unit": "C"}],
                                     text="")
        sent = set(Submission.objects.filter(phase__match=match, phase__number=number)
                   .values_list("seat__number", flat=True))
        for seat in sorted(set(game.prompts(match.state)) - sent):
            data = game.bot_submission(match.state, seat, "random",
                                       rng_for(f"record:{match.seed}:{seat}", number))
            services.orders_submit(match_id=match.pk, seat_number=seat,
                                   user=match.players[seat], phase_number=number, data=data,
                                   source="web")
        services.phase_resolve(match_id=match.pk, phase_number=number)
    record = check_replays(match, tmp_path)
    ahead = [s for p in record["phases"] for s in p["submissions"]
             if s["source"] == "conditional"]
    assert ahead and {s["seat"] for s in ahead} == {1}
