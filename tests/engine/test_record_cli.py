"""``python -m engine replay|verify`` on records it cannot replay: exit status 2 and a message on
standard error, never a traceback (status 1 is verify's "a difference was found")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AT = "2026-01-01T00:00:00+00:00"


def record(game: str, phases: list, seats: int = 2, **extra) -> dict:
    return {"record": "tank-games-match-record", "version": 1, "game": game, "options": {},
            "seats": [{"number": n} for n in range(1, seats + 1)],
            "dice": {"seed": 7, "salt": "", "commitment": ""}, "phases": phases,
            "result": None, "state_sha256": "", **extra}


def run(command: str, text: str, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "engine", command, str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


CASES = {
    "end is a word": json.dumps(record("final-act", [], end="draw")),
    "a setting in a simultaneous game": json.dumps(record("final-act", [
        {"number": 1, "kind": "simultaneous", "submissions": [],
         "settings": [{"seat": 1, "data": {"reactions": []}, "at": AT}]}])),
    "a simultaneous phase of a continuous game": json.dumps(record("tank-game", [
        {"number": 1, "kind": "simultaneous", "submissions": [], "resolved_at": AT}])),
    "removed: 1e999": '{"record": "tank-games-match-record", "version": 1, '
                      '"game": "final-strategy", "options": {}, "seats": [{"number": 1}, '
                      '{"number": 2}], "dice": {"seed": 7}, "phases": [{"number": 1, '
                      '"kind": "sequential", "submissions": [], "resolved_at": "' + AT + '", '
                      '"removed": [1e999]}]}',
    "a removed seat that is no seat": json.dumps(record("final-strategy", [
        {"number": 1, "kind": "sequential", "submissions": [], "resolved_at": AT,
         "removed": [1.5]}])),
    "deep nesting": '{"record": "tank-games-match-record", "phases": ' + "[" * 100_000
                    + "]" * 100_000 + "}",
    "deep nesting in a sheet": json.dumps(record("final-act", []))[:-1]
                               + ', "x": ' + "[" * 3000 + "]" * 3000 + "}",
}


@pytest.mark.parametrize("command", ["replay", "verify"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_record_the_engine_cannot_replay_exits_2_with_a_message(case, command, tmp_path):
    done = run(command, CASES[case], tmp_path)
    assert done.returncode == 2, (done.returncode, done.stderr[-800:])
    assert "Traceback" not in done.stderr
    message = json.loads(done.stderr.strip().splitlines()[-1])["error"]
    assert message and len(message) < 400
    assert done.stdout == ""


def test_a_valid_record_still_replays(tmp_path):
    done = run("replay", json.dumps(record("final-act", [])), tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["events_match"] is True
