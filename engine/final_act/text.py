"""The plain-text order grammar of Final Act, as used in email replies.

One order per line (``;`` also separates orders on one line). Case and spacing do not matter;
blank lines, ``#`` comments, quoted reply text (lines starting with ``>``, and the
``On ... wrote:`` line introducing them) and everything after a signature line ``-- `` are
ignored, as is the replied-to message below an Outlook-style ``-----Original Message-----``
line. The parser checks syntax only: whether an order is legal is ``game.validate``'s job.

Setup phase::

    large berm c3 d3
    small berms f2 h3
    swamp a5 b5 a6 b6
    minefield g5 h5 i5 passage h5 arrow N
    C e1 N                      # unit, square, facing (facing may be left out)
    draft smoke air strike quick sand

Orders phase::

    1A FL turn fire e7          # unit, move, optional turn, optional shells
    C stay
    2 F fire e7 f8              # two shells (double shot)
    AT1 NE face E               # AT units: compass step, optional new facing
    AT2 fire c6 face N
    smoke d4
    air strike c1 fire c9 c10 paid by 1B
    full throttle 1A
    quick shot C fire e7 f7
    mine clearing c8
    quick sand d5
    red cross d3
    red cross activate 1A
    repair 1A
    double shot C

``format_text`` writes the same grammar, so ``parse_text(format_text(x)) == x`` for every
normalized submission ``x`` (``parse_text`` returns a sheet the game accepts in its normal form).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.base import Game, Problem, RuleError, State, Submission, Text, TextError, pgettext
from engine.base import gettext_noop as _
from engine.final_act.board import AT_MOVES, FACINGS, TANK_MOVES
from engine.final_act.units import ALL_UNITS, TOKENS, kind_of

SLUG = "final-act"

UNIT_ORDER = ALL_UNITS  # the order units are written in
UNIT_NAMES = frozenset(UNIT_ORDER)
AT_UNITS = frozenset(n for n in UNIT_ORDER if kind_of(n) == "at")
COMPASS_MOVES = AT_MOVES
TOKEN_ORDER = TOKENS
TOKEN_NAMES = frozenset(TOKEN_ORDER)
DECLARATIONS = ("repair", "double_shot")

MAX_ORDER_LINES = 200  # a full sheet has about 20; more is not an order sheet
MAX_LINE = 300  # characters in one order; the longest real one is about 50
MAX_QUOTE = 60  # characters of an offending line quoted in an error

_SQUARE = re.compile(r"[a-l](?:[1-9]|1[0-2])", re.ASCII)
_SQUARE_LIKE = re.compile(r"[a-z][0-9]+", re.ASCII)
_WORD_SEPARATORS = re.compile(r"[,\s]+")
# Mail programs that do not quote with ">" put one of these above the message replied to.
_REPLY_SEPARATOR = re.compile(r"-{3,} ?original message ?-{3,}|_{10,}", re.IGNORECASE)

# Two-word names a person may write with a space; joined to the canonical underscore form.
_PHRASES = {
    ("air", "strike"): "air_strike",
    ("full", "throttle"): "full_throttle",
    ("quick", "shot"): "quick_shot",
    ("mine", "clearing"): "mine_clearing",
    ("quick", "sand"): "quick_sand",
    ("red", "cross"): "red_cross",
    ("double", "shot"): "double_shot",
    ("large", "berm"): "large_berm",
    ("small", "berm"): "small_berms",
    ("small", "berms"): "small_berms",
    ("mine", "field"): "minefield",
    ("paid", "by"): "paid_by",
}
_SPELLINGS = {
    "airstrike": "air_strike",
    "fullthrottle": "full_throttle",
    "quickshot": "quick_shot",
    "mineclearing": "mine_clearing",
    "quicksand": "quick_sand",
    "redcross": "red_cross",
    "doubleshot": "double_shot",
    "small_berm": "small_berms",
    "mine_field": "minefield",
}
_SETUP_KEYWORDS = frozenset({"large_berm", "small_berms", "swamp", "minefield", "draft"})
_ORDER_KEYWORDS = TOKEN_NAMES | frozenset(DECLARATIONS)


class _LineError(Exception):
    """A syntax problem in one line; turned into a Problem naming the line."""

    def __init__(self, message: str | Text, params: Mapping[str, Any] | None = None) -> None:
        self.text = message if isinstance(message, Text) else Text(message, dict(params or {}))
        super().__init__(str(self.text))


def _what(what: str, unit: str = "") -> Text:
    """What part of an order a problem is about ("the minefield passage")."""
    return WHAT[what].changed(params={"unit": unit}) if unit else WHAT[what]


# The parts of an order a problem names ("air strike needs a square").
WHAT: dict[str, Text] = {
    "smoke": pgettext("order part", "smoke"),
    "quick sand": pgettext("order part", "quick sand"),
    "mine clearing": pgettext("order part", "mine clearing"),
    "red cross": pgettext("order part", "red cross"),
    "red cross activation": pgettext("order part", "red cross activation"),
    "full throttle": pgettext("order part", "full throttle"),
    "quick shot": pgettext("order part", "quick shot"),
    "air strike": pgettext("order part", "air strike"),
    "air strike payment": pgettext("order part", "air strike payment"),
    "repair": pgettext("order part", "repair"),
    "double shot": pgettext("order part", "double shot"),
    "the large berm": pgettext("order part", "the large berm"),
    "the small berms": pgettext("order part", "the small berms"),
    "the swamp": pgettext("order part", "the swamp"),
    "the minefield": pgettext("order part", "the minefield"),
    "the minefield passage": pgettext("order part", "the minefield passage"),
    "the minefield arrow": pgettext("order part", "the minefield arrow"),
    "the token draft": pgettext("order part", "the token draft"),
    "starting square": pgettext("order part", "the starting square of %(unit)s"),
    "facing": pgettext("order part", "the facing of %(unit)s"),
    "placement": pgettext("order part", "a starting square for %(unit)s"),
    "order": pgettext("order part", "an order for %(unit)s"),
}


# -- reading the text ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Line:
    number: int
    text: str  # the order as written (comment removed), for quoting in errors
    words: tuple[str, ...]  # lower-cased words with two-word names joined


def _quote(text: str) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text[: MAX_QUOTE + 1])
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 1] + "…"


def _words(text: str) -> tuple[str, ...]:
    raw = [w.lower().replace("-", "_") for w in _WORD_SEPARATORS.split(text) if w]
    words: list[str] = []
    i = 0
    while i < len(raw):
        phrase = _PHRASES.get((raw[i], raw[i + 1])) if i + 1 < len(raw) else None
        if phrase:
            words.append(phrase)
            i += 2
        else:
            words.append(_SPELLINGS.get(raw[i], raw[i]))
            i += 1
    return tuple(words)


def _order_lines(text: str) -> list[tuple[int, str]]:
    """The orders in ``text`` with the numbers of their lines in the original text."""
    raw_lines = text.splitlines()
    orders: list[tuple[int, str]] = []
    for index, raw in enumerate(raw_lines):
        stripped = raw.strip()
        if not stripped or stripped[0] in "#>":
            continue
        if stripped == "--" or _REPLY_SEPARATOR.fullmatch(stripped):
            break  # an email signature or the message replied to follows
        if stripped.endswith("wrote:") and _next_is_quote(raw_lines, index):
            continue
        for part in stripped.split("#", 1)[0].split(";"):
            order = part.strip()
            if order:
                orders.append((index + 1, order))
    return orders


def _next_is_quote(raw_lines: list[str], index: int) -> bool:
    for later in raw_lines[index + 1 : index + 4]:
        if later.strip():
            return later.strip().startswith(">")
    return False


class _Words:
    """The words of one line, read left to right."""

    def __init__(self, words: tuple[str, ...]) -> None:
        self._words = words
        self._at = 0

    def __bool__(self) -> bool:
        return self._at < len(self._words)

    def peek(self) -> str | None:
        return self._words[self._at] if self else None

    def take(self) -> str:
        if not self:
            raise _LineError(_("the order ends too early"))
        word = self._words[self._at]
        self._at += 1
        return word

    def take_square(self, what: str | Text) -> str:
        if not self:
            raise _LineError(_("%(what)s needs a square"), {"what": what})
        word = self.take()
        if not _SQUARE.fullmatch(word):
            raise _LineError(_("'%(word)s' is not a square (a1 to l12) for %(what)s"),
                             {"word": _quote(word), "what": what})
        return word

    def take_squares(self, what: str | Text) -> list[str]:
        squares = []
        while self and _SQUARE.fullmatch(self.peek() or ""):
            squares.append(self.take())
        if squares and _SQUARE_LIKE.fullmatch(self.peek() or ""):
            raise _LineError(_("'%(word)s' is not a square (a1 to l12) for %(what)s"),
                             {"word": _quote(self.take()), "what": what})
        if not squares:
            if self:
                raise _LineError(_("'%(word)s' is not a square (a1 to l12) for %(what)s"),
                                 {"word": _quote(self.take()), "what": what})
            raise _LineError(_("%(what)s needs at least one square"), {"what": what})
        return squares

    def take_unit(self, what: str | Text) -> str:
        if not self:
            raise _LineError(_("%(what)s needs a unit"), {"what": what})
        word = self.take().upper()
        if word not in UNIT_NAMES:
            raise _LineError(_("unknown unit '%(word)s'"), {"word": _quote(word)})
        return word

    def take_units(self, what: str | Text) -> list[str]:
        units = [self.take_unit(what)]
        while self and (self.peek() or "").upper() in UNIT_NAMES:
            units.append(self.take_unit(what))
        return units

    def take_facing(self, what: str | Text) -> str:
        if not self:
            raise _LineError(_("%(what)s needs a direction (N, E, S or W)"), {"what": what})
        word = self.take().upper()
        if word not in FACINGS:
            raise _LineError(_("'%(word)s' is not a direction (N, E, S or W) for %(what)s"),
                             {"word": _quote(word), "what": what})
        return word

    def expect_end(self) -> None:
        if self:
            raise _LineError(_("unexpected '%(word)s'"), {"word": _quote(self.take())})


# -- parsing -------------------------------------------------------------------------------


@dataclass
class _Sheet:
    """What the lines of one text add up to, plus the problems found."""

    submission: dict[str, Any] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)  # order key -> line that gave it

    def once(self, key: str, line: _Line, what: str | Text) -> None:
        """Refuse a second order for the same thing."""
        if key in self.seen:
            raise _LineError(_("%(what)s was already given on line %(seen)s"),
                             {"what": what, "seen": self.seen[key]})
        self.seen[key] = line.number


def parse_text(state: State, seat: int, text: Any) -> Submission:
    """Read a plain-text sheet into a submission, or raise TextError naming every bad line.

    A sheet the game accepts comes back in the game's normal form (what ``validate`` returns:
    omitted units filled in, and so on), so ``parse_text(format_text(x)) == x``. A sheet it
    does not accept comes back as written, for ``validate`` to name its problems.
    """
    game = _game()
    sheet = read_sheet(str(game.view(state, seat)["phase"]), text)
    try:
        return game.validate(state, seat, sheet)
    except RuleError:
        return sheet


def read_sheet(phase: str, text: Any) -> Submission:
    """Read the text of a ``phase`` ("setup" or "orders") sheet; TextError lists every bad line."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise TextError([Problem("text", _("the orders must be text"))])
    if phase not in ("setup", "orders"):
        raise TextError([Problem("text", _("the match is over: no orders are taken"))])
    orders = _order_lines(text)
    if len(orders) > MAX_ORDER_LINES:
        raise TextError(
            [Problem("text", _("%(count)s order lines; a sheet has at most %(most)s"),
                     {"count": len(orders), "most": MAX_ORDER_LINES})]
        )
    sheet = _Sheet()
    read_line = _read_setup_line if phase == "setup" else _read_orders_line
    for number, order in orders:
        line = _Line(number, order, _words(order) if len(order) <= MAX_LINE else ())
        try:
            if not line.words:
                raise _LineError(_("the line is too long (%(count)s characters)"),
                                 {"count": len(order)})
            read_line(sheet, line)
        except _LineError as error:
            sheet.problems.append(Problem(f"line {number}", _("%(error)s in '%(word)s'"),
                                          {"error": error.text, "word": _quote(order)}))
    if sheet.problems:
        raise TextError(sheet.problems)
    return sheet.submission


def _game() -> Game:
    from engine import get

    return get(SLUG)


def _read_orders_line(sheet: _Sheet, line: _Line) -> None:
    words = _Words(line.words)
    first = words.peek() or ""
    if first in _SETUP_KEYWORDS:
        raise _LineError(_("'%(first)s' is a setup order; setup is over"),
                         {"first": first.replace('_', ' ')})
    if first in _ORDER_KEYWORDS:
        words.take()
        _TOKEN_READERS[first](sheet, line, words)
        return
    unit = first.upper()
    if unit not in UNIT_NAMES:
        raise _LineError(_unknown_first_word(first))
    words.take()
    order = _read_unit_order(unit, words)
    sheet.once(f"unit {unit}", line, _what("order", unit))
    sheet.submission.setdefault("units", {})[unit] = order


def _unknown_first_word(word: str) -> Text:
    if len(word) <= 3 and (len(word) == 1 or any(c.isdigit() for c in word)):
        return Text(_("unknown unit '%(word)s'"), {"word": _quote(word.upper())})
    return Text(_("unknown order '%(word)s'"), {"word": _quote(word)})


def _read_unit_order(unit: str, words: _Words) -> dict[str, Any]:
    moves = COMPASS_MOVES if unit in AT_UNITS else TANK_MOVES
    by_word = {m.lower(): m for m in moves}
    order: dict[str, Any] = {}
    while words:
        word = words.take()
        if word in by_word:
            if "move" in order:
                raise _LineError(_("%(unit)s has two moves"), {"unit": unit})
            order["move"] = by_word[word]
        elif word == "turn" and unit not in AT_UNITS:
            if "turn" in order:
                raise _LineError(_("%(unit)s turns twice"), {"unit": unit})
            order["turn"] = True
        elif word in ("fire", "shoot", "shell", "shells"):
            if "fire" in order:
                raise _LineError(_("%(unit)s has two fire orders"), {"unit": unit})
            order["fire"] = words.take_squares("fire")
        elif word == "face" and unit in AT_UNITS:
            if "face" in order:
                raise _LineError(_("%(unit)s has two facings"), {"unit": unit})
            order["face"] = words.take_facing("face")
        elif word.upper() in COMPASS_MOVES + TANK_MOVES:
            raise _LineError(
                _("%(unit)s cannot move '%(word)s': its move is a compass step (N, NE, ... NW)")
                if unit in AT_UNITS else
                _("%(unit)s cannot move '%(word)s': its move is stay, F, FL, FR, B, BL or BR"),
                {"unit": unit, "word": word.upper()})
        elif word == "turn":
            raise _LineError(_("%(unit)s does not turn: give its new facing, like 'face N'"),
                             {"unit": unit})
        elif word == "face":
            raise _LineError(_("%(unit)s turns only with a diagonal move, like 'FL turn'"),
                             {"unit": unit})
        else:
            raise _LineError(_("unknown word '%(word)s' for %(unit)s"),
                             {"word": _quote(word), "unit": unit})
    return order


def _read_at_token(name: str) -> Callable[[_Sheet, _Line, _Words], None]:
    def read(sheet: _Sheet, line: _Line, words: _Words) -> None:
        label = _what(name.replace("_", " "))
        if name == "red_cross" and words.peek() == "activate":
            words.take()
            entry = {"activate": words.take_unit(_what("red cross activation"))}
        else:
            entry = {"at": words.take_square(label)}
        words.expect_end()
        sheet.once(f"token {name}", line, label)
        sheet.submission.setdefault("tokens", {})[name] = entry

    return read


def _read_full_throttle(sheet: _Sheet, line: _Line, words: _Words) -> None:
    unit = words.take_unit(_what("full throttle"))
    words.expect_end()
    sheet.once("token full_throttle", line, _what("full throttle"))
    sheet.submission.setdefault("tokens", {})["full_throttle"] = {"unit": unit}


def _read_quick_shot(sheet: _Sheet, line: _Line, words: _Words) -> None:
    unit = words.take_unit(_what("quick shot"))
    if words.peek() in ("fire", "shoot"):
        words.take()
    fire = words.take_squares(_what("quick shot"))
    words.expect_end()
    sheet.once("token quick_shot", line, _what("quick shot"))
    sheet.submission.setdefault("tokens", {})["quick_shot"] = {"unit": unit, "fire": fire}


def _read_air_strike(sheet: _Sheet, line: _Line, words: _Words) -> None:
    entry: dict[str, Any] = {"at": words.take_square(_what("air strike"))}
    if words.peek() in ("fire", "shoot"):
        words.take()
    entry["fire"] = words.take_squares(_what("air strike"))
    if words.peek() in ("paid_by", "paid"):
        words.take()
        entry["paid_by"] = words.take_units(_what("air strike payment"))
    words.expect_end()
    sheet.once("token air_strike", line, _what("air strike"))
    sheet.submission.setdefault("tokens", {})["air_strike"] = entry


def _read_declaration(name: str) -> Callable[[_Sheet, _Line, _Words], None]:
    def read(sheet: _Sheet, line: _Line, words: _Words) -> None:
        label = _what(name.replace("_", " "))
        unit = words.take_unit(label)
        words.expect_end()
        sheet.once(f"declare {name}", line, label)
        sheet.submission.setdefault("declare", {})[name] = unit

    return read


_TOKEN_READERS: dict[str, Callable[[_Sheet, _Line, _Words], None]] = {
    "air_strike": _read_air_strike,
    "full_throttle": _read_full_throttle,
    "quick_shot": _read_quick_shot,
    "mine_clearing": _read_at_token("mine_clearing"),
    "smoke": _read_at_token("smoke"),
    "quick_sand": _read_at_token("quick_sand"),
    "red_cross": _read_at_token("red_cross"),
    "repair": _read_declaration("repair"),
    "double_shot": _read_declaration("double_shot"),
}


def _read_setup_line(sheet: _Sheet, line: _Line) -> None:
    words = _Words(line.words)
    first = words.take()
    if first in ("large_berm", "small_berms", "swamp"):
        label = _what("the " + first.replace("_", " "))
        squares = words.take_squares(label)
        words.expect_end()
        sheet.once(f"terrain {first}", line, label)
        sheet.submission.setdefault("terrain", {})[first] = squares
    elif first == "minefield":
        minefield = _read_minefield(words)
        sheet.once("terrain minefield", line, _what("the minefield"))
        sheet.submission.setdefault("terrain", {})["minefield"] = minefield
    elif first == "draft":
        tokens = []
        while words:
            name = words.take()
            if name not in TOKEN_NAMES:
                raise _LineError(
                    _("unknown token '%(word)s' (tokens: %(tokens)s)"),
                    {"word": _quote(name),
                     "tokens": ", ".join(t.replace("_", " ") for t in TOKEN_ORDER)}
                )
            tokens.append(name)
        sheet.once("draft", line, _what("the token draft"))
        sheet.submission["tokens"] = tokens
    elif first.upper() in UNIT_NAMES:
        unit = first.upper()
        placement = {"at": words.take_square(_what("starting square", unit))}
        if words:
            placement["facing"] = words.take_facing(_what("facing", unit))
        words.expect_end()
        sheet.once(f"unit {unit}", line, _what("placement", unit))
        sheet.submission.setdefault("units", {})[unit] = placement
    elif first in _ORDER_KEYWORDS:
        raise _LineError(_("'%(first)s' is a round order; this is the setup"),
                         {"first": first.replace('_', ' ')})
    else:
        raise _LineError(_unknown_first_word(first))


def _read_minefield(words: _Words) -> dict[str, Any]:
    squares: list[str] = []
    while words and words.peek() not in ("passage", "arrow"):
        squares.append(words.take_square(_what("the minefield")))
    if not squares:
        raise _LineError(_("the minefield needs its squares"))
    minefield: dict[str, Any] = {"squares": squares}
    while words:
        word = words.take()
        if word in minefield:
            raise _LineError(_("the minefield has two passages") if word == "passage" else
                             _("the minefield has two arrows"))
        if word == "passage":
            minefield["passage"] = words.take_square(_what("the minefield passage"))
        elif word == "arrow":
            minefield["arrow"] = words.take_facing(_what("the minefield arrow"))
        else:
            raise _LineError(_("unexpected '%(word)s' (write: passage SQUARE arrow N)"),
                             {"word": _quote(word)})
    return minefield


# -- writing -------------------------------------------------------------------------------


def format_text(state: State, seat: int, submission: Mapping[str, Any]) -> str:
    """Write a submission in the text grammar (one order per line)."""
    return write_sheet(str(_game().view(state, seat)["phase"]), submission)


def write_sheet(phase: str, submission: Mapping[str, Any]) -> str:
    """The text of a ``phase`` sheet; ``read_sheet(phase, write_sheet(phase, x)) == x``."""
    lines = list(_setup_lines(submission) if phase == "setup" else _orders_lines(submission))
    return "\n".join(lines) + "\n" if lines else ""


def _sorted_units(units: Mapping[str, Any]) -> list[str]:
    known = [u for u in UNIT_ORDER if u in units]
    return known + sorted(u for u in units if u not in UNIT_NAMES)


def _orders_lines(submission: Mapping[str, Any]) -> Iterator[str]:
    units = submission.get("units") or {}
    for unit in _sorted_units(units):
        order = units[unit] or {}
        parts = [unit]
        if "move" in order:
            parts.append(str(order["move"]))
        if order.get("turn"):
            parts.append("turn")
        if order.get("fire"):
            parts += ["fire", *order["fire"]]
        if "face" in order:
            parts += ["face", str(order["face"])]
        yield " ".join(parts)
    tokens = submission.get("tokens") or {}
    for name in [t for t in TOKEN_ORDER if t in tokens]:
        yield _token_line(name, tokens[name] or {})
    declare = submission.get("declare") or {}
    for name in DECLARATIONS:
        if declare.get(name):
            yield f"{name.replace('_', ' ')} {declare[name]}"


def _token_line(name: str, entry: Mapping[str, Any]) -> str:
    parts = [name.replace("_", " ")]
    if name == "air_strike":
        parts += [entry["at"], "fire", *entry.get("fire", [])]
        if entry.get("paid_by"):
            parts += ["paid by", *entry["paid_by"]]
    elif name == "full_throttle":
        parts.append(entry["unit"])
    elif name == "quick_shot":
        parts += [entry["unit"], "fire", *entry.get("fire", [])]
    elif "activate" in entry:
        parts += ["activate", entry["activate"]]
    else:
        parts.append(entry["at"])
    return " ".join(str(p) for p in parts)


def _setup_lines(submission: Mapping[str, Any]) -> Iterator[str]:
    terrain = submission.get("terrain") or {}
    for key in ("large_berm", "small_berms", "swamp"):
        if terrain.get(key):
            yield " ".join([key.replace("_", " "), *terrain[key]])
    minefield = terrain.get("minefield")
    if minefield:
        parts = ["minefield", *minefield.get("squares", [])]
        if "passage" in minefield:
            parts += ["passage", minefield["passage"]]
        if "arrow" in minefield:
            parts += ["arrow", minefield["arrow"]]
        yield " ".join(parts)
    units = submission.get("units") or {}
    for unit in _sorted_units(units):
        placement = units[unit]
        parts = [unit, placement["at"]]
        if "facing" in placement:
            parts.append(placement["facing"])
        yield " ".join(parts)
    if "tokens" in submission:
        # Written as a player writes them ("air strike"); the reader joins the words again.
        yield " ".join(["draft", *(t.replace("_", " ") for t in submission["tokens"] or [])])


# -- help for players ------------------------------------------------------------------------

SETUP_HELP = """\
One order per line; case and spacing do not matter; '#' starts a comment.
  large berm c3 d3                        two side by side, in your rows 1-3
  small berms f2 h3                       two single squares, in your rows 1-3
  swamp a5 b5 a6 b6                       a 2 x 2 block in your half
  minefield g5 h5 i5 passage h5 arrow N   three in a line, one passage and its arrow
  C e1 N                                  a unit, its square (rows 1-3) and facing
  draft smoke air strike quick sand       your tokens, when the match drafts them
"""

ORDERS_HELP = """\
One order per line; case and spacing do not matter; '#' starts a comment. Units you leave
out stay and do not fire.
  1A FL turn fire e7          tank: stay F FL FR B BL BR, 'turn' with a diagonal, a shell
  2 F fire e7 f8              two shells (with 'double shot 2')
  AT1 NE face E               AT unit: a compass step or a shell, and its new facing
  AT2 fire c6 face N
  R B                         the R unit moves like a tank and never fires
  smoke d4 | quick sand d5 | mine clearing c8 | red cross d3 | red cross activate 1A
  full throttle 1A | quick shot C fire e7 f7 | air strike c1 fire c9 c10 paid by 1B
  repair 1A | double shot C
"""


def grammar_help(phase: str) -> str:
    """A short description of the grammar for ``phase``, for order emails."""
    return SETUP_HELP if phase == "setup" else ORDERS_HELP
