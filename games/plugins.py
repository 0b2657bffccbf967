"""The web side of each game, found through a registry: the twin of ``engine.register``.

A game is one unit on both sides. Its rules are an engine package (``engine/<game>/``) that
registers a ``Game``; its pages, panels, e-mail parts, rules page and replay are a ``GamePlugin``
registered for the same slug, usually from its web package (``games/<game>/plugin.py``). Every
part of a plug-in has a generic default (the text grammar panel, the board as text, the event
list), so a game with no web package of its own is playable on the pages and by e-mail.

Generic code (lobby, match page, mail, admin, competitions) asks ``plugin_for(slug)`` and never
branches on a game's slug. A game's own URL patterns (``match_urls``) are mounted under
``matches/<id>/<slug>/`` behind a guard that answers 404 for a match of any other game; its
site-wide pages (``site_urls``) under ``games/<slug>/``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.http import Http404
from django.template.loader import render_to_string
from django.urls import URLPattern, URLResolver, include, path
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

import engine
from engine import Game, Option, Problem, RuleError
from engine.jsontext import read_json
from games.words import problem_message, say, sentence

if TYPE_CHECKING:
    from django.http import HttpRequest

    from games.models import Match, Phase, Seat


@dataclass(frozen=True)
class GameChannel:
    """A channel of messages a game declares beside the public one and the private ones (Tank
    Game's Council: the dead players): its ``key`` (lower-case letters and "_", never
    "public"), its name for people, and the seats in it as the match stands."""

    key: str
    label: Any  # (lazy, if the game's plug-in declares its channels for several readers)
    seats: frozenset[int]


class GamePlugin:
    """A game's web and mail parts. Subclass it in ``games/<game>/plugin.py`` and override what
    the game draws itself; everything not overridden is the generic default."""

    slug: str = ""
    # The match page (usually extending games/match.html and replacing some of its blocks).
    match_template: str = "games/match.html"
    # True: the generic order panel (a textarea in the game's text grammar) is how the page takes
    # orders (a game with no board of its own). False: the game's own panel on its board is the
    # obvious way, and its page offers the text grammar on demand beside it
    # (games/partials/typed_orders.html, "Type your orders instead": also the keyboard and
    # screen-reader path).
    text_panel: bool = True
    # The rules page and its context (``rules_context``).
    rules_template: str = "games/generic/rules.html"
    # A replay frame (partial) and the board template of the generic page.
    replay_template: str = "games/generic/replay.html"
    replay_anchor: str = "replay"  # the id of the frame's element on the match page
    # The id of the element where the player gives orders on the match page (its "Skip to
    # your orders" link): the generic order panel, unless the game has its own.
    orders_anchor: str = "orders-panel"
    board_template: str = "games/generic/view.html"

    # The names of the game's phases (the engine's ``Prompt.name``, English words such as
    # "orders") as people read them, translated; a name neither here nor in ``PHASE_NAMES``
    # is shown as the engine wrote it.
    phase_names: Mapping[str, Any] = {}
    # The names of the seats, translated, for a game whose engine names them in English words
    # ("Red", "South"); the others keep the engine's names (Alpha, Delta) or "Seat 3".
    seat_names: Mapping[int, Any] = {}
    # The game's bots (the engine's ``Game.bots``, keys such as "greedy") as people name them,
    # translated ("greedy bot"); a bot neither here nor in ``BOT_NAMES`` is "bot “name”".
    bot_names: Mapping[str, Any] = {}
    # For a game that takes plans: one line of a plan as an example, for the "Plan ahead"
    # panel, where a planned move is not written as a turn's orders are (translated; "" for
    # none: the orders' own grammar).
    plan_example: Any = ""

    def __init__(self, slug: str | None = None) -> None:
        if slug is not None:
            self.slug = slug

    @property
    def game(self) -> Game:
        return engine.get(self.slug)

    @property
    def name(self) -> str:
        return self.game.name or self.slug

    def phase_label(self, name: str) -> str:
        """Phase ``name`` (as the engine names it) in the reader's language."""
        label = self.phase_names.get(name) or PHASE_NAMES.get(name)
        return str(label) if label is not None else name

    def pace(self, match: Any) -> str:
        """How fast the match goes, in the reader's language, for the match page's heading
        ("15 minutes per phase"; a game with another rhythm says it its own way)."""
        from games.dates import duration

        span = timedelta(hours=float(match.hours_per_phase or 0))
        return _("%(span)s per phase") % {"span": duration(span)}

    def progress_label(self, match: Any) -> str:
        """Where a running match is, in the reader's language, for the match lists ("phase 3
        (orders)"), from the match row alone (never its state)."""
        label = self.phase_label(match.phase_name) if match.phase_name else ""
        if label:
            return _("phase %(number)s (%(name)s)") % {"number": match.phase_number, "name": label}
        return _("phase %(number)s") % {"number": match.phase_number}

    def bot_name(self, bot: str) -> str:
        """Bot ``bot`` (its engine key) as people name it, in the reader's language."""
        label = self.bot_names.get(bot) or BOT_NAMES.get(bot)
        return str(label) if label is not None else _("bot “%(name)s”") % {"name": bot}

    def seat_name(self, number: int) -> str:
        """Seat ``number``'s name in the reader's language ("Red", "Alpha", "Seat 3")."""
        if number in self.seat_names:
            return str(self.seat_names[number])
        game = engine.games().get(self.slug)
        if game is not None and number in game.seat_names:
            return str(game.seat_names[number])
        return _("Seat %(number)s") % {"number": number}

    # -- the create form -----------------------------------------------------------------
    def ending_reason(self, ending: Any) -> str:
        """The game's reason for an ending by its rules (an ``engine.ending.Ending``) in the
        reader's language: by default its ``Text`` as the engine wrote it, translated."""
        return sentence(ending.reason) if ending.reason is not None else ""

    def option_field(self, option: Option, **kwargs: Any) -> Any:
        """The form field (a ``django.forms.Field`` made with ``kwargs``: label, help text)
        for an option this game draws itself (``Option.widget`` names which); its cleaned
        value is the option's value. The default: None, the option is set in the JSON only."""
        return None

    # -- URLs ---------------------------------------------------------------------------
    def match_urls(self) -> list[URLPattern]:
        """Patterns mounted under ``matches/<int:match_id>/<slug>/``; each view takes
        ``match_id`` and only ever sees matches of this game (the guard 404s the rest)."""
        return []

    def site_urls(self) -> list[URLPattern]:
        """Patterns mounted under ``games/<slug>/`` (pages that are not about one match)."""
        return []

    # -- the match page -----------------------------------------------------------------
    def page_context(self, request: HttpRequest, match: Match, context: dict[str, Any]
                     ) -> dict[str, Any]:
        """What the match page adds for this game to the generic context (which holds
        ``game``, ``my_seat``, ``must_act``, ``my_sheet``, ``resolved_phases``, ``history``).
        The default: the text grammar panel's example and help, the board, and the replay
        frame asked for with ``?replay=N``. A game may add ``panels``: HTML fragments the
        generic page shows beside the order panel."""
        from games.views.replay import frame_for

        extra: dict[str, Any] = {}
        game, my_seat = context.get("game"), context.get("my_seat")
        if game is None or match.state is None:
            return extra
        seat = my_seat.number if my_seat is not None else None
        extra["board"] = self.board_html(match, match.state, seat)
        wanted = replay_wanted(request)
        if wanted is not None and context.get("resolved_phases"):
            extra["replay_frame"] = frame_for(match, seat, wanted, context["resolved_phases"])
        return extra

    def typed_orders_context(self, match: Match, seat: int, sheet: Any) -> dict[str, Any]:
        """The text grammar's part of the match page for the seat that must act (the generic
        panel, or the game's "Type your orders instead"): a line saying what the grammar looks
        like, the full help, an example sheet, and the seat's sealed ``sheet`` as text."""
        game, state = self.game, match.state
        extra = {
            "typed_hint": self.orders_hint(state, seat),
            "example_text": example_text(game, state, seat),
            "text_help": self.orders_help(state, seat),
        }
        if sheet is not None:
            extra["my_sheet_text"] = sheet_text(game, state, seat, sheet.data)
        return extra

    def board_html(self, match: Match, state: Any, seat: int | None) -> str:
        """The board as ``seat`` (None: a spectator) sees it, as HTML for the page."""
        view = self.game.view(state, seat)
        return render_to_string(self.board_template, {
            "view": view,
            "view_json": json.dumps(view, indent=2, sort_keys=True),
            "board_text": self.board_text(state, seat),
            "match": match,
            "seat": seat,
        })

    def plan_builder(self, match: Match, state: Any, seat: int, *,
                     others: list[dict[str, Any]], lines: list[dict[str, Any]]) -> str:
        """The "Plan ahead" panel's builder of a branch on the board (HTML; "" for none: the
        plan is then written in the box alone). ``others``: the other seats (number, name);
        ``lines``: the plan's branches in words, each with its path, to add a branch under."""
        return ""

    # -- messages (portal.chat, docs/messages.md) -----------------------------------------
    def message_channels(self, match: Match) -> list[GameChannel]:
        """The game's own channels of messages and who is in each now, decided from the
        match's state (only what every seat may know: the members are shown to them). Asked
        at each read and each post, so a seat joins or leaves a channel as the game goes.
        The default: none."""
        return []

    # -- replay -------------------------------------------------------------------------
    def replay_frame(self, match: Match, seat: int | None, phase: Phase,
                     resolved: list[Phase], state_after: Any) -> dict[str, Any]:
        """One frame of the replay: what phase ``phase`` did, for ``seat``. The default: its
        events in words and the board after it."""
        numbers = [p.number for p in resolved]
        index = numbers.index(phase.number)
        return {
            "phase": phase,
            "title": (_("Phase %(number)s: %(name)s") if phase.name else _("Phase %(number)s"))
            % {"number": phase.number, "name": self.phase_label(phase.name)},
            "story": self.round_report(phase.events or [], seat),
            "board": self.board_html(match, state_after, seat) if state_after is not None
            else "",
            "position": index + 1,
            "count": len(numbers),
            "previous": numbers[index - 1] if index > 0 else None,
            "next": numbers[index + 1] if index + 1 < len(numbers) else None,
            "first": numbers[0],
            "last": numbers[-1],
            "is_last": index + 1 == len(numbers),
        }

    # -- the rules page -----------------------------------------------------------------
    def rules_context(self, request: HttpRequest) -> dict[str, Any]:
        """The rules page's context; the default describes the game from its engine."""
        game = self.game
        seats = (f"{game.min_seats}" if game.min_seats == game.max_seats
                 else f"{game.min_seats}–{game.max_seats}")
        return {
            "game": game,
            "seats": seats,
            "seat_names": [game.seat_name(n) for n in range(1, min(game.max_seats, 8) + 1)],
            "bots": [self.bot_name(bot) for bot in game.bots],
            "options_json": json.dumps(game.default_options(), indent=2, sort_keys=True),
            "description": (game.__doc__ or "").strip(),
        }

    # -- the position in words (screen readers: docs/accessibility.md) -------------------
    def position_words(self, state: Any, seat: int | None) -> list[str]:
        """The position as ``seat`` (None: a spectator) may see it, told in sentences (who
        is where, what is seen), for the match page's "The position in words" beside the
        board. Drawn from ``game.view(state, seat)`` only, never the state itself: it must
        not say what the board would not show. The default: none (the page shows the board
        as text)."""
        return []

    # -- e-mail parts (and the same text on pages) ----------------------------------------
    def board_text(self, state: Any, seat: int | None) -> str:
        """The board as a monospace diagram for plain-text e-mail."""
        return say(self.game.board_text(state, seat))

    def orders_help(self, state: Any, seat: int) -> str:
        """How to write orders (or actions) in a reply, for the current phase."""
        return say(self.game.text_help(state, seat))

    def orders_hint(self, state: Any, seat: int) -> str:
        """One line saying what the text grammar looks like (an example or two), shown above
        the typed orders; the full help (``orders_help``) is a click away."""
        return _("Write your orders as in the e-mails, one per line; the full grammar and an "
                 "example are below.")

    def round_report(self, events: list[dict[str, Any]], seat: int | None) -> list[str]:
        """A resolved phase told in words for ``seat``, a line each (the engine's report, else
        every event as a line), in the reader's language."""
        return [say(line) for line in self.game.round_report(events, seat)] or \
            [event_text(e) for e in events]

    def your_move_context(self, match: Match, seat: Seat, state: Any) -> dict[str, Any]:
        """Extra context for the "your move" mails (phase opened, reminder, gameday opened),
        drawn from ``seat``'s view of ``state`` only (e.g. ``situation``: lines about the
        player's own pieces)."""
        return {}

    def gameday_name(self, match: Match, key: str) -> str:
        """How people name gameday ``key`` of ``match`` ("gameday 3 of the match", with its
        date when the key is one): a key may be an internal counter, never shown as such."""
        from games.selectors import gameday_number

        number = gameday_number(match=match, key=key)
        try:
            day = date.fromisoformat(key)
        except (TypeError, ValueError):
            return _("gameday %(number)s of the match") % {"number": number}
        return _("gameday %(number)s of the match (%(date)s)") % {
            "number": number, "date": date_format(day, "l j F")}

    # -- lessons (portal/lessons, docs/lessons.md) -----------------------------------------
    def lessons(self) -> list[dict[str, Any]]:
        """This game's lessons and puzzles as data (see docs/lessons.md). The default: none."""
        return []

    def lesson_start(self, *, seats: int, options: Any, seed: int, now: datetime) -> Any:
        """A lesson's position: the engine started from the lesson's options (a ``scenario``).
        A game whose options cannot say everything a lesson needs builds it here; ``now`` is
        the moment the lesson is played at (for a continuous game's gameday)."""
        game = self.game
        return game.start(seats, game.validate_options(options), seed)

    def board_stylesheet(self) -> str:
        """The static path of the board's styles (``static/<slug>/board.css``) when the game
        has one, for the pages that draw its board away from its match page (a lesson, the
        analysis board); "" if it has none."""
        from django.contrib.staticfiles import finders

        name = f"{self.slug}/board.css"
        return name if finders.find(name) else ""

    def lesson_board(self, state: Any, seat: int | None) -> str:
        """The board of a position with no match around it (a lesson, the analysis board) as
        ``seat`` (None: a spectator) sees it, as a picture (HTML). The default: the match
        page's board."""
        return self.board_html(None, state, seat)

    # -- the clickable board away from a match (the analysis board, a lesson) ---------------
    def play_board(self, state: Any, seat: int, *, now: datetime, check_url: str) -> str:
        """The match page's clickable board and order panel for ``seat`` (who must act) on a
        position that belongs to no match: an analysis, a lesson. It seals and sends nothing
        itself: when the player's orders are complete, the panel hands them as a sheet (the
        engine's submission as JSON) to the page (``static/js/sheet.js``: a form marked
        ``data-sheet-part`` whose fields are the sheet, or ``portalSheet.send``), which plays
        them. ``check_url`` answers the panel's live checks (``play_check``), ``now`` is the
        position's moment. The default: "" (no clickable board: the page takes typed
        orders)."""
        return ""

    def board_sheet(self, state: Any, seat: int, handed: Mapping[str, Any]) -> Any:
        """The submission the ``play_board``'s panel ``handed`` over (a form's fields, or what
        its script built), before the engine checks it; a ``RuleError`` (or ``ValueError``)
        if it cannot be read. The default: what was handed is the submission."""
        return dict(handed)

    def has_play_board(self) -> bool:
        """Does this game draw a clickable board away from its matches (``play_board``)?"""
        return type(self).play_board is not GamePlugin.play_board

    def play_check(self, state: Any, seat: int, data: Mapping[str, str], *,
                   check_url: str) -> dict[str, Any] | str:
        """The answer to a live check the ``play_board``'s panel posts (``data``: its form;
        ``check_url``: where it posted), for ``seat`` in ``state``: JSON data, or HTML (a
        ``str``) for a panel that swaps it in; raise ``RuleError`` for a refused one. The
        default: there is nothing to check (a ``RuleError``)."""
        raise RuleError(_("This game checks nothing here."))

    def seat_hostility(self, match: Match) -> Mapping[tuple[int, int], tuple[int, int]] | None:
        """For the moderators' "a seat always spares another" signal (portal.signals, games
        of three seats or more): (seat a, seat b) → (the turns in which a could attack b's
        units, the turns in which it did). None: the game cannot tell (the default), and the
        signal is not looked for in its matches."""
        return None

    def mail_bodies(self, name: str, context: dict[str, Any]) -> tuple[str, str]:
        """The text and HTML bodies of mail ``name`` (phase_opened, reminder, gameday_opened,
        phase_resolved, match_ended): the game's own templates/games/<slug>/mail/<name>.txt and
        .html when it has them, else the generic templates/mail/<name>.*."""
        own, generic = f"games/{self.slug}/mail/{name}", f"mail/{name}"
        return (render_to_string([f"{own}.txt", f"{generic}.txt"], context),
                render_to_string([f"{own}.html", f"{generic}.html"], context))

    def problem_lines(self, problems: Iterable[Problem], text: str) -> list[str]:
        """Each problem of a refused e-mailed sheet as a sentence naming the line it is
        about. The default knows the text grammar's own ``line N`` paths."""
        return [problem_line(problem.path or "", problem_message(problem))
                for problem in problems]


# The phase names most games use, translated (a plug-in adds its own in ``phase_names``).
PHASE_NAMES: dict[str, Any] = {
    "orders": pgettext_lazy("phase name", "orders"),
    "turn": pgettext_lazy("phase name", "turn"),
    "setup": pgettext_lazy("phase name", "setup"),
}


# The bots most games have, as people name them (a plug-in adds its own in ``bot_names``).
BOT_NAMES: dict[str, Any] = {
    "random": pgettext_lazy("bot name", "random bot"),
    "greedy": pgettext_lazy("bot name", "greedy bot"),
}


def bot_name(slug: str, bot: str) -> str:
    """Bot ``bot`` of game ``slug`` as people name it, in the reader's language."""
    return plugin_for(slug).bot_name(bot)


def problem_line(where: str, message: Any) -> str:
    """A problem of an e-mailed sheet as a sentence naming what it is about: ``where`` is a
    line ("line 3": "Line 3: …"), another path, or "" (the whole sheet)."""
    number = where[5:] if where.startswith("line ") else ""
    if number.isdigit():
        label = _("Line %(number)s") % {"number": number}
    else:
        label = where or _("The sheet")
    return _("%(where)s: %(problem)s") % {"where": label, "problem": message}


def seat_name(slug: str, number: int) -> str:
    """Seat ``number`` of game ``slug`` as people read it, in the reader's language."""
    return plugin_for(slug).seat_name(number)


# -- text helpers shared by the default parts ---------------------------------------------------

def replay_wanted(request: HttpRequest) -> int | None:
    """The phase number of ``?replay=`` (None without one); a 400 if it is not one."""
    from games.parsing import parse_int

    wanted = request.GET.get("replay", "")
    return parse_int(wanted, min=1, max=10**9, field="replay") if wanted else None


def sheet_text(game: Game | None, state: Any, seat: int, data: Any) -> str:
    """A sheet in the game's text grammar (JSON for a game without one)."""
    if game is not None:
        try:
            return game.format_text(state, seat, data)
        except Exception:  # a game without a text grammar (yet): fall back to JSON
            pass
    return json.dumps(data, sort_keys=True)


MAX_SHEET_LENGTH = 20_000


def posted_sheet_text(plugin: GamePlugin, state: Any, seat: int, raw: str) -> str:
    """What a clickable board's panel handed over (``raw``: JSON, see ``board_sheet``) as the
    submission, checked by the engine for ``seat`` in ``state`` and written in the game's text
    grammar, as if typed. A ``RuleError`` says what is wrong with it."""
    game = plugin.game
    try:
        data = read_json(raw, max_bytes=MAX_SHEET_LENGTH)
    except ValueError:  # (JSONLimitError too: too long or too deep)
        data = None
    if not isinstance(data, dict):
        raise RuleError(_("The orders from the board could not be read; play them again."))
    try:
        checked = game.validate(state, seat, plugin.board_sheet(state, seat, data))
        return game.format_text(state, seat, checked)
    except RuleError:
        raise
    except ValueError as error:  # the panel's fields, refused by the plug-in: it says why
        raise RuleError(str(error)) from None
    except Exception:  # a sheet the engine cannot even look at: bad input, not a crash
        raise RuleError(_("The orders from the board could not be read; play them "
                          "again.")) from None


def example_text(game: Game, state: Any, seat: int) -> str:
    """The seat's default sheet in the text grammar: a working example to start from."""
    try:
        return game.format_text(state, seat, game.default_submission(state, seat))
    except Exception:  # a game without defaults or a text grammar: no example
        return ""


def event_text(event: Any) -> str:
    """An event as a line for a game whose plug-in tells nothing of it: its own ``text``, else
    only what kind of event it was and whose (its data is the plug-in's to put in words)."""
    if isinstance(event, dict):
        if isinstance(event.get("text"), str):
            return event["text"]
        kind = str(event.get("type") or event.get("kind") or "")
        what = kind.replace("_", " ").replace("-", " ").strip().capitalize() or _("Something "
                                                                                   "happened")
        seat = event.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool):
            return _("%(what)s (seat %(seat)s).") % {"what": what, "seat": seat}
        return f"{what}."
    return _("Something happened.")


# -- the registry -------------------------------------------------------------------------------

_plugins: dict[str, GamePlugin] = {}
_installed: list[str] = []
_added: list[str] = []  # by install()


def register(plugin: GamePlugin) -> GamePlugin:
    """Register a game's web plug-in (called at the bottom of ``games/<game>/plugin.py``)."""
    if not plugin.slug:
        raise ValueError("a game plug-in needs the slug of its engine game")
    _plugins[plugin.slug] = plugin
    return plugin


def plugin_for(slug: str) -> GamePlugin:
    """The plug-in of game ``slug``: its own, else the generic defaults."""
    plugin = _plugins.get(slug)
    if plugin is None:
        plugin = _plugins.setdefault(slug, GamePlugin(slug))
    return plugin


def installed() -> list[str]:
    """The slugs of the games this site offers, in the order settings list them, then the
    ones ``install`` added (tests' toy games: whenever they were imported, the site's own
    games come first, so the default game is the one settings list first)."""
    known = engine.games()
    return [slug for slug in [*_installed, *_added] if slug in known]


def load(packages: Iterable[str], modules: Iterable[str] = ()) -> None:
    """Install games: for each package name, its engine package (``engine.<name>``) and its
    web package (``games.<name>.plugin``) when it has one; ``modules`` are further modules that
    register games and plug-ins themselves (tests' toy games)."""
    wanted = [f"engine.{name}" for name in packages]
    for name in packages:
        importlib.import_module(f"engine.{name}")
        if importlib.util.find_spec(f"games.{name}") is not None and \
                importlib.util.find_spec(f"games.{name}.plugin") is not None:
            importlib.import_module(f"games.{name}.plugin")
    for module in modules:
        importlib.import_module(module)
        wanted.append(module)
    for home in wanted:
        for slug, game in sorted(engine.games().items()):
            where = type(game).__module__
            if (where == home or where.startswith(f"{home}.")) and slug not in _installed:
                _installed.append(slug)
                if slug in _added:
                    _added.remove(slug)


def install(slug: str) -> None:
    """Offer an already registered engine game on this site (tests' toy games)."""
    if slug not in _installed and slug not in _added:
        _added.append(slug)


# -- URLs ---------------------------------------------------------------------------------------

def _guarded(slug: str, view: Callable[..., Any]) -> Callable[..., Any]:
    """``view`` answering 404 for a match of another game (or no match at all)."""
    from games.models import Match

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, match_id: Any = None, **kwargs: Any) -> Any:
        if not Match.objects.filter(pk=match_id, game=slug).exists():
            raise Http404(_("This match has no such page."))
        return view(request, *args, match_id=match_id, **kwargs)

    return guarded


def url_patterns() -> list[URLPattern | URLResolver]:
    """Every plug-in's URL patterns, mounted and guarded (the generic urls include these)."""
    patterns: list[URLPattern | URLResolver] = []
    for slug, plugin in sorted(_plugins.items()):
        match_urls = [
            URLPattern(p.pattern, _guarded(slug, p.callback), p.default_args, p.name)
            for p in plugin.match_urls()
        ]
        if match_urls:
            patterns.append(path(f"matches/<int:match_id>/{slug}/", include(match_urls)))
        if plugin.site_urls():
            patterns.append(path(f"games/{slug}/", include(plugin.site_urls())))
    return patterns
