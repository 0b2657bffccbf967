"""The push pages: the browser's subscribe call (and its refusals), the profile's devices, and
the one-click unsubscribe link every push carries."""

from __future__ import annotations

import ipaddress
import json
import socket

import pytest

from portal.push.models import PushMessage, PushSubscription
from portal.push.services import unsubscribe_url
from tests.portal.push.pushserver import Browser

pytestmark = pytest.mark.django_db


def post_json(client, url, data):
    return client.post(url, data=json.dumps(data), content_type="application/json")


def test_a_browser_subscribes_and_the_profile_lists_it(client, make_user, push_service):
    alice = make_user("alice")
    client.force_login(alice)
    browser = push_service.browser("x")
    answer = post_json(client, "/push/subscriptions/",
                       {"subscription": browser.subscription(push_service.endpoint("x")),
                        "label": "Chrome on Linux"})
    assert answer.status_code == 201
    row = PushSubscription.objects.get(user=alice)
    assert (row.label, row.p256dh) == ("Chrome on Linux", browser.p256dh)
    page = client.get("/accounts/profile/").content.decode()
    assert "Chrome on Linux" in page and 'data-public-key="' in page
    assert "push/push.js" in page and "<script>" not in page  # no inline script
    # The same browser again: one row, keys updated.
    again = push_service.browser("x")
    post_json(client, "/push/subscriptions/",
              {"subscription": again.subscription(push_service.endpoint("x"))})
    assert PushSubscription.objects.get().p256dh == again.p256dh


FCM = "https://fcm.googleapis.com/fcm/send/x"


@pytest.mark.parametrize("subscription, message", [
    ({"endpoint": "http://fcm.googleapis.com/fcm/send/x", "keys": {}}, "must be an https URL"),
    ({"endpoint": "https://10.0.0.1/x", "keys": {}}, "10.0.0.1 is not one of the services"),
    ({"endpoint": "https://push.example.test/x", "keys": {}}, "is not one of the services"),
    ({"endpoint": "https://fcm.googleapis.com:8443/x", "keys": {}}, "must use port 443"),
    ({"endpoint": FCM}, "no keys"),
    ({"endpoint": FCM, "keys": {"p256dh": "AAAA", "auth": "x"}},
     "keys.p256dh must be 65 bytes"),
    ({"endpoint": FCM, "keys": {"p256dh": "BA" + "A" * 85, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}},
     "not a P-256 public key"),
    ({"endpoint": FCM, "keys": {"p256dh": "VALID", "auth": "AAAA"}},
     "keys.auth must be 16 bytes"),
    ("not an object", "JSON object"),
])
def test_a_bad_subscription_is_refused_with_the_reason(client, make_user, subscription,
                                                       message):
    client.force_login(make_user("alice"))
    if isinstance(subscription, dict) and subscription.get("keys", {}).get("p256dh") == "VALID":
        subscription["keys"]["p256dh"] = Browser().p256dh
    answer = post_json(client, "/push/subscriptions/", {"subscription": subscription})
    assert answer.status_code == 400
    assert message in answer.json()["error"]
    assert not PushSubscription.objects.exists()


# Every one of them is this machine or its cloud's metadata service, on port 443 or not.
INTERNAL = ["https://127.1/", "https://2130706433:18443/", "https://0x7f000001/",
            "https://0177.0.0.1/", "https://169.254.43518/", "https://localhost./",
            "https://[::ffff:127.0.0.1]/"]


@pytest.mark.parametrize("endpoint", INTERNAL)
@pytest.mark.parametrize("hosts", [None, ["*"]], ids=["push-services", "any-host"])
def test_an_endpoint_at_an_internal_address_is_refused_however_written(
        client, make_user, settings, endpoint, hosts):
    """Refused by the list of push services (the default), and with that list lifted, by the
    address every spelling resolves to."""
    if hosts is not None:
        settings.PUSH_ENDPOINT_HOSTS = hosts
    client.force_login(make_user("alice"))
    answer = post_json(client, "/push/subscriptions/",
                       {"subscription": Browser().subscription(endpoint)})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error.startswith("Push endpoints must be https on port 443 at a public address")
    if hosts is not None:
        assert "does not resolve to public addresses only" in error or (
            "must use port 443" in error)
    assert not PushSubscription.objects.exists()


def test_an_endpoint_whose_name_resolves_to_this_machine_is_refused(client, make_user,
                                                                    settings):
    name = socket.gethostname()
    try:
        addresses = {entry[4][0] for entry in socket.getaddrinfo(name, 443)}
    except OSError:
        pytest.skip(f"this machine's name {name} does not resolve")
    if all(ipaddress.ip_address(address).is_global for address in addresses):
        pytest.skip(f"this machine's name {name} resolves to public addresses")
    settings.PUSH_ENDPOINT_HOSTS = ["*"]
    client.force_login(make_user("alice"))
    answer = post_json(client, "/push/subscriptions/",
                       {"subscription": Browser().subscription(f"https://{name}/push/x")})
    assert answer.status_code == 400
    assert f"{name} does not resolve to public addresses only" in answer.json()["error"]


def test_garbage_and_strangers_are_refused(client, make_user):
    assert client.post("/push/subscriptions/", data="{}",
                       content_type="application/json").status_code == 403
    client.force_login(make_user("alice"))
    answer = client.post("/push/subscriptions/", data="{not json",
                         content_type="application/json")
    assert answer.status_code == 400 and "not JSON" in answer.json()["error"]
    assert client.get("/push/subscriptions/").status_code == 405


def test_devices_are_set_tested_and_removed_from_the_profile(client, make_user, subscribe,
                                                             push_service):
    alice, mallory = make_user("alice"), make_user("mallory")
    device = subscribe(alice, "phone")
    client.force_login(alice)
    answer = client.post(f"/push/subscriptions/{device.pk}/",
                         {"label": "My phone", "your_move": "on", "results": "on"})
    assert answer.status_code == 302
    device.refresh_from_db()
    assert (device.label, device.your_move, device.reminders, device.results) == (
        "My phone", True, False, True)
    client.post(f"/push/subscriptions/{device.pk}/test/")
    assert push_service.to("phone") == []  # never sent in the request: by the task
    from portal.delivery.pipeline import flush

    flush("push")
    [test] = push_service.to("phone")
    assert test.payload["body"] == "Push works on this device."
    # Another player cannot touch it.
    client.force_login(mallory)
    assert client.post(f"/push/subscriptions/{device.pk}/delete/").status_code == 404
    assert client.post(f"/push/subscriptions/{device.pk}/test/").status_code == 404
    client.force_login(alice)
    client.post(f"/push/subscriptions/{device.pk}/delete/")
    assert not PushSubscription.objects.exists()


def test_the_test_button_sends_at_most_one_push_a_minute_per_device(client, make_user,
                                                                    subscribe, push_service):
    alice = make_user("alice")
    device = subscribe(alice, "phone")
    client.force_login(alice)
    assert client.post(f"/push/subscriptions/{device.pk}/test/").status_code == 302
    again = client.post(f"/push/subscriptions/{device.pk}/test/")
    assert again.status_code == 429
    assert "less than a minute ago" in again.content.decode()
    assert PushMessage.objects.filter(subscription=device, kind="test").count() == 1


def test_the_browser_removes_its_own_subscription_by_endpoint(client, make_user, subscribe,
                                                              push_service):
    alice = make_user("alice")
    device = subscribe(alice, "phone")
    client.force_login(alice)
    answer = post_json(client, "/push/subscriptions/remove/", {"endpoint": device.endpoint})
    assert answer.json() == {"removed": True}
    assert not PushSubscription.objects.exists()


def test_one_click_unsubscribe(client, make_user, subscribe, push_service):
    device = subscribe(make_user("alice"), "phone")
    PushMessage.objects.create(subscription=device, kind="your_move", dedupe_key="k",
                               payload={}, expires_at="2100-01-01T00:00Z",
                               next_attempt_at="2100-01-01T00:00Z")
    url = unsubscribe_url(device.pk).removeprefix("https://tanks.example.test")
    # A GET (a link checker) only shows the button.
    page = client.get(url)
    assert page.status_code == 200 and b"Stop them" in page.content
    assert PushSubscription.objects.exists()
    # The notification's button posts without a session or CSRF token.
    assert client.post(url).status_code == 200
    assert not PushSubscription.objects.exists() and not PushMessage.objects.exists()
    assert client.post(url).status_code == 400
    assert client.get("/push/unsubscribe/forged.token/").status_code == 400


def test_the_vapid_key_command_prints_a_usable_key(capsys):
    from django.core.management import call_command

    from portal.push.vapid import public_key_of

    call_command("push_vapid_keys")
    lines = capsys.readouterr().out.splitlines()
    key = lines[0].removeprefix("VAPID_PRIVATE_KEY=")
    assert len(key) == 43 and public_key_of(key) in lines[1]


def test_development_generates_a_key_once_and_production_without_one_has_no_push(
        settings, tmp_path, client, make_user):
    from portal.push import vapid

    settings.VAPID_PRIVATE_KEY, settings.VAPID_GENERATE = "", True
    settings.VAPID_KEY_FILE = tmp_path / "vapid.txt"
    vapid._private_key.cache_clear()
    key = vapid.private_key()
    assert settings.VAPID_KEY_FILE.read_text().strip() == key
    vapid._private_key.cache_clear()
    assert vapid.private_key() == key  # kept: subscriptions survive a restart
    settings.VAPID_GENERATE = False
    vapid._private_key.cache_clear()
    assert not vapid.enabled()
    client.force_login(make_user("alice"))
    assert "Push notifications are not set up on this site." in client.get(
        "/accounts/profile/").content.decode()
    assert client.post("/push/subscriptions/", data="{}",
                       content_type="application/json").status_code == 409
    vapid._private_key.cache_clear()
