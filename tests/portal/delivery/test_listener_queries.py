"""The listeners a phase's opening (or a match's end) wakes up do a match's work in a constant
number of queries, however many seats it has: the outbox's dispatch (the relay's catch-up after
a failover) is bound by them (issue 35)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services as games_services
from games.models import Match
from portal.mail.models import OutgoingEmail
from portal.mail.services import notify as mail_notify
from portal.push.models import PushMessage
from portal.push.services import notify as push_notify
from portal.webhooks import notify as webhook_notify
from portal.webhooks.models import WebhookDelivery
from tests.portal.push.conftest import push_service, push_service_session, subscribe  # noqa: F401
from tests.portal.webhooks.conftest import hook, receiver, receiver_session  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def tank_match(make_user, subscribe, hook):  # noqa: F811
    """tank_match(seats) -> an open tank game match of ``seats`` players, each with a device
    subscribed to push, the match with a webhook target per two seats; nothing queued yet."""

    def make(seats: int) -> Match:
        users = [make_user(f"p{seats}x{n}") for n in range(seats)]
        match = games_services.match_create(
            creator=users[0], game="tank-game", title=f"{seats} tanks", options={},
            hours_per_phase=24, seats=[{"kind": "human", "user": u} for u in users])
        for user in users:
            subscribe(user, f"{user.username}-phone")
        for n in range(seats // 2):  # (webhooks are per target: as many as the seats)
            hook(f"/hook{seats}x{n}", by=users[0], match=match)
        for model in (OutgoingEmail, PushMessage, WebhookDelivery):
            model.objects.all().delete()
        return match

    return make


def queries(listener, **kwargs) -> tuple[int, int]:
    """(queries, rows queued) of one listener's call."""
    with CaptureQueriesContext(connection) as captured:
        created = listener(**kwargs)
    return len(captured), created


LISTENERS = [mail_notify.phase_opened_notify, push_notify.phase_opened_push,
             webhook_notify.phase_opened_webhooks]


@pytest.mark.parametrize("listener", LISTENERS, ids=lambda f: f.__module__.split(".")[1])
def test_a_phase_opening_costs_the_same_queries_for_2_or_8_seats(listener, tank_match):
    counts = {}
    for seats in (2, 8):
        match = tank_match(seats)
        counts[seats] = queries(listener, match_id=match.pk, phase_number=1)
        again = queries(listener, match_id=match.pk, phase_number=1)
        assert again[1] == 0  # exactly once: a second call queues nothing
    print(listener.__module__, counts)
    assert counts[2][1] > 0 and counts[8][1] > counts[2][1]
    assert counts[8][0] == counts[2][0]


def test_recording_missed_deadlines_costs_the_same_queries_for_2_or_8_seats(tank_match):
    from games.services.reliability import deadline_misses_record

    counts = {}
    for seats in (2, 8):
        match = tank_match(seats)
        users = {str(seat.number): seat.user_id for seat in match.seats.all()}
        kwargs = {"match_id": match.pk, "phase_number": 1,
                  "missed_at": match.deadline.isoformat(), "users": users}
        counts[seats] = queries(deadline_misses_record, **kwargs)
        assert queries(deadline_misses_record, **kwargs) == (1, 0)  # once: nothing more read
    assert counts == {2: (counts[2][0], 2), 8: (counts[2][0], 8)}
    assert counts[2][0] <= 4


def test_a_match_without_webhook_targets_costs_the_webhook_listeners_one_query(tank_match):
    match = tank_match(2)
    match.webhook_targets.all().delete()
    for listener, kwargs in ((webhook_notify.phase_opened_webhooks, {"phase_number": 1}),
                             (webhook_notify.phase_resolved_webhooks, {"phase_number": 1}),
                             (webhook_notify.match_ended_webhooks, {})):
        assert queries(listener, match_id=match.pk, **kwargs) == (1, 0)
