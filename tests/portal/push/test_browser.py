"""Web push in Debian's Chromium (Playwright), as far as a browser without Google's push
service can go.

Driven for real: the profile page and its script (static/push/push.js), the registration of
the site's service worker (/sw.js), the notification permission, the POST of the subscription
to the server, the device list after the reload; then, server side, a phase opening pushed
through the outbox to the local push service (VAPID checked, payload decrypted); that decrypted
payload delivered to the real service worker (DevTools' ServiceWorker.deliverPushMessage, the
way the browser hands it a push), which shows the notification; the match's result, whose
notification replaces that one (same tag); and the notification's one-click unsubscribe run by
the service worker against the server.

Not driven: ``pushManager.subscribe`` itself. Chromium subscribes through Google's push service
(headless: "Registration failed - permission denied"; it cannot be reached from here either),
so the page's call is answered by a stand-in that returns a subscription at the local push
service with keys made by the test (what ``subscribe`` resolves to in a real browser). Nor is a
notification's button pressed (no browser API does that): the test asks the service worker to
run the same code as its "Stop these" button."""

from __future__ import annotations

import json
import time

import pytest

from games import services as games_services
from portal.push.models import PushSubscription
from tests.browser import BROWSER_MARKS, log_in
from tests.portal.builders import make_user

pytestmark = BROWSER_MARKS

# Answers the page's pushManager.subscribe / getSubscription with the test's subscription.
STAND_IN = """
(() => {
  // A browser keeps its subscription across page loads: so does the stand-in.
  const made = %s;
  const wrap = (json) => ({
    endpoint: json.endpoint, expirationTime: null, toJSON: () => json,
    unsubscribe: async () => { sessionStorage.removeItem("push-stand-in"); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    if (!options || options.userVisibleOnly !== true || !options.applicationServerKey
        || options.applicationServerKey.length !== 65) {
      throw new Error("subscribe called without the site's 65-byte VAPID key");
    }
    sessionStorage.setItem("push-stand-in-key",
                           JSON.stringify(Array.from(options.applicationServerKey)));
    sessionStorage.setItem("push-stand-in", "subscribed");
    return wrap(made);
  };
  PushManager.prototype.getSubscription = async function () {
    return sessionStorage.getItem("push-stand-in") ? wrap(made) : null;
  };
})();
"""


@pytest.fixture
def page(new_page, push_service, settings):
    page = new_page()
    settings.SITE_URL = page.base
    page.context.grant_permissions(["notifications"], origin=page.base)
    return page



def eventually(page, script: str, arg, seconds: float = 20):
    """``script(arg)`` in the page until it gives something truthy (or the time is up): its
    promise is awaited each time. (``wait_for_function`` judges a returned promise itself,
    always truthy, so it came back at once with whatever the promise then held: a
    notification the service worker had not shown yet read as none.)"""
    deadline = time.monotonic() + seconds
    while True:
        value = page.evaluate(script, arg)
        if value or time.monotonic() > deadline:
            return value
        page.wait_for_timeout(100)


# Notifications and the push service's hand-over are the full browser's (not its headless shell).
@pytest.mark.full_chromium
def test_turning_push_on_receiving_a_push_and_stopping_it_in_one_click(
        page, push_service, eager):
    from portal.push.vapid import b64url_decode, public_key

    alice, bob = make_user("alice"), make_user("bob")
    browser_keys = push_service.browser("alice-chromium")
    page.add_init_script(STAND_IN % json.dumps(
        browser_keys.subscription(push_service.endpoint("alice-chromium"))))
    cdp = page.context.new_cdp_session(page)
    registrations: dict[str, str] = {}
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.update(
        {r["scopeURL"]: r["registrationId"] for r in event["registrations"]}))
    cdp.send("ServiceWorker.enable")

    log_in(page, "alice")
    page.goto(page.base + "/accounts/profile/")
    page.wait_for_selector("#push-status:has-text('Push is off for this device.')")
    page.fill("#push-label", "Alice's Chromium")
    page.click("#push-enable")
    page.wait_for_selector(".push-device input[value=\"Alice's Chromium\"]")
    page.wait_for_selector("#push-status:has-text('Push is on for this device.')")
    # The page subscribed with the site's VAPID public key.
    assert bytes(page.evaluate(
        "JSON.parse(sessionStorage.getItem('push-stand-in-key'))")) == b64url_decode(public_key())
    device = PushSubscription.objects.get(user=alice)
    assert device.p256dh == browser_keys.p256dh

    # A phase opens: the lifecycle pushes "your move" through the outbox to the push service.
    match = games_services.match_create(
        creator=alice, game="toy-duel", options={"target": 1}, hours_per_phase=24,
        title="Browser duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    [received] = push_service.wait_for(1)
    assert received.payload["title"] == "Your move: Browser duel"

    # The browser hands the (decrypted) push to the real service worker: a notification.
    scope = page.base + "/"
    # The worker must be active, not just registered: it installs first (keeping the offline
    # page), and a push handed to a registration whose worker is still installing is dropped.
    assert eventually(page, """s => navigator.serviceWorker.getRegistration(s).then(
        r => !!(r && r.active && r.active.state === "activated"))""", scope)
    assert scope in registrations, registrations
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": page.base, "registrationId": registrations[scope],
        "data": json.dumps(received.payload)})
    shown = eventually(page, """s => navigator.serviceWorker.getRegistration(s)
        .then(r => r.getNotifications()).then(list => list.length ? list.map(n => ({
          title: n.title, body: n.body, tag: n.tag, data: n.data,
          actions: n.actions.map(a => a.action)})) : null)""", scope)
    assert shown == [{"title": "Your move: Browser duel", "body": received.payload["body"],
                      "tag": f"m{match.pk}-move", "actions": ["unsubscribe"],
                      "data": {"url": f"{page.base}/matches/{match.pk}/",
                               "unsubscribe": received.payload["unsubscribe"]}}]

    # The match ends: its result, pushed with the same tag, replaces "your move" on the device.
    for seat, user, number in ((1, alice, 2), (2, bob, 1)):
        games_services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                     phase_number=1, source="web", text=str(number))
    result = push_service.wait_for(2)[1]
    assert result.payload["title"] == "Result: Browser duel"
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": page.base, "registrationId": registrations[scope],
        "data": json.dumps(result.payload)})
    shown = eventually(page, """s => navigator.serviceWorker.getRegistration(s)
        .then(r => r.getNotifications()).then(list => list.some(n => n.title.startsWith(
          "Result")) ? list.map(n => [n.title, n.tag]) : null)""", scope)
    assert shown == [["Result: Browser duel", f"m{match.pk}-move"]]

    # "Stop these": the service worker posts the signed link; the device is gone.
    page.evaluate("""([s, url]) => navigator.serviceWorker.getRegistration(s).then(r => {
        window.__stopped = false;
        navigator.serviceWorker.addEventListener("message", e => {
          if (e.data && e.data.type === "unsubscribed") window.__stopped = true; });
        r.active.postMessage({type: "unsubscribe", url: url});
      })""", [scope, received.payload["unsubscribe"]])
    page.wait_for_function("window.__stopped === true")
    assert not PushSubscription.objects.filter(user=alice).exists()
    page.reload()
    page.wait_for_selector("text=No device gets push notifications yet.")
