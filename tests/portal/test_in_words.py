"""Every page and every mail of a played match reads as a person would write it.

For each game the site offers, a match is played through the services (seat 1 a player whose
orders are the random bot's, seat 2 the bot), the outbox carried out as a worker would, until a
few phases resolved with events (a continuous game: a few actions and a second gameday). Then
the match page, the history, each replay frame, every GET page and partial of the game's
plug-in, and every mail and push the outbox produced for the match are read as a person sees
them (tags, scripts and attributes stripped) and refused if they show a Python repr, an
internal key (a snake_case identifier) or a raw timedelta.
"""

from __future__ import annotations

import contextlib
import html
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

import engine
from durable import outbox
from durable.models import OutboxEvent
from engine import PhaseKind, rng_for
from games import plugins, services
from games import urls as games_urls
from games.models import Match, Phase, Submission
from portal.mail.models import OutgoingEmail
from portal.push.models import PushMessage, PushSubscription
from tests.portal.builders import (
    fast_password_hashing,  # noqa: F401  (autouse)
    make_user,
)
from tests.urlwalk import url_names

pytestmark = pytest.mark.django_db

# The site's games (engine/<game>/), not the tests' own, whichever other test modules
# registered theirs before this one was collected.
GAMES = [slug for slug in plugins.installed()
         if type(engine.get(slug)).__module__.startswith("engine.")]
# Options that make a match playable at once in a test: a gameday always open, no cooldown.
OPTIONS = {"tank-game": {"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60},
                         "cooldown_minutes": 0}}
RESOLVED_WANTED = 3

# -- what a person must never read ---------------------------------------------------------------

REPR = [
    (re.compile(r"\{'"), "a dict repr"),
    (re.compile(r"'\s*:\s"), "a dict repr"),
    (re.compile(r"\[\{"), "a list of dicts"),
    (re.compile(r"\b\w+: \"|\"\w+\":\s"), "data as JSON"),
    (re.compile(r"<games\."), "an object repr"),
    (re.compile(r"object at 0x"), "an object repr"),
    (re.compile(r"(?<![\w'\"])None(?![\w'\"])"), "None"),
    (re.compile(r"\b\d+ days?, \d+:\d\d:\d\d"), "a raw timedelta"),
    (re.compile(r"\b\d+:\d\d:\d\d\.\d+"), "a raw timedelta"),
    (re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"), "an internal key"),
]
TAGS = re.compile(r"<[^>]*>")
HIDDEN = re.compile(r"<(script|style|template)\b.*?</\1\s*>|<!--.*?-->", re.S | re.I)
# Addresses are not words: a link or a reply address may hold anything.
ADDRESSES = re.compile(r"\bhttps?://\S+|\b[\w.+-]+@[\w.-]+\b|/[\w./?=&%-]*\w")
# A raw gameday counter ("gameday 14963753": slots since the epoch) is an internal number too.
COUNTER = re.compile(r"gameday \d{5,}", re.I)


def visible_text(document: str, *, is_html: bool = True) -> str:
    """What a person reads: no scripts, styles, comments, tags, attributes or addresses."""
    if is_html:
        document = TAGS.sub(" ", HIDDEN.sub(" ", document))
        document = html.unescape(document)
    return ADDRESSES.sub(" ", document)


def problems_in(document: str, *, is_html: bool = True) -> list[str]:
    text = visible_text(document, is_html=is_html)
    found = []
    for pattern, what in [*REPR, (COUNTER, "an internal gameday counter")]:
        for hit in pattern.finditer(text):
            around = text[max(0, hit.start() - 60):hit.end() + 60].replace("\n", " ")
            found.append(f"{what} {hit.group()!r} in …{around}…")
    return found


def test_the_checks_catch_what_they_are_meant_to():
    """The checks refuse each kind of leak (so the test below can fail)."""
    assert problems_in("<p>barrier: {'seat': 1, 'edge': 'd8-e8'}</p>")
    assert problems_in("<li>[{&#x27;type&#x27;: &#x27;move&#x27;}]</li>")
    assert problems_in("<p>Seat None moved</p>")
    assert problems_in("<p>to_move: 2</p>")
    assert problems_in("left: 1 day, 0:01:12.658552", is_html=False)
    assert problems_in("in 0:01:12.658552", is_html=False)
    assert problems_in("Gameday 14963753 has begun", is_html=False)
    assert problems_in("<p>&lt;games.models.Match object at 0x7f00&gt;</p>")
    assert problems_in('<li>barrier: seat: 1, edge: "d8-e8"</li>')
    assert not problems_in('<p data-x="to_move">Seat 2 to move <script>a_b = {"x": None}'
                           '</script><a href="/matches/1/tank-game/logbook_x/">log</a></p>')
    assert not problems_in("Reply to play+ab_cd@example.test or see https://x.test/a_b/",
                           is_html=False)


# -- playing a match ---------------------------------------------------------------------------

def carry_out_outbox(match: Match) -> None:
    """What the workers do after each commit: every promised side effect, until none is left
    (a bot's move promises the next phase's effects)."""
    for _ in range(50):
        ids = list(OutboxEvent.objects.filter(series=match.pk, done_at__isnull=True)
                   .values_list("pk", flat=True))
        if not ids or not outbox.outbox_dispatch(ids=ids):
            return


def resolved_with_events(match: Match) -> int:
    return sum(1 for events in Phase.objects.filter(match=match, status="resolved")
               .values_list("events", flat=True) if events)


def play(match: Match, player) -> None:
    """Seat 1 plays the random bot's orders through the services; seat 2 is the bot."""
    game = engine.get(match.game)
    for step in range(80):
        carry_out_outbox(match)
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        if match.phase_kind == PhaseKind.CONTINUOUS.value:
            if step >= 6:
                return
            if match.deadline and match.deadline <= timezone.now() + timedelta(hours=2) \
                    or step in (0, 4):
                services.gameday_tick(match_id=match.pk, now=max(match.deadline, timezone.now()))
                carry_out_outbox(match)
                match.refresh_from_db()
            action = game.bot_submission(match.state, 1, "random", rng_for("words", step))
            if action:
                # a bot's idea the rules refuse now: the next step tries another
                with contextlib.suppress(services.ServiceError):
                    services.actions_apply(match_id=match.pk, seat_number=1, user=player,
                                           action=action, source="web")
            continue
        if resolved_with_events(match) >= RESOLVED_WANTED:
            return
        prompts = game.prompts(match.state)
        mine_in = Submission.objects.filter(phase__match=match, phase__number=match.phase_number,
                                            seat__number=1).exists()
        if 1 in prompts and not mine_in:
            data = game.bot_submission(match.state, 1, "random",
                                       rng_for(f"words:{match.seed}", match.phase_number))
            services.sheet_submit(match_id=match.pk, seat_number=1, user=player,
                                  phase_number=match.phase_number, data=data, source="web")
        elif Phase.objects.filter(match=match, number=match.phase_number,
                                  status="open").exists():
            services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)


@pytest.fixture
def played(settings):
    settings.SITE_URL = "https://portal.test"

    def make(slug: str) -> tuple[Match, object]:
        player = make_user(f"player-{slug}")
        PushSubscription.objects.create(user=player, endpoint=f"https://push.test/{slug}",
                                        p256dh="k" * 20, auth="a" * 16, label="phone")
        match = services.match_create(
            creator=player, game=slug, options=OPTIONS.get(slug, {}), hours_per_phase=24,
            seats=[{"kind": "human", "user": player}, {"kind": "bot", "bot": "random"}],
            title=f"Words {slug}")
        play(match, player)
        match.refresh_from_db()
        return match, player

    return make


# -- reading it --------------------------------------------------------------------------------

def pages_of(match: Match) -> list[str]:
    """Every page and partial of the match a GET may ask for: the generic ones, each replay
    frame, and the game's own (its plug-in's patterns)."""
    urls = [reverse("games:match", args=[match.pk]),
            reverse("games:history", args=[match.pk]),
            reverse("games:submission_status", args=[match.pk])]
    for number in Phase.objects.filter(match=match, status="resolved").values_list("number",
                                                                                   flat=True):
        urls.append(reverse("games:replay", args=[match.pk, number]))
        urls.append(reverse("games:match", args=[match.pk]) + f"?replay={number}")
    plugin_names = {p.name for p in plugins.plugin_for(match.game).match_urls()}
    for name, args in url_names(games_urls.urlpatterns):
        if name not in plugin_names:
            continue
        values = {"match_id": match.pk, "seat_number": 1}
        try:
            urls.append(reverse(f"games:{name}", kwargs={a: values[a] for a in args}))
        except (KeyError, NoReverseMatch):
            continue
    return urls


@pytest.mark.presentation
@pytest.mark.long
@pytest.mark.parametrize("slug", GAMES)
def test_every_page_and_mail_of_a_played_match_reads_as_words(slug, played, client):
    match, player = played(slug)
    if match.phase_kind == PhaseKind.CONTINUOUS.value:
        assert match.actions.filter(kind="action").exists()  # the logbook has actions
    else:
        assert resolved_with_events(match) >= 1, "no phase resolved with events"

    problems = []
    viewers = {"player": Client(), "spectator": Client()}
    viewers["player"].force_login(player)
    for who, viewer in viewers.items():
        for url in pages_of(match):
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                response = viewer.get(url, **headers)
                if response.status_code in (302, 403, 404, 405):
                    continue
                assert response.status_code == 200, (who, url, response.status_code)
                body = b"".join(response.streaming_content).decode() if response.streaming \
                    else response.content.decode()
                is_html = "html" in response.get("Content-Type", "")
                problems += [f"{who} {url}: {p}" for p in problems_in(body, is_html=is_html)]

    mails = list(OutgoingEmail.objects.filter(match=match))
    assert mails, "the outbox wrote no mail"
    for mail in mails:
        where = f"mail {mail.kind} {mail.subject!r}"
        problems += [f"{where} subject: {p}" for p in problems_in(mail.subject, is_html=False)]
        problems += [f"{where} text: {p}" for p in problems_in(mail.body_text, is_html=False)]
        problems += [f"{where} html: {p}" for p in problems_in(mail.body_html or "")]
    for push in PushMessage.objects.filter(subscription__user=player):
        for part in ("title", "body"):
            problems += [f"push {part}: {p}"
                         for p in problems_in(str(push.payload.get(part, "")), is_html=False)]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(sorted(set(problems))[:60])


def test_the_games_checked_are_the_sites_games():
    """A game added to the site is checked too (the list is the registry's, not a copy)."""
    assert set(GAMES) >= {name.replace("_", "-") for name in settings.INSTALLED_GAMES}


# -- names and numbers --------------------------------------------------------------------------

def test_every_model_is_named_as_people_say_it():
    """The admin reads each model's own names ("missed deadlines", not "Deadline misss"), set
    on every model of the project's apps and translatable."""
    from django.apps import apps

    unnamed = [model._meta.label for model in apps.get_models()
               if model.__module__.startswith(("games.", "portal.", "competitions.", "clocks."))
               and not {"verbose_name", "verbose_name_plural"} <= set(
                   model._meta.original_attrs)]
    assert unnamed == []
    from games.models import DeadlineMiss, Reliability

    assert str(DeadlineMiss._meta.verbose_name_plural) == "missed deadlines"
    assert str(Reliability._meta.verbose_name_plural) == "reliability records"


def test_a_ladders_inactivity_decay_is_asked_in_plain_words():
    from competitions.forms import LadderForm

    field = LadderForm().fields["decay_sigma_per_week"]
    assert "sigma" not in str(field.label).lower() and "idle" not in str(field.label).lower()
    assert "week without a rated match" in str(field.help_text)


@pytest.mark.parametrize(("span", "english", "french"), [
    (timedelta(days=1, seconds=72.658552), "1 day", "1 jour"),
    (timedelta(days=3), "3 days", "3 jours"),
    (timedelta(hours=26, minutes=30), "1 day, 2 hours", "1 jour, 2 heures"),
    (timedelta(minutes=40), "40 minutes", "40 minutes"),
    (timedelta(seconds=12), "less than a minute", None),
])
def test_a_duration_reads_as_words_in_the_readers_language(span, english, french):
    from django.utils import translation

    from games.dates import duration

    with translation.override("en-gb"):
        assert duration(span) == english
    if french:
        with translation.override("fr"):
            assert duration(span) == french
