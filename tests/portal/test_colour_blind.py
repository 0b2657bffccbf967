"""No information by colour alone, checked against a colour-blind simulation.

Each game's board is opened in Chromium with pieces of both sides (all four seats' kinds for
Final Strategy) on it. For every piece (a "marker" of its side):

1. The DOM carries its side by something other than colour: a letter or number in the piece
   (Final Act's A/D, Final Strategy's seat number on every piece, Tank Game's seat number and
   the ring on the reader's own tank) or its shape (Panzer Squadron: seat 1 round, seat 2 an
   oval with a dashed outline). Two pieces of different sides never carry the same cue.
2. Its screenshot is put through the Machado, Oliveira and Fernandes (2009) matrices for
   protanopia, deuteranopia and tritanopia (full severity, applied in linear RGB). The text
   that carries the side (or, on Panzer Squadron, the tank's name) must keep a contrast of at
   least 3:1 against what is under it in every simulation: the cue stays readable.
3. The sides' body colours after each simulation are measured (CIE76 ΔE between the median
   body colours) and written with the simulated screenshots to test-artifacts/ for a person
   to look at. They are only asserted where colour is still a cue the legend names (Final
   Act, Panzer Squadron: the two sides stay at least ΔE 20 apart); Final Strategy's four seat
   colours do collapse for red-green blindness, which is why every piece says its seat.

What this does not measure: whether a person finds the shapes easy to tell apart, or the marks
drawn while giving orders (Final Act's are patterned, see static/final-act/board.css).
"""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from django.urls import reverse

from games import services
from tests.browser import BROWSER_MARKS, log_in
from tests.integration.final_act_pages import artifacts_dir
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401
from tests.portal.played import ALWAYS_OPEN, FINAL_STRATEGY

pytestmark = BROWSER_MARKS
Image = pytest.importorskip("PIL.Image")

# Machado et al. 2009, severity 1.0 (linear RGB).
SIMULATIONS = {
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
MIN_TEXT_CONTRAST = 3.0
MIN_SIDE_DISTANCE = 20.0

# Per game: the markers, the side of each, the text carrying its cue, and the cue itself.
MARKERS = {
    "final-act": {"selector": "#fa-board-live .fa-unit", "side": "m => +m.dataset.seat",
                  "text": ".fa-side-letter",
                  "cue": "m => m.querySelector('.fa-side-letter').textContent.trim()"},
    "final-strategy": {"selector": ".fs-board [data-square]:has(.fs-letter)", "side": None,
                       "text": ".fs-letter",
                       "cue": "m => m.querySelector('.fs-letter').textContent.trim()"},
    "panzer-squadron": {"selector": ".ps-board .ps-tank",
                        "side": "m => m.classList.contains('ps-seat1') ? 1 : 2",
                        "text": ".ps-label",
                        "cue": "m => { const b = m.querySelector('.ps-body');"
                               " return b.tagName + ' ' + getComputedStyle(b).strokeDasharray; }"},
    "tank-game": {"selector": ".tank-board g.tank", "side": None, "text": "text",
                  "cue": "m => m.querySelector('text').textContent.trim()"
                         " + (m.querySelector('.tank-mine-ring') ? ' (ring)' : '')"},
}


def linear(srgb: np.ndarray) -> np.ndarray:
    c = srgb / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def encoded(lin: np.ndarray) -> np.ndarray:
    c = np.clip(lin, 0, 1)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055) * 255.0


def simulate(pixels: np.ndarray, kind: str) -> np.ndarray:
    """sRGB pixels (…, 3) as a person with ``kind`` colour blindness sees them (sRGB)."""
    return encoded(linear(pixels) @ SIMULATIONS[kind].T)


def luminance(srgb: np.ndarray) -> np.ndarray:
    return linear(srgb) @ np.array([0.2126, 0.7152, 0.0722])


def lab(srgb: np.ndarray) -> np.ndarray:
    xyz = linear(srgb) @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                                   [0.0193, 0.1192, 0.9505]]).T
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]),
                     200 * (f[..., 1] - f[..., 2])], axis=-1)


def shot(locator) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(locator.screenshot())).convert("RGB"),
                      dtype=np.float64)


def text_contrast(with_text: np.ndarray, without: np.ndarray, kind: str) -> float:
    """The contrast of the text against what is under it, as ``kind`` sees it: over the pixels
    the text changes, its darkest or lightest ink (its fill or its outline: the 10th and 90th
    percentile of their luminance), whichever contrasts more, against the median of the same
    pixels without the text."""
    mask = np.abs(with_text - without).sum(axis=-1) > 90
    assert mask.sum() >= 4, "the text changes no pixel: nothing to measure"
    ink = luminance(simulate(with_text[mask], kind))
    under = float(np.median(luminance(simulate(without[mask], kind))))
    return max((max(value, under) + 0.05) / (min(value, under) + 0.05)
               for value in (float(np.percentile(ink, 10)), float(np.percentile(ink, 90))))


def set_text(page, marker, text_selector: str, visible: bool) -> None:
    marker.evaluate(f"(m, v) => m.querySelectorAll({text_selector!r}).forEach("
                    "t => t.style.visibility = v)", "visible" if visible else "hidden")


def measure(page, game: str, sides: dict[str, int]) -> dict:
    """Every check on the markers of ``game``'s board; ``sides``: marker index → side where the
    DOM does not say it itself."""
    spec = MARKERS[game]
    markers = page.locator(spec["selector"])
    count = markers.count()
    assert count >= 2, f"{game}: fewer than two pieces on the board"
    cues: dict[int, set[str]] = {}
    bodies: dict[int, list[np.ndarray]] = {}
    report = {"contrast": {}, "side_distance": {}}
    for index in range(count):
        marker = markers.nth(index)
        side = marker.evaluate(spec["side"]) if spec["side"] else sides[index]
        cues.setdefault(side, set()).add(marker.evaluate(spec["cue"]))
        marker.scroll_into_view_if_needed()
        with_text = shot(marker)
        set_text(page, marker, spec["text"], False)
        without = shot(marker)
        set_text(page, marker, spec["text"], True)
        if with_text.shape != without.shape:  # a layout shift between the two: measure again
            without = with_text
        for kind in SIMULATIONS:
            contrast = text_contrast(with_text, without, kind)
            report["contrast"][f"{side}/{index}/{kind}"] = round(contrast, 2)
            assert contrast >= MIN_TEXT_CONTRAST, (
                f"{game}: the text on piece {index} (side {side}) has a contrast of "
                f"{contrast:.2f} under {kind}")
        h, w = without.shape[:2]
        centre = without[h // 3: 2 * h // 3, w // 3: 2 * w // 3].reshape(-1, 3)
        bodies.setdefault(side, []).append(np.median(centre, axis=0))
    # 1. a cue other than colour, different for every side
    for side, found in cues.items():
        for other, theirs in cues.items():
            if side < other:
                assert not found & theirs, (
                    f"{game}: sides {side} and {other} share {found & theirs}")
    # 3. the sides' colours after each simulation
    colours = {side: np.median(np.array(found), axis=0) for side, found in bodies.items()}
    for kind in SIMULATIONS:
        for side in colours:
            for other in colours:
                if side < other:
                    a, b = (lab(simulate(colours[s], kind)) for s in (side, other))
                    report["side_distance"][f"{side}-{other}/{kind}"] = round(
                        float(np.linalg.norm(a - b)), 1)
    report["cues"] = {str(side): sorted(found) for side, found in cues.items()}
    return report


def record(game: str, page, report: dict, board: str) -> None:
    """The board through each simulation, and the figures, for a person to look at."""
    folder = artifacts_dir()
    pixels = shot(page.locator(board).first)
    for kind in SIMULATIONS:
        Image.fromarray(simulate(pixels, kind).round().astype(np.uint8)).save(
            folder / f"colour-blind-{game}-{kind}.png")
    path = folder / "colour-blind.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    known[game] = report
    path.write_text(json.dumps(known, indent=2, sort_keys=True))


def assert_sides_apart(game: str, report: dict) -> None:
    for key, distance in report["side_distance"].items():
        assert distance >= MIN_SIDE_DISTANCE, f"{game}: sides {key} only ΔE {distance} apart"


@pytest.fixture
def open_board(new_page):
    def open_(match, user):
        page = new_page(viewport={"width": 1280, "height": 1000}, device_scale_factor=3)
        log_in(page, user.username)
        page.goto(page.base + reverse("games:match", args=[match.pk]))
        return page

    return open_


@pytest.mark.presentation
def test_final_act_sides_are_told_by_letter_and_stay_apart(open_board):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="final-act", options={"scenario": {
        "round": 1, "terrain": [],
        "units": [{"seat": 1, "name": "C", "at": "e4", "facing": "N", "hits": 0},
                  {"seat": 1, "name": "1", "at": "g4", "facing": "N", "hits": 1},
                  {"seat": 2, "name": "C", "at": "h10", "facing": "S", "hits": 0},
                  {"seat": 2, "name": "1", "at": "d10", "facing": "S", "hits": 0}]}})
    page = open_board(match, alice)
    report = measure(page, "final-act", {})
    assert report["cues"] == {"1": ["A"], "2": ["D"]}
    record("final-act", page, report, "#fa-board-live")
    assert_sides_apart("final-act", report)


@pytest.mark.presentation
def test_final_strategy_every_piece_says_its_seat(open_board):
    people = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    pieces = [*FINAL_STRATEGY["pieces"], {"seat": 3, "kind": "troop", "at": "b6"},
              {"seat": 3, "kind": "bomb", "at": "j2"},
              {"seat": 4, "kind": "kidnapper", "at": "h4", "corner": "sw"},
              {"seat": 4, "kind": "troop", "at": "a8"}]
    match = services.match_create(
        creator=people[0], game="final-strategy", hours_per_phase=24,
        options={"scenario": {**FINAL_STRATEGY, "pieces": pieces}},
        seats=[{"kind": "human", "user": u} for u in people])
    page = open_board(match, people[0])
    where = page.eval_on_selector_all(
        MARKERS["final-strategy"]["selector"], "els => els.map(e => e.dataset.square)")
    seat_at = {p["at"]: p["seat"] for p in pieces}
    report = measure(page, "final-strategy", {i: seat_at[sq] for i, sq in enumerate(where)})
    for seat, cues in report["cues"].items():  # the troop's number, the K or B with it
        assert all(cue.endswith(seat) for cue in cues), report["cues"]
    record("final-strategy", page, report, "#fs-board")


@pytest.mark.presentation
def test_panzer_squadron_sides_differ_in_shape_and_stay_apart(open_board):
    alice, bob = make_user("alice"), make_user("bob")
    scenario = {"size": [9, 7], "turn": 1, "initiative": 1,
                "terrain": {"woods": ["e4"], "building": ["c4"], "water": []},
                "tanks": [{"seat": 1, "name": "A1", "card": "heavy", "at": "c1", "facing": 12},
                          {"seat": 1, "name": "A2", "card": "light", "at": "g1", "facing": 12},
                          {"seat": 2, "name": "B1", "card": "light", "at": "c7", "facing": 6},
                          {"seat": 2, "name": "B2", "card": "medium", "at": "g7", "facing": 6}]}
    match = duel(alice, bob, game="panzer-squadron", options={"scenario": scenario})
    page = open_board(match, alice)
    report = measure(page, "panzer-squadron", {})
    assert report["cues"]["1"] == ["circle none"] and report["cues"]["2"][0].startswith("ellipse")
    record("panzer-squadron", page, report, ".ps-board")
    assert_sides_apart("panzer-squadron", report)


@pytest.mark.presentation
def test_tank_game_tanks_say_their_seat_and_mine_has_a_ring(open_board):
    people = [make_user(name) for name in ("ann", "ben", "cat")]
    match = services.match_create(
        creator=people[0], game="tank-game", hours_per_phase=24,
        options={"schedule": ALWAYS_OPEN, "cooldown_minutes": 0},
        seats=[{"kind": "human", "user": u} for u in people])
    services.gameday_tick(match_id=match.pk)
    page = open_board(match, people[0])
    numbers = page.eval_on_selector_all(
        MARKERS["tank-game"]["selector"],
        "els => els.map(e => +e.querySelector('text').textContent)")
    report = measure(page, "tank-game", {i: n for i, n in enumerate(numbers)})
    assert report["cues"] == {"1": ["1 (ring)"], "2": ["2"], "3": ["3"]}
    record("tank-game", page, report, ".tank-board")
