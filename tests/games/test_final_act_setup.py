"""The Final Act setup panel: the form <-> setup dict, the live check, the preview of one's own
draft (never the other side's), sealing, and every refusal as a 4xx with a message."""

import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

import engine
from engine.final_act.setup import apply_setups
from games.final_act.setup_panel import (
    fields_from_setup,
    preview_view,
    setup_from_fields,
    setup_panel_context,
)
from games.models import Match, Phase, Submission
from games.services import orders_submit, phase_resolve
from tests.browser import browser_test, log_in
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
GAME = engine.get("final-act")

# Delta's setup, placed where Alpha's own pieces never go: none of it may reach Alpha.
DELTA_SETUP = {
    "terrain": {
        "large_berm": ["k10", "l10"],
        "small_berms": ["a11", "c12"],
        "swamp": ["g8", "h8", "g9", "h9"],
        "minefield": {"squares": ["a7", "b7", "c7"], "passage": "b7", "arrow": "S"},
    },
    "units": {
        "C": {"at": "l12", "facing": "W"},
        "1": {"at": "k12", "facing": "S"},
        "1A": {"at": "j12", "facing": "S"},
        "1B": {"at": "i12", "facing": "E"},
        "2": {"at": "h12", "facing": "S"},
        "2A": {"at": "g12", "facing": "S"},
        "2B": {"at": "e12", "facing": "S"},
    },
}
DELTA_SQUARES = {"k10", "l10", "a11", "c12", "g8", "h8", "g9", "h9", "a7", "b7", "c7",
                 "l12", "k12", "j12", "i12", "h12", "g12", "e12"}

# Alpha's own layout used by the tests: the default layout with the swamp moved to the east.
ALPHA_SETUP = {
    "terrain": {
        "large_berm": ["c3", "d3"],
        "small_berms": ["f2", "h3"],
        "swamp": ["g5", "h5", "g6", "h6"],
        "minefield": {"squares": ["a5", "b5", "c5"], "passage": "b5", "arrow": "N"},
    },
    "units": {
        "C": {"at": "e1", "facing": "N"},
        "1": {"at": "c2", "facing": "E"},
        "1A": {"at": "b2", "facing": "N"},
        "1B": {"at": "d2", "facing": "N"},
        "2": {"at": "h2", "facing": "W"},
        "2A": {"at": "i2", "facing": "N"},
        "2B": {"at": "j2", "facing": "N"},
    },
}


class FormValues(HTMLParser):
    """What a browser would post for the setup form in a response (buttons left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, list[str]] = {}
        self.inside = False
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == "fa-setup-form":
            self.inside = True
        if not self.inside:
            return
        if tag == "input" and a.get("name") and (
                a.get("type") in ("text", "hidden")
                or (a.get("type") == "checkbox" and "checked" in a)):
            self.values.setdefault(a["name"], []).append(a.get("value", ""))
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select and "selected" in a:
            self.values.setdefault(self.select, []).append(a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def form_values(html: str) -> dict[str, list[str]]:
    parser = FormValues()
    parser.feed(html)
    return parser.values


def fields_for(setup: dict, phase_number: int = 1) -> dict:
    """The POST data of the form showing ``setup``."""
    data = {k: v for k, v in fields_from_setup(setup).items()}
    data["phase_number"] = str(phase_number)
    return data


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def square_classes(html: str, square: str) -> list[str]:
    """The classes of the live board's rect for ``square``."""
    found = re.search(rf'<rect class="(fa-sq[^"]*)" data-square="{square}"', html)
    assert found, f"no square {square} on the board"
    return found.group(1).split()


def validate_url(match, seat=1):
    return reverse("games:fa_setup_validate", args=[match.pk, seat])


def submit_url(match, seat=1):
    return reverse("games:fa_setup_submit", args=[match.pk, seat])


@pytest.fixture
def players():
    return make_user("alice"), make_user("bob")


@pytest.fixture
def match(players):
    return duel(*players, game="final-act")


@pytest.fixture
def alice(client, players):
    client.force_login(players[0])
    return client


# -- the form <-> setup dict ---------------------------------------------------------------------

def test_the_fields_of_a_setup_read_back_as_that_setup():
    legal = GAME.legal_actions(GAME.start(2, {}, 1), 1)
    assert setup_from_fields(fields_from_setup(ALPHA_SETUP), legal) == ALPHA_SETUP


def test_unreadable_squares_go_to_the_engine_as_typed_and_empty_units_are_left_out():
    legal = GAME.legal_actions(GAME.start(2, {}, 1), 1)
    setup = setup_from_fields({"f-large_berm": "zz99, E3", "u-C-at": " ", "u-1-at": "q0",
                               "u-1-facing": "up"}, legal)
    assert setup["terrain"]["large_berm"] == ["zz99", "E3"]
    assert "C" not in setup["units"]
    assert setup["units"]["1"] == {"at": "q0", "facing": "up"}


def test_the_preview_places_the_draft_exactly_as_the_engine_reveals_it():
    state = GAME.start(2, {"extra_forces": True}, 1)
    setups = {seat: GAME.default_submission(state, seat) for seat in (1, 2)}
    revealed = dict(state, units=[], terrain=[])
    apply_setups(revealed, setups)
    for seat in (1, 2):
        preview = preview_view(GAME.view(state, seat), seat, setups[seat])
        own = GAME.view(revealed, seat)
        assert preview["terrain"] == [t for t in own["terrain"] if t["owner"] == seat]
        assert preview["units"] == [u for u in own["units"] if u["seat"] == seat]


def test_the_preview_of_a_partial_draft_draws_what_can_be_read_and_nothing_else():
    view = GAME.view(GAME.start(2, {}, 1), 1)
    draft = {"terrain": {"large_berm": ["e3", "zz"], "small_berms": [], "swamp": ["a5"],
                         "minefield": {"squares": ["j5"], "passage": "k9", "arrow": "Q"}},
             "units": {"C": {"at": "f2", "facing": "sideways"}, "1": {"at": "nowhere"}}}
    preview = preview_view(view, 1, draft)
    assert preview["terrain"] == [
        {"kind": "berm", "owner": 1, "squares": ["e3"]},
        {"kind": "swamp", "owner": 1, "squares": ["a5"]},
        {"kind": "minefield", "owner": 1, "squares": ["j5"]},
    ]
    assert [(u["name"], u["at"], u["facing"]) for u in preview["units"]] == [("C", "f2", "N")]


# -- the panel -----------------------------------------------------------------------------------

def test_the_match_page_shows_the_setup_panel_to_the_prompted_seat(alice, match):
    page = alice.get(reverse("games:match", args=[match.pk])).content.decode()
    assert 'id="fa-setup-panel"' in page and 'id="fa-setup-form"' in page
    assert f'action="{submit_url(match)}"' in page
    assert f'hx-post="{validate_url(match)}"' in page
    assert 'name="u-2B-at"' in page and 'name="f-minefield-arrow"' in page
    assert 'id="fa-setup-legal"' in page
    assert "Nothing sealed yet" in page


def test_a_fresh_setup_page_shows_a_guide_and_no_problem_list(alice, match):
    page = alice.get(reverse("games:match", args=[match.pk])).content.decode()
    check = page[page.index('id="fa-setup-check"'):page.index('id="fa-setup-check"') + 3000]
    assert "problem" not in check and 'class="errors"' not in check
    assert 'id="fa-setup-todo"' in check and "your 7 tanks" in check
    assert '<li class="errors">' not in page  # no note under any piece either


def test_the_live_check_names_the_problems_of_pieces_placed_and_guides_to_the_rest(alice,
                                                                                   match):
    body = alice.post(validate_url(match), {"phase_number": "1", "f-large_berm": "e3 zz",
                                            "u-C-at": "e1"}, **HTMX).content.decode()
    assert "1 problem — this setup would be refused" in body
    assert "Large berm" in body and "must be placed" not in body
    assert 'id="fa-setup-todo"' in body and "your 6 tanks (1, 1A, 1B, 2, 2A, 2B)" in body


def test_check_and_a_refused_seal_list_every_missing_piece(alice, match):
    checked = alice.post(validate_url(match), {"phase_number": "1", "check": "all"},
                         **HTMX).content.decode()
    assert "12 problems — this setup would be refused" in checked
    assert "Tank C must be placed" in checked
    refused = alice.post(submit_url(match), {"phase_number": "1"}, **HTMX)
    assert refused.status_code == 400
    assert "Tank C must be placed" in refused.content.decode()


def test_the_panel_context_starts_empty_and_guides_to_what_is_missing(players, match):
    request = RequestFactory().get("/")
    request.user = players[0]
    seat = match.seats.get(number=1)
    context = setup_panel_context(request, match, seat, None)
    assert not context["fa_setup_valid"]
    assert context["fa_setup_terrain"]["large_berm"] == ""
    assert [u["name"] for u in context["fa_setup_units"]] == ["C", "1", "1A", "1B", "2", "2A",
                                                              "2B"]
    # Nothing placed is no problem yet: a guide says what to place.
    assert context["fa_setup_problems"] == []
    assert all(u["problems"] == [] for u in context["fa_setup_units"])
    assert "your 7 tanks (C, 1, 1A, 1B, 2, 2A, 2B)" in context["fa_setup_todo"]
    # Asked for (the Check button, a seal), every missing piece is a problem.
    insisted = setup_panel_context(request, match, seat, None, insist=True)
    assert any("Tank C must be placed" in m for u in insisted["fa_setup_units"]
               for m in u["problems"])
    assert len(insisted["fa_setup_problems"]) == 12
    assert context["fa_setup_legal"]["areas"]["unit"] == [
        f"{f}{r}" for r in (1, 2, 3) for f in "abcdefghijkl"]
    assert context["fa_setup_tokens"] is None


def test_the_panel_offers_extra_forces_units_and_the_token_draft(client, players):
    match = duel(*players, game="final-act",
                 options={"extra_forces": True, "tokens": {"mode": "draft-k", "k": 2}})
    client.force_login(players[1])
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert 'name="u-AT1-at"' in page and 'name="u-R-at"' in page
    assert 'name="u-R-facing"' not in page  # R always faces forward
    assert page.count('name="tokens"') == 7 and "draft 2" in page


# -- the live check ------------------------------------------------------------------------------

def test_an_overlapping_layout_gets_its_problems_next_to_the_pieces(alice, match):
    setup = {**ALPHA_SETUP, "terrain": {**ALPHA_SETUP["terrain"], "swamp": ["c3", "d3", "c4",
                                                                            "d4"]}}
    data = fields_for(setup)
    data["u-C-at"] = "d3"  # on the swamp
    response = alice.post(validate_url(match), data, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "this setup would be refused" in body
    notes = re.search(r'<ul id="fa-setup-notes-swamp"[^>]*hx-swap-oob="true">(.*?)</ul>', body)
    assert notes and "The swamp overlaps the large berm on c3." in notes.group(1)
    unit_notes = re.search(r'<ul id="fa-setup-notes-unit-C"[^>]*>(.*?)</ul>', body)
    assert "Tank C cannot start on d3: it is a swamp or minefield square." in unit_notes.group(1)
    assert 'id="fa-live"' in body and 'hx-swap-oob="true"' in body
    assert "is-problem" in square_classes(body, "c3")
    assert 'id="fa-setup-form"' not in body  # the form itself is not replaced while typing


def test_the_default_layout_checks_clean(alice, match):
    data = fields_for(GAME.default_submission(match.state, 1))
    response = alice.post(validate_url(match), data, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and "This setup is valid." in body
    assert "large berm e3 f3" in body  # the setup as text


def test_checking_stores_nothing(alice, match):
    alice.post(validate_url(match), fields_for(ALPHA_SETUP), **HTMX)
    assert not Submission.objects.exists()


@pytest.mark.parametrize("field", [
    "f-large_berm", "f-small_berm1", "f-small_berm2", "f-swamp", "f-minefield",
    "f-minefield-passage", "u-C-at", "u-2B-at",
])
def test_a_square_that_cannot_be_read_is_a_problem_in_words(alice, match, field):
    data = fields_for(ALPHA_SETUP)
    data[field] = "zz99"
    body = alice.post(validate_url(match), data, **HTMX).content.decode()
    assert "this setup would be refused" in body
    assert ("&#x27;zz99&#x27; is not a square" in body
            or "needs exactly" in body or "must be one of the minefield" in body)


@pytest.mark.parametrize("field, message", [
    ("f-minefield-arrow", "arrow must be N, E, S or W"),
    ("u-1-facing", "&#x27;zz99&#x27; is not a facing"),
])
def test_a_direction_that_cannot_be_read_is_a_problem_and_stays_selected(alice, match, field,
                                                                         message):
    data = fields_for(ALPHA_SETUP)
    data[field] = "zz99"
    body = alice.post(validate_url(match), data, **HTMX).content.decode()
    assert message in body
    assert form_values(body.split('hx-swap-oob')[0]) == {}  # (the check: no form fields)
    page = alice.post(validate_url(match), data).content.decode()
    assert form_values(page)[field] == ["zz99"]  # shown as chosen, not silently replaced


def test_the_default_layout_button_fills_values_that_validate_and_seal(alice, match):
    response = alice.post(validate_url(match), {"fill": "default"}, **HTMX)
    assert response.status_code == 200
    values = form_values(response.content.decode())
    assert values["f-swamp"] == ["a5 b5 a6 b6"] and values["u-C-facing"] == ["N"]
    body = alice.post(validate_url(match), values, **HTMX).content.decode()
    assert "This setup is valid." in body
    alice.post(submit_url(match), values, **HTMX)
    assert Submission.objects.get().data == GAME.default_submission(match.state, 1)


def test_clear_empties_every_field(alice, match):
    response = alice.post(validate_url(match), {**fields_for(ALPHA_SETUP), "fill": "clear"},
                          **HTMX)
    values = form_values(response.content.decode())
    assert values["f-large_berm"] == [""] and values["u-C-at"] == [""]


def test_without_javascript_the_check_answers_with_the_whole_page(alice, match):
    data = fields_for(ALPHA_SETUP)
    data["f-swamp"] = "a1"
    response = alice.post(validate_url(match), data)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" in body
    assert form_values(body)["f-swamp"] == ["a1"]
    assert "The swamp needs exactly 4 squares." in body
    filled = alice.post(validate_url(match), {**data, "fill": "default"}).content.decode()
    assert "<html" in filled and form_values(filled)["f-swamp"] == ["a5 b5 a6 b6"]


# -- sealing -------------------------------------------------------------------------------------

def test_sealing_stores_the_exact_setup_and_shows_the_receipt(alice, match):
    response = alice.post(submit_url(match), fields_for(ALPHA_SETUP), **HTMX)
    assert response.status_code == 200
    sheet = Submission.objects.get(seat__number=1)
    assert sheet.data == ALPHA_SETUP and sheet.source == "web" and sheet.revision == 1
    body = response.content.decode()
    assert "Setup sealed (revision 1)." in text_of(body) and sheet.receipt in body
    # The receipt is there on demand (folded), not in the notice of every seal.
    assert f"Receipt: {sheet.receipt}" not in text_of(body)
    assert form_values(body)["f-swamp"] == ["g5 h5 g6 h6"]  # refilled from the sealed setup
    assert "Replace my sealed setup" in body


def test_sealing_again_replaces_the_setup(alice, match):
    alice.post(submit_url(match), fields_for(ALPHA_SETUP), **HTMX)
    changed = fields_for(ALPHA_SETUP)
    changed["u-C-at"], changed["u-C-facing"] = "k1", "E"
    response = alice.post(submit_url(match), changed, **HTMX)
    assert "Setup sealed (revision 2)" in response.content.decode()
    sheet = Submission.objects.get(seat__number=1)
    assert sheet.revision == 2 and sheet.data["units"]["C"] == {"at": "k1", "facing": "E"}
    page = alice.get(reverse("games:match", args=[match.pk])).content.decode()
    assert form_values(page)["u-C-at"] == ["k1"]


def test_sealing_without_javascript_redirects_to_the_page_with_the_receipt(alice, match):
    response = alice.post(submit_url(match), fields_for(ALPHA_SETUP))
    assert response.status_code == 302
    page = alice.get(response.url).content.decode()
    assert Submission.objects.get().receipt in page and "Setup sealed (revision 1)" in page


def test_a_refused_setup_keeps_every_field_as_typed(alice, match):
    data = fields_for(ALPHA_SETUP)
    data["f-large_berm"] = "c3 zz99"
    data["u-1-at"] = "e3 <b>"
    response = alice.post(submit_url(match), data, **HTMX)
    assert response.status_code == 400
    body = response.content.decode()
    assert "This setup was refused" in body
    values = form_values(body)
    assert values["f-large_berm"] == ["c3 zz99"] and values["u-1-at"] == ["e3 <b>"]
    assert "<b>" not in body.replace("&lt;b&gt;", "")
    assert not Submission.objects.exists()
    page = alice.post(submit_url(match), data)  # without HTMX: the whole page, 400
    assert page.status_code == 400 and form_values(page.content.decode())["f-large_berm"] == [
        "c3 zz99"]


@pytest.mark.parametrize("phase_number, status", [("", 409), ("x", 409), ("-3", 409),
                                                  ("99", 400)])
def test_a_form_for_no_or_another_phase_is_refused_with_a_message(alice, match, phase_number,
                                                                  status):
    data = fields_for(ALPHA_SETUP)
    data["phase_number"] = phase_number
    response = alice.post(submit_url(match), data, **HTMX)
    assert response.status_code == status
    assert "phase" in response.content.decode()
    assert not Submission.objects.exists()


def test_drafted_tokens_are_sealed_with_the_setup(client, players):
    match = duel(*players, game="final-act",
                 options={"extra_forces": True, "tokens": {"mode": "draft-k", "k": 2}})
    client.force_login(players[0])
    data = fields_for(GAME.default_submission(match.state, 1))
    data["tokens"] = ["smoke", "red_cross"]
    response = client.post(submit_url(match), data, **HTMX)
    assert response.status_code == 200
    sheet = Submission.objects.get()
    assert sheet.data["tokens"] == ["smoke", "red_cross"]
    assert sheet.data["units"]["R"] == {"at": "f1", "facing": "N"}
    data["tokens"] = ["smoke", "bazooka"]
    refused = client.post(submit_url(match), data, **HTMX)
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "Unknown token &#x27;bazooka&#x27;" in body
    assert form_values(body)["tokens"] == ["smoke", "bazooka"]


# -- junk ----------------------------------------------------------------------------------------

JUNK = ["zz99", "", " ", "a" * 5000, "<script>alert(1)</script>", "e3\x00", "\u4f60\u597d", "-1",
        "N N N", "{}", "[]"]


@pytest.mark.parametrize("junk", JUNK)
@pytest.mark.parametrize("url", [validate_url, submit_url])
@pytest.mark.parametrize("phase_too", [True, False])
def test_junk_in_every_field_is_a_4xx_or_a_check_never_a_500(alice, match, junk, url,
                                                             phase_too):
    names = list(fields_for(ALPHA_SETUP)) + ["tokens", "fill"]
    data = {name: junk for name in names}
    if not phase_too:
        data["phase_number"] = "1"
    if url is validate_url and junk.strip():
        data.pop("fill")  # an unknown fill action has its own test
    response = alice.post(url(match), data, **HTMX)
    body = response.content.decode()
    if "\x00" in junk:  # refused at the edge, before any view (portal/middleware.py)
        assert response.status_code == 400 and "NUL" in body
    elif url is validate_url and not junk.strip():  # nothing placed: a guide, no refusal
        assert response.status_code == 200 and 'id="fa-setup-todo"' in body
    elif url is validate_url:
        assert response.status_code == 200 and "this setup would be refused" in body
    else:
        assert response.status_code == (409 if phase_too and junk.strip() != "1" else 400)
        assert 'class="errors"' in body
    assert "<script>alert" not in body
    assert not Submission.objects.exists()


def test_repeated_and_unknown_fields_are_harmless(alice, match):
    data = fields_for(ALPHA_SETUP)
    response = alice.post(validate_url(match), {**data, "u-C-at": ["e1", "zz"], "u-Q-at": "e2",
                                                "terrain": "x"}, **HTMX)
    assert response.status_code == 200


def test_an_unknown_fill_action_is_a_400(alice, match):
    response = alice.post(validate_url(match), {"fill": "everything"}, **HTMX)
    assert response.status_code == 400 and "Unknown action" in response.content.decode()


# -- who may ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("url", [validate_url, submit_url])
def test_another_players_seat_is_403(alice, match, url):
    response = alice.post(url(match, 2), fields_for(DELTA_SETUP), **HTMX)
    assert response.status_code == 403 and "not your seat" in response.content.decode()
    assert not Submission.objects.exists()


@pytest.mark.parametrize("url", [validate_url, submit_url])
def test_a_spectator_is_403_and_an_unknown_seat_too(client, match, url):
    client.force_login(make_user("carol"))
    assert client.post(url(match, 1), fields_for(ALPHA_SETUP), **HTMX).status_code == 403
    assert client.post(url(match, 7), {}, **HTMX).status_code == 403


@pytest.mark.parametrize("url", [validate_url, submit_url])
def test_anonymous_requests_go_to_login_or_get_403_for_htmx(client, match, url):
    response = client.post(url(match), fields_for(ALPHA_SETUP))
    assert response.status_code == 302 and "login" in response.url
    assert client.post(url(match), fields_for(ALPHA_SETUP), **HTMX).status_code == 403


def test_a_private_match_is_404_for_others(client, players):
    match = duel(*players, game="final-act", is_public=False)
    client.force_login(make_user("carol"))
    assert client.post(validate_url(match), {}, **HTMX).status_code == 404


@pytest.mark.parametrize("url", [validate_url, submit_url])
def test_after_the_setup_is_resolved_the_panel_answers_409(alice, players, match, url):
    for seat, setup in ((1, ALPHA_SETUP), (2, DELTA_SETUP)):
        orders_submit(match_id=match.pk, seat_number=seat, user=players[seat - 1],
                      phase_number=1, data=setup, source=Submission.Source.WEB)
    assert phase_resolve(match_id=match.pk, phase_number=1)
    response = alice.post(url(match), fields_for(ALPHA_SETUP, phase_number=1), **HTMX)
    assert response.status_code == 409
    assert "nothing for this seat to submit in this phase" in response.content.decode()


def test_after_the_deadline_sealing_is_a_409_that_keeps_the_fields(alice, match):
    Phase.objects.filter(match=match, number=1).update(
        deadline=timezone.now() - timedelta(minutes=1))
    data = fields_for(ALPHA_SETUP)
    response = alice.post(submit_url(match), data, **HTMX)
    assert response.status_code == 409
    body = response.content.decode()
    assert "The deadline for this phase has passed." in body
    assert form_values(body)["f-swamp"] == ["g5 h5 g6 h6"]
    assert not Submission.objects.exists()


def test_another_games_match_has_no_setup_panel(alice, players):
    match = duel(*players)
    assert alice.post(validate_url(match), {}, **HTMX).status_code == 404
    assert alice.post(submit_url(match), {}, **HTMX).status_code == 404


def test_a_finished_match_answers_409(alice, match):
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    response = alice.post(validate_url(match), fields_for(ALPHA_SETUP), **HTMX)
    assert response.status_code == 409


# -- sealed means sealed -------------------------------------------------------------------------

def assert_nothing_of_delta(body: str) -> None:
    assert 'data-seat="2"' not in body and "owner-2" not in body
    assert "Delta tank" not in body and "Delta berm" not in body
    for square in DELTA_SQUARES:
        classes = square_classes(body, square)
        assert not [c for c in classes if c.startswith(("terrain-", "has-unit"))], square


def test_the_leak_check_would_see_a_revealed_delta_setup():
    from games.final_act.board import render_board

    state = GAME.start(2, {}, 1)
    revealed = dict(state, units=[], terrain=[])
    apply_setups(revealed, {1: ALPHA_SETUP, 2: DELTA_SETUP})
    with pytest.raises(AssertionError):
        assert_nothing_of_delta(render_board(GAME.view(revealed, 1), seat=1))


def test_the_other_sides_sealed_setup_never_reaches_this_seat(alice, players, match):
    delta = orders_submit(match_id=match.pk, seat_number=2, user=players[1], phase_number=1,
                          data=DELTA_SETUP, source=Submission.Source.WEB)
    bodies = [
        alice.get(reverse("games:match", args=[match.pk])).content.decode(),
        alice.post(validate_url(match), fields_for(ALPHA_SETUP), **HTMX).content.decode(),
        alice.post(validate_url(match), {"fill": "default"}, **HTMX).content.decode(),
        alice.post(validate_url(match), fields_for(ALPHA_SETUP)).content.decode(),
        alice.post(submit_url(match), {**fields_for(ALPHA_SETUP), "u-C-at": "zz"},
                   **HTMX).content.decode(),
        alice.post(submit_url(match), fields_for(ALPHA_SETUP), **HTMX).content.decode(),
    ]
    for body in bodies:
        assert_nothing_of_delta(body)
        assert delta.receipt not in body and delta.salt not in body
    # ... while Alpha's own draft is on the board.
    last = bodies[-1]
    assert 'data-seat="1" data-unit="C" data-square="e1"' in last
    assert "terrain-swamp" in square_classes(last, "g5")


# -- in a real browser -----------------------------------------------------------------------------

@browser_test
def test_placing_pieces_by_clicking_the_board_fills_the_form_and_seals(new_page):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="final-act")
    page = new_page()
    log_in(page, "alice")
    page.goto(f"{page.base}/matches/{match.pk}/")

    page.click("#fa-setup-default")
    page.wait_for_selector("#fa-setup-check >> text=This setup is valid.")
    assert page.input_value("#fa-f-swamp") == "a5 b5 a6 b6"

    def square(name):
        return f'#fa-board-live rect[data-square="{name}"]'

    # The swamp: one click takes the 2 x 2 block below and right of it on screen.
    page.click('button[data-piece="swamp"]')
    assert "is-area" in page.get_attribute(square("g6"), "class")
    page.click(square("g6"))
    assert page.input_value("#fa-f-swamp") == "g6 h6 g5 h5"
    page.wait_for_selector('#fa-board-live rect[data-square="h5"].terrain-swamp')
    # A unit, placed then turned with the R key, its square chosen from the keyboard.
    page.click('button[data-piece="unit"][data-unit="C"]')
    page.focus(square("f2"))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert page.input_value("#fa-u-C-at") == "g2"
    page.keyboard.press("r")  # turns the unit just placed, not the next one
    assert page.input_value("#fa-u-C-facing") == "E"
    assert page.get_attribute('button[data-unit="C"]', "aria-pressed") == "false"
    page.wait_for_selector('#fa-board-live g.fa-unit[data-unit="C"][data-square="g2"]')
    page.wait_for_selector("#fa-setup-check >> text=This setup is valid.")
    # Overlap: the minefield onto the swamp, by clicking both ends.
    page.click('button[data-piece="minefield"]')
    page.click(square("f5"))
    page.click(square("h5"))
    assert page.input_value("#fa-f-minefield") == "f5 g5 h5"
    page.wait_for_selector("#fa-setup-notes-minefield >> text=overlaps the swamp")
    page.click(square("g5"))  # the passage, chosen next
    assert page.input_value("#fa-f-minefield-passage") == "g5"
    page.click("#fa-setup-clear")
    page.wait_for_function("document.querySelector('#fa-f-swamp').value === ''")
    page.click("#fa-setup-default")
    page.wait_for_function("document.querySelector('#fa-f-swamp').value !== ''")
    page.click("#fa-setup-seal")
    page.wait_for_selector("#fa-setup-panel >> text=Setup sealed (revision 1)")

    # Delta sees the board turned: "top left on screen" follows what Delta sees.
    delta = new_page()
    log_in(delta, "bob")
    delta.goto(f"{delta.base}/matches/{match.pk}/")
    delta.click('button[data-piece="swamp"]')
    delta.click(square("b8"))
    assert delta.input_value("#fa-f-swamp") == "b8 a8 b9 a9"
    delta.click('button[data-piece="swamp"]')
    delta.click(square("l12"))  # at the corner the block moves inwards
    assert sorted(delta.input_value("#fa-f-swamp").split()) == ["k11", "k12", "l11", "l12"]
    sheet = Submission.objects.get(seat__number=1)
    assert sheet.data == GAME.default_submission(match.state, 1)
