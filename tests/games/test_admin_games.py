"""The games admin: moderators find things, sealed sheets stay sealed, actions are capped."""

import html

import pytest
from django.urls import reverse

from games import services
from games.models import (
    Match,
    MatchStatusChange,
    ModerationEntry,
    Phase,
    Seat,
    Submission,
    SweepRun,
)

pytestmark = pytest.mark.django_db

MARK = 5  # alice's sealed number; rendered as "number": 5 in the admin once revealed


@pytest.fixture
def staff_client(client, make_user):
    client.force_login(make_user("moderator", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def sealed_duel(toy_duel):
    match = toy_duel(title="Sealed duel")
    services.orders_submit(match_id=match.pk, seat_number=1, user=match.alice, phase_number=1,
                           data={"number": MARK}, source="web")
    return match


def sealed_marker_in(content: bytes) -> bool:
    text = html.unescape(content.decode())
    return f'"number": {MARK}' in text or f"'number': {MARK}" in text


def test_every_games_admin_page_opens_and_no_sealed_sheet_shows(staff_client, sealed_duel):
    sheet = Submission.objects.get()
    SweepRun.objects.create(last_run_at=sheet.submitted_at)
    pages = [reverse(f"admin:games_{model}_changelist") for model in
             ("match", "seat", "phase", "submission", "matchstatuschange", "sweeprun")]
    pages += [
        reverse("admin:games_match_change", args=[sealed_duel.pk]),
        reverse("admin:games_seat_change", args=[Seat.objects.first().pk]),
        reverse("admin:games_phase_change", args=[sheet.phase_id]),
        reverse("admin:games_submission_change", args=[sheet.pk]),
        reverse("admin:games_matchstatuschange_change",
                args=[MatchStatusChange.objects.first().pk]),
    ]
    for url in pages:
        response = staff_client.get(url)
        assert response.status_code == 200, url
        assert not sealed_marker_in(response.content), url
        assert sheet.salt not in response.content.decode(), url
    assert b"sealed" in staff_client.get(pages[3]).content


def test_sheets_show_once_the_phase_resolved(staff_client, sealed_duel):
    services.orders_submit(match_id=sealed_duel.pk, seat_number=2, user=sealed_duel.bob,
                           phase_number=1, data={"number": 2}, source="web")
    services.phase_resolve(match_id=sealed_duel.pk, phase_number=1)
    sheet = Submission.objects.get(seat__number=1)
    response = staff_client.get(reverse("admin:games_submission_change", args=[sheet.pk]))
    assert sealed_marker_in(response.content) and sheet.salt in response.content.decode()
    assert sealed_marker_in(staff_client.get(
        reverse("admin:games_phase_change", args=[sheet.phase_id])).content)


def test_moderators_find_matches_by_player_and_seats_by_kind(staff_client, sealed_duel,
                                                              toy_duel):
    other = toy_duel(title="Other duel")
    url = reverse("admin:games_match_changelist")
    found = staff_client.get(url, {"q": sealed_duel.alice.username}).content.decode()
    assert "Sealed duel" in found and "Other duel" not in found
    found = staff_client.get(url, {"status": "active", "game": "toy-duel"}).content.decode()
    assert "Sealed duel" in found and "Other duel" in found
    seats = staff_client.get(reverse("admin:games_seat_changelist"), {"kind": "bot"})
    assert "seat 1" not in seats.content.decode()
    assert other.pk


def test_phase_records_are_read_only(staff_client, sealed_duel):
    phase = Phase.objects.get()
    url = reverse("admin:games_phase_change", args=[phase.pk])
    response = staff_client.post(url, {"status": "resolved"})
    assert response.status_code == 403
    assert Phase.objects.get().status == "open"


def test_retry_action_reopens_a_quarantined_phase_once(staff_client, sealed_duel):
    phase = Phase.objects.get()
    Phase.objects.filter(pk=phase.pk).update(status="quarantined", attempts=5)
    Match.objects.filter(pk=sealed_duel.pk).update(deadline=None)
    url = reverse("admin:games_phase_changelist")
    filtered = staff_client.get(url, {"status__exact": "quarantined"}).content.decode()
    assert str(phase) in filtered
    asked = staff_client.post(url, {"action": "retry_quarantined",
                                    "_selected_action": [phase.pk]})
    assert asked.status_code == 200 and b"reason" in asked.content  # a reason first
    assert Phase.objects.get(pk=phase.pk).status == "quarantined"
    for _ in range(2):  # a double-submitted action is harmless
        staff_client.post(url, {"action": "retry_quarantined", "_selected_action": [phase.pk],
                                "apply": "1", "reason": "the engine bug is fixed"})
    phase.refresh_from_db()
    assert phase.status == "open" and phase.attempts == 0
    sealed_duel.refresh_from_db()
    assert sealed_duel.deadline == phase.deadline
    (entry,) = ModerationEntry.objects.filter(match=sealed_duel)  # one audit row, not two
    assert (entry.kind, entry.reason, entry.phase_number) == (
        "retry", "the engine bug is fixed", phase.number)
    assert {key: value for key, value in entry.details.items() if key != "words"} == {
        "phase": phase.number, "attempts": 5}
    assert entry.summary == f"a moderator had phase {phase.number} resolved again"


def test_extend_action_is_idempotent(staff_client, toy_duel):
    match = toy_duel(hours_per_phase=1)
    url = reverse("admin:games_match_changelist")
    staff_client.post(url, {"action": "extend_deadline_24h", "_selected_action": [match.pk],
                            "apply": "1", "reason": "asked for more time"})
    match.refresh_from_db()
    first = match.deadline
    staff_client.post(url, {"action": "extend_deadline_24h", "_selected_action": [match.pk],
                            "apply": "1", "reason": "asked for more time"})
    match.refresh_from_db()
    assert match.deadline == first
    assert (first - match.started_at).total_seconds() == pytest.approx(24 * 3600, abs=60)


def test_abort_action_goes_through_the_lifecycle(staff_client, toy_duel):
    match = toy_duel()
    url = reverse("admin:games_match_changelist")
    asked = staff_client.post(url, {"action": "abort_matches", "_selected_action": [match.pk]})
    assert asked.status_code == 200 and b"reason" in asked.content  # a reason first
    match.refresh_from_db()
    assert match.status == "active"
    for _ in range(2):  # the second finds it aborted: refused with a message, nothing written
        response = staff_client.post(url, {"action": "abort_matches",
                                           "_selected_action": [match.pk], "apply": "1",
                                           "reason": "both players asked"}, follow=True)
    assert "cannot become “Aborted”" in response.content.decode()
    match.refresh_from_db()
    assert match.status == "aborted"
    assert match.status_changes.last().note == "both players asked"
    (entry,) = ModerationEntry.objects.filter(match=match)
    assert (entry.kind, entry.reason, entry.summary) == (
        "abort", "both players asked", "a moderator aborted the match")


def test_a_flagged_seat_is_handed_over_in_the_admin(staff_client, toy_duel, make_user):
    match = toy_duel(miss_limit=1, options={"target": 9})
    seat = Seat.objects.get(match=match, number=2)
    url = reverse("admin:games_seat_change", args=[seat.pk])
    carol = make_user("carol")
    assert staff_client.post(url, {"user": carol.pk}).status_code == 302  # user is read-only
    seat.refresh_from_db()
    assert seat.user == match.bob
    Seat.objects.filter(pk=seat.pk).update(status="flagged", missed_in_row=1)
    response = staff_client.post(url, {"user": match.alice.pk, "reason": "bob left"})
    assert "already has a seat" in response.content.decode()
    response = staff_client.post(url, {"user": carol.pk})
    assert "Say why" in response.content.decode()  # a moderator's action needs a reason
    seat.refresh_from_db()
    assert seat.user == match.bob and not ModerationEntry.objects.filter(match=match).exists()
    assert staff_client.post(url, {"user": carol.pk, "reason": "bob left"}).status_code == 302
    seat.refresh_from_db()
    assert (seat.user, seat.status, seat.missed_in_row) == (carol, "taken", 0)
    (entry,) = ModerationEntry.objects.filter(match=match)
    assert (entry.kind, entry.reason) == ("replace", "bob left")
    assert entry.summary == f"a moderator handed seat 2 from {match.bob.username} to carol"


def test_editing_match_settings_touches_only_those_settings(staff_client, sealed_duel):
    url = reverse("admin:games_match_change", args=[sealed_duel.pk])
    form = {"title": "Renamed", "is_public": "on", "allow_vacations": "on",
            "hours_per_phase": "48", "miss_policy": "forfeit", "miss_limit": "2",
            **{f"{prefix}-{key}": value
               for prefix in ("seats", "tenures", "phases", "status_changes", "moderation")
               for key, value in (("TOTAL_FORMS", "0"), ("INITIAL_FORMS", "0"))}}
    before = Match.objects.get(pk=sealed_duel.pk)
    response = staff_client.post(url, form)
    assert response.status_code == 302, response.content.decode()[-2000:]
    after = Match.objects.get(pk=sealed_duel.pk)
    assert (after.title, after.miss_policy, after.miss_limit) == ("Renamed", "forfeit", 2)
    assert (after.state, after.phase_number, after.deadline, after.status) == (
        before.state, before.phase_number, before.deadline, before.status)


def test_a_status_note_holding_a_result_reads_in_the_moderators_language(staff_client,
                                                                          make_user):
    """A finished match's status change notes its result's reason, the game's stored English:
    the list and the record tell it in the moderator's language."""
    from django.conf import settings

    alice = make_user("alice")
    match = services.match_create(
        creator=alice, game="final-act", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}])
    change = MatchStatusChange.objects.create(
        match=match, old_status="active", new_status="finished",
        note="The round limit (2) was reached: draw.")
    staff_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    for url in (reverse("admin:games_matchstatuschange_changelist"),
                reverse("admin:games_matchstatuschange_change", args=[change.pk]),
                reverse("admin:games_match_change", args=[match.pk])):
        text = html.unescape(staff_client.get(url).content.decode())
        assert "La limite de manches (2) est atteinte : match nul." in text, url
        assert "The round limit" not in text, url


def test_a_matchs_record_says_its_game_phase_and_durations_in_words(staff_client, make_user):
    """No stored key or raw duration on the record: the game's and the phase's names, the kind
    of phase and the extensions as a moderator reads them, in their language."""
    from datetime import timedelta

    from django.conf import settings

    alice = make_user("alice")
    match = services.match_create(
        creator=alice, game="final-act", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}])
    url = reverse("admin:games_match_change", args=[match.pk])
    text = html.unescape(staff_client.get(url).content.decode())
    assert "no extension" in text and "0:00:00" not in text
    assert "simultaneous (sealed sheets, resolved together)" in text
    Match.objects.filter(pk=match.pk).update(extended_total=timedelta(days=1, hours=2))
    staff_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    text = html.unescape(staff_client.get(url).content.decode())
    assert "1 jour, 2 heures" in text and "1 day, 2:00:00" not in text
    assert "simultanée (feuilles scellées, résolues ensemble)" in text
    assert ">final-act<" not in text.replace(" ", "").replace("\n", "")


def test_the_match_list_and_pages_read_as_people_read_them(staff_client, sealed_duel):
    """The match list names the game (not its slug) and links each match to its page and its
    record; the change page has "View on site"; the moderation page says the moderators'
    extensions in words (was "1 day, 0:02:20.038157"); audit rows have names, not "object (1)"."""
    from datetime import timedelta

    match = sealed_duel
    listing = html.unescape(staff_client.get(reverse("admin:games_match_changelist"))
                            .content.decode())
    assert '<td class="field-game_in_words">Toy Duel</td>' in listing
    assert '<td class="field-game">toy-duel</td>' not in listing
    assert f'href="{match.get_absolute_url()}"' in listing
    assert f'href="{reverse("games:record_json", args=[match.pk])}"' in listing
    assert "Toy Duel" in listing.split('id="changelist-filter"')[1]  # the filter, by name
    change = staff_client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert 'class="viewsitelink"' in change.content.decode()
    Match.objects.filter(pk=match.pk).update(
        extended_total=timedelta(days=1, seconds=140.038157))
    moderate = html.unescape(staff_client.get(
        reverse("admin:games_match_moderate", args=[match.pk])).content.decode())
    assert "extensions so far: 1 day" in moderate and "0:02:20" not in moderate
    services.match_abort(match_id=match.pk, by=match.alice, note="test")
    change = MatchStatusChange.objects.filter(match=match).last()
    assert "object (" not in str(change) and str(change).startswith(f"Match {match.pk}: ")
    changes = html.unescape(staff_client.get(
        reverse("admin:games_matchstatuschange_changelist")).content.decode())
    assert "MatchStatusChange object" not in changes


def test_every_model_has_a_name_in_the_admin():
    """No "… object (1)" anywhere: every model of ours says what its row is."""
    from django.apps import apps
    from django.db import models

    nameless = [model._meta.label for model in apps.get_models()
                if model.__module__.split(".")[0] in ("games", "portal", "competitions",
                                                       "analysis", "clocks")
                and model.__str__ is models.Model.__str__]
    assert nameless == []
