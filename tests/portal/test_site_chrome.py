"""Every page's header and footer (base.html's {% site_chrome %} parts): kept once rendered,
yet always the reader's own (name, staff link, time zone, language), with the CSRF field and
the page's path of the request itself."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.portal.builders import PASSWORD, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db


def header(html: str) -> str:
    return html[html.index('<header class="site-header">'):html.index("</header>")]


def footer(html: str) -> str:
    return html[html.index('<footer class="site-footer">'):html.index("</footer>")]


def test_each_reader_sees_their_own_header_and_footer(client):
    alice, boss = make_user("alice"), make_user("boss", staff=True)
    anonymous = client.get(reverse("games:lobby")).content.decode()
    assert "Log in" in header(anonymous) and "Log out" not in header(anonymous)
    assert "Times are shown in UTC." in footer(anonymous)
    client.force_login(alice)
    page = client.get(reverse("games:lobby")).content.decode()
    assert "Log out alice" in header(page) and ">Admin<" not in header(page)
    assert "your time zone (UTC)" in footer(page)
    client.force_login(boss)
    page = client.get(reverse("games:lobby")).content.decode()
    assert "Log out boss" in header(page) and ">Admin<" in header(page)
    # What the parts show changes with the user: a new name, a new time zone.
    boss.username = "chief"
    boss.save()
    boss.profile.time_zone = "Europe/Paris"
    boss.profile.save()
    page = client.get(reverse("games:lobby")).content.decode()
    assert "Log out chief" in header(page) and "Log out boss" not in header(page)
    assert "your time zone (Europe/Paris)" in footer(page)


def test_the_footer_follows_the_language():
    client = Client()
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    page = footer(client.get(reverse("games:lobby")).content.decode())
    assert "Langue" in page and "Changer" in page
    assert re.search(r'<option value="fr" selected', page)
    client.post(reverse("set_language"), {"language": "en-gb", "next": "/"})
    page = footer(client.get(reverse("games:lobby")).content.decode())
    assert "Language" in page and re.search(r'<option value="en-gb" selected', page)


def test_the_csrf_field_and_the_path_are_the_requests_own():
    make_user("alice")
    client = Client(enforce_csrf_checks=True)
    assert client.login(username="alice", password=PASSWORD)
    tokens = set()
    for query, shown in (("a=1", "a=1"), ("b=2&c='x'", "b=2&amp;c=&#x27;x&#x27;")):
        page = client.get(reverse("games:lobby") + "?" + query).content.decode()
        tokens |= set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
        assert f'name="next" type="hidden" value="/?{shown}"' in footer(page)
    assert len(tokens) == 2  # a token per page (masked anew), the same in header and footer
    # The header's token is valid: logging out with it works.
    answer = client.post(reverse("account_logout"), {"csrfmiddlewaretoken": tokens.pop()})
    assert answer.status_code == 302
    assert "Log in" in header(client.get(reverse("games:lobby")).content.decode())
