"""Fixtures for the mail tests: a real SMTP server (aiosmtpd) that Django's SMTP backend sends
to, Celery tasks run inline (eager), and Final Act matches between two mailboxes."""

from __future__ import annotations

import io
import sys

import pytest

from tests.portal.mail.smtp import start_server

ALPHA_NEAR_BREAKTHROUGH = {
    "round": 1,
    "units": [
        {"seat": 1, "name": "1A", "at": "e9", "facing": "N", "hits": 0},
        {"seat": 1, "name": "C", "at": "k2", "facing": "N", "hits": 0},
        {"seat": 2, "name": "2A", "at": "a5", "facing": "S", "hits": 0},
        {"seat": 2, "name": "C", "at": "b11", "facing": "S", "hits": 0},
    ],
    "terrain": [],
}


@pytest.fixture(scope="session")
def smtp_server():
    controller, mailboxes = start_server()
    yield controller, mailboxes
    controller.stop()


@pytest.fixture
def mailboxes(smtp_server, settings):
    """The SMTP server's mailboxes (emptied), with Django's SMTP backend pointed at it."""
    controller, boxes = smtp_server
    boxes.clear()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = controller.hostname
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5
    settings.MAIL_REPLY_DOMAIN = "play.example.test"
    settings.DEFAULT_FROM_EMAIL = "Tank Portal <portal@example.test>"
    settings.SERVER_EMAIL = "portal@example.test"
    settings.SITE_URL = "https://tanks.example.test"
    return boxes


@pytest.fixture
def eager():
    """Celery tasks queued on commit run inline, in this process."""
    from portal.celery import app

    old = {key: app.conf[key] for key in ("task_always_eager", "task_eager_propagates")}
    app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    app.conf.update(old)


@pytest.fixture
def final_act_match(make_user):
    """final_act_match(scenario=..., **kwargs) -> an active Final Act match (alice vs bob)."""
    from games import services

    counter = {"n": 0}

    def make(scenario=ALPHA_NEAR_BREAKTHROUGH, hours_per_phase=24, **kwargs):
        counter["n"] += 1
        n = counter["n"]
        alice, bob = make_user(f"fa_alice{n}"), make_user(f"fa_bob{n}")
        options = {"scenario": scenario} if scenario else {}
        match = services.match_create(
            creator=alice, game="final-act", options=options, hours_per_phase=hours_per_phase,
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}],
            title=kwargs.pop("title", f"Email duel {n}"), **kwargs,
        )
        match.alice, match.bob = alice, bob
        return match

    return make


@pytest.fixture
def mail_inbound(monkeypatch):
    """mail_inbound(raw_bytes) -> runs ``manage.py mail_inbound`` with the message on stdin."""
    from django.core.management import call_command

    def run(raw: bytes) -> str:
        out = io.StringIO()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
        call_command("mail_inbound", stdout=out)
        return out.getvalue()

    return run
