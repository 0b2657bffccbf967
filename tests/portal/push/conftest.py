from __future__ import annotations

import pytest

from tests.portal.push.pushserver import PushService
from tests.portal.tls import ca_bundle


@pytest.fixture(scope="session")
def push_service_session():
    service = PushService()
    yield service
    service.stop()


@pytest.fixture
def push_service(push_service_session, settings):
    """The local push service (emptied), with the site allowed to post to it: loopback on its
    port, its name on the push services' list, its certificate's CA trusted. Everything else
    of the real path (https, resolve, check, connect to the address checked) still holds."""
    push_service_session.reset()
    settings.OUTBOUND_ALLOW_LOOPBACK = True
    settings.OUTBOUND_CA_BUNDLE = ca_bundle()
    settings.PUSH_ENDPOINT_HOSTS = ["localhost"]
    settings.SITE_URL = "https://tanks.example.test"
    return push_service_session


@pytest.fixture
def subscribe(push_service):
    """subscribe(user, name) -> a saved PushSubscription of a new browser at endpoint ``name``."""
    from portal.push.services import subscription_save

    def make(user, name, **choices):
        browser = push_service.browser(name)
        row = subscription_save(user=user, data=browser.subscription(push_service.endpoint(name)),
                                label=f"{name}'s browser")
        for key, value in choices.items():
            setattr(row, key, value)
        row.save()
        return row

    return make


@pytest.fixture
def eager():
    from portal.celery import app

    old = {key: app.conf[key] for key in ("task_always_eager", "task_eager_propagates")}
    app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    app.conf.update(old)
