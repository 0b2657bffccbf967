"""orders_submit: the one way a sealed sheet gets in, and its receipts."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Phase, Submission
from games.receipts import canonical_json, receipt_for
from games.services import ServiceError
from tests.helpers import submit

pytestmark = pytest.mark.django_db


def queued(callbacks):
    return [(c.task_name, c.kwargs) for c in callbacks if hasattr(c, "task_name")]


def test_a_sheet_is_sealed_with_a_receipt_its_author_can_verify(toy_duel):
    match = toy_duel()
    receipt = submit(match, match.alice, 1, 4)
    sheet = Submission.objects.get(pk=receipt.submission_id)
    assert sheet.data == {"number": 4} and sheet.source == "web" and sheet.revision == 1
    assert receipt.receipt == sheet.receipt == receipt_for(salt=receipt.salt, data={"number": 4})
    assert services.receipt_verify(salt=receipt.salt, data={"number": 4}, receipt=receipt.receipt)
    assert not services.receipt_verify(salt=receipt.salt, data={"number": 5},
                                       receipt=receipt.receipt)
    assert canonical_json({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'


def test_replacing_a_sheet_bumps_the_revision_and_the_salt(toy_duel):
    match = toy_duel()
    first = submit(match, match.alice, 1, 4)
    second = submit(match, match.alice, 1, 2)
    assert second.submission_id == first.submission_id
    assert second.revision == 2 and second.salt != first.salt
    assert Submission.objects.get().data == {"number": 2}


def test_engine_warnings_come_back_with_the_receipt(toy_duel):
    match = toy_duel()
    assert [w.path for w in submit(match, match.alice, 1, 1).warnings] == ["number"]
    assert submit(match, match.alice, 1, 3).warnings == []


def test_invalid_sheet_lists_every_problem_and_stores_nothing(toy_duel):
    match = toy_duel()
    with pytest.raises(ServiceError) as caught:
        services.orders_submit(match_id=match.pk, seat_number=1, user=match.alice,
                               phase_number=1, data={"number": 9, "extra": 1}, source="web")
    assert caught.value.code == "invalid"
    assert sorted(p.path for p in caught.value.problems) == ["extra", "number"]
    assert not Submission.objects.exists()


def test_text_orders_are_parsed_by_the_game(toy_duel):
    match = toy_duel()
    assert submit(match, match.alice, 1, text=" 5\n").data == {"number": 5}
    with pytest.raises(ServiceError) as caught:
        submit(match, match.alice, 1, text="five")
    assert caught.value.code == "invalid" and caught.value.problems[0].path == "line 1"


def test_stale_phase_is_refused_with_a_clear_message(toy_duel):
    match = toy_duel()
    submit(match, match.alice, 1, 4)
    submit(match, match.bob, 2, 2)
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    with pytest.raises(ServiceError) as caught:
        submit(match, match.alice, 1, 5, phase=1)
    assert caught.value.code == "stale_phase"
    assert caught.value.message == "This phase has already been resolved."
    with pytest.raises(ServiceError) as caught:
        submit(match, match.alice, 1, 5, phase=3)
    assert caught.value.code == "unknown_phase"
    assert Phase.objects.get(match=match, number=1).revealed["1"]["data"] == {"number": 4}


def test_deadline_passed_is_refused(toy_duel):
    match = toy_duel()
    Phase.objects.filter(match=match).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ServiceError) as caught:
        submit(match, match.alice, 1, 4)
    assert caught.value.code == "deadline_passed"
    assert not Submission.objects.exists()


def test_only_the_seat_owner_may_submit(toy_duel, make_user):
    match = toy_duel()
    for user, seat in ((match.bob, 1), (make_user("eve"), 1), (None, 2)):
        with pytest.raises(ServiceError) as caught:
            submit(match, user, seat, 3)
        assert caught.value.code == "not_your_seat"
    with pytest.raises(ServiceError) as caught:
        submit(match, None, 1, 3, source="bot")  # a human seat takes no bot sheets
    assert caught.value.code == "not_your_seat"
    with pytest.raises(ServiceError) as caught:
        submit(match, match.alice, 9, 3)
    assert caught.value.code == "not_found"
    assert not Submission.objects.exists()


def test_a_finished_match_takes_no_orders(toy_duel):
    match = toy_duel()
    services.match_abort(match_id=match.pk, by=match.alice, note="done")
    with pytest.raises(ServiceError) as caught:
        submit(match, match.alice, 1, 3)
    assert caught.value.code == "not_active"


def test_the_last_sheet_queues_resolution_on_commit_once(toy_duel,
                                                       django_capture_on_commit_callbacks):
    match = toy_duel()
    with django_capture_on_commit_callbacks() as callbacks:
        assert not submit(match, match.alice, 1, 4).complete
    assert queued(callbacks) == []
    with django_capture_on_commit_callbacks() as callbacks:
        assert submit(match, match.bob, 2, 2).complete
    assert queued(callbacks) == [
        ("games.tasks.resolve_phase", {"match_id": match.pk, "phase_number": 1})]
    match.refresh_from_db()
    assert match.complete_at is not None
    with django_capture_on_commit_callbacks() as callbacks:
        submit(match, match.bob, 2, 3)  # a replacement while resolution is queued
    assert queued(callbacks) == []


@pytest.mark.parametrize("seat, phase, code", [("x", 1, "not_found"), (1, "soon", "unknown_phase"),
                                               (None, None, "unknown_phase")])
def test_malformed_seat_or_phase_numbers_are_clear_errors(toy_duel, seat, phase, code):
    match = toy_duel()
    with pytest.raises(ServiceError) as caught:
        services.orders_submit(match_id=match.pk, seat_number=seat, user=match.alice,
                               phase_number=phase, data={"number": 3}, source="web")
    assert caught.value.code == code


def test_an_unknown_match_or_source_is_a_clear_error(toy_duel):
    match = toy_duel()
    for match_id, source, code in (("nope", "web", "not_found"), (10**9, "web", "not_found"),
                                   (match.pk, "pigeon", "invalid")):
        with pytest.raises(ServiceError) as caught:
            services.orders_submit(match_id=match_id, seat_number=1, user=match.alice,
                                   phase_number=1, data={"number": 3}, source=source)
        assert caught.value.code == code
