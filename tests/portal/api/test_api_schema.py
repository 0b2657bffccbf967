"""The OpenAPI schema is the framework's, and the API keeps to it: schemathesis sends
generated requests (valid and not) to every operation; none may answer 500, and every answer
must match the schema."""

from __future__ import annotations

import json

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    ignored_auth,
    missing_required_header,
    positive_data_acceptance,
)

from portal.api.services import api_token_create
from tests.portal.builders import duel, make_user

pytestmark = pytest.mark.django_db

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())


def test_the_schema_is_served_and_lists_every_operation():
    document = json.loads(Client().get("/api/v1/openapi.json").content)
    assert document["openapi"].startswith("3.")
    operations = {(path, method) for path, item in document["paths"].items() for method in item}
    assert operations == {
        ("/api/v1/games", "get"), ("/api/v1/lobby", "get"), ("/api/v1/matches", "get"),
        ("/api/v1/players/{username}", "get"),
        ("/api/v1/matches", "post"), ("/api/v1/matches/{match_id}", "get"),
        ("/api/v1/matches/{match_id}/prompt", "get"),
        ("/api/v1/matches/{match_id}/orders", "post"),
        ("/api/v1/matches/{match_id}/plan", "get"), ("/api/v1/matches/{match_id}/plan", "put"),
        ("/api/v1/matches/{match_id}/plan", "delete"),
        ("/api/v1/matches/{match_id}/sheet-ahead", "get"),
        ("/api/v1/matches/{match_id}/sheet-ahead", "put"),
        ("/api/v1/matches/{match_id}/sheet-ahead", "delete"),
        ("/api/v1/matches/{match_id}/result", "get"),
        ("/api/v1/matches/{match_id}/record", "get"),
        ("/api/v1/matches/{match_id}/join", "post"),
        ("/api/v1/matches/{match_id}/votes", "get"),
        ("/api/v1/matches/{match_id}/votes", "post"),
        ("/api/v1/matches/{match_id}/votes/{vote_id}/ballot", "post"),
        ("/api/v1/matches/{match_id}/concede", "post"),
        ("/api/v1/matches/{match_id}/leave", "post"), ("/api/v1/lobby/seeking", "get"),
        ("/api/v1/seeking/take", "post"),
        ("/api/v1/matches/{match_id}/messages", "get"),
        ("/api/v1/matches/{match_id}/messages", "post"),
        ("/api/v1/leagues", "get"), ("/api/v1/leagues/{league_id}", "get"),
        ("/api/v1/leagues/{league_id}/seasons/{number}", "get"),
        ("/api/v1/team-matches", "get"), ("/api/v1/team-matches/{team_match_id}", "get"),
        ("/api/v1/team-leagues", "get"), ("/api/v1/team-leagues/{league_id}", "get"),
    }
    assert "BearerAuth" in json.dumps(document["components"]["securitySchemes"]) or \
        "TokenAuth" in json.dumps(document["components"]["securitySchemes"])


@pytest.fixture
def wsgi_in_test_transaction():
    """Served through the WSGI handler like in production, but like Django's test client it
    leaves the test's database connection (and its transaction) open between requests."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def token(wsgi_in_test_transaction):
    alice, bob = make_user("alice"), make_user("bob")
    duel(alice, bob)  # match 1 in play: generated ids sometimes find it
    duel(alice)  # an open one
    # A site-wide league with a running season (league 1, season 1: generated ids find it).
    from competitions.services.leagues import league_create, league_join, season_start
    league = league_create(by=make_user("admin", staff=True), name="Fuzz league",
                           game="toy-duel", division_size=2)
    for user in (alice, bob):
        league_join(league_id=league.pk, user=user)
    season_start(league_id=league.pk)
    return api_token_create(user=alice, name="fuzz").token


@pytest.mark.long
@schema.parametrize()
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_no_request_makes_the_api_fail(case, token):
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    # Every case carries the live token; the checks that re-send a case without its auth
    # header would send ours, so they are left out (tests/portal/api/test_api.py checks 401s).
    # A request the schema allows may still break the game's rules (an unknown game, a move
    # off the board): that is the engine's 400 with its problems, not a schema violation.
    case.call_and_validate(excluded_checks=[ignored_auth, missing_required_header,
                                            positive_data_acceptance])
