"""The sealed setup: terrain and unit placement, validation, the default layout, the reveal.

Setup submission (``tokens`` only with the draft-k token mode)::

    {"terrain": {"large_berm": ["c3", "d3"], "small_berms": ["f2", "h3"],
                 "swamp": ["a5", "b5", "a6", "b6"],
                 "minefield": {"squares": ["g5", "h5", "i5"], "passage": "h5", "arrow": "N"}},
     "units": {"C": {"at": "e1", "facing": "N"}, "1": {"at": "c2"}, ...},
     "tokens": ["smoke", "air_strike", "quick_sand"]}

Every unit must be placed; ``facing`` defaults to the side's forward facing (Alpha N, Delta S;
the R unit always faces forward). The normal form lists squares in board order (a1, b1, ...,
l12), every unit in the order C 1 1A 1B 2 2A 2B (AT1 AT2 R) with its facing, and tokens in the
order air_strike full_throttle quick_shot mine_clearing smoke quick_sand red_cross.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Problem, RuleError, Text, ngettext, pgettext
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.checks import unknown_fields
from engine.final_act.stacking import stack_problem
from engine.final_act.units import TOKENS, kind_of, label, unit_names

State = dict[str, Any]

# The setup's pieces as its problems name them ("The swamp overlaps the large berm on c3.").
PIECES = {
    "large berm": pgettext("setup piece", "large berm"),
    "pair of small berms": pgettext("setup piece", "pair of small berms"),
    "small berm": pgettext("setup piece", "small berm"),
    "swamp": pgettext("setup piece", "swamp"),
    "minefield": pgettext("setup piece", "minefield"),
}

# The default layout for Alpha (Delta's is the mirror image, rank r <-> 13 - r, facing S).
DEFAULT_TERRAIN = {
    "large_berm": ["e3", "f3"],
    "small_berms": ["b3", "j3"],
    "swamp": ["a5", "b5", "a6", "b6"],
    "minefield": {"squares": ["j5", "k5", "l5"], "passage": "k5", "arrow": "N"},
}
DEFAULT_UNITS = {
    "C": "f2",
    "1": "c2",
    "1A": "b2",
    "1B": "d2",
    "2": "h2",
    "2A": "i2",
    "2B": "j2",
    "AT1": "e2",
    "AT2": "g2",
    "R": "f1",
}


def _mirror(square_name: str, seat: int) -> str:
    if seat == 1:
        return square_name
    sq = board.parse(square_name)
    assert sq is not None
    file, rank = board.coords(sq)
    return board.name(board.square(file, board.SIZE - 1 - rank))


def default_setup(seat: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The fixed legal layout a side gets when it misses the setup deadline.

    Alpha: large berm e3-f3, small berms b3 and j3, swamp a5-b6, minefield j5-l5 with its
    passage k5 heading N; tanks C f2, 1 c2, 1A b2, 1B d2, 2 h2, 2A i2, 2B j2 (Extra Forces:
    AT1 e2, AT2 g2, R f1), all facing N. Delta: the same mirrored (rank r -> 13 - r), facing S.
    With draft-k tokens it drafts the first k tokens in the usual order.
    """
    m = DEFAULT_TERRAIN["minefield"]
    assert isinstance(m, dict)
    terrain = {
        "large_berm": [_mirror(s, seat) for s in DEFAULT_TERRAIN["large_berm"]],
        "small_berms": [_mirror(s, seat) for s in DEFAULT_TERRAIN["small_berms"]],
        "swamp": [_mirror(s, seat) for s in DEFAULT_TERRAIN["swamp"]],
        "minefield": {
            "squares": [_mirror(s, seat) for s in m["squares"]],
            "passage": _mirror(m["passage"], seat),
            "arrow": m["arrow"] if seat == 1 else "S",
        },
    }
    names = unit_names(bool(options.get("extra_forces")))
    units = {
        n: {"at": _mirror(DEFAULT_UNITS[n], seat), "facing": board.forward(seat)} for n in names
    }
    sub: dict[str, Any] = {"terrain": terrain, "units": units}
    tokens = options.get("tokens")
    if tokens and tokens["mode"] == "draft-k":
        sub["tokens"] = list(TOKENS[: tokens["k"]])
    return validate_setup(seat, options, sub)


class SetupReader:
    def __init__(self, seat: int, options: Mapping[str, Any]) -> None:
        self.seat = seat
        self.options = options
        self.problems: list[Problem] = []
        self.used: dict[int, str] = {}

    def bad(self, path: str, message: str | Text, params: Mapping[str, Any] | None = None
            ) -> None:
        self.problems.append(Problem(path, message, params))

    def squares(self, value: Any, count: int, path: str, what: str) -> list[int] | None:
        if not isinstance(value, list) or len(value) != count:
            self.bad(path, ngettext("The %(what)s needs exactly %(count)s square.",
                                    "The %(what)s needs exactly %(count)s squares.", "count",
                                    {"what": PIECES[what], "count": count}))
            return None
        out = []
        for i, item in enumerate(value):
            sq = board.parse(item)
            if sq is None:
                self.bad(f"{path}.{i}", _("%(value)s is not a square (a1 to l12)."),
                         {"value": board.show(item)})
                return None
            out.append(sq)
        if len(set(out)) != len(out):
            self.bad(path, _("The %(what)s lists a square twice."), {"what": PIECES[what]})
            return None
        return sorted(out)

    def claim(self, squares: list[int], path: str, what: str, rows: int) -> None:
        for sq in squares:
            if board.row(self.seat, sq) > rows:
                message = (_("The %(what)s must lie within your own half; %(square)s does not.")
                           if rows == 6 else
                           _("The %(what)s must lie within rows 1-%(rows)s of your side; "
                             "%(square)s does not."))
                self.bad(path, message, {"what": PIECES[what], "rows": rows,
                                         "square": board.name(sq)})
                return
        for sq in squares:
            if sq in self.used:
                self.bad(path, _("The %(what)s overlaps the %(other)s on %(square)s."),
                         {"what": PIECES[what], "other": PIECES[self.used[sq]],
                          "square": board.name(sq)})
                return
        for sq in squares:
            self.used[sq] = what

    def read(self, sub: Any) -> dict[str, Any]:
        if not isinstance(sub, Mapping):
            raise RuleError([Problem("", _("A setup must be an object with terrain and units."))])
        draft = self.options.get("tokens") and self.options["tokens"]["mode"] == "draft-k"
        allowed = ("terrain", "units", "tokens") if draft else ("terrain", "units")
        self.problems.extend(unknown_fields(sub, allowed, "", "setup field"))
        terrain = self.terrain(sub.get("terrain"))
        units = self.units(sub.get("units"), terrain)
        result: dict[str, Any] = {"terrain": terrain, "units": units}
        if draft:
            result["tokens"] = self.tokens(sub.get("tokens"))
        if self.problems:
            raise RuleError(self.problems)
        return result

    def terrain(self, raw: Any) -> dict[str, Any]:
        if not isinstance(raw, Mapping):
            self.bad("terrain", _("The terrain must be an object with large_berm, small_berms, "
                                  "swamp, minefield."))
            return {}
        pieces = ("large_berm", "small_berms", "swamp", "minefield")
        self.problems.extend(unknown_fields(raw, pieces, "terrain", "terrain piece"))
        out: dict[str, Any] = {}
        large = self.squares(raw.get("large_berm"), 2, "terrain.large_berm", "large berm")
        if large is not None:
            (ax, ay), (bx, by) = board.coords(large[0]), board.coords(large[1])
            if abs(ax - bx) + abs(ay - by) != 1:
                self.bad("terrain.large_berm",
                         _("The large berm's two squares must be orthogonally adjacent."))
            self.claim(large, "terrain.large_berm", "large berm", 3)
            out["large_berm"] = [board.name(s) for s in large]
        small = self.squares(
            raw.get("small_berms"), 2, "terrain.small_berms", "pair of small berms"
        )
        if small is not None:
            self.claim(small, "terrain.small_berms", "small berm", 3)
            out["small_berms"] = [board.name(s) for s in small]
        swamp = self.squares(raw.get("swamp"), 4, "terrain.swamp", "swamp")
        if swamp is not None:
            files = sorted({board.coords(s)[0] for s in swamp})
            ranks = sorted({board.coords(s)[1] for s in swamp})
            if (
                len(files) != 2
                or len(ranks) != 2
                or files[1] - files[0] != 1
                or ranks[1] - ranks[0] != 1
            ):
                self.bad("terrain.swamp", _("The swamp must be a 2 x 2 block of squares."))
            self.claim(swamp, "terrain.swamp", "swamp", 6)
            out["swamp"] = [board.name(s) for s in swamp]
        mine = raw.get("minefield")
        if not isinstance(mine, Mapping):
            self.bad("terrain.minefield", _("The minefield needs squares, passage and arrow."))
            return out
        self.problems.extend(
            unknown_fields(mine, ("squares", "passage", "arrow"), "terrain.minefield")
        )
        cells = self.squares(mine.get("squares"), 3, "terrain.minefield.squares", "minefield")
        passage = board.parse(mine.get("passage"))
        arrow = mine.get("arrow")
        if arrow not in board.FACINGS:
            self.bad("terrain.minefield.arrow", _("The minefield's arrow must be N, E, S or W."))
        if cells is not None:
            coords = [board.coords(s) for s in cells]
            xs, ys = {c[0] for c in coords}, {c[1] for c in coords}
            straight = (len(xs) == 1 and max(ys) - min(ys) == 2) or (
                len(ys) == 1 and max(xs) - min(xs) == 2
            )
            if not straight:
                self.bad("terrain.minefield.squares",
                         _("The minefield must be 3 squares in a straight line."))
            self.claim(cells, "terrain.minefield.squares", "minefield", 6)
            if passage is None or passage not in cells:
                self.bad("terrain.minefield.passage",
                         _("The passage must be one of the minefield's squares."))
            elif arrow in board.FACINGS:
                out["minefield"] = {
                    "squares": [board.name(s) for s in cells],
                    "passage": board.name(passage),
                    "arrow": arrow,
                }
        return out

    def units(self, raw: Any, terrain: dict[str, Any]) -> dict[str, Any]:
        names = unit_names(bool(self.options.get("extra_forces")))
        if not isinstance(raw, Mapping):
            self.bad("units", _("Place every unit: %(units)s."), {"units": ", ".join(names)})
            return {}
        blocked = set(terrain.get("swamp", [])) | set(
            terrain.get("minefield", {}).get("squares", [])
        )
        out: dict[str, Any] = {}
        placed: dict[str, list[dict[str, Any]]] = {}
        self.problems.extend(unknown_fields(raw, names, "units", "unit"))
        for name in names:
            path = f"units.{name}"
            if name not in raw:
                self.bad(path, _("%(unit)s must be placed."), {"unit": label(name)})
                continue
            spec = raw[name]
            if not isinstance(spec, Mapping):
                self.bad(path, _('%(unit)s needs an object like {"at": "e1", "facing": "N"}.'),
                         {"unit": label(name)})
                continue
            self.problems.extend(unknown_fields(spec, ("at", "facing"), path))
            sq = board.parse(spec.get("at"))
            facing = spec.get("facing", board.forward(self.seat))
            if facing not in board.FACINGS:
                self.bad(f"{path}.facing", _("%(value)s is not a facing (N, E, S or W)."),
                         {"value": board.show(facing)})
            elif kind_of(name) == "r" and facing != board.forward(self.seat):
                self.bad(f"{path}.facing",
                         _("The R unit always faces %(facing)s; its facing does not matter."),
                         {"facing": board.forward(self.seat)})
            if sq is None:
                self.bad(f"{path}.at", _("%(value)s is not a square (a1 to l12)."),
                         {"value": board.show(spec.get("at"))})
                continue
            sname = board.name(sq)
            if board.row(self.seat, sq) > 3:
                self.bad(f"{path}.at",
                         _("%(unit)s must start within rows 1-3 of your side; %(square)s is not."),
                         {"unit": label(name), "square": sname})
            elif sname in blocked:
                self.bad(f"{path}.at", _("%(unit)s cannot start on %(square)s: it is a swamp or "
                                         "minefield square."),
                         {"unit": label(name), "square": sname})
            out[name] = {"at": sname, "facing": facing}
            placed.setdefault(sname, []).append(
                {"seat": self.seat, "kind": kind_of(name), "state": "active", "name": name}
            )
        for sname in sorted(placed, key=lambda s: board.parse(s) or 0):
            reason = stack_problem(placed[sname], at_start=True)
            if reason:
                who = ", ".join(u["name"] for u in placed[sname])
                self.bad(f"units.{placed[sname][-1]['name']}.at",
                         _("%(units)s cannot all start on %(square)s: %(reason)s."),
                         {"units": who, "square": sname, "reason": reason})
        return out

    def tokens(self, raw: Any) -> list[str]:
        k = self.options["tokens"]["k"]
        if not isinstance(raw, list) or len(raw) != k:
            self.bad("tokens", _("Draft exactly %(count)s different tokens from: %(tokens)s."),
                     {"count": k, "tokens": ", ".join(TOKENS)})
            return []
        for i, token in enumerate(raw):
            if token not in TOKENS:
                self.bad(f"tokens.{i}", _("Unknown token %(token)s; tokens: %(tokens)s."),
                         {"token": board.show(token), "tokens": ", ".join(TOKENS)})
        if len({t for t in raw if isinstance(t, str)}) != k:
            self.bad("tokens", _("Each token may be drafted only once."))
        return [t for t in TOKENS if t in raw]


def validate_setup(seat: int, options: Mapping[str, Any], sub: Any) -> dict[str, Any]:
    """The normal form of a setup submission, or RuleError listing every problem."""
    return SetupReader(seat, options).read(sub)


# The reveal of a setup (an event's "text", read back by the report: see ``Phrasebook``).
DEPLOYED = _("%(side)s deployed: large berm %(berm)s, small berms %(berms)s, swamp %(swamp)s, "
             "minefield %(minefield)s (passage %(passage)s heading %(arrow)s); %(units)s.")


def apply_setups(state: State, setups: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """Reveal both setups: place terrain and units, open round 1 (mutates ``state``)."""
    events: list[dict[str, Any]] = []
    for seat in board.SEATS:
        sub = setups[seat]
        t = sub["terrain"]
        state["terrain"].append({"kind": "berm", "owner": seat, "squares": list(t["large_berm"])})
        for sq in t["small_berms"]:
            state["terrain"].append({"kind": "berm", "owner": seat, "squares": [sq]})
        state["terrain"].append({"kind": "swamp", "owner": seat, "squares": list(t["swamp"])})
        m = t["minefield"]
        state["terrain"].append(
            {
                "kind": "minefield",
                "owner": seat,
                "squares": list(m["squares"]),
                "passage": m["passage"],
                "arrow": m["arrow"],
            }
        )
        for name, spec in sub["units"].items():
            state["units"].append(
                {
                    "seat": seat,
                    "name": name,
                    "kind": kind_of(name),
                    "at": spec["at"],
                    "facing": spec["facing"],
                    "hits": 0,
                    "state": "active",
                }
            )
        if "tokens" in sub:
            state["tokens"][str(seat)] = list(sub["tokens"])
        placed = ", ".join(f"{n} {s['at']}" for n, s in sub["units"].items())
        events.append(
            {
                "type": "setup",
                "seat": seat,
                "terrain": t,
                "units": sub["units"],
                "text": str(Text(DEPLOYED, {
                    "side": board.SEAT_NAMES[seat], "berm": " ".join(t["large_berm"]),
                    "berms": " ".join(t["small_berms"]), "swamp": " ".join(t["swamp"]),
                    "minefield": " ".join(m["squares"]), "passage": m["passage"],
                    "arrow": m["arrow"], "units": placed})),
            }
        )
    state["units"].sort(key=lambda u: (u["seat"], unit_names(True).index(u["name"])))
    state["phase"] = "orders"
    state["round"] = 1
    state["last_round"] = events
    return events
