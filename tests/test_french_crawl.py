"""In French, no English is left: every page, as each role, and every mail of played matches.

The world of the URL walk (``tests/test_every_url.py``: a match of every game, a club, a ladder,
a challenge, a tournament, tokens of every kind) gets a running and a finished match of each of
the site's games, played through the services (the outbox carried out as the workers would),
and every user reads French (their profile's language, the language cookie). Then every URL
pattern, its path parameters at their real values, is read as an anonymous visitor, a player
and a moderator, and every mail and push the world produced is read too. ``tests.french``
finds the sentences left in English; the test fails naming each one with where it was found,
the most frequent first.
"""

from __future__ import annotations

import ast
import contextlib
import logging
import os
import random
import re
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import get_resolver
from django.utils import timezone

import engine
from competitions.models import JoinRequest
from games import services
from games.models import Match
from portal.accounts.notifications import profile_of
from portal.lessons.catalogue import all_lessons
from portal.mail.models import OutgoingEmail
from portal.push.models import PushMessage
from tests import french
from tests.french import english_in
from tests.games.test_records import TANK_GAME_STEPS, aggressive, carry_out_outbox, play_sheets
from tests.portal.builders import fast_password_hashing  # noqa: F401  (autouse)
from tests.portal.test_in_words import OPTIONS as RUNNING_OPTIONS
from tests.portal.test_in_words import play
from tests.test_every_url import build_world, leaves, urls_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
ROLES = ("anonymous", "seat1", "moderator")
# The site's games (engine/<game>/), not the tests' own.
GAMES = sorted(slug for slug, game in engine.games().items()
               if type(game).__module__.startswith("engine."))
# Options that end a match soon, for the finished one.
FINISHING = {
    "final-act": {"round_limit": 2},
    "final-strategy": {"turn_limit": 2},
    "panzer-squadron": {"turn_limit": 1},
    "tank-game": {**RUNNING_OPTIONS["tank-game"], "armistice_limit": 1},
}
SHOWN = 60  # findings listed in a failure


# -- the world ----------------------------------------------------------------------------------

def finish_tank_game(match: Match) -> None:
    """Both seats shoot whenever they can (a gameday an hour, in simulated time) until one tank
    is left or the Council reaches the armistice."""
    game = engine.get(match.game)
    rng = random.Random(3)
    now = timezone.now()
    for step in range(TANK_GAME_STEPS):
        carry_out_outbox(match)
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        now += timedelta(minutes=5)
        if match.deadline is not None and match.deadline <= now:
            services.gameday_tick(match_id=match.pk, now=now)
            continue
        seat = 1 + step % 2
        action = aggressive(game, match.state, seat, rng)
        if action is not None:
            with contextlib.suppress(services.ServiceError):
                services.actions_apply(match_id=match.pk, seat_number=seat,
                                       user=match.players[seat], action=action, source="web",
                                       now=now)
    raise AssertionError("the Tank Game did not finish")


def played_matches(alice, bob) -> list[Match]:
    """A running and a finished match of each game, alice in seat 1."""
    matches = []
    for slug in GAMES:
        running = services.match_create(
            creator=alice, game=slug, options=RUNNING_OPTIONS.get(slug, {}), hours_per_phase=24,
            seats=[{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}],
            title=f"En cours {slug}")
        play(running, alice)
        finished = services.match_create(
            creator=alice, game=slug, options=FINISHING[slug], hours_per_phase=24,
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}],
            title=f"Terminé {slug}")
        finished.players = {1: alice, 2: bob}
        if slug == "tank-game":  # a continuous game: acts, not sheets
            finish_tank_game(finished)
        else:
            play_sheets(finished, miss_at=(2,))
        carry_out_outbox(finished)
        finished.refresh_from_db()
        assert finished.status == Match.Status.FINISHED, (slug, finished.status)
        matches += [running, finished]
    return matches


def french_world():
    world = build_world()
    users = [u for u in world.users.values() if u is not None]
    # (the walk's league started its season while its players still read English: those
    # mails are read as written, in English, and left out; the season's end below mails again)
    world.mails_before = OutgoingEmail.objects.order_by("-pk").values_list(
        "pk", flat=True).first() or 0
    for user in users:
        profile = profile_of(user)
        profile.language = "fr"
        profile.save()
    # The league's first season ends (its "season ended" and "season 2 started" mails, in
    # French) and its second runs: the pages show a finished season and a running one.
    from competitions.models import Season
    from competitions.services import season_end

    first = Season.objects.get(number=1)
    season_end(season_id=first.pk, now=first.ends_at + timedelta(minutes=1))
    assert Season.objects.filter(number=2, status="running").exists()
    world.played = played_matches(world.users["seat1"], world.users["seat2"])
    # (the walk's own matches of the site's games, just started, read as the running ones do)
    world.values["match_id"] = [str(m.pk) for m in world.played]
    world.values["phase_number"] = ["1", "2", "3"]
    french.PROPER_NOUNS += [u.username for u in users]
    french.PROPER_NOUNS += [m.title for m in Match.objects.exclude(title="")]
    # (what people wrote is theirs: a request to join a club)
    french.PROPER_NOUNS += list(JoinRequest.objects.exclude(message="")
                                .values_list("message", flat=True))
    # (the test games' own texts: their seats, named by their engines in English; the games'
    # keys, which the moderators' admin lists; the status changes' notes, records kept as
    # written, shown raw in the admin)
    french.PROPER_NOUNS += ["Seat 1", "Seat 2", "Seat 3", "Seat 4", "Left", "Right",
                            *engine.games(), "all seats filled", "nothing to play"]
    return world


# -- reading it ---------------------------------------------------------------------------------

def worth_reading(url: str, world) -> bool:
    """Is ``url`` a page a person reads, with its parameters belonging together? Not data
    (the API's JSON), not an answer to a mail service's webhook, not a page of the tests' own
    games, not a game's page asked of another game's match, a club named after a game or a
    lesson under another game (each a 404 the walk reads often enough)."""
    if url.startswith(("/api/v1/", "/mail/anymail/")) and "docs" not in url:
        return False
    parts = url.strip("/").split("/")
    if any(part in engine.games() and part not in GAMES for part in parts):
        return False
    games = {str(m.pk): m.game for m in world.played}
    found = re.match(r"/matches/(\d+)/([a-z][a-z-]*)/", url)
    if found and found.group(2) in engine.games() and games.get(found.group(1)) != found.group(2):
        return False
    if parts[0] == "clubs" and len(parts) > 1 and parts[1] in engine.games():
        return False
    lessons = {(game, lesson.slug) for game, found_ in all_lessons().items() for lesson in found_}
    return not (parts[0] == "learn" and len(parts) > 2 and (parts[1], parts[2]) not in lessons)


def reader(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    if user is not None:
        client.force_login(user)
    return client


def body_of(response) -> str | None:
    """What a person reads of a response (None for data: JSON, images, files)."""
    kind = response.get("Content-Type", "")
    if not kind.startswith(("text/html", "text/plain", "text/calendar")):
        return None
    content = (b"".join(response.streaming_content) if getattr(response, "streaming", False)
               else response.content)
    return content.decode(errors="replace")


@pytest.fixture
def quiet_request_log():
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


@pytest.mark.presentation
@pytest.mark.long
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_every_page_and_mail_reads_in_french(quiet_request_log, monkeypatch):
    started = time.monotonic()
    monkeypatch.setattr(french, "PROPER_NOUNS", list(french.PROPER_NOUNS))
    world = french_world()
    built = time.monotonic()
    found: dict[str, list[str]] = defaultdict(list)  # sentence -> where
    urls = sorted({url for leaf in leaves(get_resolver().url_patterns)
                   for url, junk in urls_of(leaf, world) if not junk and worth_reading(url, world)})
    pages, reading = 0, 0.0
    for role in ROLES:
        client = reader(world.users[role])
        for url in urls:
            response = client.get(url)
            if world.users[role] is not None and response.cookies.get("sessionid") is not None:
                client.force_login(world.users[role])  # a log-out must not end the walk
            body = body_of(response) if response.status_code < 500 else None
            if body is None:
                continue
            pages += 1
            begun = time.monotonic()
            for sentence in english_in(body):
                found[sentence].append(f"{role} GET {url}")
            reading += time.monotonic() - begun
    mails = OutgoingEmail.objects.filter(pk__gt=world.mails_before)
    assert mails.filter(match__in=world.played).exists(), "the matches sent no mail"
    for mail in mails:
        where = f"mail {mail.kind} to {mail.to}"
        for part, text in (("subject", mail.subject), ("text", mail.body_text),
                           ("html", mail.body_html or "")):
            for sentence in english_in(text):
                found[sentence].append(f"{where} ({part}: {mail.subject[:60]!r})")
    for push in PushMessage.objects.all():
        for part in ("title", "body"):
            for sentence in english_in(str(push.payload.get(part, ""))):
                found[sentence].append(f"push {part}")
    print(f"built in {built - started:.0f} s; {len(urls)} URLs x {len(ROLES)} roles "
          f"({pages} pages), {mails.count()} mails read in {time.monotonic() - built:.0f} s "
          f"({reading:.0f} s of it finding English)")
    ranked = sorted(found.items(), key=lambda item: (-len(item[1]), item[0]))
    report = [f"{len(where)}x {sentence!r}\n      at {'; '.join(where[:2])}"
              for sentence, where in ranked]
    if os.environ.get("FRENCH_CRAWL_REPORT"):  # every finding, for whoever translates them
        Path(os.environ["FRENCH_CRAWL_REPORT"]).write_text("\n".join(report) + "\n")
    if found:
        pytest.fail(f"{len(found)} English sentences left in French pages and mails (most "
                    f"frequent first):\n" + "\n".join(report[:SHOWN]), pytrace=False)


# -- the catalogue ------------------------------------------------------------------------------

def test_the_catalogue_holds_every_word_the_engine_marks():
    """``makemessages`` extracts the engine's ``gettext_noop`` (imported as ``_``),
    ``pgettext`` and ``ngettext`` texts: each is in the French catalogue, translated (the
    catalogue's own test finds fuzzy or untranslated entries)."""
    catalogue = polib.pofile(str(ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    known = {(e.msgctxt or None, e.msgid) for e in catalogue if e.translated()}
    marked = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            texts = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                     for a in node.args[:2]]
            marker = texts[:1] != [None] if node.func.id == "_" else None not in texts
            if node.func.id in ("_", "ngettext") and marker:
                marked.append((path, None, texts[0]))
            elif node.func.id == "pgettext" and marker:
                marked.append((path, texts[0], texts[1]))
    assert len(marked) > 500
    missing = [f"{path.relative_to(ROOT)}: {context or ''} {text!r}"
               for path, context, text in marked if (context, text) not in known]
    assert missing == []
