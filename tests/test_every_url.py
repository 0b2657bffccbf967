"""The whole site, every URL pattern found from the root resolver, requested by every role.

A world holds a match of every registered game (seat 1 has sealed a sheet where the first
phase is simultaneous), a club with a ladder, a challenge, a join request, a tournament and a
league with a running season,
tokens of every kind, and the roles: anonymous, a spectator, each seat and a moderator. Every
phase is simultaneous), a club with a ladder, a challenge, a join request and a tournament,
a second club and the two clubs' team matches (one challenge open, one under way) and a team
league, tokens of every kind, and the roles: anonymous, a spectator (outside both clubs), each
seat (seat 1 owns the first club; seat 2 owns the second and is a member of the first) and a
moderator. Every
leaf of ``get_resolver()`` (the admin, the API, the games' plug-ins included) is requested with
its path parameters filled with real values and with junk the converter lets through, as GET,
HTMX GET, GET with junk query strings, POST with junk form bodies (with a CSRF token; one junk
is JSON nested 3,000 deep, for the fields that hold JSON), POST without a CSRF token, and POST
of JSON bodies past the site's bounds (nested 3,000 deep, with and without a NUL, and larger
than ``DATA_UPLOAD_MAX_MEMORY_SIZE``). Those last two are refused by middleware before any
view runs, whoever sends them, so each URL is sent them by one role
(taking turns), but for the views exempt from CSRF, posted to by every role. The walk fails on:

- any 5xx (or exception);
- a JSON body past the bounds that is not refused with a 4xx (by anybody, on any URL);
- a POST without a CSRF token that is not refused (403), unless the view is ``csrf_exempt``
  (found on the view: the token-authenticated API, the ESP webhooks, one-click unsubscribes);
- a response to anyone but its author that shows a sealed sheet (its text as stored, or its
  salt) while the phase is still sealed;
- a response to anyone but the two players that shows their private message (sent in every
  match, with a public one beside it);
- a response to anyone but seat 2 that shows seat 2's plan (stored in every game that takes
  plans) while it stands, or its sheet entered ahead (in every game that takes them).

Nothing is listed by hand but the real values a path parameter can take, by its name: a new
URL is walked as soon as it is mounted, and a new parameter name fails here until it has real
values.
"""

from __future__ import annotations

import functools
import html
import json
import logging
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.admin.views import main as admin_changelist
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern
from django.utils.regex_helper import normalize

import engine
import tests.portal.notegame  # noqa: F401  (registers games whose sheets are free text)
from engine import PhaseKind, RuleError
from games.models import ConditionalPlan, Match, Phase, Submission
from games.plugins import sheet_text
from games.services import orders_submit
from portal.lessons.catalogue import all_lessons
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "spectator", "seat1", "seat2", "moderator")
# Junk addresses and query strings hit the same parsers whoever sends them: they are sent by a
# player (who reaches the most game pages) and the moderator (who reaches the admin), which
# keeps the walk within its time budget.
JUNK_ROLES = ("seat1", "moderator")
MARKER = "SEALED-WALK-MARKER-5d0c7e"
PRIVATE_MARKER = "PRIVATE-WALK-MESSAGE-8e41b2"
AHEAD_MARKER = "AHEAD-WALK-SHEET-5c07d9"  # seat 2's sheet entered ahead, as text
# The network alice and bob were traced on, and bob's device: moderators' eyes only (and the
# players' own exports).
TRACE_NETWORK = "198.18.77.0/24"
TRACE_DEVICE = "feedface" * 4
# The private match's title: never on a player page or its API to anyone but its players.
PRIVATE_TITLE = "Walk toy-duel"
ROOT = Path(__file__).resolve().parent.parent

# Junk for path parameters (kept only where the converter's pattern lets it through) and for
# query strings and form fields.
LONG_DIGITS = "9" * 5000
# (A NUL in a path is refused before any view: once, at the end of the walk.)
PATH_JUNK = ("0", "\N{SUPERSCRIPT TWO}", LONG_DIGITS, "x" * 3000)
# JSON nested deeper than any reader recurses (options, orders, steps held in form fields).
DEEP_JSON = "[" * 3000 + "]" * 3000
FIELD_JUNK = ("\N{SUPERSCRIPT TWO}", LONG_DIGITS, "-1", "x" * 5000, "", "1.5", "١٢", DEEP_JSON)
# Bodies past the JSON bounds, posted to every URL: nested (a NUL inside: the audit's 1,808
# bytes, which the NUL check once walked recursively) and larger than any body is read.
DEEP_NUL_JSON = "[" * 900 + '"\\u0000"' + "]" * 900


# --- the URL patterns --------------------------------------------------------------------

@dataclass
class Leaf:
    """One URL pattern with the patterns it is included under."""

    chain: list[Any]
    callback: Any

    @property
    def route(self) -> str:
        return "".join(str(p.pattern) for p in self.chain)

    @property
    def csrf_exempt(self) -> bool:
        return bool(getattr(self.callback, "csrf_exempt", False))

    @property
    def admin_model(self) -> Any:
        """The model of an admin page (its ModelAdmin, on the view or the method it wraps)."""
        view = self.callback
        while view is not None:
            owner = getattr(view, "model_admin", None) or getattr(view, "__self__", None)
            if getattr(owner, "model", None) is not None:
                return owner.model
            view = getattr(view, "__wrapped__", None)
        return None


def leaves(patterns: list[Any], chain: list[Any] | None = None) -> Iterator[Leaf]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from leaves(pattern.url_patterns, [*(chain or []), pattern])
        else:
            assert isinstance(pattern, URLPattern)
            yield Leaf([*(chain or []), pattern], pattern.callback)


def _piece(pattern: Any, values: dict[str, str]) -> str | None:
    """One pattern's part of a URL for ``values``, or None if its converters refuse one."""
    if isinstance(pattern, RoutePattern):
        route = str(pattern)
        for name, converter in pattern.converters.items():
            value = values[name]
            if not re.fullmatch(converter.regex, value):
                return None
            try:
                converter.to_python(value)
            except ValueError:  # the resolver refuses it: nothing behind it is reached
                return None
            route = re.sub(rf"<(?:\w+:)?{name}>", lambda _m, v=value: quote(v, safe=""), route)
        return route
    assert isinstance(pattern, RegexPattern)
    for form, params in normalize(pattern.regex.pattern):
        plain = form % {name: values[name] for name in params}
        found = pattern.regex.search(plain)
        if found is not None and found.start() == 0 and found.end() == len(plain):
            return form % {name: quote(values[name], safe="") for name in params}
    return None


def arg_names(leaf: Leaf) -> list[str]:
    names: list[str] = []
    for pattern in leaf.chain:
        names += [n for n in pattern.pattern.regex.groupindex if n not in names]
    return names


def build_url(leaf: Leaf, values: dict[str, str]) -> str | None:
    parts = [_piece(p.pattern, values) for p in leaf.chain]
    return None if None in parts else "/" + "".join(parts)  # type: ignore[arg-type]


# --- names the code reads from query strings and forms -----------------------------------

def code_field_names() -> tuple[set[str], set[str]]:
    """(query-string names, form-field names) the site's code reads, found in its source."""
    query: set[str] = set()
    form: set[str] = set()
    for folder in ("games", "portal", "competitions", "clocks"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            query |= {m for m in re.findall(r"""GET(?:\.get|\.getlist)?\(?\[?\s*["'](\w+)["']""",
                                            text)}
            form |= {m for m in re.findall(r"""POST(?:\.get|\.getlist)?\(?\[?\s*["'](\w+)["']""",
                                           text)}
    # The admin's changelist reads its own (page, order, search, ...).
    query |= {getattr(admin_changelist, n) for n in dir(admin_changelist) if n.endswith("_VAR")}
    return query, form


_INPUT_NAME = re.compile(r"""<(?:input|select|textarea)\b[^>]*?\bname=["']([^"']+)["']""")


# --- the world ---------------------------------------------------------------------------

@dataclass
class World:
    users: dict[str, Any]
    matches: dict[str, Match]
    values: dict[str, list[str]]
    sealed: list[tuple[int, list[str]]] = field(default_factory=list)  # (phase id, markers)
    plans: list[tuple[int, list[str]]] = field(default_factory=list)  # (plan id, markers)


def _first_sheet(game: Any, match: Match) -> Any:
    """Seat 1's sheet for the first phase: the marker as text where the game reads free text,
    else a bot's sheet or the default."""
    state = match.state
    try:
        return {"text": MARKER, "data": game.parse_text(state, 1, MARKER)}
    except Exception:  # a game whose grammar has no room for the marker
        pass
    if game.bots:
        return {"data": game.bot_submission(state, 1, game.bots[0], random.Random(1))}
    return {"data": game.default_submission(state, 1)}


def _markers(text: str, salt: str) -> list[str]:
    found = [salt]
    if len(text) >= 12:
        found += [text, html.escape(text), json.dumps(text)[1:-1]]
    return found


def build_world() -> World:
    from analysis.services import analysis_from_match
    from competitions.models import Challenge, JoinRequest, Tournament
    from competitions.services.clubs import club_create, club_request_join
    from competitions.services.ladders import challenge_create, ladder_create
    from competitions.services.tournaments import tournament_create
    from portal.api.services import api_token_create
    from portal.feeds.services import calendar_token
    from portal.mail.unsubscribe import NOTIFICATIONS, unsubscribe_token
    from portal.push.models import PushSubscription
    from portal.push.services.subscriptions import unsubscribe_token as push_token

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    moderator = make_user("moderator", staff=True)
    moderator.groups.add(Group.objects.get(name="Moderator"))
    users = {"anonymous": None, "spectator": carol, "seat1": alice, "seat2": bob,
             "moderator": moderator}
    world = World(users=users, matches={}, values={})
    for slug, game in sorted(engine.games().items()):
        match = duel(alice, bob, game=slug, title=f"Walk {slug}", is_public=slug != "toy-duel")
        world.matches[slug] = match
        prompt = game.prompts(match.state).get(1)
        if match.status == Match.Status.ACTIVE and prompt and \
                prompt.kind == PhaseKind.SIMULTANEOUS:
            sheet = _first_sheet(game, match)
            orders_submit(match_id=match.pk, seat_number=1, user=alice, source="web",
                          phase_number=match.phase_number, **(
                              {"text": sheet["text"]} if "text" in sheet else
                              {"data": sheet["data"]}))
            stored = Submission.objects.get(phase__match=match, seat__number=1)
            text = sheet_text(game, match.state, 1, stored.data)
            world.sealed.append((stored.phase_id, _markers(text, stored.salt)))

    def _plannable(game: Any, move: Any) -> bool:  # a whole move, as a plan holds one
        try:
            game.plan_move(1, move)
        except RuleError:
            return False
        return True

    # Seat 2's plan in every game that takes plans (docs/conditional-orders.md): as secret
    # as a sealed sheet, to everyone but seat 2, while it stands.
    from games.plans import plan_described
    from games.services import plan_set, sheet_ahead_set

    for slug, game in sorted(engine.games().items()):
        match = world.matches[slug]
        if game.plans and match.status == Match.Status.ACTIVE:
            move = next((m for m in game.legal_actions(match.state, 1)
                         if _plannable(game, m)), None)
            assert move is not None, f"{slug}: no move seat 2's plan could hold"
            plan = plan_set(match_id=match.pk, seat_number=2, user=bob, tree=[
                {"when": [{"seat": 1, "move": move}], "play": move, "then": []}])
            told = plan_described(game, match.state, 2, plan)
            world.plans.append((plan.pk, [told["text"], *(line["text"]
                                                         for line in told["words"])]))
        if game.sheet_conditions and match.status == Match.Status.ACTIVE:
            sheet_ahead_set(match_id=match.pk, seat_number=2, user=bob, text=AHEAD_MARKER,
                            conditions=[{"kind": game.sheet_conditions[0], "unit": "C"}])

    from portal.chat.services import message_post

    messages = []
    for match in world.matches.values():
        for channel, text in (([2], f"{PRIVATE_MARKER} in {match.pk}"), ("public", "Hello")):
            messages.append(message_post(match_id=match.pk, user=alice, channel=channel,
                                         text=text, source="web"))

    # A seat seeking a new commander (its player left it): its link's pages.
    from games.models import Seat
    from games.services import seat_leave

    seeking = duel(alice, bob, title="Walk seeking")
    seat_leave(match_id=seeking.pk, user=bob)
    seat_token = Seat.objects.get(match=seeking, number=2).offer_token

    # A secret proposal to end a match (the votes' pages and API; docs/votes.md).
    from games.services import vote_propose
    proposal = vote_propose(match_id=world.matches["toy-duel"].pk, user=alice, kind="draw",
                            secret=True)

    club = club_create(by=alice, name="Walkers")
    club_request_join(club_id=club.pk, user=carol, message="je voudrais entrer")
    ladder = ladder_create(by=alice, club_id=club.pk, game="toy-duel")
    from competitions.services.clubs import club_join_by_token
    club_join_by_token(token=club.invite_token, user=bob)
    challenge_create(ladder_id=ladder.pk, by=alice, opponent=bob)
    tournament_create(by=alice, name="Walk cup", game="toy-duel", format="round_robin",
                      club_id=club.pk)
    # A club's league with a running season (alice and bob in its one division).
    from competitions.services.leagues import league_create, league_join, season_start
    league = league_create(by=alice, name="Walk league", game="toy-duel", club_id=club.pk,
                           division_size=2, bots_allowed=True)
    for user in (alice, bob):
        league_join(league_id=league.pk, user=user)
    season_start(league_id=league.pk, by=alice)
    # Team matches: Walkers (alice owns it, bob is a member) against Rivals (bob owns it):
    # one challenge still open, one under way (board 1: alice against bob; board 2 fielded
    # by neither club), and a team league.
    from competitions.services.teams import (
        team_league_create,
        team_match_accept,
        team_match_challenge,
        team_match_start,
        team_roster_set,
    )
    rivals = club_create(by=bob, name="Rivals")
    open_challenge = team_match_challenge(by=alice, club_id=club.pk, opponent_id=rivals.pk,
                                          game="toy-duel", boards=2)
    played = team_match_challenge(by=alice, club_id=club.pk, opponent_id=rivals.pk,
                                  game="toy-duel", boards=2)
    team_match_accept(team_match_id=played.pk, by=bob)
    team_roster_set(team_match_id=played.pk, club_id=club.pk, by=alice, players=[alice.pk])
    team_roster_set(team_match_id=played.pk, club_id=rivals.pk, by=bob, players=[bob.pk])
    team_match_start(team_match_id=played.pk, now=played.starts_at)
    team_roster_set(team_match_id=open_challenge.pk, club_id=club.pk, by=alice,
                    players=[alice.pk], alternates=[bob.pk])
    team_league = team_league_create(by=alice, club_id=club.pk, name="Walk league",
                                     game="toy-duel", boards=2, clubs=[rivals.pk])
    subscription = PushSubscription.objects.create(
        user=alice, endpoint="https://push.example.test/walk", p256dh="k" * 87, auth="a" * 22)
    api_token = api_token_create(user=alice, name="walk")
    from portal.webhooks.models import WebhookDelivery, WebhookTarget
    targets = [WebhookTarget.objects.create(
        created_by=alice, name=f"walk {n}", format=fmt, url="https://hooks.example.test/walk",
        secret="s" * 64, **owner) for n, (fmt, owner) in enumerate(
            [("generic", {"club": club}), ("slack", {"match": world.matches["toy-duel"]})])]
    test = WebhookDelivery.objects.create(target=targets[0], event="test", payload={},
                                          dedupe_key="walk-test")
    kind = sorted(NOTIFICATIONS)[0]

    # What moderators alone may see: bob's network and device (he may read his own, in his
    # data's export), a signal, a declared relationship (the player pages' and signals' URLs).
    from django.utils import timezone

    from portal.signals.detect import signals_scan
    from portal.signals.models import ClientTrace, Signal
    from portal.signals.services import relationship_declare
    for user in (alice, bob):
        ClientTrace.objects.create(user=user, kind="submission", network=TRACE_NETWORK,
                                   device=TRACE_DEVICE if user == bob else "0" * 32,
                                   match=world.matches["toy-duel"], at=timezone.now())
    relationship = relationship_declare(by=carol, username="alice", kind="club_room")
    signals_scan(match_id=world.matches["toy-duel"].pk)

    def ids(model: Any) -> list[str]:
        return [str(pk) for pk in model.objects.order_by("pk").values_list("pk", flat=True)[:2]]

    match_ct = ContentType.objects.get_for_model(Match)
    analyses = [analysis_from_match(user=bob, match=m, phase_number=None)
                for m in world.matches.values()
                if m.is_public and m.state is not None and
                engine.get(m.game).public_state(m.state) is not None][:2]
    world.values = {
        "match_id": [str(m.pk) for m in world.matches.values()],
        "seat_number": ["1", "2"],
        "phase_number": ["1", "2"],
        "token": [world.matches["toy-duel"].invite_token, club.invite_token,
                  calendar_token(user=alice) + ".x", calendar_token(user=alice),
                  unsubscribe_token(user_id=alice.pk, target=kind), push_token(subscription.pk)],
        "seat_token": [seat_token],
        "slug": [club.slug, *sorted(engine.games())],
        "game": sorted(all_lessons()),
        "lesson": [lesson.slug for found in all_lessons().values() for lesson in found],
        "request_id": ids(JoinRequest),
        "user_id": [str(u.pk) for u in (alice, bob, carol)],
        "ladder_id": [str(ladder.pk)],
        "challenge_id": ids(Challenge),
        "tournament_id": ids(Tournament),
        "action": ["register", "withdraw", "start", "close", "open", "cancel", "join", "leave",
                   "add-bot", "remove-bot"],
        "league_id": [str(league.pk), str(team_league.pk)],
        "number": ["1", "2"],
        "division": ["1", "2"],
        "team_match_id": [str(open_challenge.pk), str(played.pk)],
        "token_id": [str(api_token.row.pk)],
        "subscription_id": [str(subscription.pk)],
        "target_id": [str(target.pk) for target in targets],
        "delivery_id": [str(test.pk)],
        "kind": [kind],
        "key": ["not-a-key"],
        "uidb36": ["1"],
        "app_label": [a.label for a in apps.get_app_configs()],
        "content_type_id": [str(match_ct.pk)],
        "object_id": [],  # an admin page's model's own rows (see urls_of)
        "url": ["no/such/page/"],  # the admin's catch-all
        "analysis_token": [a.token for a in analyses],
        "message_id": [str(message.pk) for message in messages[:4]],
        "vote_id": [str(proposal.pk)],
        "username": ["alice", "bob", "carol"],
        "relationship_id": [str(relationship.pk)],
        "signal_id": ids(Signal),
    }
    return world


def urls_of(leaf: Leaf, world: World) -> Iterator[tuple[str, bool]]:
    """(url, junk?) for the leaf: its parameters at their first real values, then each
    parameter in turn at each of its other real values and at each junk value."""
    names = arg_names(leaf)
    real: dict[str, list[str]] = {}
    for name in names:
        if name in ("object_id", "id") and leaf.admin_model is not None:
            real[name] = [str(pk) for pk in leaf.admin_model._default_manager.order_by("pk")
                          .values_list("pk", flat=True)[:1]] or ["1"]
        elif name == "object_id":
            real[name] = [str(world.matches["toy-duel"].pk)]
        else:
            assert world.values.get(name), (
                f"{leaf.route}: give the path parameter {name!r} real values in build_world")
            real[name] = world.values[name]
    seen: set[str] = set()
    # Each real value of each parameter once, the others at their first real value (the full
    # product multiplies requests that say nothing new: clubs named after a game, ...).
    first = {n: real[n][0] for n in names}
    combos = [first] + [{**first, name: value} for name in names for value in real[name][1:]]
    for values in combos:
        url = build_url(leaf, values)
        if url and url not in seen:
            seen.add(url)
            yield url, False
    for name in names:
        for junk in PATH_JUNK:
            url = build_url(leaf, {**first, name: junk})
            if url and url not in seen:
                seen.add(url)
                yield url, True


# --- the walk ----------------------------------------------------------------------------

@functools.cache
def oversized_json() -> str:
    """A JSON body larger than any body the site reads (built once: encoding its 2.5 MB for
    every URL took a quarter of the walk's time)."""
    return json.dumps({"x": "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE})


@dataclass
class Walk:
    role: str
    world: World
    failures: list[str] = field(default_factory=list)
    requests: int = 0
    query_names: set[str] = field(default_factory=set)
    form_names: set[str] = field(default_factory=set)
    reached: set[int] = field(default_factory=set)  # id() of the leaves a role got into

    def __post_init__(self) -> None:
        user = self.world.users[self.role]
        self.client = Client()  # CSRF not enforced: junk bodies reach the views
        self.bare = Client(enforce_csrf_checks=True)  # for the POSTs without a token
        for client in (self.client, self.bare):
            if user is not None:
                client.force_login(user)
        self.forbidden = [] if self.role == "seat1" else [
            (phase_id, marker) for phase_id, markers in self.world.sealed for marker in markers]
        self.plans = [] if self.role == "seat2" else [
            (plan_id, found) for plan_id, markers in self.world.plans for marker in markers
            for found in (marker, html.escape(marker))]
        self.private = self.role not in ("seat1", "seat2")
        # (alice and bob were traced on one network: each reads it in their own export)
        self.network_hidden = self.role in ("anonymous", "spectator")
        self.device_hidden = self.role not in ("seat2", "moderator")

    def request(self, client: Client, method: str, url: str, **kwargs: Any) -> Any:
        self.requests += 1
        try:
            with transaction.atomic():
                response = getattr(client, method)(url, **kwargs)
        except Exception as error:  # noqa: BLE001  (each failure is reported, the walk goes on)
            self.failures.append(f"{method.upper()} {url[:160]} raised {error!r}"[:600])
            return None
        if response.status_code >= 500:
            self.failures.append(f"{method.upper()} {url[:160]} answered "
                                 f"{response.status_code}")
        session = response.cookies.get("sessionid")
        if session is not None and self.world.users[self.role] is not None:
            client.force_login(self.world.users[self.role])  # a log-out must not end the walk
        self.check_secrets(method, url, response)
        return response

    def check_secrets(self, method: str, url: str, response: Any) -> None:
        if not self.forbidden and not self.private and not self.device_hidden \
                and self.role == "seat2":
            return
        content = (b"".join(response.streaming_content) if getattr(response, "streaming", False)
                   else response.content)
        body = content.decode(errors="replace")
        if (self.network_hidden and TRACE_NETWORK in body) or \
                (self.device_hidden and TRACE_DEVICE[:8] in body):
            self.failures.append(f"{self.role} saw a network or device at {method.upper()} "
                                 f"{url[:160]}")
        if self.role in ("anonymous", "spectator") and PRIVATE_TITLE in body and \
                "/players/" in url:
            self.failures.append(f"{self.role} saw a private match on a player's page at "
                                 f"{method.upper()} {url[:160]}")
        if self.private and PRIVATE_MARKER in body:
            self.failures.append(f"{self.role} saw a private message at {method.upper()} "
                                 f"{url[:160]}")
        for phase_id, marker in self.forbidden:
            if marker in body and self.still_sealed(phase_id):
                self.failures.append(f"{self.role} saw a sealed sheet ({marker[:40]!r}) at "
                                     f"{method.upper()} {url[:160]}")
        if self.role != "seat2" and AHEAD_MARKER in body:
            self.failures.append(f"{self.role} saw seat 2's sheet entered ahead at "
                                 f"{method.upper()} {url[:160]}")
        for plan_id, marker in self.plans:
            if marker in body and ConditionalPlan.objects.filter(pk=plan_id).exclude(
                    tree=[]).exists():
                self.failures.append(f"{self.role} saw seat 2's plan ({marker[:40]!r}) at "
                                     f"{method.upper()} {url[:160]}")

    def post_json_past_the_bounds(self, url: str) -> None:
        """Nested and oversized JSON bodies: a 4xx for everybody, whatever the URL (refused
        before CSRF and log-in, so the client without a CSRF token is used)."""
        for what, body in (("nested", DEEP_JSON), ("nested with a NUL", DEEP_NUL_JSON),
                           ("oversized", oversized_json())):
            response = self.request(self.bare, "post", url, data=body,
                                    content_type="application/json")
            if response is not None and not 400 <= response.status_code < 500:
                self.failures.append(f"POST {url[:160]} of {what} JSON answered "
                                     f"{response.status_code} (not a 4xx)")

    @staticmethod
    def still_sealed(phase_id: int) -> bool:
        return Phase.objects.filter(pk=phase_id, status=Phase.Status.OPEN).exists()

    def visit(self, leaf: Leaf, url: str, junk: bool, number: int) -> None:
        """Every request of one URL; fewer where the first answer shows that the view was not
        reached (a log-in wall, a 404) or where the URL itself is junk. Junk URLs of a pattern
        are only visited by a role that reached its view with real values."""
        if junk and (self.role not in JUNK_ROLES or id(leaf) not in self.reached):
            return
        response = self.request(self.client, "get", url)
        status = response.status_code if response is not None else 500
        login_wall = status == 302 and "/login/" in response.get("Location", "")
        if not junk and not login_wall and status != 404:
            self.reached.add(id(leaf))
        form_names = set(self.form_names)
        if status == 200 and not getattr(response, "streaming", False):
            form_names |= set(_INPUT_NAME.findall(response.content.decode(errors="replace")))
        if not junk and not login_wall and status != 404:
            self.request(self.client, "get", url, headers={"HX-Request": "true"})
            if status < 400 and self.role in JUNK_ROLES:
                for query in junk_queries(self.query_names, number):
                    self.request(self.client, "get", f"{url}?{query}")
        if not login_wall:
            self.request(self.client, "post", url, data=junk_fields(form_names, number))
        if not login_wall and (leaf.csrf_exempt or status == 405):  # may read a JSON body
            self.request(self.client, "post", url, data=json.dumps(
                junk_fields(form_names, number + 1)), content_type="application/json")
        if junk:
            return
        # What middleware refuses before any view runs answers the same whoever
        # asks: each URL is sent those requests by one role (each role takes every fifth URL),
        # so every URL gets them once in each part. A view exempt from CSRF reads the body as
        # the role it is: each role posts to it.
        everyone_alike = number % len(ROLES) == ROLES.index(self.role)
        if everyone_alike:
            self.post_json_past_the_bounds(url)
        if not (everyone_alike or leaf.csrf_exempt):
            return
        response = self.request(self.bare, "post", url, data={"phase_number": "1"})
        if response is not None and not leaf.csrf_exempt and response.status_code != 403:
            self.failures.append(f"POST {url[:160]} without a CSRF token answered "
                                 f"{response.status_code} (not csrf_exempt)")


def junk_fields(names: set[str], number: int) -> dict[str, str]:
    """Junk for each field, a different junk for neighbouring fields and requests."""
    return {n: FIELD_JUNK[(i + number) % len(FIELD_JUNK)] for i, n in enumerate(sorted(names))}


def junk_queries(names: set[str], number: int) -> list[str]:
    """The numbers that broke parsers in every parameter at once, then a mix of all junk."""
    return [urlencode(dict.fromkeys(sorted(names), junk))
            for junk in ("\N{SUPERSCRIPT TWO}", LONG_DIGITS)] + [
        urlencode(junk_fields(names, number))]


@pytest.fixture
def quiet_request_log():
    """Thousands of 404s and 400s are the walk's point; a failure is reported by the test."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


# Each role's walk is cut in SHARDS (every SHARDS-th URL pattern, its junk URLs with it), each
# with a world of its own: a minute-long test at the end of a run kept one worker busy while
# the other had finished.
SHARDS = 2


@pytest.mark.long
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("shard", range(SHARDS), ids=lambda shard: f"part{shard + 1}")
@pytest.mark.parametrize("role", ROLES)
def test_every_url_answers_every_role_without_failing_or_leaking(role: str, shard: int,
                                                                  quiet_request_log) -> None:
    started = time.monotonic()
    world = build_world()
    walk = Walk(role, world)
    walk.query_names, walk.form_names = code_field_names()
    every_leaf = list(leaves(get_resolver().url_patterns))
    targets = [(leaf, url, junk) for leaf in every_leaf[shard::SHARDS]
               for url, junk in urls_of(leaf, world)]
    # The junk URLs last: a request that changes the world (a log-out, leaving a match) then
    # hides the least.
    targets.sort(key=lambda target: target[2])
    for number, (leaf, url, junk) in enumerate(targets):
        walk.visit(leaf, url, junk, number)
    # A NUL anywhere is refused before any view runs.
    for url in ("/?page=%00", "/matches/mine/?before=a%00"):
        response = walk.request(walk.client, "get", url)
        assert response is not None and response.status_code == 400, url
    elapsed = time.monotonic() - started
    print(f"{role} part {shard + 1}: {len(targets)} URLs, {walk.requests} requests in "
          f"{elapsed:.1f} s")
    assert not walk.failures, "\n".join(walk.failures[:80]) + f"\n({len(walk.failures)} in all)"
    assert len(targets) > 300 // SHARDS
