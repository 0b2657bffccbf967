"""The report button (match page, profile) and the moderators' report queue."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from games.services import ServiceError
from portal.reports.models import Report
from portal.reports.services import report_close, report_file


def test_the_match_page_and_the_profile_have_the_report_button(client, toy_duel):
    match = toy_duel()
    client.force_login(match.alice)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert f'action="{reverse("reports:report")}"' in page
    assert f'name="match" value="{match.pk}"' in page
    profile = client.get(reverse("accounts_profile")).content.decode()
    assert f'action="{reverse("reports:report")}"' in profile


def test_a_player_reports_a_match_and_a_player(client, toy_duel):
    match = toy_duel()
    client.force_login(match.alice)
    url = reverse("reports:report")
    back = reverse("games:match", args=[match.pk])
    response = client.post(url, {"match": match.pk, "username": match.bob.username,
                                 "reason": "He insults me in his orders.", "next": back})
    assert response.status_code == 302 and response["Location"] == back
    report = Report.objects.get()
    assert (report.reporter, report.match, report.reported_user) == (
        match.alice, match, match.bob)
    assert report.status == "open"
    # An off-site "next" is not followed.
    client.post(url, {"username": match.bob.username, "reason": "again",
                      "next": "https://evil.example/"})
    assert Report.objects.count() == 2


@pytest.mark.parametrize("data, status", [
    ({"reason": ""}, 400),
    ({"reason": "no target"}, 400),
    ({"username": "nobody-here", "reason": "x"}, 400),
    ({"match": "99999", "reason": "x"}, 404),
    ({"match": "abc", "reason": "x"}, 400),
])
def test_bad_reports_are_refused_clearly(client, toy_duel, data, status):
    match = toy_duel()
    client.force_login(match.alice)
    response = client.post(reverse("reports:report"), data)
    assert response.status_code == status
    assert 'role="alert"' in response.content.decode()
    assert not Report.objects.exists()


def test_a_private_match_cannot_be_reported_by_outsiders(client, toy_duel, make_user):
    match = toy_duel(is_public=False)
    outsider = make_user("outsider")
    with pytest.raises(ServiceError) as caught:
        report_file(reporter=outsider, reason="x", match_id=match.pk)
    assert caught.value.code == "not_found"
    client.force_login(outsider)
    assert client.post(reverse("reports:report"),
                       {"match": match.pk, "reason": "x"}).status_code == 404


def test_reports_land_in_the_moderators_queue(client, toy_duel, make_user):
    match = toy_duel()
    report = report_file(reporter=match.alice, reason="abuse in chat", match_id=match.pk)
    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderator"))
    client.force_login(moderator)
    queue = client.get(reverse("admin:reports_report_changelist"))
    assert queue.status_code == 200 and "abuse in chat" in queue.content.decode()
    url = reverse("admin:reports_report_changelist")
    ask = client.post(url, {"action": "mark_handled", "_selected_action": [report.pk]})
    assert ask.status_code == 200  # asks what was done
    client.post(url, {"action": "mark_handled", "_selected_action": [report.pk],
                      "apply": "1", "note": "warned bob"})
    report.refresh_from_db()
    assert (report.status, report.handled_by, report.note) == ("handled", moderator,
                                                               "warned bob")
    assert report_close(report_id=report.pk, by=moderator, status="dismissed") is False
    with pytest.raises(ServiceError):
        report_close(report_id=report.pk, by=match.bob, status="handled")
