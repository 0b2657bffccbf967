from __future__ import annotations

import pytest

from tests.portal.tls import ca_bundle
from tests.portal.webhooks.receiver import Receiver


@pytest.fixture(scope="session")
def receiver_session():
    receiver = Receiver()
    yield receiver
    receiver.stop()


@pytest.fixture
def receiver(receiver_session, settings):
    """The local chat service (emptied), reachable: loopback allowed, its CA trusted. The rest
    of the real path (https, resolve, check, connect to the address checked) holds."""
    receiver_session.reset()
    settings.OUTBOUND_ALLOW_LOOPBACK = True
    settings.OUTBOUND_CA_BUNDLE = ca_bundle()
    settings.SITE_URL = "https://tanks.example.test"
    return receiver_session


@pytest.fixture
def hook(receiver):
    """hook(owner, path, format=..., by=...) -> a saved target posting to the receiver's
    ``path`` (a generic one's secret registered with the receiver)."""
    from portal.webhooks.services import target_create

    def make(path, *, by, club=None, match=None, format="discord", language="en-gb"):
        target, secret = target_create(by=by, name=path.strip("/"), format=format,
                                       url=receiver.url(path), language=language,
                                       club=club, match=match)
        if secret:
            receiver.secrets[path] = secret
        return target

    return make
