"""The Moderator role and the moderation page in the admin: exactly the needed permissions, a
form per action through its service, the audit trail on the match's admin page, and no sealed
sheet anywhere a moderator can look before the reveal."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from games import services
from games.models import ModerationEntry, Phase, Submission

SECRET = 4  # alice's sealed number


def shows_secret(body: str) -> bool:
    """The sealed sheet's content, as JSON or HTML-escaped JSON."""
    return any(f'{q}number{q}: {SECRET}' in body for q in ('"', "&quot;", "&#x27;", "'"))


@pytest.fixture
def mod_client(client, moderator):
    client.force_login(moderator)
    return client


@pytest.fixture
def sealed(toy_duel):
    match = toy_duel(title="Sealed duel")
    services.orders_submit(match_id=match.pk, seat_number=1, user=match.alice, phase_number=1,
                           data={"number": SECRET}, source="web")
    return match


def test_the_moderator_group_has_exactly_the_needed_permissions(moderator):
    perms = set(Group.objects.get(name="Moderator").permissions.values_list(
        "content_type__app_label", "codename"))
    assert ("games", "moderate_match") in perms
    assert ("reports", "change_report") in perms
    assert not any(codename.startswith(("delete_", "add_")) for _, codename in perms)
    assert ("games", "change_match") not in perms and ("auth", "change_user") not in perms
    assert not moderator.is_superuser
    assert moderator.has_perm("games.moderate_match")


def test_a_staff_member_without_the_role_cannot_moderate(client, make_user, sealed):
    client.force_login(make_user("helper", is_staff=True))
    url = reverse("admin:games_match_moderate", args=[sealed.pk])
    assert client.get(url).status_code == 403
    response = client.post(url, {"op": "pause", "pause-reason": "x"})
    assert response.status_code == 403
    assert not ModerationEntry.objects.exists()


def test_a_moderator_pauses_and_extends_through_the_page(mod_client, sealed):
    url = reverse("admin:games_match_moderate", args=[sealed.pk])
    page = mod_client.get(url)
    assert page.status_code == 200
    missing_reason = mod_client.post(url, {"op": "pause", "pause-reason": ""})
    assert missing_reason.status_code == 400
    assert not ModerationEntry.objects.exists()
    done = mod_client.post(url, {"op": "extend", "extend-hours": "48",
                                 "extend-reason": "travelling"}, follow=True)
    assert done.status_code == 200
    assert "a moderator extended the deadline by" in done.content.decode()
    refused = mod_client.post(url, {"op": "extend", "extend-hours": "500",
                                    "extend-reason": "forever"})
    assert refused.status_code == 400 and "up to" in refused.content.decode()
    (entry,) = ModerationEntry.objects.all()
    assert entry.reason == "travelling"
    change = mod_client.get(reverse("admin:games_match_change", args=[sealed.pk]))
    assert change.status_code == 200
    assert "travelling" in change.content.decode()  # the audit trail on the admin page
    assert 'id="moderate-link"' in change.content.decode()


def test_unknown_or_bad_input_is_a_400(mod_client, sealed):
    url = reverse("admin:games_match_moderate", args=[sealed.pk])
    assert mod_client.post(url, {"op": "explode"}).status_code == 400
    assert mod_client.post(url, {"op": "rollback", "rollback-to_phase": "x",
                                 "rollback-reason": "r"}).status_code == 400
    assert mod_client.post(url, {"op": "replace", "replace-seat": "2",
                                 "replace-replace_with": "user", "replace-username": "nobody",
                                 "replace-reason": "r"}).status_code == 400
    assert mod_client.get(reverse("admin:games_match_moderate", args=[99999])).status_code \
        == 404


def test_a_moderator_cannot_read_sealed_sheets_before_the_reveal(mod_client, sealed):
    """Every admin page a moderator can open, before the phase resolves: the sheet shows
    "sealed", never its content; the same pages show it once it is revealed."""
    phase = Phase.objects.get(match=sealed, number=1)
    sheet = Submission.objects.get(phase=phase, seat__number=1)
    urls = [
        reverse("admin:games_match_changelist"),
        reverse("admin:games_match_change", args=[sealed.pk]),
        reverse("admin:games_match_moderate", args=[sealed.pk]),
        reverse("admin:games_phase_changelist"),
        reverse("admin:games_phase_change", args=[phase.pk]),
        reverse("admin:games_submission_changelist"),
        reverse("admin:games_submission_change", args=[sheet.pk]),
        reverse("admin:games_moderationentry_changelist"),
    ]
    for url in urls:
        response = mod_client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        assert not shows_secret(body), url
        assert sheet.salt not in body, url
    assert "sealed" in mod_client.get(
        reverse("admin:games_submission_change", args=[sheet.pk])).content.decode()
    # The moderator cannot change or delete a sheet either.
    assert mod_client.post(reverse("admin:games_submission_delete", args=[sheet.pk]),
                           {"post": "yes"}).status_code == 403
    services.orders_submit(match_id=sealed.pk, seat_number=2, user=sealed.bob, phase_number=1,
                           data={"number": 1}, source="web")
    services.phase_resolve(match_id=sealed.pk, phase_number=1)
    revealed = mod_client.get(reverse("admin:games_submission_change", args=[sheet.pk]))
    assert shows_secret(revealed.content.decode())


def test_a_phase_voided_before_it_resolved_stays_sealed(mod_client, toy_duel, moderator):
    match = toy_duel(options={"target": 9})
    for seat, user in ((1, match.alice), (2, match.bob)):
        services.orders_submit(match_id=match.pk, seat_number=seat, user=user, phase_number=1,
                               data={"number": 2}, source="web")
    services.phase_resolve(match_id=match.pk, phase_number=1)
    services.orders_submit(match_id=match.pk, seat_number=1, user=match.alice, phase_number=2,
                           data={"number": SECRET}, source="web")
    services.match_rollback(match_id=match.pk, to_phase=2, by=moderator, reason="bug")
    voided = Phase.all_objects.get(match=match, number=2, status="voided")
    sheet = Submission.objects.get(phase=voided)
    for url in (reverse("admin:games_phase_change", args=[voided.pk]),
                reverse("admin:games_submission_change", args=[sheet.pk]),
                reverse("admin:games_match_change", args=[match.pk])):
        body = mod_client.get(url).content.decode()
        assert not shows_secret(body), url
    page = mod_client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert "rolled the match back to phase 2" in page
