"""The Council: members and weights, ballots for Stimulus / Bounty / Grant Life, thresholds,
daily allowances (rulings, "The Council")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Problem, State, Text, pgettext
from engine.base import gettext_noop as _
from engine.tank_game import words
from engine.tank_game.state import (
    FINISHED_BALLOTS_KEPT,
    MAX_AP,
    MAX_LIVES,
    add_log,
    council,
    name,
    tank,
)

COUNCIL_ACTIONS = ("open_ballot", "vote")
DECREES = ("stimulus", "bounty", "grant_life")
DECREE_NAMES = {"stimulus": words.STIMULUS, "bounty": words.BOUNTY, "grant_life": words.GRANT_LIFE}
BALLOT_STATUS = {"open": pgettext("ballot", "open"), "passed": pgettext("ballot", "passed"),
                 "closed": pgettext("ballot", "closed")}
COST = {"stimulus": 3, "grant_life": 15}
BOUNTY_GOLD = (1, 5)
GRANT_LIFE_MEMBERS = 3


def open_ballot(state: State, decree: str) -> dict[str, Any] | None:
    ballots: list[dict[str, Any]] = state["ballots"]
    for ballot in ballots:
        if ballot["status"] == "open" and ballot["decree"] == decree:
            return ballot
    return None


def cost(decree: str, gold: int | None) -> int:
    return gold or 0 if decree == "bounty" else COST[decree]


def target_problem(state: State, decree: str, target: int) -> str | None:
    """Why ``target`` cannot receive ``decree`` now, or None."""
    t = tank(state, target)
    who = name(state, target)
    if t["status"] == "resigned":
        return f"{who} conceded and left the match."
    if decree in ("stimulus", "bounty") and t["status"] != "alive":
        return f"{DECREE_NAMES[decree]} needs a living tank; {who}'s is {t['status']}."
    if decree == "stimulus" and t["ap"] >= MAX_AP:
        return f"{who} already has {MAX_AP} action points."
    if decree == "grant_life":
        if t["status"] == "destroyed":
            return f"{who}'s tank is destroyed; only living or dead tanks can be granted a life."
        if t["lives"] >= MAX_LIVES:
            return f"{who} already has {MAX_LIVES} lives."
    return None


def check(
    state: State, seat: int, action: Mapping[str, Any]
) -> tuple[dict[str, Any], list[Problem]]:
    """The normalized council action and every problem with it (time not considered)."""
    kind = action["type"]
    problems: list[Problem] = []
    out: dict[str, Any] = {"type": kind}
    allowed = {"type", "target", "gold", "decree" if kind == "open_ballot" else "ballot"}
    unknown = set(action) - allowed
    if unknown:
        problems.append(
            Problem("", _("Unknown keys for %(kind)s: %(keys)s."),
                    {"kind": kind, "keys": ', '.join(sorted(map(str, unknown)))})
        )
    members = council(state)
    if seat not in members:
        problems.append(
            Problem("council", _("Only Council members (dead or destroyed tanks) vote on decrees."))
        )
    decree: str | None = None
    if kind == "open_ballot":
        raw = action.get("decree")
        if raw not in DECREES:
            problems.append(Problem("decree", _("The decree is stimulus, bounty or grant_life.")))
        else:
            decree = out["decree"] = raw
            if (
                decree != "stimulus"
                and state["allowances"][decree] < 1
                and open_ballot(state, decree) is None
            ):
                problems.append(
                    Problem(
                        "decree",
                        _("The Council may decree only one %(decree)s per gameday."),
                        {"decree": DECREE_NAMES[decree]},
                    )
                )
    else:
        raw = action.get("ballot")
        ballot = next(
            (b for b in state["ballots"] if not isinstance(raw, bool) and b["id"] == raw), None
        )
        if ballot is None and isinstance(raw, int) and 1 <= raw < state["next_ballot"]:
            problems.append(Problem("ballot", _("Ballot %(ballot)s is over; votes are closed."),
                                    {"ballot": raw}))
        elif ballot is None:
            problems.append(Problem("ballot", _("There is no ballot %(ballot)s."),
                                    {"ballot": repr(raw)}))
        elif ballot["status"] != "open":
            out["ballot"] = raw
            problems.append(
                Problem("ballot", _("Ballot %(ballot)s is %(status)s; votes are closed."),
                        {"ballot": raw,
                         "status": BALLOT_STATUS.get(ballot["status"], ballot["status"])})
            )
        else:
            out["ballot"] = raw
            decree = ballot["decree"]
    if decree == "grant_life" and len(members) < GRANT_LIFE_MEMBERS:
        problems.append(
            Problem(
                "decree",
                _("Grant Life needs a Council of at least %(minimum)s members; it has "
                  "%(count)s."),
                {"minimum": GRANT_LIFE_MEMBERS, "count": len(members)},
            )
        )
    target = action.get("target")
    if isinstance(target, bool) or not isinstance(target, int) or str(target) not in state["tanks"]:
        problems.append(Problem("target", _("%(target)s is not a seat in this match."),
                                {"target": repr(target)}))
    else:
        out["target"] = target
        if decree is not None:
            why = target_problem(state, decree, target)
            if why:
                problems.append(Problem("target", why))
    if decree == "bounty":
        gold = action.get("gold")
        low, high = BOUNTY_GOLD
        if isinstance(gold, bool) or not isinstance(gold, int) or not low <= gold <= high:
            problems.append(Problem("gold", _("A bounty is %(low)s to %(high)s gold."),
                                    {"low": low, "high": high}))
        else:
            out["gold"] = gold
    elif "gold" in action and decree is not None:
        problems.append(Problem("gold", _("%(decree)s has no gold amount to vote on."),
                                {"decree": DECREE_NAMES[decree]}))
    return out, problems


def perform(
    state: State, seat: int, action: dict[str, Any], at: str, events: list[dict[str, Any]]
) -> None:
    vote = {"target": action["target"]}
    if "gold" in action:
        vote["gold"] = action["gold"]
    who = name(state, seat)
    entry: dict[str, Any] = {"at": at, "kind": "vote", "seat": seat, "action": action, "dice": []}
    if action["type"] == "open_ballot":
        ballot = open_ballot(state, action["decree"])
        if ballot is None:
            ballot = {
                "id": state["next_ballot"],
                "decree": action["decree"],
                "opened_by": seat,
                "opened_at": at,
                "gameday": state["gameday"],
                "status": "open",
                "votes": {},
                "passed": None,
            }
            state["next_ballot"] += 1
            state["ballots"].append(ballot)
            template = words.OPENED_BALLOT
        else:
            template = words.VOTED
    else:
        ballot = next(b for b in state["ballots"] if b["id"] == action["ballot"])
        template = words.VOTED
    ballot["votes"][str(seat)] = vote
    add_log(state, dict(entry, text=str(Text(template, {
        "who": who, "ballot": ballot["id"], "decree": DECREE_NAMES[ballot["decree"]]}))), events)


def tallies(state: State, ballot: dict[str, Any]) -> list[dict[str, Any]]:
    """Weight per option (target, and gold for a bounty) from current members, heaviest first."""
    members = council(state)
    totals: dict[tuple[int, int | None], int] = {}
    for voter, vote in ballot["votes"].items():
        weight = members.get(int(voter), 0)
        if weight:
            key = (vote["target"], vote.get("gold"))
            totals[key] = totals.get(key, 0) + weight
    rows = [
        {"target": t, "gold": g, "weight": w} if g is not None else {"target": t, "weight": w}
        for (t, g), w in totals.items()
    ]
    return sorted(rows, key=lambda r: (-r["weight"], r["target"], r.get("gold", 0)))


def winning_option(state: State, ballot: dict[str, Any]) -> dict[str, Any] | None:
    """The option meeting the ballot's threshold, if exactly one does."""
    total = sum(council(state).values())
    if total == 0:
        return None
    rows = tallies(state, ballot)
    if ballot["decree"] == "grant_life":
        winners = [r for r in rows if 3 * r["weight"] >= 2 * total]  # super-majority
    else:
        winners = [r for r in rows if 2 * r["weight"] >= total]  # uncontested majority
    return winners[0] if len(winners) == 1 else None


def settle(state: State, at: str, events: list[dict[str, Any]]) -> None:
    """Pass every open ballot whose threshold is met and that the coffer can pay, in id order."""
    changed = True
    while changed:
        changed = False
        for ballot in state["ballots"]:
            if ballot["status"] == "open" and _try_pass(state, ballot, at, events):
                changed = True


def _try_pass(state: State, ballot: dict[str, Any], at: str, events: list[dict[str, Any]]) -> bool:
    decree = ballot["decree"]
    option = winning_option(state, ballot)
    if option is None or target_problem(state, decree, option["target"]):
        return False
    price = cost(decree, option.get("gold"))
    if price > state["coffer"]:
        return False
    if decree != "stimulus" and state["allowances"][decree] < 1:
        return False
    if decree == "grant_life" and len(council(state)) < GRANT_LIFE_MEMBERS:
        return False
    state["coffer"] -= price
    if decree != "stimulus":
        state["allowances"][decree] -= 1
    target = tank(state, option["target"])
    who = name(state, option["target"])
    if decree == "stimulus":
        target["ap"] += 1
        text = Text(words.STIMULUS_TO, {"name": who})
    elif decree == "bounty":
        target["bounty"] += option["gold"]
        text = Text(words.BOUNTY_ON, {"gold": option["gold"], "name": who})
    else:
        text = Text(words.GRANT_LIFE_TO, {"name": who})
        if target["status"] == "dead":
            target.update(status="alive", lives=1, ap=0, durability=0)
            state["deaths"].remove(target["seat"])
            for other in state["ballots"]:
                other["votes"].pop(str(target["seat"]), None)
        else:
            target["lives"] += 1
    ballot["status"] = "passed"
    ballot["passed"] = option
    forget_finished(state, keep=FINISHED_BALLOTS_KEPT)
    add_log(
        state,
        {
            "at": at,
            "kind": "decree",
            "seat": None,
            "action": {"ballot": ballot["id"], **option},
            "dice": [],
            "text": str(Text(words.DECREE, {"decree": text})),
        },
        events,
    )
    return True


def forget_finished(state: State, keep: int) -> None:
    """Drop all but the latest ``keep`` finished ballots: the logbook tells their story, and the
    state stays bounded however many decrees a long match passes."""
    finished = [b["id"] for b in state["ballots"] if b["status"] != "open"]
    gone = set(finished[: max(0, len(finished) - keep)])
    if gone:
        state["ballots"] = [b for b in state["ballots"] if b["id"] not in gone]


def close_all(state: State, at: str, events: list[dict[str, Any]]) -> None:
    """The end of a gameday closes every open ballot (and forgets them: a new day, a new
    Council panel)."""
    for ballot in state["ballots"]:
        if ballot["status"] == "open":
            ballot["status"] = "closed"
            add_log(
                state,
                {
                    "at": at,
                    "kind": "ballot",
                    "seat": None,
                    "action": {"ballot": ballot["id"]},
                    "dice": [],
                    "text": str(Text(words.BALLOT_CLOSED, {
                        "ballot": ballot["id"], "decree": DECREE_NAMES[ballot["decree"]]})),
                },
                events,
            )
    forget_finished(state, keep=0)
