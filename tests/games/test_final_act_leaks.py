"""No page, partial or poll response shows Alpha's sealed setup or order sheet to anyone but
Alpha before the phase resolves.

Every Final Act URL that answers GET or POST is requested by the opponent (bob), an anonymous
spectator, a logged-in stranger and staff who is not a player, once while alice's distinctive
setup is sealed and once while her distinctive order sheet is. The checks read structure, not
bare square names (squares are board labels on every page): units drawn for seat 1, terrain
owned by seat 1, the plan layer, the board script's data, the receipt, the salt and the lines
of the sealed text form. The same checks find her setup and sheet on her own pages and, after
the reveal, on everyone's: so they can fail.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

import engine
from games import plugins
from games import urls as games_urls
from games.models import Match, Submission
from games.services import orders_submit, phase_resolve
from tests.helpers import client_for
from tests.portal.builders import (
    duel,
    fast_password_hashing,  # noqa: F401  (autouse)
    make_user,
)
from tests.urlwalk import url_names

pytestmark = pytest.mark.django_db

GAME = engine.get("final-act")

# Alpha's setup: no piece where the default layout (or its mirror for Delta) puts one.
ALICE_SETUP = {
    "terrain": {
        "large_berm": ["h3", "i3"],
        "small_berms": ["a3", "l3"],
        "swamp": ["e5", "f5", "e6", "f6"],
        "minefield": {"squares": ["h4", "i4", "j4"], "passage": "i4", "arrow": "N"},
    },
    "units": {
        "C": {"at": "g1", "facing": "E"}, "1": {"at": "b1"}, "1A": {"at": "c1"},
        "1B": {"at": "d1"}, "2": {"at": "h1"}, "2A": {"at": "i1"},
        "2B": {"at": "k1", "facing": "W"},
    },
}
ALICE_UNIT_SQUARES = {"g1", "b1", "c1", "d1", "h1", "i1", "k1"}
# Her round-1 sheet (legal from ALICE_SETUP): two units move and fire.
ALICE_SHEET = {"units": {"C": {"move": "FL", "turn": True, "fire": ["i3"]},
                         "1": {"move": "F", "fire": ["b6"]}}}

VIEWERS = ["bob", "anonymous", "stranger", "staff"]


# -- reading the HTML ------------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    text: list[str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


class TreeBuilder(HTMLParser):
    """A forgiving DOM tree: enough to find elements by class and data attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.text.append(data)


def parse(html: str) -> Node:
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def text_of(node: Node) -> str:
    return "".join(node.text) + "".join(text_of(c) for c in node.children)


def units_of(root: Node, seat: int) -> list[Node]:
    """Units drawn on any board for ``seat``."""
    return [n for n in root.walk() if "fa-unit" in n.classes
            and n.attrs.get("data-seat") == str(seat)]


def terrain_of(root: Node, seat: int) -> list[Node]:
    """Terrain drawn (or squares classed) as owned by ``seat``."""
    owner = f"owner-{seat}"
    return [n for n in root.walk() if owner in n.classes
            and n.classes & {"fa-terrain", "fa-sq", "fa-owner"}]


def plan_titles(root: Node) -> set[str]:
    """The titles of everything drawn in the plan layers (the viewer's own draft)."""
    titles = set()
    for layer in (n for n in root.walk() if "fa-layer-plan" in n.classes):
        for item in layer.children:
            titles.update(text_of(t).strip() for t in item.children if t.tag == "title")
    return titles


def script_seats(root: Node) -> set[int]:
    """Seats named by the board scripts' data (#fa-legal, #fa-setup-legal)."""
    seats = set()
    for node in root.walk():
        if node.tag == "script" and node.attrs.get("id") in ("fa-legal", "fa-setup-legal"):
            seats.add(json.loads(text_of(node))["seat"])
    return seats


# -- the match -----------------------------------------------------------------------------

@dataclass
class Secret:
    """What alice sealed and nobody else may see before the reveal."""
    receipt: str
    salt: str
    lines: list[str]       # distinctive lines of the sealed text form
    plan: set[str]         # what her own board draws of her draft (the plan layer's titles)


@pytest.fixture
def people():
    return {
        "alice": make_user("alice"),
        "bob": make_user("bob"),
        "stranger": make_user("carol"),
        "staff": make_user("sam", staff=True),
    }


@pytest.fixture
def match(people):
    created = duel(people["alice"], people["bob"], game="final-act",
                   options={"round_limit": 3})
    assert created.state["phase"] == "setup"
    return created


def seal(match: Match, user, seat: int, data: dict) -> Submission:
    match.refresh_from_db()
    orders_submit(match_id=match.pk, seat_number=seat, user=user,
                  phase_number=match.phase_number, data=data, source="web")
    return Submission.objects.get(phase__match=match, phase__number=match.phase_number,
                                  seat__number=seat)


def resolve(match: Match) -> None:
    match.refresh_from_db()
    assert phase_resolve(match_id=match.pk, phase_number=match.phase_number)
    match.refresh_from_db()


def seal_alice_setup(match: Match, people) -> Secret:
    sheet = seal(match, people["alice"], 1, ALICE_SETUP)
    text = GAME.format_text(match.state, 1, sheet.data)
    # Every line but the R unit's (absent here) names a non-default square or facing.
    lines = [line for line in text.splitlines() if line.strip()]
    assert "C g1 E" in lines and "large berm h3 i3" in lines
    return Secret(sheet.receipt, sheet.salt, lines, plan=set())


def seal_alice_sheet(match: Match, people) -> Secret:
    """Both setups in and revealed (alice's distinctive one), then alice seals round 1."""
    seal(match, people["alice"], 1, ALICE_SETUP)
    seal(match, people["bob"], 2, GAME.default_submission(match.state, 2))
    resolve(match)
    assert match.state["phase"] == "orders"
    sheet = seal(match, people["alice"], 1, ALICE_SHEET)
    text = GAME.format_text(match.state, 1, sheet.data)
    lines = [line for line in text.splitlines() if "fire" in line]
    assert lines == ["C FL turn fire i3", "1 F fire b6"]
    return Secret(sheet.receipt, sheet.salt, lines,
                  plan={"Plan: C moves FL and turns to h2", "Plan: C fires at i3",
                        "Plan: 1 moves F to b2", "Plan: 1 fires at b6"})


def viewer_client(viewer: str, people) -> Client:
    """The viewer's client: an exception in a view is answered 500 as on the site."""
    return client_for(None if viewer == "anonymous" else people[viewer],
                      raise_request_exception=False)


# -- every Final Act URL ---------------------------------------------------------------------

JUNK_SETUP = {"f-large_berm": "zz99 <b>", "f-swamp": "a1 a1", "u-C-at": "q0",
              "u-C-facing": "X", "tokens": ["nonsense"]}
JUNK_SHEET = {"u-C-move": "jump", "u-C-fire": "z99", "u-1-turn": "on", "t-smoke-at": "a1",
              "d-repair": "C"}
JUNK = {"phase_number": "junk", "seat_number": "x", "orders": "C jump to z99",
        "format": "text", "type": "move", **JUNK_SETUP, **JUNK_SHEET}


def url_variants(match: Match) -> list[str]:
    """Every URL of the games URLconf, each argument filled with every value that makes sense
    for this match (both seats, the resolved phases, the open one and one beyond). A new URL
    with an argument this test does not know fails here: decide what to fill it with."""
    phase = match.phase_number
    values = {
        "match_id": [match.pk],
        "seat_number": [1, 2],
        "token": [match.invite_token],
        # (no seat of this match seeks a commander: test_seeking_secrets.py reads that page)
        "seat_token": ["no-such-seat-token"],
        # (this match's votes, if any, and one of no match: a vote holds no sealed orders)
        "vote_id": [*match.votes.values_list("pk", flat=True), 999999],
        "phase_number": list(range(0, phase + 2)),
        "slug": [*plugins.installed(), "no-such-game"],
    }
    urls = []
    for name, args in url_names(games_urls.urlpatterns):
        combos: list[dict] = [{}]
        for arg in args:
            assert arg in values, f"games:{name} takes {arg!r}: add its values here"
            combos = [{**c, arg: v} for c in combos for v in values[arg]]
        urls += [reverse(f"games:{name}", kwargs=kwargs) for kwargs in combos]
    return urls


def requests_for(match: Match) -> list[tuple[str, str, dict, dict]]:
    """(method, url, data, headers): every URL by GET and by POST with an empty and a junk
    form, each with and without HTMX; then the forms that reach further (the setup panel's
    fill buttons, order text for the open phase, taking a seat, the replay on the page)."""
    match.refresh_from_db()
    m = match.pk
    hx = {"HTTP_HX_REQUEST": "true"}
    phase = str(match.phase_number)
    out: list[tuple[str, str, dict, dict]] = []

    def both(method: str, url: str, data: dict) -> None:
        out.append((method, url, data, {}))
        out.append((method, url, data, hx))

    for url in url_variants(match):
        both("get", url, {})
        both("post", url, {})
        both("post", url, JUNK)
    for seat in (1, 2):
        validate = reverse("games:fa_setup_validate", args=[m, seat])
        for fill in ("default", "clear", "explode"):
            both("post", validate, {"fill": fill})
        both("post", reverse("games:fa_setup_submit", args=[m, seat]),
             {**JUNK_SETUP, "phase_number": phase})
        both("post", reverse("games:fa_sheet_validate", args=[m, seat]),
             {**JUNK_SHEET, "phase_number": phase})
        both("post", reverse("games:fa_sheet_submit", args=[m, seat]),
             {**JUNK_SHEET, "phase_number": phase})
        both("post", reverse("games:orders", args=[m, seat]),
             {"phase_number": phase, "format": "text", "orders": "C jump to z99"})
        both("post", reverse("games:join", args=[m]), {"seat_number": str(seat)})
        both("post", reverse("games:invite_accept", args=[match.invite_token]),
             {"seat_number": str(seat)})
    status = reverse("games:submission_status", args=[m])
    for shown in (phase, str(match.phase_number - 1), "junk"):
        both("get", status, {"phase": shown})
    for number in [*range(0, match.phase_number + 2), "junk"]:
        both("get", reverse("games:match", args=[m]), {"replay": number})
    return out


def responses(client: Client, match: Match):
    """(label, url, body) of every request; a 500 fails at once."""
    for method, url, data, headers in requests_for(match):
        response = getattr(client, method)(url, data, **headers)
        label = f"{method.upper()} {url} {data or ''}{' (htmx)' if headers else ''}"
        assert response.status_code < 500, f"{label} answered {response.status_code}"
        body = b"" if getattr(response, "streaming", False) else response.content
        yield label, url, body.decode("utf-8", "replace")


def leaks(body: str, secret: Secret, *, setup_hidden: bool, own_plan: bool = True) -> list[str]:
    """What of alice's sealed secret this body shows (empty: nothing). ``own_plan``: the viewer
    has a seat, so a plan of their own may be drawn (never one of hers)."""
    found = []
    root = parse(body)
    if not own_plan and plan_titles(root):
        found.append(f"a plan drawn for a viewer without a seat: {sorted(plan_titles(root))}")
    if setup_hidden:
        units = units_of(root, 1)
        if units:
            found.append(f"Alpha units drawn: {[u.attrs.get('data-square') for u in units]}")
        if terrain_of(root, 1):
            found.append("Alpha terrain drawn")
        if "Alpha deployed" in body:
            found.append("the setup report")
    shown = plan_titles(root) & secret.plan
    if shown:
        found.append(f"her plan drawn: {sorted(shown)}")
    if 1 in script_seats(root):
        found.append("her seat's board data")
    for needle, what in ((secret.receipt, "her receipt"), (secret.salt, "her salt")):
        if needle in body:
            found.append(what)
    plain = text_of(root)
    for line in secret.lines:
        if line in plain or line in body:
            found.append(f"her text form line {line!r}")
    return found


def assert_nothing_leaks(client: Client, match: Match, secret: Secret, *, setup_hidden: bool,
                         own_plan: bool):
    checked = 0
    problems = []
    rules = reverse("games:rules", args=["final-act"])
    for label, url, body in responses(client, match):
        checked += 1
        # The rules page draws example boards of both sides: the same for every match.
        for leak in leaks(body, secret, setup_hidden=setup_hidden and url != rules,
                          own_plan=own_plan):
            problems.append(f"{label}: {leak}")
    assert checked > 200
    assert not problems, "\n".join(problems)


# -- before the reveal: nobody but alice --------------------------------------------------

@pytest.mark.long
@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_sealed_setup_is_shown_to_nobody_but_its_author(viewer, match, people):
    secret = seal_alice_setup(match, people)
    assert_nothing_leaks(viewer_client(viewer, people), match, secret, setup_hidden=True,
                         own_plan=viewer == "bob")
    # Nothing those requests did sealed or changed anything.
    assert Submission.objects.filter(phase__match=match).count() == 1
    assert Submission.objects.get(phase__match=match).receipt == secret.receipt


@pytest.mark.long
@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_sealed_order_sheet_is_shown_to_nobody_but_its_author(viewer, match, people):
    secret = seal_alice_sheet(match, people)
    assert_nothing_leaks(viewer_client(viewer, people), match, secret, setup_hidden=False,
                         own_plan=viewer == "bob")
    match.refresh_from_db()
    sealed = Submission.objects.filter(phase__match=match, phase__number=match.phase_number)
    assert [s.receipt for s in sealed] == [secret.receipt]


# -- the checks can fail: alice sees her own, everyone sees them after the reveal -----------

def test_the_author_sees_her_own_sealed_setup(match, people):
    secret = seal_alice_setup(match, people)
    client = viewer_client("alice", people)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    found = leaks(page, secret, setup_hidden=True)
    drawn = {u.attrs["data-square"] for u in units_of(parse(page), 1)}
    assert drawn == ALICE_UNIT_SQUARES
    assert "Alpha units drawn" in found[0]
    assert "Alpha terrain drawn" in found
    assert "her receipt" in found and "her seat's board data" in found
    assert "her text form line 'C g1 E'" in found


def test_the_author_sees_her_own_sealed_sheet_drawn_as_a_plan(match, people):
    secret = seal_alice_sheet(match, people)
    client = viewer_client("alice", people)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert plan_titles(parse(page)) == secret.plan
    found = leaks(page, secret, setup_hidden=False)
    assert "her receipt" in found and "her seat's board data" in found
    assert "her text form line 'C FL turn fire i3'" in found


@pytest.mark.parametrize("viewer", VIEWERS)
def test_after_the_reveal_everyone_sees_the_setup_and_the_sheet(viewer, match, people):
    setup = seal_alice_setup(match, people)
    seal(match, people["bob"], 2, GAME.default_submission(match.state, 2))
    resolve(match)
    client = viewer_client(viewer, people)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    root = parse(page)
    assert {u.attrs["data-square"] for u in units_of(root, 1)} >= ALICE_UNIT_SQUARES
    assert terrain_of(root, 1)
    assert "Alpha deployed" in page
    history = client.get(reverse("games:history", args=[match.pk])).content.decode()
    assert setup.receipt in history
    assert "C g1 E" in text_of(parse(history))

    sheet = seal(match, people["alice"], 1, ALICE_SHEET)
    seal(match, people["bob"], 2, GAME.default_submission(match.state, 2))
    resolve(match)
    history = client.get(reverse("games:history", args=[match.pk])).content.decode()
    assert sheet.receipt in history
    assert "C FL turn fire i3" in text_of(parse(history))
    replay = client.get(reverse("games:replay", args=[match.pk, 2]),
                        HTTP_HX_REQUEST="true").content.decode()
    assert "Alpha C moved g1" in text_of(parse(replay))
    page = client.get(reverse("games:match", args=[match.pk]), {"replay": 1}).content.decode()
    assert "Alpha deployed" in text_of(parse(page))
