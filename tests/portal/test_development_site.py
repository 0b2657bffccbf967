"""What a person trying the site with `make run` meets first (issue 48): the verification link
on the "check your mail" page and a log-in after confirming, mail links to the address the
site runs at, and a favicon."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.core import mail
from django.urls import reverse

from tests.portal.builders import PASSWORD

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def sign_up(client, name: str):
    return client.post(reverse("account_signup"), {
        "email": f"{name}@example.com", "username": name,
        "password1": PASSWORD, "password2": PASSWORD}, follow=True)


def test_in_development_the_page_shows_the_link_and_confirming_logs_in(client, settings):
    settings.DEBUG = True
    page = sign_up(client, "dora")
    html = page.content.decode()
    (message,) = mail.outbox
    link = re.search(r"http://testserver(/\S+)", message.body).group(1)
    assert f'href="http://testserver{link}"' in html  # the very link of the mail
    assert "spam folder" not in html
    assert "no mail leaves it" in html
    confirm = client.post(link)
    assert confirm.status_code == 302
    home = client.get(reverse("home"))
    assert home.status_code == 200
    assert home.wsgi_request.user.username == "dora"


def test_in_production_the_page_says_to_check_the_mail_and_shows_no_link(client, settings):
    settings.DEBUG = False
    html = sign_up(client, "erik").content.decode()
    assert "spam folder" in html
    assert "no mail leaves it" not in html
    assert not re.search(r'href="[^"]*/accounts/confirm-email/\w', html)


def test_confirming_in_the_browser_that_signed_up_logs_in_in_production_too(client, settings):
    settings.DEBUG = False
    sign_up(client, "fay")
    link = re.search(r"http://testserver(/\S+)", mail.outbox[0].body).group(1)
    client.post(link)
    assert client.get(reverse("home")).wsgi_request.user.username == "fay"
    assert get_user_model().objects.get(username="fay").emailaddress_set.get().verified


@pytest.mark.parametrize(("port", "expected"), [(None, "http://127.0.0.1:8000"),
                                                ("8123", "http://127.0.0.1:8123")])
def test_mail_links_point_where_make_run_serves_the_site(port, expected):
    """The terminal says http://127.0.0.1:8000/; mails said localhost:8000 (another origin:
    another session, logged out)."""
    env = {key: value for key, value in os.environ.items()
           if key not in {"SITE_URL", "PORTAL_PORT", "DJANGO_SETTINGS_MODULE"}}
    env.update(DEBUG="true", **({"PORTAL_PORT": port} if port else {}))
    found = subprocess.run(
        [sys.executable, "-c", "import portal.settings as s; print(s.SITE_URL)"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert found == expected


def test_the_site_has_a_favicon(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301 and answer.url.endswith("favicon.svg")
    assert "<svg" in Path(finders.find("favicon.svg")).read_text()
    page = client.get(reverse("account_login")).content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in page


def test_the_development_link_is_offered_in_french(client, settings):
    settings.DEBUG = True
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = sign_up(client, "gael").content.decode()
    assert "Ce site tourne en développement\u00a0: aucun courriel n'en sort." in html
    assert "Confirmer mon adresse électronique" in html
