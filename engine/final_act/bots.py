"""Built-in Final Act bots: ``random`` and ``greedy``.

Both read the match only through the game's public api (``legal_actions`` and ``view``) and draw
every random choice from the ``rng`` they are given. Whatever they return has passed
``game.validate``: a sheet holds the units' orders (built from ``legal_actions``), and each
extra -- a token or a declaration -- is added only if the sheet still validates with it, since
extras interact (an air strike paid by a tank that also fires, a shell limit after an officer
loss). If even the plain sheet is refused the seat's default sheet is played.

- ``random``: for every unit a uniformly random legal option; random legal shells; now and then
  a token or declaration when legal. In the setup phase a random legal layout (terrain and
  units anywhere they may go, units facing the enemy; a random draft).
- ``greedy``: sets up along its front rows with the terrain on the flanks. Each round it
  predicts where every enemy unit may be after movement (its legal destinations, forward moves
  likelier) and shells the squares where hits are most likely; it moves every unit towards the
  enemy's last line along the shortest passable route, avoiding squares the enemy is likely to
  shell; it adds a shell with double shot or quick shot and breaks through at full throttle.
  The enemy's legal moves come from the public position (squares, facings, terrain and tokens
  on the board), as a player across the table would work them out.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from engine.base import Game, Problem, RuleError, State, Submission
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.legal import legal_actions

BOTS = ("random", "greedy")

SLUG = "final-act"
LIVE = ("ok", "damaged", "repairing")


def bot_submission(state: State, seat: int, bot_name: str, rng: random.Random) -> Submission:
    """The sheet bot ``bot_name`` plays for ``seat`` in the current phase (validated)."""
    if bot_name not in BOTS:
        raise RuleError([Problem("bot", _("Unknown bot %(bot)s; known: %(bots)s."),
                                 {"bot": repr(bot_name), "bots": ', '.join(BOTS)})])
    game = _game()
    legal = legal_actions(state, seat)
    phase = legal.get("phase")
    if phase == "setup":
        make = _random_setup if bot_name == "random" else _greedy_setup
        for _attempt in range(8):
            sheet = _validated(game, state, seat, make(legal, seat, rng))
            if sheet is not None:
                return sheet
    elif phase == "orders":
        planner = _RandomOrders if bot_name == "random" else _GreedyOrders
        sheet = planner(game, state, seat, legal, rng).sheet()
        if sheet is not None:
            return sheet
    else:
        return {}
    return game.validate(state, seat, game.default_submission(state, seat))


def _validated(game: Game, state: State, seat: int, sheet: Submission) -> Submission | None:
    try:
        return game.validate(state, seat, sheet)
    except RuleError:
        return None


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
        if not flank_terrain:
            arrow = rng.choice(board.FACINGS)
        elif _along_a_rank(minefield):
            arrow = board.forward(seat)  # the own units may cross it on their way
        else:
            arrow = rng.choice(("E", "W"))
        terrain["minefield"] = {
            "squares": [board.name(sq) for sq in minefield],
            "passage": board.name(minefield[1]),
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


def _along_a_rank(line: list[int]) -> bool:
    return board.coords(line[0])[1] == board.coords(line[1])[1]


# -- orders: random --------------------------------------------------------------------------


class _Planner:
    """Builds a sheet: the units' orders first, then each extra (token or declaration) kept
    only if the sheet with it still validates."""

    def __init__(
        self, game: Game, state: State, seat: int, legal: Mapping[str, Any], rng: random.Random
    ) -> None:
        self.game = game
        self.state = state
        self.seat = seat
        self.legal = legal
        self.units: Mapping[str, Any] = legal.get("units") or {}
        self.rng = rng

    def sheet(self) -> Submission | None:
        orders = self.orders()
        limit = self.legal.get("shell_limit")
        shooters = [n for n, o in orders.items() if o.get("fire")]
        if limit is not None and len(shooters) > limit:
            for name in self.rng.sample(shooters, len(shooters) - max(limit, 0)):
                orders[name].pop("fire")
        sheet = _validated(self.game, self.state, self.seat, {"units": orders})
        if sheet is None:
            moves = {n: {k: v for k, v in o.items() if k != "fire"} for n, o in orders.items()}
            sheet = _validated(self.game, self.state, self.seat, {"units": moves})
        if sheet is None:
            return None
        for extra in self.extras():
            tried = copy.deepcopy(sheet)
            extra(tried)
            better = _validated(self.game, self.state, self.seat, tried)
            if better is not None:
                sheet = better
        return sheet

    def orders(self) -> dict[str, dict[str, Any]]:
        raise NotImplementedError

    def extras(self) -> list[Callable[[Submission], None]]:
        raise NotImplementedError

    def random_targets(self, name: str, count: int) -> list[str]:
        fire = (self.units.get(name) or {}).get("fire") or []
        return [self.rng.choice(fire) for _ in range(count)] if fire else []


class _RandomOrders(_Planner):
    """Uniformly random legal choices, with the occasional token or declaration."""

    EXTRA_CHANCE = 0.08
    FIRE_CHANCE = 0.9

    def orders(self) -> dict[str, dict[str, Any]]:
        return {name: self._unit(info) for name, info in self.units.items()}

    def _move(self, info: Mapping[str, Any]) -> dict[str, Any]:
        moves = info.get("moves") or []
        if not moves:
            return {}
        move = self.rng.choice(moves)
        order: dict[str, Any] = {"move": move["move"]}
        if move.get("turn"):
            order["turn"] = True
        return order

    def _unit(self, info: Mapping[str, Any]) -> dict[str, Any]:
        rng = self.rng
        fire = info.get("fire") or []
        can_fire = bool(fire) and info.get("shells", 0) > 0 and rng.random() < self.FIRE_CHANCE
        if info.get("kind") == "at":
            order = {"fire": [rng.choice(fire)]} if can_fire and rng.random() < 0.5 else {}
            if not order:
                order = self._move(info)
            faces = info.get("faces") or []
            if faces and rng.random() < 0.3:
                order["face"] = rng.choice(faces)
            return order
        order = self._move(info)
        if can_fire:
            order["fire"] = [rng.choice(fire)]
        return order

    def extras(self) -> list[Callable[[Submission], None]]:
        rng = self.rng
        chosen: list[Callable[[Submission], None]] = []
        for name, units in (self.legal.get("declare") or {}).items():
            if units and rng.random() < self.EXTRA_CHANCE * 2:
                chosen.append(self._declare(name, rng.choice(list(units))))
        for name, offer in (self.legal.get("tokens") or {}).items():
            if rng.random() < self.EXTRA_CHANCE:
                use = self._token(name, offer)
                if use is not None:
                    chosen.append(use)
        return chosen

    def _declare(self, name: str, unit: str) -> Callable[[Submission], None]:
        def use(sheet: Submission) -> None:
            sheet.setdefault("declare", {})[name] = unit
            order = sheet["units"].setdefault(unit, {})
            if name == "repair":
                order.update(move="stay", turn=False, fire=[])
            else:
                order["fire"] = self.random_targets(unit, 2)

        return use

    def _token(self, name: str, offer: Mapping[str, Any]) -> Callable[[Submission], None] | None:
        """A random use of token ``name`` from what ``legal_actions`` offers for it."""
        rng = self.rng
        at = list(offer.get("at") or [])
        names = list(offer.get("units") or [])
        entry: dict[str, Any]
        if name == "red_cross" and offer.get("activate"):
            entry = {"activate": rng.choice(list(offer["activate"]))}
        elif name in ("smoke", "mine_clearing", "quick_sand", "red_cross") and at:
            entry = {"at": rng.choice(at)}
        elif name == "full_throttle" and names:
            unit = rng.choice(names)
            move = rng.choice(offer["moves"][unit])["move"]

            def throttle(sheet: Submission) -> None:
                sheet["units"][unit].update(move=move, turn=False)
                sheet.setdefault("tokens", {})["full_throttle"] = {"unit": unit}

            return throttle
        elif name == "quick_shot" and names:
            unit = rng.choice(names)
            entry = {"unit": unit, "fire": self.random_targets(unit, 2)}
            return _with_unit_fire_cleared(name, entry, [unit])
        elif name == "air_strike" and at:
            square = rng.choice(at)
            targets = list((offer.get("fire") or {}).get(square) or [])
            payers = list(offer.get("paid_by") or [])
            count = rng.randint(1, 2)
            from_tanks = max(0, count - int(offer.get("out_shells") or 0))
            if not targets or from_tanks > len(payers):
                return None
            paid_by = rng.sample(payers, from_tanks)
            entry = {"at": square, "fire": rng.sample(targets, count), "paid_by": paid_by}
            return _with_unit_fire_cleared(name, entry, paid_by)
        else:
            return None
        return _with_unit_fire_cleared(name, entry, [])


def _with_unit_fire_cleared(
    name: str, entry: dict[str, Any], units: list[str]
) -> Callable[[Submission], None]:
    """Use token ``name`` as ``entry``; ``units`` give up their own shells for it."""

    def use(sheet: Submission) -> None:
        for unit in units:
            if unit in sheet["units"]:
                sheet["units"][unit]["fire"] = []
        sheet.setdefault("tokens", {})[name] = entry

    return use


# -- orders: greedy --------------------------------------------------------------------------


class _GreedyOrders(_Planner):
    """One-round look-ahead: shell where enemies will likely be, advance where shells are not."""

    def __init__(
        self, game: Game, state: State, seat: int, legal: Mapping[str, Any], rng: random.Random
    ) -> None:
        super().__init__(game, state, seat, legal, rng)
        view = game.view(state, seat)
        enemy = board.enemy(seat)
        self.enemy_legal = legal_actions(state, enemy).get("units", {})
        self.own: dict[str, dict[str, Any]] = {}
        self.enemies: dict[str, dict[str, Any]] = {}
        for unit in view.get("units", []):
            if unit.get("status") not in LIVE or unit.get("at") is None:
                continue
            if unit.get("seat") == seat:
                self.own[unit["name"]] = unit
            else:
                self.enemies[unit["name"]] = unit
        self.distance = _distance_to_line(view, seat)
        self.enemy_presence = self._predict_enemies(enemy)
        self.presence_at: dict[int, list[tuple[str, float]]] = {}
        for name, presence in self.enemy_presence.items():
            for sq, chance in presence.items():
                self.presence_at.setdefault(sq, []).append((name, chance))
        self.expected_hits: dict[str, float] = {}
        self.danger = self._danger()

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
    def orders(self) -> dict[str, dict[str, Any]]:
        orders: dict[str, dict[str, Any]] = {}
        claimed = {board.parse(u["at"]) for u in self.own.values()}
        for name in sorted(self.units, key=self._progress_key):
            orders[name] = self._move(name, self.units[name], claimed)
        self._fire(orders)
        return orders

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

    def _value(self, square: int) -> float:
        """Expected worth of one more shell on ``square``."""
        total = 0.0
        for name, chance in self.presence_at.get(square, ()):
            unit = self.enemies[name]
            worth = 2.0 if unit.get("hits") else 1.2
            if unit.get("kind") != "tank":
                worth = 0.8
            # The closer to our last line, the more it matters to stop it.
            worth *= 1.0 + 3.0 / board.row(self.seat, square)
            total += chance * worth * 0.5 ** self.expected_hits.get(name, 0.0)
        return total

    def _aim(self, name: str, shells: int, avoid: Iterable[str] = ()) -> list[str]:
        """The best ``shells`` targets for unit ``name``, counting earlier shells in."""
        fire = [n for n in self.units[name].get("fire") or [] if n not in avoid]
        picked: list[str] = []
        for _shell in range(shells):
            scored = [(self._value(sq), n) for n in fire if (sq := board.parse(n)) is not None]
            if not scored:
                break
            best_value, best_name = max(scored)
            if best_value <= 0:
                best_name = self.rng.choice(fire)  # nothing likely in reach: a blind shell
            picked.append(best_name)
            for enemy, chance in self.presence_at.get(board.parse(best_name) or 0, ()):
                self.expected_hits[enemy] = self.expected_hits.get(enemy, 0.0) + chance
        return picked

    def _fire(self, orders: dict[str, dict[str, Any]]) -> None:
        """Shell the squares with the highest expected value, one shell at a time."""
        for name, info in self.units.items():
            if not info.get("shells") or not info.get("fire"):
                continue
            order = orders[name]
            if info.get("kind") == "at":
                # An AT unit fires instead of moving when a good target is in reach.
                best = max(
                    self._value(sq) for n in info["fire"] if (sq := board.parse(n)) is not None
                )
                if best < 0.25:
                    continue
                order.pop("move", None)
            order["fire"] = self._aim(name, 1)

    def extras(self) -> list[Callable[[Submission], None]]:
        """Double shot and quick shot add a shell to a shooter; full throttle breaks through."""
        declare = self.legal.get("declare") or {}
        tokens = self.legal.get("tokens") or {}
        chosen: list[Callable[[Submission], None]] = []
        shooters = [n for n in self.units if n in self.own and self.units[n].get("fire")]
        doubles = [n for n in shooters if n in (declare.get("double_shot") or [])]
        if doubles:
            chosen.append(self._extra_shell(doubles, "double_shot"))
        quick = [n for n in shooters if n in ((tokens.get("quick_shot") or {}).get("units") or [])]
        if quick:
            chosen.append(self._extra_shell(quick, "quick_shot"))
        throttle = tokens.get("full_throttle") or {}
        for name, moves in (throttle.get("moves") or {}).items():
            unit = self.own.get(name)
            breaking = [m for m in moves if self._breaks_through(m["to"])]
            if unit and breaking:
                chosen.append(self._throttle(name, breaking[0]["move"]))
                break
        return chosen

    def _breaks_through(self, square_name: str) -> bool:
        sq = board.parse(square_name)
        return sq is not None and board.enemy_last_line(self.seat, sq)

    def _extra_shell(self, shooters: list[str], how: str) -> Callable[[Submission], None]:
        def use(sheet: Submission) -> None:
            firing = [n for n in shooters if sheet["units"].get(n, {}).get("fire")]
            if not firing:
                return
            unit = firing[0]
            fire = list(sheet["units"][unit]["fire"])
            fire += self._aim(unit, 2 - len(fire), avoid=fire)
            if how == "double_shot":
                sheet.setdefault("declare", {})["double_shot"] = unit
                sheet["units"][unit]["fire"] = fire
            else:
                sheet["units"][unit]["fire"] = []
                sheet.setdefault("tokens", {})["quick_shot"] = {"unit": unit, "fire": fire}

        return use

    def _throttle(self, name: str, move: str) -> Callable[[Submission], None]:
        def use(sheet: Submission) -> None:
            sheet["units"][name].update(move=move, turn=False)
            sheet.setdefault("tokens", {})["full_throttle"] = {"unit": name}

        return use


def _distance_to_line(view: Mapping[str, Any], seat: int) -> dict[int, int]:
    """King-move distance from every square to the enemy's last line, around swamps, wrecks
    and minefields (a passage stays open if its arrow points towards the enemy)."""
    closed: set[int] = set()
    for piece in view.get("terrain") or []:
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
    for unit in view.get("units") or []:
        if unit.get("status") == "wreck" and (sq := board.parse(unit.get("at"))) is not None:
            closed.add(sq)
    return _distances(seat, frozenset(closed))


_NEIGHBOURS = [tuple(board.neighbours(sq)) for sq in board.SQUARES]


@lru_cache(maxsize=512)
def _distances(seat: int, closed: frozenset[int]) -> dict[int, int]:
    """Breadth-first distances from the enemy's last line (cached: terrain rarely changes).
    Callers must not change the returned dict."""
    goal = [sq for sq in board.SQUARES if board.enemy_last_line(seat, sq) and sq not in closed]
    distance = {sq: 0 for sq in goal}
    queue = deque(goal)
    while queue:
        sq = queue.popleft()
        for near in _NEIGHBOURS[sq]:
            if near not in distance and near not in closed:
                distance[near] = distance[sq] + 1
                queue.append(near)
    return distance
