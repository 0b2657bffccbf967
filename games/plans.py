"""Plans as people read and write them (the writes are ``games.services.plans``).

The plan's grammar, one branch a line, a branch under another indented by two spaces more;
the moves in the game's own text grammar, the seats by name (or number)::

    if Blue: wall e5-e6 then wall c3-c4
      if Blue: wall g7-g8 then wall b2-b3
    if Blue: wall d4-e4 / Green: bomb h8 then wall a1-a2

``/`` separates the moves of several seats, in the order they play; a line ``then MOVE``
plays the move whatever comes (nobody moves in between). French reads ``si`` and ``alors``.
The same text is typed on the match page and, for e-mail, written back in the "your move" mail.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.utils.translation import gettext as _

from engine import Game, Problem, RuleError
from games import plugins
from games.models import ConditionalPlan
from games.words import say, stored

MAX_PLAN_TEXT = 20_000
NOTICE_UNMATCHED = "unmatched"  # the moves played are in no branch: the plan is cleared
NOTICE_ILLEGAL = "illegal"      # the branch's move is not legal now: dropped with the plan
NOTICE_ENDED = "ended"          # the plan's last move was played
NOTICE_CHANGED = "changed"      # played, but the rules completed it otherwise: plan cleared
_LINE = re.compile(r"^(?:(?:if|si)\s+(?P<when>.+?)\s+)?(?:then|alors)\s+(?P<play>.+)$",
                   re.IGNORECASE)


def plans_offered(game: Game | None) -> bool:
    """Whether seats of ``game`` may plan their moves ahead (``Game.plans``)."""
    return game is not None and game.plans


def _names(game: Game, seats: list[int]) -> dict[str, int]:
    """Every name a seat is written by (lower case): its number, its name in English and in
    the reader's language."""
    names: dict[str, int] = {}
    for number in seats:
        names[str(number)] = number
        names[str(game.seat_name(number)).lower()] = number
        names[plugins.seat_name(game.slug, number).lower()] = number
    return names


def plan_parse(game: Game, state: Any, seat: int, seats: list[int], text: str) -> list[dict]:
    """The plan written in ``text`` (see the module's grammar) as a tree of branches, the
    moves as the game reads them (not yet canonical: ``plan_set`` does that). A RuleError
    names each line it cannot read."""
    if not isinstance(text, str) or len(text) > MAX_PLAN_TEXT:
        raise RuleError(_("A plan is text of at most %(count)s characters.")
                        % {"count": MAX_PLAN_TEXT})
    names = _names(game, seats)
    problems: list[Problem] = []
    roots: list[dict] = []
    stack: list[tuple[int, dict]] = []  # (indent, branch) of the lines above
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip()[:1] in "#>":
            continue
        where = f"line {number}"
        indent = len(raw) - len(raw.lstrip(" "))
        found = _LINE.match(raw.strip())
        if found is None:
            problems.append(Problem(where, _("Write a branch like: if Blue: MOVE then MOVE.")))
            continue
        when = []
        for part in (found["when"] or "").split("/") if found["when"] else []:
            name, colon, move_text = part.partition(":")
            other = names.get(name.strip().lower())
            if not colon or other is None or other == seat:
                problems.append(Problem(where, _("“%(part)s” names no other seat (write "
                                                 "“Blue: MOVE”).") % {"part": part.strip()}))
                continue
            when.append({"seat": other, "move": _move(game, state, other, move_text, where,
                                                      problems)})
        branch = {"when": when, "play": _move(game, state, seat, found["play"], where,
                                              problems), "then": []}
        while stack and stack[-1][0] >= indent:
            stack.pop()
        (stack[-1][1]["then"] if stack else roots).append(branch)
        stack.append((indent, branch))
    if problems:
        raise RuleError(problems)
    return roots


def _move(game: Game, state: Any, seat: int, text: str, where: str,
          problems: list[Problem]) -> Any:
    try:
        return game.plan_from_text(state, seat, text.strip())
    except RuleError as error:
        problems.extend(Problem(where, p.text) for p in error.problems)
    except NotImplementedError:
        problems.append(Problem(where, _("%(game)s does not take orders as text.")
                                % {"game": game.name}))
    return None


def plan_text(game: Game, state: Any, seat: int, tree: list[dict]) -> str:
    """The plan in its grammar (what ``plan_parse`` reads back): for editing, and mail."""
    lines: list[str] = []

    def walk(branches: list[dict], depth: int) -> None:
        for branch in branches:
            play = plugins.sheet_text(game, state, seat, branch["play"])
            when = " / ".join(f"{game.seat_name(item['seat'])}: "
                              f"{plugins.sheet_text(game, state, item['seat'], item['move'])}"
                              for item in branch["when"])
            lines.append("  " * depth + (f"if {when} then {play}" if when else f"then {play}"))
            walk(branch["then"], depth + 1)

    walk(tree, 0)
    return "\n".join(lines)


def plan_words(game: Game, state: Any, seat: int, tree: list[dict]) -> list[dict[str, Any]]:
    """The plan in sentences, a branch each with its depth ("If Blue plays “wall e5-e6”,
    play “wall c3-c4”."), for the page and the mail."""
    lines: list[dict[str, Any]] = []

    def walk(branches: list[dict], depth: int) -> None:
        for branch in branches:
            play = plugins.sheet_text(game, state, seat, branch["play"])
            if branch["when"]:
                moves = _(", then ").join(
                    _("%(seat)s plays “%(move)s”") % {
                        "seat": plugins.seat_name(game.slug, item["seat"]),
                        "move": plugins.sheet_text(game, state, item["seat"], item["move"])}
                    for item in branch["when"])
                text = _("If %(moves)s, play “%(move)s”.") % {"moves": moves, "move": play}
            else:
                text = _("Then play “%(move)s”.") % {"move": play}
            lines.append({"depth": depth, "text": text})
            walk(branch["then"], depth + 1)

    walk(tree, 0)
    return lines


def plan_paths(tree: list[dict]) -> list[str]:
    """Each branch's path ("0", "0.1": its indexes), in the order ``plan_words`` says them."""
    paths: list[str] = []

    def walk(branches: list[dict], above: str) -> None:
        for index, branch in enumerate(branches):
            paths.append(f"{above}.{index}" if above else str(index))
            walk(branch["then"], paths[-1])

    walk(tree, "")
    return paths


def plan_graft(tree: list[dict], under: str, branch: dict) -> list[dict]:
    """A copy of ``tree`` with ``branch`` added under the branch at ``under`` (its indexes,
    "0.1": the second branch under the first; "" for the top), as the board's branch builder
    adds one. A RuleError for a path that names no branch."""
    grafted = json.loads(json.dumps(tree))
    level = grafted
    for part in filter(None, str(under or "").split(".")):
        if not part.isdigit() or int(part) >= len(level):
            raise RuleError([Problem("under", _("The plan has no such line to add a branch "
                                                "under; reload the page."))])
        level = level[int(part)]["then"]
    level.append(branch)
    return grafted


def notice_words(game: Game, state: Any, seat: int, notice: dict[str, Any] | None) -> str:
    """Why the seat's last plan ended, in a sentence ("" for none)."""
    if not notice:
        return ""
    reason = notice.get("reason")
    if reason == NOTICE_ENDED:
        return _("The last move of your plan was played in phase %(phase)s.") % {
            "phase": notice.get("phase")}
    if reason == NOTICE_UNMATCHED:
        played = "; ".join(
            _("%(seat)s played “%(move)s”") % {
                "seat": plugins.seat_name(game.slug, item["seat"]),
                "move": plugins.sheet_text(game, state, item["seat"], item["move"])}
            for item in notice.get("played") or [])
        return _("Your plan was cleared in phase %(phase)s: %(played)s, which it did not "
                 "foresee. Play your turn yourself.") % {"phase": notice.get("phase"),
                                                         "played": played or _("nothing")}
    if reason == NOTICE_ILLEGAL:
        why = " ".join(stored(game, problem) for problem in notice.get("problems") or [])
        return _("Your planned move “%(move)s” could not be played in phase %(phase)s: "
                 "%(why)s Your plan was cleared: play your turn yourself.") % {
            "move": plugins.sheet_text(game, state, seat, notice.get("move")),
            "phase": notice.get("phase"), "why": why}
    if reason == NOTICE_CHANGED:
        return _("Your planned move “%(move)s” was played in phase %(phase)s, but what "
                 "happened as it was played (a roll, say) did not let it end as written: the "
                 "rules completed it as “%(played)s”. Your plan was cleared: play your next "
                 "turn yourself.") % {
            "move": plugins.sheet_text(game, state, seat, notice.get("move")),
            "phase": notice.get("phase"),
            "played": plugins.sheet_text(game, state, seat, notice.get("played"))}
    return ""


def plan_described(game: Game, state: Any, seat: int, plan: ConditionalPlan | None
                   ) -> dict[str, Any]:
    """A seat's plan for its own player: the tree, in words and in its grammar, how many
    moves it has played, and the notice of the last one's end."""
    if plan is None:
        return {"tree": [], "words": [], "text": "", "played": 0, "after_phase": None,
                "notice": None, "notice_words": ""}
    return {"tree": plan.tree, "words": plan_words(game, state, seat, plan.tree),
            "text": plan_text(game, state, seat, plan.tree), "played": plan.played,
            "after_phase": plan.after_phase, "notice": plan.notice,
            "notice_words": notice_words(game, state, seat, plan.notice)}


# A reply to a "your move" mail that clears the seat's plan: this line alone.
CLEAR_COMMANDS = ("clear plan", "clear my plan", "effacer le plan", "effacer mon plan")


def is_clear_command(text: str) -> bool:
    """Whether a mail's reply ``text`` is the command that clears the plan (and nothing else)."""
    lines = [line.strip().lower().rstrip(".!") for line in str(text).splitlines()
             if line.strip()]
    return len(lines) == 1 and lines[0] in CLEAR_COMMANDS


def plan_mail_context(game: Game, state: Any, seat: int, plan: ConditionalPlan | None,
                      phase_number: int) -> dict[str, Any]:
    """What the "your move" mail of phase ``phase_number`` says of the seat's plan: its
    branches still ahead, a line each (indented by depth), and why it ended if it ended as
    this phase opened."""
    described = plan_described(game, state, seat, plan)
    notice = described["notice"] or {}
    return {"plan_lines": ["  " * line["depth"] + line["text"] for line in described["words"]],
            "plan_notice": described["notice_words"]
            if notice.get("phase") == phase_number else ""}


# -- sheets entered ahead ----------------------------------------------------------------------

def conditions_parse(game: Game, seat: int, text: str) -> list[dict[str, Any]]:
    """The conditions written in ``text``, a line each (``Game.condition_from_text``); a
    RuleError names each line it cannot read."""
    if not isinstance(text, str) or len(text) > MAX_PLAN_TEXT:
        raise RuleError(_("A plan is text of at most %(count)s characters.")
                        % {"count": MAX_PLAN_TEXT})
    conditions, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            conditions.append(game.condition_from_text(seat, line))
        except RuleError as error:
            problems += [Problem(f"line {number}", p.text) for p in error.problems]
    if problems:
        raise RuleError(problems)
    return conditions


def sheet_ahead_described(game: Game, sheet: Any) -> dict[str, Any]:
    """A seat's sheet entered ahead for its own player: its conditions in words and as text,
    the sheet as entered, and what became of the last one."""
    if sheet is None:
        return {"for_phase": None, "conditions": [], "conditions_text": "", "sheet_text": "",
                "waiting": False, "notice_words": ""}
    entered = sheet.data or {}
    return {
        "for_phase": sheet.for_phase,
        "conditions": [say(game.condition_words(c)) for c in sheet.conditions],
        "conditions_text": "\n".join(game.condition_text(c) for c in sheet.conditions),
        "sheet_text": entered.get("text") if "text" in entered else (
            json.dumps(entered["data"]) if "data" in entered else ""),
        "waiting": sheet.data is not None,
        "notice_words": _sheet_notice(game, sheet.notice),
    }


def _sheet_notice(game: Game, notice: dict[str, Any] | None) -> str:
    if not notice:
        return ""
    phase = notice.get("phase")
    reason = notice.get("reason")
    if reason == "submitted":
        return _("Your sheet entered ahead was submitted for phase %(phase)s: every condition "
                 "held.") % {"phase": phase}
    if reason == "conditions":
        failed = "; ".join(say(game.condition_words(c)) for c in notice.get("failed") or [])
        return _("Your sheet entered ahead for phase %(phase)s was discarded because this "
                 "did not hold: %(failed)s.") % {"phase": phase,
                                                 "failed": failed or _("its phase")}
    if reason == "illegal":
        why = " ".join(stored(game, problem) for problem in notice.get("problems") or [])
        return _("Your sheet entered ahead for phase %(phase)s was refused by the rules: "
                 "%(why)s") % {"phase": phase, "why": why}
    if reason == "sent":
        return _("Your sheet entered ahead for phase %(phase)s was discarded: you had sent "
                 "one yourself.") % {"phase": phase}
    return ""


def sheet_ahead_mail_context(game: Game, sheet: Any, phase_number: int) -> dict[str, Any]:
    """What the "your move" mail of phase ``phase_number`` says of the seat's sheet entered
    ahead for it: submitted, or discarded and why ("" when none was entered for it)."""
    notice = (sheet.notice or {}) if sheet is not None else {}
    return {"sheet_ahead_notice": _sheet_notice(game, notice)
            if notice.get("phase") == phase_number else ""}
