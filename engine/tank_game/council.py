"""The Council: members and weights, ballots for Stimulus / Bounty / Grant Life, thresholds,
daily allowances (rulings, "The Council")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Problem, State
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
DECREE_NAMES = {"stimulus": "Stimulus", "bounty": "Bounty", "grant_life": "Grant Life"}
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
            Problem("", f"Unknown keys for {kind}: {', '.join(sorted(map(str, unknown)))}.")
        )
    members = council(state)
    if seat not in members:
        problems.append(
            Problem("council", "Only Council members (dead or destroyed tanks) vote on decrees.")
        )
    decree: str | None = None
    if kind == "open_ballot":
        raw = action.get("decree")
        if raw not in DECREES:
            problems.append(Problem("decree", "The decree is stimulus, bounty or grant_life."))
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
                        f"The Council may decree only one {DECREE_NAMES[decree]} per gameday.",
                    )
                )
    else:
        raw = action.get("ballot")
        ballot = next(
            (b for b in state["ballots"] if not isinstance(raw, bool) and b["id"] == raw), None
        )
        if ballot is None and isinstance(raw, int) and 1 <= raw < state["next_ballot"]:
            problems.append(Problem("ballot", f"Ballot {raw} is over; votes are closed."))
        elif ballot is None:
            problems.append(Problem("ballot", f"There is no ballot {raw!r}."))
        elif ballot["status"] != "open":
            out["ballot"] = raw
            problems.append(
                Problem("ballot", f"Ballot {raw} is {ballot['status']}; votes are closed.")
            )
        else:
            out["ballot"] = raw
            decree = ballot["decree"]
    if decree == "grant_life" and len(members) < GRANT_LIFE_MEMBERS:
        problems.append(
            Problem(
                "decree",
                f"Grant Life needs a Council of at least {GRANT_LIFE_MEMBERS} members; "
                f"it has {len(members)}.",
            )
        )
    target = action.get("target")
    if isinstance(target, bool) or not isinstance(target, int) or str(target) not in state["tanks"]:
        problems.append(Problem("target", f"{target!r} is not a seat in this match."))
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
            problems.append(Problem("gold", f"A bounty is {low} to {high} gold."))
        else:
            out["gold"] = gold
    elif "gold" in action and decree is not None:
        problems.append(Problem("gold", f"{DECREE_NAMES[decree]} has no gold amount to vote on."))
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
            text = (
                f"{who} opened ballot {ballot['id']} ({DECREE_NAMES[ballot['decree']]}) and voted"
            )
        else:
            text = f"{who} voted on ballot {ballot['id']} ({DECREE_NAMES[ballot['decree']]})"
    else:
        ballot = next(b for b in state["ballots"] if b["id"] == action["ballot"])
        text = f"{who} voted on ballot {ballot['id']} ({DECREE_NAMES[ballot['decree']]})"
    ballot["votes"][str(seat)] = vote
    add_log(state, dict(entry, text=f"Council — {text}"), events)


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
        text = f"Stimulus to {who}"
    elif decree == "bounty":
        target["bounty"] += option["gold"]
        text = f"{option['gold']} Gold Bounty on {who}"
    else:
        text = f"Grant Life to {who}"
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
            "text": f"Council Decree — {text}",
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
                    "text": f"Council — Ballot {ballot['id']} "
                    f"({DECREE_NAMES[ballot['decree']]}) closed without passing",
                },
                events,
            )
    forget_finished(state, keep=0)
