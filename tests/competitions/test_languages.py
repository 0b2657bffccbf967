"""The competitions' mails in their readers' language: an invitation, a round's start (a
match or a bye) and the final results, French for Amélie and English for Bob."""

from __future__ import annotations

import pytest

from competitions import services as competitions
from competitions.models import Pairing
from portal.mail.models import OutgoingEmail
from tests.portal.mail.languages import check_rows, make_readers

pytestmark = pytest.mark.django_db


@pytest.fixture
def readers(make_user):
    return make_readers(make_user)


def test_competition_mails_are_in_the_readers_language(readers, make_user, finish):
    amelie, bob = readers
    owner = make_user("owner")
    club = competitions.club_create(by=owner, name="Les Chars du Jeudi")
    for user in readers:
        competitions.club_invite_email(club_id=club.pk, by=owner, email=user.email)
    carol = make_user("carol")
    for user in (*readers, carol):
        competitions.club_join_by_token(token=club.invite_token, user=user)
    cup = competitions.tournament_create(
        by=owner, club_id=club.pk, name="Coupe d'hiver", game="toy-duel", format="swiss",
        options={"target": 1}, round_hours=48, hours_per_phase=24, rounds_planned=1)
    for user in (*readers, carol):
        competitions.tournament_register(tournament_id=cup.pk, user=user)
    competitions.tournament_start(tournament_id=cup.pk, by=owner)
    for pairing in Pairing.objects.filter(round__tournament=cup, match__isnull=False):
        finish(pairing.match, 1)
    cup.refresh_from_db()
    assert cup.status == "finished"
    rows = OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.COMPETITION,
                                        to__in=[amelie.email, bob.email])
    assert rows.filter(to=amelie.email).count() == rows.filter(to=bob.email).count() == 3
    check_rows(rows, amelie, bob)
    assert rows.get(to=amelie.email, dedupe_key__contains=":finished:").subject == (
        "Coupe d'hiver : résultats finaux")


