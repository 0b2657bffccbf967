"""The votes panel of the match page and the API's votes: what each role sees and may do, the
clear refusals (checked before any work), and a secret ballot that shows nobody — anonymous,
spectator, the other players, the voters themselves, a moderator — who proposed it or who
voted what while it is open, on any page, partial, API answer or mail; everything once it has
closed."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.endings import ending_of, ending_sentence
from games.models import Match, MatchBallot, MatchVote
from portal.api.services import api_token_create
from portal.mail.models import OutgoingEmail

pytestmark = pytest.mark.django_db


@pytest.fixture
def trio(make_user):
    users = [make_user(name) for name in ("annika", "bertil", "cyrano")]
    match = services.match_create(
        creator=users[0], game="final-strategy", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": u} for u in users])
    match.users = users
    return match


def page_client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api(user) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=user, name='t').token}")


def votes_section(html: str) -> str:
    found = re.search(r'<section id="votes".*?</section>', html, re.S)
    assert found, "no votes panel"
    return found.group(0)


def match_page(match) -> str:
    return reverse("games:match", args=[match.pk])


def test_a_player_proposes_and_votes_from_the_page_with_htmx(trio):
    ann, ben, cy = trio.users
    page = page_client(ann).get(match_page(trio)).content.decode()
    panel = votes_section(page)
    assert 'name="kind" value="draw"' in panel and 'name="kind" value="cancel"' in panel
    assert "hx-confirm" in panel and "Concede" in panel
    answer = page_client(ann).post(reverse("games:vote_propose", args=[trio.pk]),
                                   {"kind": "draw"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'id="votes"' in html and "You proposed a draw" in html
    vote = MatchVote.objects.get()
    cast = reverse("games:vote_cast", args=[trio.pk, vote.pk])
    assert "Waiting for:" in votes_section(page_client(ben).get(match_page(trio)).content
                                           .decode())
    assert page_client(ben).post(cast, {"choice": "yes"}, HTTP_HX_REQUEST="true"
                                 ).status_code == 200
    last = page_client(cy).post(cast, {"choice": "yes"}, HTTP_HX_REQUEST="true")
    assert last.status_code == 200 and last["HX-Redirect"] == match_page(trio)
    trio.refresh_from_db()
    assert trio.status == Match.Status.FINISHED
    result = page_client().get(match_page(trio)).content.decode()
    assert "Drawn by agreement of Red, Blue, Green." in result
    assert "agreement of seat" not in result  # (said once, with the seats' names)
    french = page_client().get(match_page(trio), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Nulle d’un commun accord entre Rouge, Bleu, Vert." in french
    assert "Drawn by" not in french
    # The stored ending reads in every language too (the API's result, the club's list).
    with translation.override("fr"):
        assert ending_sentence(trio.game, ending_of(trio)) == \
            "Nulle d’un commun accord entre Rouge, Bleu, Vert."


def test_refusals_are_clear_and_come_before_any_work(trio, make_user):
    ann, ben, _cy = trio.users
    propose = reverse("games:vote_propose", args=[trio.pk])
    assert page_client().post(propose, {"kind": "draw"}).status_code == 302  # log in first
    assert page_client(make_user("nosy")).post(propose, {"kind": "draw"}).status_code == 403
    assert not MatchVote.objects.exists()
    bad = page_client(ann).post(propose, {"kind": "surrender"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "Propose a draw or to cancel" in bad.content.decode()
    page_client(ann).post(propose, {"kind": "draw"})
    again = page_client(ben).post(propose, {"kind": "draw"}, HTTP_HX_REQUEST="true")
    assert again.status_code == 409 and "already open" in again.content.decode()
    vote = MatchVote.objects.get()
    cast = reverse("games:vote_cast", args=[trio.pk, vote.pk])
    twice = page_client(ann).post(cast, {"choice": "yes"})  # without htmx: the whole page
    assert twice.status_code == 409 and "already voted" in twice.content.decode()
    assert page_client(ben).post(cast, {"choice": "maybe"}).status_code == 400
    assert MatchBallot.objects.count() == 1
    concede = reverse("games:concede", args=[trio.pk])
    unconfirmed = page_client(ben).post(concede, {}, HTTP_HX_REQUEST="true")
    assert unconfirmed.status_code == 400 and "Tick the box" in unconfirmed.content.decode()
    assert page_client(ben).get(reverse("games:concede", args=[trio.pk])).status_code == 405
    assert page_client(ben).post(concede, {"confirm": "yes"}).status_code == 302
    assert MatchVote.objects.filter(kind="concede").count() == 1


def test_a_private_match_answers_404_to_outsiders(make_user):
    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    match = services.match_create(creator=alice, game="toy-duel", options={}, hours_per_phase=24,
                                  is_public=False, seats=[{"kind": "human", "user": alice},
                                                          {"kind": "human", "user": bob}])
    assert page_client(eve).get(reverse("games:votes", args=[match.pk])).status_code == 404
    assert page_client(eve).post(reverse("games:vote_propose", args=[match.pk]),
                                 {"kind": "draw"}).status_code == 404
    assert api(eve).get(f"/api/v1/matches/{match.pk}/votes").status_code == 404


def test_the_api_proposes_votes_and_concedes(trio):
    ann, ben, cy = trio.users
    created = api(ann).post(f"/api/v1/matches/{trio.pk}/votes",
                            json.dumps({"kind": "cancel"}), content_type="application/json")
    assert created.status_code == 201, created.content
    vote = created.json()
    assert (vote["kind"], vote["status"], vote["yes"], vote["voters"]) == ("cancel", "open", 1, 3)
    assert vote["proposed_by"] == 1 and vote["my_ballot"] == "yes"
    listed = api(ben).get(f"/api/v1/matches/{trio.pk}/votes").json()
    assert listed["may_vote"] and listed["may_propose"] == ["draw"]
    assert [v["id"] for v in listed["open"]] == [vote["id"]]
    ballot = f"/api/v1/matches/{trio.pk}/votes/{vote['id']}/ballot"
    no = api(ben).post(ballot, json.dumps({"vote": "no"}), content_type="application/json")
    assert no.status_code == 200 and no.json()["status"] == "failed"
    late = api(cy).post(ballot, json.dumps({"vote": "yes"}), content_type="application/json")
    assert late.status_code == 409 and late.json()["code"] == "vote_closed"
    bad = api(cy).post(ballot, json.dumps({"vote": "perhaps"}), content_type="application/json")
    assert bad.status_code == 422
    refused = api(cy).post(f"/api/v1/matches/{trio.pk}/concede", json.dumps({}),
                           content_type="application/json")
    assert refused.status_code == 422  # a concession must be confirmed
    done = api(cy).post(f"/api/v1/matches/{trio.pk}/concede", json.dumps({"confirm": True}),
                        content_type="application/json")
    assert done.status_code == 200 and done.json()["seat"] == 3
    assert done.json()["match_status"] == "active"
    assert api(cy).post(f"/api/v1/matches/{trio.pk}/votes", json.dumps({"kind": "draw"}),
                        content_type="application/json").json()["code"] == "seat_out"


def test_the_api_result_says_how_the_players_ended_it(trio):
    ann, ben, cy = trio.users
    for user in (ann, ben):
        services.seat_concede(match_id=trio.pk, user=user)
    result = api(cy).get(f"/api/v1/matches/{trio.pk}/result").json()
    assert result["ended_by"] == "concede" and result["ending"] == "Conceded by Blue."


def test_a_secret_ballot_leaks_no_vote_to_anyone_before_it_closes(trio, moderator, make_user,
                                                                    django_capture_on_commit_callbacks):
    from tests.competitions.conftest import run_signals

    ann, ben, cy = trio.users
    spectator = make_user("spectra")
    with django_capture_on_commit_callbacks() as callbacks:
        vote = services.vote_propose(match_id=trio.pk, user=ann, kind="draw", secret=True)
        services.vote_cast(match_id=trio.pk, vote_id=vote.pk, user=ben, yes=True)
    run_signals(callbacks)
    players = {"annika", "bertil", "cyrano"}

    def names_in(text: str, reader: str = "") -> set[str]:
        return {name for name in players - {reader} if name in text}

    readers = [(None, ""), (spectator, ""), (cy, "cyrano"), (ben, "bertil"), (ann, "annika"),
               (moderator, "")]
    for user, own in readers:
        panel = votes_section(page_client(user).get(match_page(trio)).content.decode())
        assert "1 still to vote" in panel and "2 yes of 3" in panel
        assert not names_in(panel), (user, panel)  # no name at all in the votes panel
        partial = page_client(user).get(reverse("games:votes", args=[trio.pk])).content.decode()
        assert not names_in(partial)
        if user is not None:
            data = api(user).get(f"/api/v1/matches/{trio.pk}/votes").json()["open"][0]
            assert data["proposed_by"] is None and data["ballots"] is None
            assert data["waiting_for"] is None and (data["yes"], data["waiting"]) == (2, 1)
            assert data["my_ballot"] == ("yes" if own in ("annika", "bertil") else None)
            assert data["proposed_by_me"] == (own == "annika")
    assert "bertil" not in page_client(ben).get(match_page(trio)).content.decode().split(
        'id="votes"')[1].split("</section>")[0]
    admin = page_client(moderator).get(reverse("admin:games_match_moderate", args=[trio.pk]))
    votes_line = admin.content.decode().split('id="moderation-votes"')[1].split("</p>")[0]
    assert "2 yes of 3" in votes_line and not names_in(votes_line)
    mails = OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.VOTE)
    assert {m.to for m in mails} == {ben.email, cy.email}  # not the proposer
    for mail in mails:
        reader = mail.to.split("@")[0]
        assert not names_in(mail.body_text + mail.body_html + mail.subject, reader), mail.to
        assert "secret ballot" in mail.body_text
    # Closed, every ballot is shown.
    services.vote_cast(match_id=trio.pk, vote_id=vote.pk, user=cy, yes=False)
    panel = votes_section(page_client(spectator).get(match_page(trio)).content.decode())
    assert {"annika", "bertil", "cyrano"} <= names_in(panel)
    assert "Green (cyrano): no" in panel


def test_the_panel_reads_in_french(trio):
    ann, ben, _cy = trio.users
    services.vote_propose(match_id=trio.pk, user=ann, kind="draw")
    client = page_client(ben)
    panel = votes_section(client.get(match_page(trio), HTTP_ACCEPT_LANGUAGE="fr").content
                          .decode())
    for french in ("Finir la partie d’un commun accord", "Proposition : une nulle",
                   "Voter oui", "Voter non", "Abandonner…", "1 oui sur 3",
                   "Rouge (annika)"):  # the seats by the names the match page gives them
        assert french in panel, french
    for english in ("Vote yes", "Concede", "Proposed", "still to vote", "Red (", "Green ("):
        assert english not in panel, english
    assert "1 oui sur 3 ; 2 doivent encore voter." in panel
    vote = MatchVote.objects.get(match=trio)
    services.vote_cast(match_id=trio.pk, vote_id=vote.pk, user=ben, yes=True)
    panel = votes_section(client.get(match_page(trio), HTTP_ACCEPT_LANGUAGE="fr").content
                          .decode())
    assert "2 oui sur 3 ; 1 doit encore voter." in panel  # (one seat: the singular)
    services.vote_cast(match_id=trio.pk, vote_id=vote.pk, user=trio.users[2], yes=False)
    panel = votes_section(client.get(match_page(trio), HTTP_ACCEPT_LANGUAGE="fr").content
                          .decode())
    assert "proposition (une nulle), rejetée." in panel  # (agreeing with "proposition")


def test_a_proposal_closed_by_a_seat_changing_hands_is_mailed_in_each_readers_language(
        trio, django_capture_on_commit_callbacks):
    from portal.accounts.models import Profile
    from tests.competitions.conftest import run_signals

    ann, ben, cy = trio.users
    Profile.objects.update_or_create(user=ben, defaults={"language": "fr"})
    with django_capture_on_commit_callbacks() as callbacks:
        vote = services.vote_propose(match_id=trio.pk, user=ann, kind="draw")
        services.vote_cast(match_id=trio.pk, vote_id=vote.pk, user=cy, yes=True)
        services.seat_leave(match_id=trio.pk, user=cy)
    run_signals(callbacks)
    closed = OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.VOTE,
                                          dedupe_key__contains=":closed:")
    assert {mail.to for mail in closed} == {ann.email, ben.email}  # not Cy, who left
    french = closed.get(to=ben.email).body_text
    assert "une place a changé de commandant" in french
    assert "Vert (cyrano) : oui" in french and "Rouge (annika) : oui" in french
    assert "Bleu (bertil)" in french  # the seat that had not voted, named
    for english in ("Red", "Green", "Blue"):
        assert english not in french, english
    assert "Green (cyrano): yes" in closed.get(to=ann.email).body_text
