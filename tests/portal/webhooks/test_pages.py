"""The webhook pages: addresses refused at registration with the reason on the form, the
secret shown once, the test button, and every role's answer (checked before any work)."""

from __future__ import annotations

import re
import socket

import pytest
from django.contrib.auth.models import Group

from competitions.models import Membership
from competitions.services.clubs import club_create, club_join_by_token
from portal.webhooks.models import WebhookDelivery, WebhookTarget
from tests.portal.special_addresses import SPECIAL_ADDRESSES, getaddrinfo_entry
from tests.portal.webhooks.flush import flush

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_user):
    owner = make_user("owner")
    club = club_create(by=owner, name="Tankers", is_public=True)
    for name, role in (("organiser", Membership.Role.ORGANISER),
                       ("member", Membership.Role.MEMBER)):
        club_join_by_token(token=club.invite_token, user=make_user(name))
        Membership.objects.filter(club=club, user__username=name).update(role=role)
    return club


def add(client, page, url, format="slack", **extra):
    return client.post(page, {"name": "Our chat", "format": format, "url": url,
                              "language": "en-gb", **extra})


@pytest.mark.parametrize(("url", "reason"), [
    ("https://10.1.2.3/hook", "does not resolve to public addresses only"),
    ("https://127.0.0.1/hook", "does not resolve to public addresses only"),
    ("https://[::1]/hook", "does not resolve to public addresses only"),
    ("https://169.254.169.254/latest/meta-data/", "does not resolve to public addresses only"),
    ("https://inside.example.test/hook", "does not resolve to public addresses only"),
    ("http://hooks.example.test/hook", "must be an https URL"),
    ("https://hooks.example.test:8443/hook", "must use port 443"),
    ("not a url", "not a valid URL"),
])
def test_an_address_that_is_not_public_is_refused_with_the_reason(
        client, club, url, reason, monkeypatch, settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = False
    real = socket.getaddrinfo

    def resolver(host, *args, **kwargs):
        if host == "inside.example.test":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("192.168.1.20", 443))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    client.force_login(club.created_by)
    response = add(client, f"/webhooks/clubs/{club.slug}/", url)
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not WebhookTarget.objects.exists()


@pytest.mark.parametrize("address", SPECIAL_ADDRESSES)
@pytest.mark.parametrize("written", ["literal", "name"])
def test_a_special_purpose_address_is_refused_at_registration(
        client, club, address, written, monkeypatch, settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = False
    real = socket.getaddrinfo

    def resolver(host, port, *args, **kwargs):
        if host == "special.example.test":
            return [getaddrinfo_entry(address, port)]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    client.force_login(club.created_by)
    literal = f"[{address}]" if ":" in address else address
    host = literal if written == "literal" else "special.example.test"
    response = add(client, f"/webhooks/clubs/{club.slug}/", f"https://{host}/hook")
    assert response.status_code == 400
    assert "does not resolve to public addresses only" in response.content.decode()
    assert not WebhookTarget.objects.exists()


def test_the_generic_secret_is_shown_once_and_the_address_never(client, club, receiver):
    client.force_login(club.created_by)
    page = f"/webhooks/clubs/{club.slug}/"
    response = add(client, page, receiver.url("/secret/path"), format="generic")
    assert response.status_code == 200
    target = WebhookTarget.objects.get()
    assert target.secret and target.secret in response.content.decode()
    again = client.get(page).content.decode()
    assert target.secret not in again and "/secret/path" not in again
    assert "localhost" in again and "Our chat" in again


def test_the_test_button_posts_through_the_pipeline_and_shows_the_outcome(
        client, club, receiver):
    client.force_login(club.created_by)
    add(client, f"/webhooks/clubs/{club.slug}/", receiver.url("/test"), format="discord")
    target = WebhookTarget.objects.get()
    response = client.post(f"/webhooks/{target.pk}/test/", headers={"HX-Request": "true"})
    assert response.status_code == 200 and "hx-get" in response.content.decode()
    flush()
    delivery = WebhookDelivery.objects.get(event="test")
    status = client.get(f"/webhooks/{target.pk}/tests/{delivery.pk}/",
                        headers={"HX-Request": "true"})
    assert "was delivered" in status.content.decode()
    assert "it works" in receiver.to("/test")[0].json["content"]
    # Once a minute.
    again = client.post(f"/webhooks/{target.pk}/test/", headers={"HX-Request": "true"})
    assert again.status_code == 429
    assert WebhookDelivery.objects.filter(event="test").count() == 1


def test_a_failed_test_shows_the_error(client, club, receiver):
    receiver.answers["/broken"] = (403, {})
    client.force_login(club.created_by)
    add(client, f"/webhooks/clubs/{club.slug}/", receiver.url("/broken"))
    target = WebhookTarget.objects.get()
    client.post(f"/webhooks/{target.pk}/test/")
    flush()
    delivery = WebhookDelivery.objects.get()
    page = client.get(f"/webhooks/{target.pk}/tests/{delivery.pk}/").content.decode()
    assert "could not be delivered" in page and "HTTP 403" in page


def _roles(make_user, club, match):
    moderator = make_user("moderator", is_staff=True)
    moderator.groups.add(Group.objects.get_or_create(name="Moderator")[0])
    users = {name: club.memberships.get(user__username=name).user
             for name in ("owner", "organiser", "member")}
    return {"anonymous": None, "stranger": make_user("stranger"), "moderator": moderator,
            "seat2": match.bob, "creator": match.alice, **users}


@pytest.mark.parametrize(("role", "club_status", "match_status"), [
    ("anonymous", 302, 302), ("stranger", 403, 403), ("moderator", 403, 403),
    ("member", 403, 403), ("seat2", 403, 403), ("organiser", 200, 403), ("owner", 200, 403),
    ("creator", 403, 200),
])
def test_every_role(client, club, toy_duel, make_user, receiver, role, club_status,
                    match_status):
    from portal.webhooks.services import target_create

    match = toy_duel()
    user = _roles(make_user, club, match)[role]
    club_target, _ = target_create(by=club.created_by, club=club, name="c", format="slack",
                                   url=receiver.url("/c"), language="en-gb")
    match_target, _ = target_create(by=match.alice, match=match, name="m", format="slack",
                                    url=receiver.url("/m"), language="en-gb")
    if user is not None:
        client.force_login(user)
    club_page, match_page = f"/webhooks/clubs/{club.slug}/", f"/webhooks/matches/{match.pk}/"
    assert client.get(club_page).status_code == club_status
    assert client.get(match_page).status_code == match_status
    assert add(client, club_page, receiver.url("/x")).status_code in (club_status, 302)
    for target, allowed in ((club_target, club_status == 200),
                            (match_target, match_status == 200)):
        for action in ("test", "enable", "delete"):
            status = client.post(f"/webhooks/{target.pk}/{action}/").status_code
            assert status == (200 if allowed else 302 if user is None else 404), action
    assert receiver.posts == []  # a test is queued, never posted in the request
    kept = {"c": club_status != 200, "m": match_status != 200, "Our chat": club_status == 200}
    assert set(WebhookTarget.objects.values_list("name", flat=True)) == {
        name for name, there in kept.items() if there}


def test_an_invite_only_club_is_not_found_for_strangers(client, make_user):
    owner = make_user("owner")
    club = club_create(by=owner, name="Secret", is_public=False)
    client.force_login(make_user("stranger"))
    assert client.get(f"/webhooks/clubs/{club.slug}/").status_code == 404


def test_the_profile_takes_a_chat_handle(client, make_user):
    user = make_user("alice")
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="chat_handle"' in page
    form = {"time_zone": "UTC", "language": "", "notifications": "turn",
            "reminder_hours": "24", "chat_handle": "@alice:matrix.example.org"}
    client.post("/accounts/profile/", form)
    user.profile.refresh_from_db()
    assert user.profile.chat_handle == "@alice:matrix.example.org"
    response = client.post("/accounts/profile/", {**form, "chat_handle": "<@&123>"})
    assert response.status_code == 400 or "may not hold" in response.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.chat_handle == "@alice:matrix.example.org"


@pytest.mark.parametrize(("role", "status"), [
    ("anonymous", 404), ("stranger", 404), ("organiser", 404), ("member", 404),
    ("moderator", 403), ("seat2", 403), ("creator", 200),
])
def test_a_private_matchs_webhooks_are_as_hidden_as_the_match(
        client, club, toy_duel, make_user, receiver, role, status):
    """Whoever cannot see a private match gets the 404 of its page and of a match that does
    not exist, on the match's webhooks page and on every URL of its webhooks (a target, its
    test, a test's status); who can see it but not manage its webhooks gets 403."""
    from portal.webhooks.services import target_create, target_test

    match = toy_duel(is_public=False)
    user = _roles(make_user, club, match)[role]
    target, _ = target_create(by=match.alice, match=match, name="m", format="slack",
                              url=receiver.url("/m"), language="en-gb")
    delivery = target_test(target=target)
    missing = WebhookTarget.objects.order_by("-pk").first().pk + 1000
    if user is not None:
        client.force_login(user)
    page, nowhere = f"/webhooks/matches/{match.pk}/", f"/webhooks/matches/{match.pk + 1000}/"
    assert client.get(f"/matches/{match.pk}/").status_code == (404 if status == 404 else 200)
    for method, managed in ((client.get, 200), (client.post, 400)):  # (an empty form: 400)
        answer = method(page)
        assert answer.status_code == (managed if status == 200 else status)
        if status == 404:
            assert _page_text(answer) == _page_text(method(nowhere))
            assert "No such match." in _page_text(answer)
    add(client, page, receiver.url("/x"))
    assert list(WebhookTarget.objects.values_list("name", flat=True)) == (
        ["m", "Our chat"] if status == 200 else ["m"])
    # A target's and a test's URLs: the answer of one that does not exist (only its creator
    # manages a match's webhooks; nobody else learns that it has any).
    urls = [(client.post, f"/webhooks/{target.pk}/{action}/", f"/webhooks/{missing}/{action}/")
            for action in ("test", "enable")]
    urls.append((client.get, f"/webhooks/{target.pk}/tests/{delivery.pk}/",
                 f"/webhooks/{missing}/tests/{delivery.pk}/"))
    urls.append((client.post, f"/webhooks/{target.pk}/delete/", f"/webhooks/{missing}/delete/"))
    for method, url, absent in urls:
        answer = method(url)
        if status == 200:
            assert answer.status_code in (200, 429), url
            continue
        assert answer.status_code == (302 if user is None else 404), url
        assert _page_text(answer) == _page_text(method(absent)), url
    assert WebhookTarget.objects.filter(pk=target.pk).exists() is (status != 200)


def _page_text(response) -> str:
    """A page without what changes on every answer (nonces, CSRF tokens) or names the URL."""
    text = response.get("Location", "") + response.content.decode()
    return re.sub(r'(nonce|value|content)="[^"]*"|"X-CSRFToken": "\w+"|next=[^"&]*', "", text)


def test_a_development_site_says_how_to_try_a_local_receiver_and_posts_to_it(
        client, club, settings):
    """`make run` allows loopback: the page says how to run scripts/webhook_receiver.py, and
    the address it names (plain http on this machine) is accepted and posted to."""
    from tests.portal.test_outbound import _PlainReceiver

    settings.OUTBOUND_ALLOW_LOOPBACK = True
    client.force_login(club.created_by)
    page = f"/webhooks/clubs/{club.slug}/"
    text = client.get(page).content.decode()
    assert "python scripts/webhook_receiver.py" in text
    assert "http://127.0.0.1:9911/hook" in text
    receiver = _PlainReceiver()
    try:
        response = add(client, page, f"http://127.0.0.1:{receiver.port}/hook",
                       format="generic")
        assert response.status_code == 200, response.content.decode()
        target = WebhookTarget.objects.get()
        client.post(f"/webhooks/{target.pk}/test/")
        flush()
        assert WebhookDelivery.objects.get(event="test").status == "sent"
        assert len(receiver.posts) == 1 and b"it works" in receiver.posts[0]
    finally:
        receiver.stop()


def test_a_production_site_says_nothing_of_local_receivers(client, club, settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = False
    client.force_login(club.created_by)
    page = f"/webhooks/clubs/{club.slug}/"
    assert "webhook_receiver" not in client.get(page).content.decode()
    response = add(client, page, "http://127.0.0.1:9911/hook")
    assert response.status_code == 400 and "must be an https URL" in response.content.decode()


def test_the_local_receiver_help_is_in_french(client, club, settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = True
    client.force_login(club.created_by)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(f"/webhooks/clubs/{club.slug}/").content.decode()
    assert "Essayer les webhooks sur ce site de développement" in html
    assert "Envoyer un message de test\u00a0»\u00a0: le récepteur" in html
