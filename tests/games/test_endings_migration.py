"""The data migration of endings (games/0029): a result stored before the ``Ending`` (no
"ending"), and a cancelled match that had no result, get exactly the ending the lifecycle
stores now, for each way a match ends; the stored English stays as it was."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from engine.record import LEGACY_RESULT_KEYS
from games.endings import ending_of
from games.models import Match
from tests.portal.test_endings import WAYS, ended

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("games.migrations.0029_match_endings")


@pytest.mark.parametrize("way", WAYS)
def test_an_old_result_gets_the_ending_stored_now(toy_duel, way):
    match = ended(toy_duel, way)
    now = match.result
    before = None if way == "cancel" else {key: now[key] for key in LEGACY_RESULT_KEYS}
    Match.objects.filter(pk=match.pk).update(result=before)
    MIGRATION.endings(apps, None)
    match.refresh_from_db()
    assert match.result == now
    assert ending_of(match).how == way
    MIGRATION.endings(apps, None)  # twice: nothing more changes
    match.refresh_from_db()
    assert match.result == now


def test_a_match_aborted_by_a_moderator_keeps_no_result(toy_duel, moderator):
    from games import services

    match = toy_duel()
    services.match_abort(match_id=match.pk, by=moderator, note="test")
    MIGRATION.endings(apps, None)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.result is None
