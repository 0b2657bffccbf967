"""The refusal codes are one vocabulary (games.services.errors.Code): every code raised in the
source is in it, its status is what pages and the API answer, and docs/errors.md lists it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.services.errors import Code, ServiceError
from games.views.access import status_for

ROOT = Path(__file__).resolve().parents[2]
RAISED = re.compile(r"\b(?:ServiceError|Refusal|Ignore|BodyError|_refusal_code)\(\s*\"([a-z_]+)\"")
ASSIGNED = re.compile(r"\bcode = (\"[a-z_]+\"(?: if .*? else \"[a-z_]+\")*)")


def source_files():
    for folder in ("engine", "games", "portal", "competitions", "clocks", "analysis"):
        yield from (ROOT / folder).rglob("*.py")


def test_every_code_the_source_raises_is_in_the_vocabulary():
    raised = set()
    for path in source_files():
        text = path.read_text()
        raised |= set(RAISED.findall(text))
        for found in ASSIGNED.findall(text):
            raised |= set(re.findall(r"\"([a-z_]+)\"", found))
    assert len(raised) > 40, "the pattern no longer finds where codes are raised"
    assert raised - set(Code) == set()


def test_a_code_outside_the_vocabulary_cannot_be_raised():
    with pytest.raises(ValueError):
        ServiceError("no_such_code", "Whatever.")


def test_a_refusal_carries_its_codes_status_and_meaning():
    error = ServiceError("seat_taken")
    assert error.code is Code.SEAT_TAKEN and error.code == "seat_taken"
    assert status_for(error) == error.status == 409
    assert error.message == "The seat is already taken."
    assert error.as_dict() == {"code": "seat_taken", "message": "The seat is already taken.",
                               "problems": []}
    assert ServiceError(Code.NOT_FOUND, "No match 4.").status == 404
    assert {code.status for code in Code} <= {400, 403, 404, 409, 413, 429}


def test_docs_list_the_vocabulary_as_the_script_writes_it():
    import importlib.util

    spec = importlib.util.spec_from_file_location("error_codes", ROOT / "scripts/error_codes.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.table() in (ROOT / "docs/errors.md").read_text()


def test_a_refusal_without_its_own_sentence_reads_in_the_readers_language():
    from django.utils import translation

    with translation.override("fr"):
        assert ServiceError("seat_taken").message == "La place est déjà prise."
