"""Built-in Final Act bots: ``random`` and ``greedy``.

Both read the match only through the game's public api (``legal_actions`` and ``view``) and draw
every random choice from the ``rng`` they are given. Whatever they return has passed
``game.validate``: a sheet that does not (an interaction such as an air strike paid by a tank
that also fires) is retried without its extras, and as a last resort the seat's default sheet
is played.

- ``random``: for every unit a uniformly random legal option; random legal shells; now and then
  a token or declaration when legal. In the setup phase a random legal layout.
- ``greedy``: predicts where each enemy unit may be after this round's movement (its legal
  destinations, forward moves likelier) and shells the squares where hits are most likely;
  moves every unit towards the enemy's last line along the shortest passable route, avoiding
  squares the enemy is likely to shell. The enemy's legal moves come from the public position
  (squares, facings, terrain and tokens on the board), as a player across the table would work
  them out.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.base import Game, Problem, RuleError, State, Submission
from engine.final_act import board

BOTS = ("random", "greedy")

SLUG = "final-act"
LIVE = ("ok", "damaged", "repairing")

Candidate = Callable[[], Submission]


def bot_submission(state: State, seat: int, bot_name: str, rng: random.Random) -> Submission:
    """The sheet bot ``bot_name`` plays for ``seat`` in the current phase (validated)."""
    if bot_name not in BOTS:
        raise RuleError([Problem("bot", f"Unknown bot {bot_name!r}; known: {', '.join(BOTS)}.")])
    game = _game()
    legal = game.legal_actions(state, seat)
    phase = legal.get("phase")
    if phase == "setup":
        make = _random_setup if bot_name == "random" else _greedy_setup

        def layout() -> Submission:
            return make(legal, seat, rng)

        candidates = [layout] * 8
    elif phase == "orders":
        planner: _RandomOrders | _GreedyOrders
        if bot_name == "random":
            planner = _RandomOrders(legal, rng)
        else:
            planner = _GreedyOrders(game, state, seat, legal, rng)
        candidates = [planner.full, planner.full, planner.plain, planner.moves_only]
    else:
        return {}
    for make_sheet in candidates:
        try:
            return game.validate(state, seat, make_sheet())
        except RuleError:
            continue
    return game.validate(state, seat, game.default_submission(state, seat))


def _game() -> Game:
    from engine import get

    return get(SLUG)


# -- setup -----------------------------------------------------------------------------------


def _orthogonal(sq: int) -> list[int]:
    return [n for v in board.VECTORS.values() if (n := board.step(sq, v)) is not None]


def _random_setup(legal: Mapping[str, Any], seat: int, rng: random.Random) -> Submission:
    """A random layout within the squares ``legal_actions`` allows."""
    return _layout(legal, seat, rng, unit_row_weight=lambda row: 1.0, flank_terrain=False)


def _greedy_setup(legal: Mapping[str, Any], seat: int, rng: random.Random) -> Submission:
    """Units spread along the front rows, terrain out of their way on the flanks."""
    return _layout(legal, seat, rng, unit_row_weight=lambda row: 4.0**row, flank_terrain=True)


def _layout(
    legal: Mapping[str, Any],
    seat: int,
    rng: random.Random,
    unit_row_weight: Callable[[int], float],
    flank_terrain: bool,
) -> Submission:
    berm_squares = _squares(legal.get("berm_squares", []))
    half_squares = _squares(legal.get("half_squares", []))
    unit_squares = _squares(legal.get("unit_squares", []))
    taken: set[int] = set()

    def free(squares: Iterable[int]) -> list[int]:
        return [sq for sq in squares if sq not in taken]

    def flank_first(squares: list[int]) -> list[int]:
        if not flank_terrain:
            return squares
        edge = [sq for sq in squares if board.coords(sq)[0] in (0, 1, 10, 11)]
        return edge or squares

    # Terrain where units stand is no obstacle for them: swamp and minefield go deep and wide.
    def deep(squares: list[int]) -> list[int]:
        if not flank_terrain:
            return squares
        rows = [board.row(seat, sq) for sq in squares]
        return [sq for sq, r in zip(squares, rows, strict=True) if r >= 5] or squares

    swamp = _pick_block(free(flank_first(deep(half_squares))), set(half_squares) - taken, rng)
    taken.update(swamp)
    minefield = _pick_line(free(flank_first(deep(half_squares))), set(half_squares) - taken, rng)
    taken.update(minefield)
    large = _pick_pair(free(berm_squares), set(berm_squares) - taken, rng)
    taken.update(large)
    small = rng.sample(free(berm_squares), 2) if len(free(berm_squares)) >= 2 else []
    taken.update(small)

    blocked = set(swamp) | set(minefield)
    spots = [sq for sq in unit_squares if sq not in blocked]
    units: dict[str, Any] = {}
    facing = board.forward(seat)
    for unit in legal.get("units", []):
        if not spots:
            break
        weights = [unit_row_weight(board.row(seat, sq)) for sq in spots]
        at = rng.choices(spots, weights=weights)[0]
        spots.remove(at)
        units[unit] = {"at": board.name(at), "facing": facing}

    terrain: dict[str, Any] = {
        "large_berm": [board.name(sq) for sq in large],
        "small_berms": [board.name(sq) for sq in small],
        "swamp": [board.name(sq) for sq in swamp],
    }
    if minefield:
        passage = minefield[1]
        across = _across(minefield)
        arrow = board.forward(seat) if across in ("N", "S") else rng.choice(("E", "W"))
        if not flank_terrain:
            arrow = rng.choice(board.FACINGS)
        terrain["minefield"] = {
            "squares": [board.name(sq) for sq in minefield],
            "passage": board.name(passage),
            "arrow": arrow,
        }
    sheet: Submission = {"terrain": terrain, "units": units}
    draft = legal.get("tokens_to_draft") or 0
    choices = list(legal.get("token_choices") or [])
    if draft and len(choices) >= draft:
        sheet["tokens"] = rng.sample(choices, draft)
    return sheet


def _squares(names: Iterable[str]) -> list[int]:
    return [sq for n in names if (sq := board.parse(n)) is not None]


def _pick_pair(starts: list[int], allowed: set[int], rng: random.Random) -> list[int]:
    pairs = [[a, b] for a in starts for b in _orthogonal(a) if b in allowed and a < b]
    return rng.choice(pairs) if pairs else []


def _pick_block(starts: list[int], allowed: set[int], rng: random.Random) -> list[int]:
    """A 2 x 2 block of allowed squares (lowest-left corner among ``starts``)."""
    blocks = []
    for sq in starts:
        file, rank = board.coords(sq)
        block = [board.square(file + dx, rank + dy) for dy in (0, 1) for dx in (0, 1)]
        if file + 1 < board.SIZE and rank + 1 < board.SIZE and all(b in allowed for b in block):
            blocks.append(block)
    return rng.choice(blocks) if blocks else []


def _pick_line(starts: list[int], allowed: set[int], rng: random.Random) -> list[int]:
    """Three allowed squares in a straight line, along a rank or a file."""
    lines = []
    for sq in starts:
        for vector in ((1, 0), (0, 1)):
            second = board.step(sq, vector)
            third = board.step(second, vector) if second is not None else None
            if second in allowed and third in allowed and third is not None:
                lines.append([sq, second, third])
    return rng.choice(lines) if lines else []


def _across(line: list[int]) -> str:
    """The direction that crosses a minefield line: N/S for one along a rank, E/W otherwise."""
    return "N" if board.coords(line[0])[1] == board.coords(line[1])[1] else "E"


# -- orders: random --------------------------------------------------------------------------


class _RandomOrders:
    """Uniformly random legal choices, with the occasional token or declaration."""

    TOKEN_CHANCE = 0.08
    DECLARE_CHANCE = 0.15
    FIRE_CHANCE = 0.9

    def __init__(self, legal: Mapping[str, Any], rng: random.Random) -> None:
        self.legal = legal
        self.rng = rng

    def moves_only(self) -> Submission:
        units = self.legal.get("units", {})
        return {"units": {name: self._move(info) for name, info in units.items()}}

    def plain(self) -> Submission:
        units = self.legal.get("units", {})
        return {"units": {name: self._unit(info, shells=1) for name, info in units.items()}}

    def full(self) -> Submission:
        sheet = self.plain()
        rng = self.rng
        units = self.legal.get("units", {})
        declare: dict[str, Any] = {}
        for name, options in (self.legal.get("declare") or {}).items():
            if options and rng.random() < self.DECLARE_CHANCE:
                unit = rng.choice(list(options))
                declare[name] = unit
                if name == "repair":
                    sheet["units"][unit] = {"move": "stay"}
                elif name == "double_shot" and unit in units:
                    sheet["units"][unit] = self._unit(units[unit], shells=2)
        tokens: dict[str, Any] = {}
        for name, choice in (self.legal.get("tokens") or {}).items():
            if rng.random() < self.TOKEN_CHANCE:
                entry = _token_entry(name, choice, units, rng)
                if entry is not None:
                    tokens[name] = entry
        if tokens:
            sheet["tokens"] = tokens
        if declare:
            sheet["declare"] = declare
        return sheet

    def _move(self, info: Mapping[str, Any]) -> dict[str, Any]:
        moves = info.get("moves") or []
        if not moves:
            return {}
        move = self.rng.choice(moves)
        order: dict[str, Any] = {"move": move["move"]}
        if move.get("turn"):
            order["turn"] = True
        return order

    def _unit(self, info: Mapping[str, Any], shells: int) -> dict[str, Any]:
        rng = self.rng
        fire = info.get("fire") or []
        can_fire = bool(fire) and info.get("shells", 0) > 0 and rng.random() < self.FIRE_CHANCE
        if info.get("kind") == "at":
            order = {} if can_fire and rng.random() < 0.5 else self._move(info)
            if "move" not in order and can_fire:
                order["fire"] = [rng.choice(fire)]
            faces = info.get("faces") or []
            if faces and rng.random() < 0.3:
                order["face"] = rng.choice(faces)
            return order
        order = self._move(info)
        if can_fire:
            order["fire"] = [rng.choice(fire) for _ in range(shells)]
        return order


def _token_entry(
    name: str, choice: Mapping[str, Any], units: Mapping[str, Any], rng: random.Random
) -> dict[str, Any] | None:
    """A random use of token ``name`` from what ``legal_actions`` offers for it."""
    at = list(choice.get("at") or [])
    names = list(choice.get("units") or [])
    if name == "red_cross":
        activate = list(choice.get("activate") or [])
        if activate and (not at or rng.random() < 0.5):
            return {"activate": rng.choice(activate)}
        return {"at": rng.choice(at)} if at else None
    if name in ("smoke", "mine_clearing", "quick_sand"):
        return {"at": rng.choice(at)} if at else None
    if name == "full_throttle":
        return {"unit": rng.choice(names)} if names else None
    if name == "quick_shot":
        shooters = [n for n in names if (units.get(n) or {}).get("fire")]
        if not shooters:
            return None
        unit = rng.choice(shooters)
        return {"unit": unit, "fire": [rng.choice(units[unit]["fire"]) for _ in range(2)]}
    if name == "air_strike":
        files = choice.get("fire") or {}
        if not at:
            return None
        square = rng.choice(at)
        targets = list(files.get(square, [])) if isinstance(files, Mapping) else []
        if not targets:
            return None
        payers = list(choice.get("paid_by") or [])
        count = min(len(payers), 2, len(targets))
        if count == 0:
            return None
        paid_by = rng.sample(payers, count)
        return {"at": square, "fire": rng.sample(targets, count), "paid_by": paid_by}
    return None


# -- orders: greedy --------------------------------------------------------------------------


class _GreedyOrders:
    """One-round look-ahead: shell where enemies will likely be, advance where shells are not."""

    def __init__(
        self,
        game: Game,
        state: State,
        seat: int,
        legal: Mapping[str, Any],
        rng: random.Random,
    ) -> None:
        self.rng = rng
        self.seat = seat
        self.legal = legal
        view = game.view(state, seat)
        enemy = board.enemy(seat)
        self.enemy_legal = game.legal_actions(state, enemy).get("units", {})
        self.own: dict[str, dict[str, Any]] = {}
        self.enemies: dict[str, dict[str, Any]] = {}
        for unit in view.get("units", []):
            if unit.get("status") not in LIVE or unit.get("at") is None:
                continue
            if unit.get("seat") == seat:
                self.own[unit["name"]] = unit
            else:
                self.enemies[unit["name"]] = unit
        self.distance = _distance_to_line(view.get("terrain", []), seat)
        self.enemy_presence = self._predict_enemies(enemy)
        self.danger = self._danger()
        self._plan: Submission | None = None

    # Where will the enemy be? --------------------------------------------------------------
    def _predict_enemies(self, enemy: int) -> dict[str, dict[int, float]]:
        """For each enemy unit, the probability of each square it may end this round on."""
        presence: dict[str, dict[int, float]] = {}
        for name, unit in self.enemies.items():
            here = board.parse(unit["at"])
            if here is None:
                continue
            moves = (self.enemy_legal.get(name) or {}).get("moves") or []
            weights: dict[int, float] = {}
            for move in moves:
                to = board.parse(move.get("to") or unit["at"])
                if to is None:
                    continue
                advance = board.row(enemy, to) - board.row(enemy, here)
                # One weight per destination: a move with and without a turn ends alike.
                weights[to] = 1.6 if advance > 0 else 1.0
            total = sum(weights.values())
            presence[name] = {sq: w / total for sq, w in weights.items()} if total else {here: 1.0}
        return presence

    def _danger(self) -> dict[int, float]:
        """Expected enemy shells per square: each shooter spreads its shell over the squares of
        its cone where our units may stand."""
        reachable: set[int] = set()
        for name in self.own:
            for move in (self.legal.get("units", {}).get(name) or {}).get("moves") or []:
                if (to := board.parse(move.get("to"))) is not None:
                    reachable.add(to)
        danger: dict[int, float] = {}
        for info in self.enemy_legal.values():
            if not info.get("shells"):
                continue
            cone = [sq for n in info.get("fire") or [] if (sq := board.parse(n)) is not None]
            aimed = [sq for sq in cone if sq in reachable] or cone
            for sq in aimed:
                danger[sq] = danger.get(sq, 0.0) + info["shells"] / len(aimed)
        return danger

    # The sheet ----------------------------------------------------------------------------
    def full(self) -> Submission:
        if self._plan is None:
            self._plan = self._make_plan(extras=True)
        return self._plan

    def plain(self) -> Submission:
        return self._make_plan(extras=False)

    def moves_only(self) -> Submission:
        sheet = self._make_plan(extras=False)
        for order in sheet["units"].values():
            order.pop("fire", None)
        return sheet

    def _make_plan(self, extras: bool) -> Submission:
        units_legal: Mapping[str, Any] = self.legal.get("units", {})
        orders: dict[str, dict[str, Any]] = {}
        claimed = {board.parse(u["at"]) for u in self.own.values()}
        ordered = sorted(units_legal, key=lambda n: self._progress_key(n))
        for name in ordered:
            orders[name] = self._move(name, units_legal[name], claimed)
        self._fire(orders, units_legal, extras)
        sheet: Submission = {"units": orders}
        if extras:
            self._extras(sheet, units_legal)
        return sheet

    def _progress_key(self, name: str) -> int:
        unit = self.own.get(name)
        sq = board.parse(unit["at"]) if unit else None
        return self.distance.get(sq, 99) if sq is not None else 99

    def _move(self, name: str, info: Mapping[str, Any], claimed: set[int | None]) -> dict[str, Any]:
        unit = self.own.get(name)
        here = board.parse(unit["at"]) if unit else None
        best: tuple[float, dict[str, Any]] | None = None
        best_to: int | None = here
        forward = board.forward(self.seat)
        cautious = 3.0 if unit and unit.get("hits") else 1.5
        for move in info.get("moves") or []:
            to = board.parse(move.get("to"))
            if to is None:
                continue
            if to != here and to in claimed:
                continue
            score = -float(self.distance.get(to, 40))
            if board.enemy_last_line(self.seat, to):
                score += 50.0
            score -= cautious * self.danger.get(to, 0.0)
            if info.get("kind") == "tank" and move.get("facing") == forward:
                score += 0.6
            score += self.rng.random() * 0.05  # break ties without favouring the list order
            if best is None or score > best[0]:
                order: dict[str, Any] = {"move": move["move"]}
                if move.get("turn"):
                    order["turn"] = True
                best, best_to = (score, order), to
        if best_to is not None and best_to != here:
            claimed.discard(here)
            claimed.add(best_to)
        return best[1] if best else {}

    def _fire(
        self, orders: dict[str, dict[str, Any]], units_legal: Mapping[str, Any], extras: bool
    ) -> None:
        """Shell the squares with the highest expected value, one shell at a time."""
        expected_hits: dict[str, float] = {}

        def value(square: int) -> float:
            total = 0.0
            for name, presence in self.enemy_presence.items():
                chance = presence.get(square, 0.0)
                if chance:
                    unit = self.enemies[name]
                    worth = 2.0 if unit.get("hits") else 1.2
                    if name.startswith("AT") or name == "R":
                        worth = 0.8
                    worth *= 1.0 + 3.0 / (1 + board.row(self.seat, square))
                    total += chance * worth * 0.5 ** expected_hits.get(name, 0.0)
            return total

        def aim(name: str, shells: int) -> list[str]:
            fire = units_legal[name].get("fire") or []
            picked: list[str] = []
            for _ in range(shells):
                scored = [(value(sq), n) for n in fire if (sq := board.parse(n)) is not None]
                if not scored:
                    break
                best_value, best_name = max(scored)
                if best_value <= 0 and picked:
                    break
                picked.append(best_name)
                square = board.parse(best_name)
                for enemy, presence in self.enemy_presence.items():
                    if square in presence:
                        expected_hits[enemy] = expected_hits.get(enemy, 0.0) + presence[square]
            return picked

        for name, info in units_legal.items():
            if not info.get("shells") or not info.get("fire"):
                continue
            order = orders[name]
            if info.get("kind") == "at":
                # An AT unit fires instead of moving when a good target is in reach.
                best = max(value(sq) for n in info["fire"] if (sq := board.parse(n)) is not None)
                if best < 0.25:
                    continue
                order.pop("move", None)
            picked = aim(name, 1)
            if picked:
                order["fire"] = picked

    def _extras(self, sheet: Submission, units_legal: Mapping[str, Any]) -> None:
        """Double shot and quick shot add a shell to the best-placed shooter."""
        declare = self.legal.get("declare") or {}
        tokens = self.legal.get("tokens") or {}
        shooters = [n for n, o in sheet["units"].items() if o.get("fire")]
        if declare.get("double_shot") and shooters:
            unit = next((n for n in shooters if n in declare["double_shot"]), None)
            if unit:
                sheet["units"][unit]["fire"] = sheet["units"][unit]["fire"] * 2
                sheet.setdefault("declare", {})["double_shot"] = unit
                shooters.remove(unit)
        quick = tokens.get("quick_shot")
        if quick and shooters:
            unit = next((n for n in shooters if n in (quick.get("units") or [])), None)
            if unit:
                fire = units_legal[unit]["fire"]
                sheet.setdefault("tokens", {})["quick_shot"] = {
                    "unit": unit,
                    "fire": [sheet["units"][unit]["fire"][0], self.rng.choice(fire)],
                }
                del sheet["units"][unit]["fire"]
        throttle = tokens.get("full_throttle")
        if throttle:
            for name in throttle.get("units") or []:
                order = sheet["units"].get(name) or {}
                if self._throttle_breaks_through(name, order):
                    sheet.setdefault("tokens", {})["full_throttle"] = {"unit": name}
                    break

    def _throttle_breaks_through(self, name: str, order: Mapping[str, Any]) -> bool:
        unit = self.own.get(name)
        if not unit or order.get("move") not in ("F", "FL", "FR") or order.get("turn"):
            return False
        here = board.parse(unit["at"])
        if here is None:
            return False
        vector = board.relative_vector(unit["facing"], order["move"])
        one = board.step(here, vector)
        two = board.step(one, vector) if one is not None else None
        return two is not None and board.enemy_last_line(self.seat, two)


def _distance_to_line(terrain: Iterable[Mapping[str, Any]], seat: int) -> dict[int, int]:
    """King-move distance from every square to the enemy's last line, around swamps, wrecks
    and minefields (a passage stays open if its arrow points towards the enemy)."""
    closed: set[int] = set()
    for piece in terrain:
        kind = piece.get("kind")
        squares = _squares(piece.get("squares") or [])
        if kind == "swamp":
            closed.update(squares)
        elif kind == "minefield":
            # The passage only helps when its arrow points the way we are going.
            passage = board.parse(piece.get("passage") or "")
            if piece.get("arrow") != board.forward(seat):
                passage = None
            closed.update(sq for sq in squares if sq != passage)
        elif kind == "wreck":
            closed.update(squares)
    goal = [sq for sq in board.SQUARES if board.enemy_last_line(seat, sq) and sq not in closed]
    distance = {sq: 0 for sq in goal}
    queue = deque(goal)
    while queue:
        sq = queue.popleft()
        for near in board.neighbours(sq):
            if near not in distance and near not in closed:
                distance[near] = distance[sq] + 1
                queue.append(near)
    return distance
