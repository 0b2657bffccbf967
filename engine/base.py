"""The engine contract every game implements (see shared/DESIGN.md, "The engine contract").

Everything here is pure: no Django, no I/O, no clock, no global random. State, options and
submissions are plain JSON-serialisable data (dicts with string keys, lists, str, int, bool,
None); a state must survive ``json.loads(json.dumps(state))`` unchanged.
"""

from __future__ import annotations

import copy
import hashlib
import random
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

JSON = Any
State = dict[str, Any]
Submission = dict[str, Any]


class PhaseKind(StrEnum):
    """How a phase collects its input."""

    SIMULTANEOUS = "simultaneous"  # sealed; resolved when all required seats are in or at deadline
    SEQUENTIAL = "sequential"  # one seat acts; applied at once
    CONTINUOUS = "continuous"  # any listed seat may act any time; window closes at a tick


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation; the portal translates it where a person reads it (the
    engine has no locale)."""
    return message


class Text(str):
    """Words for people: the English string itself, carrying what the portal needs to
    translate it where a person reads it.

    ``template`` is marked with ``gettext_noop`` (so ``makemessages`` finds it) and holds
    ``%(name)s`` placeholders; ``params`` their values: plain values (numbers, and game terms
    such as unit names and squares, which read the same in every language), other ``Text``
    (translated in turn) or tuples of either (read as a list, joined with ", "). A ``Text``
    made by ``ngettext`` has a ``plural`` template, chosen by the number in ``params[number]``;
    one made by ``pgettext`` a ``context`` telling apart two senses of the same English. With
    ``capital``, the first letter is a capital whatever word comes first (a sentence that
    starts with a placeholder).

    As a string a ``Text`` is its English (compare it, print it, store it in an event: the
    English is what is kept); ``render`` takes the portal's translation functions. Any string
    operation gives a plain English string back.
    """

    template: str
    params: Mapping[str, Any]
    plural: str
    number: str
    context: str
    capital: bool

    def __new__(cls, template: str, params: Mapping[str, Any] | None = None, plural: str = "",
                number: str = "", context: str = "", capital: bool = False) -> Text:
        params = dict(params or {})
        text = super().__new__(cls, _render(template, params, plural, number, context, capital,
                                            None))
        text.template, text.params, text.plural = template, params, plural
        text.number, text.context, text.capital = number, context, capital
        return text

    def render(self, translator: Translator | None = None) -> str:
        """The words in ``translator``'s language (English without one)."""
        return _render(self.template, self.params, self.plural, self.number, self.context,
                       self.capital, translator)

    def changed(self, **fields: Any) -> Text:
        """The same text with some of its fields changed (``params``, ``capital``...)."""
        values = {"template": self.template, "params": self.params, "plural": self.plural,
                  "number": self.number, "context": self.context, "capital": self.capital}
        return Text(**{**values, **fields})

    def __reduce__(self) -> tuple[Any, ...]:
        return Text, (self.template, self.params, self.plural, self.number, self.context,
                      self.capital)

    def __repr__(self) -> str:
        return f"Text({self.template!r}, {self.params!r})"

    @classmethod
    def lines(cls, lines: Iterable[str]) -> Text:
        """A block of ``lines`` (each translated on its own, if a ``Text``), one under the
        other."""
        items = list(lines)
        return cls("\n".join(f"%({n})s" for n in range(len(items))),
                   {str(n): item for n, item in enumerate(items)})


def _render(template: str, params: Mapping[str, Any], plural: str, number: str, context: str,
            capital: bool, translator: Translator | None) -> str:
    if plural and number in params:
        count = int(params[number])
        chosen = (translator.ngettext(template, plural, count) if translator
                  else template if count == 1 else plural)
    elif translator is None or not template:
        chosen = template
    elif context:
        chosen = translator.pgettext(context, template)
    else:
        chosen = translator.gettext(template)
    words = chosen % {key: _rendered(value, translator)
                      for key, value in params.items()} if params else chosen
    return words[:1].upper() + words[1:] if capital else words


class Translator(Protocol):
    """What ``Text.render`` needs from the portal (Django's translation module is one)."""

    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, number: int) -> str: ...
    def pgettext(self, context: str, message: str) -> str: ...


# ``ngettext`` and ``pgettext`` are named after gettext's functions so that ``makemessages``
# extracts their texts (both forms as one entry; with the context); like ``gettext_noop`` they
# translate nothing (the engine has no locale): the portal does, for the reader's language.

def ngettext(singular: str, plural: str, count: str, params: Mapping[str, Any]) -> Text:
    """A text with a singular and a plural form, the number in ``params[count]``."""
    return Text(singular, params, plural, count)


def pgettext(context: str, message: str, params: Mapping[str, Any] | None = None) -> Text:
    """A text whose English is used in more than one sense, told apart by ``context``."""
    return Text(message, dict(params or {}), context=context)


def _rendered(value: Any, translator: Translator | None) -> Any:
    if isinstance(value, Text):
        return value.render(translator) if translator else str.__str__(value)
    if isinstance(value, (tuple, list)):
        return ", ".join(str(_rendered(item, translator)) for item in value)
    return value


class Phrasebook:
    """The sentences a game writes in English into its state or events (a result's reason, a
    logbook line), as templates, so that such a sentence can be read back as a ``Text`` and
    translated where a person reads it: the stored data keeps its shape, and a match stored
    before a sentence was translatable reads in every language too.

    ``Phrasebook(*sentences, parts=(...), names={...})``: each entry is a ``gettext_noop``
    template (or a ``Text`` made by ``ngettext``/``pgettext``, for its plural or context);
    ``parts`` are the phrases that may fill a sentence's placeholder ("hit, wall destroyed"),
    alone or as a list joined with ", " (the more specific of two similar parts first);
    ``names`` maps a word stored as a key ("armistice") to the sentence people read. ``read``
    gives the ``Text`` a sentence was made from (its values as the English had them), or the
    sentence itself when it is none of the book's."""

    def __init__(self, *sentences: str | Text, parts: Iterable[str | Text] = (),
                 names: Mapping[str, str | Text] | None = None) -> None:
        self._sentences = [self._entry(s) for s in sentences]
        self._parts = [self._entry(p) for p in parts]
        self._names = {key: value if isinstance(value, Text) else Text(value)
                       for key, value in (names or {}).items()}

    @staticmethod
    def _entry(entry: str | Text) -> tuple[Text, list[re.Pattern[str]]]:
        text = entry if isinstance(entry, Text) else Text(entry)
        forms = [text.template] + ([text.plural] if text.plural else [])
        return text, [_pattern(form) for form in forms]

    def read(self, sentence: str) -> Text | str:
        if sentence in self._names:
            return self._names[sentence]
        return self._read(sentence, self._sentences) or sentence

    def _part(self, words: str) -> Any:
        """A placeholder's value: a phrase of the book, a list of them, or the words."""
        found = self._parts_of(words.split(", "))
        if found is None:
            return words
        return found[0] if len(found) == 1 else tuple(found)

    def _parts_of(self, items: list[str]) -> list[Text] | None:
        """``items`` (a list split at each ", ") grouped into phrases of the book, the shortest
        phrases first; None if they cannot all be read."""
        if not items:
            return []
        for end in range(1, len(items) + 1):
            first = self._read(", ".join(items[:end]), self._parts)
            if first is not None:
                rest = self._parts_of(items[end:])
                if rest is not None:
                    return [first, *rest]
        return None

    def _read(self, words: str, book: list[tuple[Text, list[re.Pattern[str]]]]) -> Text | None:
        for text, patterns in book:
            for pattern in patterns:
                found = pattern.fullmatch(words)
                if found is None:
                    continue
                params: dict[str, Any] = {}
                for key, value in found.groupdict().items():
                    if key == text.number:
                        params[key] = int(value) if value.lstrip("-").isdigit() else value
                    else:
                        params[key] = self._part(value)
                if text.number and not isinstance(params.get(text.number), int):
                    continue
                return text.changed(params=params)
        return None


def _pattern(template: str) -> re.Pattern[str]:
    """A template as a regular expression matching its English (a placeholder: any words)."""
    out, seen = [], set()
    for i, piece in enumerate(re.split(r"%\((\w+)\)s", template)):
        if i % 2:
            out.append(f"(?P={piece})" if piece in seen else f"(?P<{piece}>.+?)")
            seen.add(piece)
        else:
            out.append(re.escape(piece.replace("%%", "%")))
    return re.compile("".join(out), re.S)


class Problem:
    """One thing wrong with an input: where (a dotted field path) and why (a sentence).

    ``Problem(path, message, params)``: ``message`` is an English sentence marked with
    ``gettext_noop``, with ``%(name)s`` placeholders filled from ``params`` (or a ``Text``).
    ``message`` reads back the English sentence; ``text`` is what the portal translates.
    """

    __slots__ = ("path", "text")
    path: str
    text: Text

    def __init__(self, path: str, message: str | Text,
                 params: Mapping[str, Any] | None = None) -> None:
        text = message if isinstance(message, Text) else Text(message, dict(params or {}))
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Problem cannot be changed")

    def __reduce__(self) -> tuple[Any, ...]:
        return Problem, (self.path, self.text)

    @property
    def message(self) -> str:
        """The sentence in English (as a ``Text``)."""
        return self.text

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def __repr__(self) -> str:
        return f"Problem({self.path!r}, {self.message!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Problem) and (self.path, self.message) == (other.path,
                                                                            other.message)

    def __hash__(self) -> int:
        return hash((self.path, self.message))

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}


class RuleError(ValueError):
    """A rejected input. Carries every problem found, never just the first."""

    def __init__(self, problems: Iterable[Problem] | str | Text, path: str = "") -> None:
        if isinstance(problems, (str, Text)):
            problems = [Problem(path, problems)]
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("a RuleError needs at least one problem")
        super().__init__("; ".join(str(p) for p in self.problems))

    def as_list(self) -> list[dict[str, str]]:
        return [p.as_dict() for p in self.problems]


class OptionsError(RuleError):
    """The match options are not valid for this game."""


class TextError(RuleError):
    """A plain-text order sheet could not be read; each problem's path names the line."""


class OptionKind(StrEnum):
    """What sort of value an option takes, i.e. which widget a form draws for it."""

    INT = "int"  # a whole number within minimum..maximum (None allowed if optional)
    BOOL = "bool"  # a tick box
    CHOICE = "choice"  # one of ``choices``
    CHOICES = "choices"  # a list of any of ``choices`` (in their order)
    TIME = "time"  # a time of day "HH:MM"
    TIME_ZONE = "time_zone"  # an IANA zone name; a form starts from its user's zone
    CUSTOM = "custom"  # drawn only by the game's own ``widget`` (JSON otherwise)


@dataclass(frozen=True)
class Option:
    """One match option as a form shows it: plain data beside ``validate_options``, which stays
    the only judge of a value. ``path`` is where the value lives ("schedule.open"); its default
    is ``default_options()``'s (``fallback`` where that has none, e.g. under another ``when``).
    Texts are English, marked with ``gettext_noop``; the portal translates them."""

    path: str
    kind: OptionKind
    label: str
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    optional: bool = False  # an empty field means None
    # Used only while the option at this path holds one of these values (else left out).
    when: tuple[str, tuple[Any, ...]] | None = None
    widget: str = ""  # the name of a widget the game's web plug-in draws itself
    fallback: Any = None


def option_value(options: Mapping[str, Any], path: str, default: Any = None) -> Any:
    """The value at dotted ``path`` in ``options`` (``default`` where there is none)."""
    value: Any = options
    for key in path.split("."):
        if not isinstance(value, Mapping) or key not in value:
            return default
        value = value[key]
    return value


def option_applies(option: Option, options: Mapping[str, Any]) -> bool:
    """Is ``option`` in force for ``options`` (its ``when`` holds, or it has none)?"""
    return option.when is None or option_value(options, option.when[0]) in option.when[1]


def options_with(schema: Iterable[Option], base: Mapping[str, Any],
                 values: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with each field's value from ``values`` (by path), and without the fields
    not in force for the result (switching a schedule's kind drops the other kind's keys)."""
    out = copy.deepcopy(dict(base))
    fields = list(schema)
    for option in fields:
        if option.path in values:
            *parents, last = option.path.split(".")
            target = out
            for key in parents:
                if not isinstance(target.get(key), dict):
                    target[key] = {}
                target = target[key]
            target[last] = values[option.path]
    for option in fields:
        if not option_applies(option, out):
            *parents, last = option.path.split(".")
            parent = option_value(out, ".".join(parents)) if parents else out
            if isinstance(parent, dict):
                parent.pop(last, None)
    return out


# The presets a lobby offers before any detail (``Game.preset_options`` adapts each to a game).
PRESET_QUICK = "quick"  # a person against bots, now: short deadlines
PRESET_CORRESPONDENCE = "correspondence"  # a day a turn
PRESET_CLOCK = "clock"  # a correspondence clock: a bank of days plus some per turn


@dataclass(frozen=True)
class Prompt:
    """Who must (or may) act now, and how."""

    kind: PhaseKind
    phase: str  # the game's name for the phase, e.g. "setup", "orders"
    required: bool = True  # a simultaneous phase waits for every required seat


@dataclass(frozen=True)
class Outcome:
    """The result of resolving a phase, applying an action or a tick."""

    state: State
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Result:
    """How a finished match ended.

    ``ranking`` lists groups of seats, best first; seats in one group are tied (a draw is a
    single group holding every seat). ``scores`` maps seat to a number the game chooses.
    """

    ranking: tuple[tuple[int, ...], ...]
    scores: Mapping[int, float]
    reason: str

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if len(self.ranking) > 1 else ()

    @property
    def is_draw(self) -> bool:
        return len(self.ranking) == 1


# What ``legal_actions(state, seat)`` returns, in one of two documented shapes:
# - games whose phases take one action at a time (sequential, continuous): a sequence of
#   complete actions, each one ``apply`` accepts from ``seat`` now (``LegalActionList``);
# - games whose phases take a whole sheet (simultaneous): a mapping of the sheet's parts to the
#   choices open to each (``LegalChoices``), e.g. {"units": {name: {"moves": [...], "fire":
#   [...]}}, "tokens": {...}}. Its keys are the sheet's own keys.
# Generic code (bots, fuzzing, the generic UI) relies on the first shape for action-at-a-time
# games; for sheets it uses ``bot_submission``/``default_submission``, never the choices' shape.
LegalActionList = Sequence[Mapping[str, Any]]
LegalChoices = Mapping[str, Any]
LegalActions = LegalActionList | LegalChoices


def rng_for(seed: int | str, phase_number: int) -> random.Random:
    """The random generator for one phase of one match, derived from (match seed, phase)."""
    digest = hashlib.sha256(f"{seed}:{phase_number}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


class Game:
    """Base class for a game. Subclasses override what their phase kinds need."""

    slug: str = ""
    name: str = ""
    min_seats: int = 2
    max_seats: int = 2
    seat_names: Mapping[int, str] = {}
    bots: tuple[str, ...] = ()
    # The English sentences the game stores in its state and events (a result's reason, a
    # logbook line), which the portal reads back to translate them.
    phrasebook: Phrasebook = Phrasebook()

    # -- options and setup -------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return {}

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return normalized options or raise OptionsError listing every problem."""
        raise NotImplementedError

    def start(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        raise NotImplementedError

    def options_schema(self) -> tuple[Option, ...]:
        """The options a form offers as fields (the rest are set as JSON): see ``Option``."""
        return ()

    def preset_options(self, preset: str) -> dict[str, Any]:
        """Options that a preset (``PRESET_*``) changes from the defaults for this game, e.g.
        frequent gamedays for a quick game. The default: none."""
        return {}

    def options_notes(self, options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """Sentences a match's creator should read about valid ``options`` (e.g. when gamedays
        open), each a ``gettext_noop`` text with %(name)s placeholders and its values (a tuple
        of ``gettext_noop`` texts is translated item by item and read as a list)."""
        return []

    # -- phases --------------------------------------------------------------------------
    def prompts(self, state: State) -> dict[int, Prompt]:
        raise NotImplementedError

    def validate(self, state: State, seat: int, submission: Any) -> Submission:
        """Return the normalized submission or raise RuleError listing every problem."""
        raise NotImplementedError

    def warnings(self, state: State, seat: int, submission: Submission) -> list[Problem]:
        """Things in a valid submission the player probably did not mean (never silent)."""
        return []

    def default_submission(self, state: State, seat: int) -> Submission:
        raise NotImplementedError

    def remove_seats(self, state: State, seats: Sequence[int]) -> Outcome | None:
        """What it means for this game that ``seats`` are out for good: the match's missed-turn
        policy forfeited them, together (the lifecycle counts the misses and decides, never the
        game). The state without them and its events, when the game goes on without them
        (they are no longer prompted; the game may end); None when it cannot, and the match
        ends with them forfeited (``engine.ending.by_forfeit``). The default: None."""
        return None

    def is_setting(self, submission: Any) -> bool:
        """Is ``submission`` an out-of-turn setting (DESIGN.md, "Out-of-turn settings")? One
        that ``apply`` accepts from any seat, prompted or not, changing no prompt: the lifecycle
        stores it in the state at once, opening no phase and moving no deadline. Secret like a
        sealed sheet: only its author's ``view`` may show it. The default: none."""
        return False

    def resolve(
        self, state: State, submissions: Mapping[int, Submission], rng: random.Random
    ) -> Outcome:
        raise NotImplementedError(f"{self.slug} has no simultaneous phases")

    # -- plans (conditional moves) -----------------------------------------------------------
    # A game whose sequential turns a seat may plan ahead ("if they play X, I play Y") sets
    # ``plans`` and says in ``plan_move`` what one move of a plan is. The lifecycle stores the
    # plan and compares the moves actually played with it; legality is decided by ``validate``
    # when a planned move is played, never when it is stored (the position then is unknown,
    # and the other seats' secrets would decide it).
    plans: bool = False

    def plan_move(self, seat: int, move: Any) -> Submission:
        """The canonical form of ``move`` (a whole turn of ``seat``) by its shape alone, with
        no position: two moves are the same when their canonical forms are equal. Raise
        RuleError for a move that is not well formed (any move, for a game without plans)."""
        raise RuleError([Problem("", f"{self.name or self.slug} takes no plans.")])

    # A move may take the seat more than one phase (a game whose activation is a choice, then
    # its path). The four hooks below say how; their defaults are one phase a
    # move, which is all a game whose turn is one submission needs.
    def plan_played(self, steps: Sequence[tuple[int, int, Any]]
                    ) -> list[tuple[int, int, Any]]:
        """The whole moves in ``steps``, the submissions played one phase each as (phase
        number, seat, data) in order: each as (the phase of its first step, seat, canonical
        move, or None for one a plan cannot hold). The default: a step is a move."""
        out: list[tuple[int, int, Any]] = []
        for number, seat, data in steps:
            try:
                move = self.plan_move(seat, data)
            except RuleError:
                move = None
            out.append((number, seat, move))
        return out

    def plan_begun(self, state: State) -> int:
        """How many phases before the open one belong to the move in progress (a plan stored
        now counts the moves from its first step). The default: none."""
        return 0

    def plan_opens(self, state: State, seat: int) -> bool:
        """Whether ``seat``, prompted in ``state``, starts a move now (and not the next step
        of one it has begun), so that its plan may play. The default: always."""
        return True

    def plan_step(self, state: State, seat: int, move: Any, index: int) -> Submission | None:
        """The submission that plays step ``index`` (0, 1, ...) of the planned canonical
        ``move`` in ``state``, or None once the move is whole; the lifecycle validates and
        applies each as any submission, all of them or none. RuleError for a move the
        position refuses before anything is played. The default: the move, in one step."""
        return move if index == 0 else None

    def plan_from_text(self, state: State, seat: int, text: str) -> Any:
        """One planned move written as text (in a plan's line). The default: the game's
        order grammar (``parse_text``)."""
        return self.parse_text(state, seat, text)

    # A game whose sealed phases a seat may fill in ahead ("next round, if my 1A is still on
    # the board, these orders") names the conditions it offers in ``sheet_conditions``; the
    # lifecycle checks them against the position after the current phase resolves and, if
    # every one holds, submits the sheet then (validated as any sheet).
    sheet_conditions: tuple[str, ...] = ()

    def condition_normalize(self, seat: int, condition: Any) -> dict[str, Any]:
        """The canonical form of one condition (its ``kind`` one of ``sheet_conditions``), by
        its shape; RuleError for one that is not well formed."""
        raise RuleError([Problem("", f"{self.name or self.slug} takes no conditions.")])

    def condition_holds(self, state: State, seat: int, condition: Mapping[str, Any]) -> bool:
        """Whether a canonical ``condition`` of ``seat`` holds in ``state``."""
        raise NotImplementedError(f"{self.slug} takes no conditions")

    def condition_from_text(self, seat: int, text: str) -> dict[str, Any]:
        """One condition written as text (a line of the page's box), canonical; RuleError
        for a line that is none."""
        raise RuleError([Problem("", f"{self.name or self.slug} takes no conditions.")])

    def condition_text(self, condition: Mapping[str, Any]) -> str:
        """A canonical condition as ``condition_from_text`` reads it back."""
        return str(condition)

    def condition_words(self, condition: Mapping[str, Any]) -> str:
        """A canonical condition in words (a ``Text`` the portal translates)."""
        return str(condition)

    def conditions_help(self) -> str:
        """How conditions are written as text, in a line (a ``Text``)."""
        return ""

    # -- leaving a match ---------------------------------------------------------------------
    def resign(self, state: State, seat: int, now: datetime) -> Outcome:
        """``seat`` concedes at ``now``: what the rules make of a seat whose player gives up
        (the other seat wins a two-seat game; in a bigger one the seat leaves play and the
        others go on). When fewer than two seats are left in, the game must be over (``result``
        not None). No dice: the lifecycle stores it with the phase it came in (a logbook entry
        of kind "resign" in a continuous phase) and a replay applies it there at its time.
        Raise RuleError for a seat that cannot concede (out already, the game over). The
        default: a game that does not say takes no concessions."""
        raise RuleError([Problem("seat", f"{self.name or self.slug} takes no concessions.")])

    def seats_out(self, state: State) -> frozenset[int]:
        """The seats the rules have taken out of play (resigned, removed), who neither act nor
        share a result agreed by the others. The default: none."""
        return frozenset()

    def apply(
        self, state: State, seat: int, action: Any, now: Any, rng: random.Random
    ) -> Outcome:
        raise NotImplementedError(f"{self.slug} has no sequential or continuous phases")

    def tick(self, state: State, now: Any, rng: random.Random) -> Outcome:
        raise NotImplementedError(f"{self.slug} has no scheduled events")

    # -- reading -------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Exactly what ``seat`` (or a spectator, for None) may see."""
        raise NotImplementedError

    def view_submission(self, state: State, seat: int, submission: Submission) -> dict[str, Any]:
        """A submission as its author may see it (the default: as stored)."""
        return submission

    def result(self, state: State) -> Result | None:
        raise NotImplementedError

    def public_state(self, state: State) -> State | None:
        """A state a spectator could rebuild from ``view(state, None)`` alone, from which play
        can go on (the analysis board of a running match), or None when play cannot go on
        without something hidden (a secret setup, sealed choices). The default: None, so a game
        says itself when its running position is safe to hand out."""
        return None

    def legal_actions(self, state: State, seat: int) -> LegalActions:
        """What ``seat`` may do now, in one of the shapes of ``LegalActions`` (see there)."""
        raise NotImplementedError

    def bot_submission(
        self, state: State, seat: int, bot: str, rng: random.Random
    ) -> Submission:
        """What the named bot submits for ``seat`` in the current phase."""
        raise NotImplementedError

    # -- text grammar (email) --------------------------------------------------------------
    def parse_text(self, state: State, seat: int, text: str) -> Submission:
        raise NotImplementedError

    def format_text(self, state: State, seat: int, submission: Submission) -> str:
        raise NotImplementedError

    def board_text(self, state: State, seat: int | None) -> str:
        """What ``view(state, seat)`` shows, as a monospace diagram for plain-text email (a
        ``Text`` the portal translates, or plain English)."""
        return ""

    def round_report(self, events: list[dict[str, Any]], seat: int | None) -> list[str]:
        """A resolved phase's events told in words for ``seat`` (None: a spectator), a line
        each, for pages and emails: a ``Text`` the portal translates (or plain English).
        The default: each event's own ``text`` (read back through the ``phrasebook``)."""
        return [self.phrasebook.read(e["text"]) for e in events
                if isinstance(e, dict) and isinstance(e.get("text"), str)]

    def text_help(self, state: State, seat: int) -> str:
        """A short description of the plain-text order grammar for the current phase (a
        ``Text`` the portal translates, or plain English)."""
        return ""

    def seat_name(self, seat: int) -> str:
        return self.seat_names.get(seat) or Text(gettext_noop("Seat %(number)s"), {"number": seat})

    # -- continuous phases ------------------------------------------------------------------
    # A game with a continuous phase (every listed seat acts at any moment, each action applied
    # at once; scheduled ticks open each "gameday") implements all of these. The lifecycle keeps
    # every accepted action and tick as a logbook entry and rebuilds the state with ``replay``.

    def next_tick_at(self, state: State, now: datetime) -> datetime | None:
        """When the next scheduled tick is due (None: no more ticks, e.g. the match is over)."""
        raise NotImplementedError(f"{self.slug} has no scheduled ticks")

    def gameday_key(self, state: State, now: datetime) -> str | None:
        """The name of the gameday open at ``now`` (None between windows): one tick each."""
        raise NotImplementedError(f"{self.slug} has no gamedays")

    def action_problems(self, state: State, seat: int, action: Any, now: datetime
                        ) -> list[Problem]:
        """Every reason ``action`` would be refused at ``now`` ([] if it would be accepted),
        time rules (cooldown, window) included. The default: what ``validate`` says."""
        try:
            self.validate(state, seat, action)
        except RuleError as error:
            return list(error.problems)
        return []

    def replay(self, seats: int, options: Mapping[str, Any], seed: int,
               entries: Iterable[Mapping[str, Any]]) -> State:
        """The state after re-applying logbook ``entries`` from the start. Each entry is
        {"seq", "kind": "action" | "tick" | "resign", "seat", "action", "at" (ISO time)}; its
        dice come from ``rng_for(seed, seq)``, so striking an entry out leaves the others' dice
        as they were."""
        raise NotImplementedError(f"{self.slug} keeps no logbook")

    def replay_steps(self, state: State, seed: int, entries: Iterable[Mapping[str, Any]]
                     ) -> Iterator[tuple[Mapping[str, Any], State, list[dict[str, Any]] | None]]:
        """Re-apply logbook ``entries`` (as for ``replay``; an entry of kind "resign" is its
        seat's concession, ``resign``) to ``state`` one at a time, yielding
        (entry, the state after it, its events; None when the entry is refused now and
        skipped). Lets the lifecycle replay from a stored checkpoint, not only from the start,
        and rewrite the stored events after a strike-out."""
        for entry in entries:
            rng = rng_for(seed, entry["seq"])
            at = datetime.fromisoformat(entry["at"])
            try:
                if entry.get("kind") == "tick":
                    outcome = self.tick(state, at, rng)
                elif entry.get("kind") == "resign":
                    outcome = self.resign(state, entry.get("seat"), at)  # type: ignore[arg-type]
                else:
                    seat: Any = entry.get("seat")  # checked by apply like any other input
                    outcome = self.apply(state, seat, entry.get("action"), at, rng)
            except RuleError:
                yield entry, state, None  # no longer legal (an entry before it was struck out)
                continue
            state = outcome.state
            yield entry, state, list(outcome.events)

    def log_text(self, state: State, seat: int | None = None) -> str:
        """The logbook as plain text for ``seat`` (None: a spectator)."""
        raise NotImplementedError(f"{self.slug} keeps no logbook")
