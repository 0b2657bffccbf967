"""Tank Game V4 (shared/rules/tank-game-v4.md): 2-100 tanks, gamedays, cooldowns, a voting Council.

``engine.get("tank-game")`` returns the registered game. The public API (the portal codes to it):

Options (``validate_options``; OptionsError lists every problem)::

    {"map": "classic" | "big",                # classic 12 x 12 (16 spawns) or 26 x 26 (104 spawns)
     "cooldown_minutes": 5,                   # 0..1440
     "schedule": {"kind": "weekly", "weekdays": ["mon", "wed", "thu"], "open": "10:00",
                  "close": "16:00", "time_zone": "Europe/Berlin", "holidays": ["2026-12-25"]}
               | {"kind": "every", "minutes": N, "open_minutes": M},   # slots from the Unix epoch
     "armistice_limit": 50,
     "bounties": {"3": 5, "7": 3},            # Last Man Standing carry-over, set by the portal
     "names": {"1": "Corey", ...}}            # display names (logbook, text grammar)

Seats are ints 1..n (2 <= n <= 100; the map needs a spawn per seat). ``now`` arguments are aware
datetimes; the engine never reads the clock and stores times as ISO 8601 UTC strings.

Time:
- ``window_open(state, now) -> bool``: a gameday window contains ``now``.
- ``gameday_key(state, now) -> str | None``: the open gameday's key (local date "2026-11-23", or the
  accelerated slot index as a string "29391"), None when no window is open.
- ``next_tick_at(state, now) -> datetime | None``: when the next tick is due: the start of the
  first gameday after the last ticked one (before any tick: the start of the gameday holding
  ``now``, or the next one). It may be in the past (the portal was down): then tick. None when over.
- ``tick(state, now, rng) -> Outcome``: ticks the earliest un-ticked gameday that has started by
  ``now`` (catch-up: call again while ``next_tick_at <= now``); a no-op (same state, no events)
  when nothing is due. The first tick only opens the first gameday (tanks already start with
  1 AP); later ticks run the ruled start-of-gameday effects, close yesterday's ballots, and may
  end the match by armistice.
- ``apply`` refuses actions outside a window AND inside a window whose tick has not run yet
  (path "window"): the portal ticks first whenever ``next_tick_at(state, now) <= now``.

Actions (``apply(state, seat, action, now, rng) -> Outcome(state, events)``; events are the new
logbook entries)::

    {"type": "move", "to": "B4"}          {"type": "shoot", "at": "C5"}
    {"type": "give", "to": "C5", "gold": 3} or {"type": "give", "seat": 4, "gold": 3}
    {"type": "buy_ap"}                    {"type": "upgrade_range"}
    {"type": "open_ballot", "decree": "stimulus" | "bounty" | "grant_life", "target": 4, "gold": 2}
    {"type": "vote", "ballot": 7, "target": 4, "gold": 2}     # "gold" only for bounty ballots

Tank actions need a living tank and start the seat's cooldown; council actions (open_ballot,
vote) need a council member and no cooldown. There is at most one open ballot per decree:
``open_ballot`` on a decree that already has one casts the opener's vote on it. A vote may be
changed while the ballot is open. Refusals raise RuleError with every problem (paths: "type",
"to", "at", "seat", "gold", "target", "ballot", "decree", "cooldown", "window", "tank", "ap",
"council", "match"); malformed input of any shape is a RuleError, never another exception.
``validate(state, seat, action)`` does every check except time and returns the normalized
action; ``action_problems(state, seat, action, now)`` returns the list of Problems ([] = legal
now); ``legal_actions(state, seat)`` lists every legal action dict ignoring time.

Reading: ``prompts(state)`` gives every living tank and council member a
``Prompt(PhaseKind.CONTINUOUS, "gameday", required=False)``; {} when over.
``view(state, seat | None)``: {"board": {"size", "map", "title", "columns", "walls": {sq:
durability}, "mines": [[sq, ...], ...] (merged mines)}, "tanks": [{"seat", "name", "at" (None
when destroyed), "lives", "ap", "gold", "range", "bounty", "status": "alive" | "dead" |
"destroyed" | "resigned", "alive", "dead", "destroyed", "resigned", "durability",
"cooldown_until" (ISO or None)}],
"council": {"members": [{"seat", "name", "role": "councillor" | "senator", "weight"}],
"weight", "coffer", "armistice", "armistice_limit", "allowances": {"bounty", "grant_life"},
"ballots": [{"id", "decree", "title", "status": "open" | "passed" | "closed", "opened_by",
"opened_at", "gameday", "tallies": [{"target", "gold"?, "weight"}], "voters", "passed",
"my_vote"}]}, "me": <my tank row> | None, "cooldown_minutes", "schedule", "gameday" (last
ticked key), "gamedays", "over": None | {"reason", "winners", "at"}, "entries" (how many
logbook entries so far)}. The view carries no logbook: the state keeps none (see Logbook).
The view has no clock: ask ``window_open``/``action_problems`` for time-dependent things.
Individual votes are private to the voter (the rule book records only results); tallies are
public. ``board_text``, ``text_help``, ``log_text(state, seat, entries)`` (entries as text,
"2026-11-23 10:04 — Corey — Shot at G4 (hit)" in the match time zone),
``public_entry(entry, seat)`` (a vote's choice is shown to its voter only).

Logbook: the events that ``apply`` and ``tick`` return are the logbook entries {"seq", "at",
"kind": "action" | "vote" | "decree" | "kill" | "destroyed" | "tick" | "ballot" | "resign" |
"end", "seat", "action", "dice", "text"}, numbered in order applied. The state keeps none of
them (only their count, ``entries``, to number the next): its size is bounded by the seats and
the map, not by the match's length. The portal stores them. Cooldowns, once-per-gameday
allowances and ballots in progress are the state's own small bookkeeping; finished ballots are
forgotten when the next gameday opens (at most a few are kept meanwhile). State version 2;
version 1 kept the entries in ``state["log"]``.

Concession: ``resign(state, seat, now)`` (our ruling): the tank leaves the board (``at`` None,
status "resigned"), its gold goes to the coffer, its bounty lapses, its player is not (or no
longer) on the Council and ranks below every seat that did not concede (the latest to concede
first); the state lists them in ``resigned`` (absent until a seat concedes) and
``seats_out(state)`` returns them. Then the ballots settle and Last Man Standing is checked.

Replay: ``replay(seats, options, seed, inputs) -> state`` where inputs are {"seq", "kind":
"action" | "tick" | "resign", "seat", "action", "at"}; input ``seq`` uses ``engine.rng_for(seed,
seq)`` -- the portal must use the same rng when applying live. Inputs the engine refuses are
skipped. ``replay_steps(state, seed, inputs)`` replays from any state (a checkpoint) one input
at a time, yielding each input's events (None when refused), so the portal can rewrite its
stored entries after a strike-out.

Text grammar (email), one action per line; ``parse_text`` returns {"actions": [...]}::

    move B4 | shoot C5 | give 3 to C5 | give 3 to Corey | buy ap | upgrade range
    stimulus Corey | bounty 3 on Corey | grant life Corey | vote 7 Corey | vote 7 3 on Corey

Targets are a square, a display name or "seat 4".

Dice: ``rng.randint(1, 6)`` per die, a die hits on 4, 5 or 6 (three hit faces of six); the log
entry of a shot at a living tank lists every die. ``result(state)``: Last Man Standing ranks the
winner first and the fallen by order of death (latest death first); an armistice ranks every
council member tied first and the living tanks tied after them.
``bot_submission(state, seat, "random", rng)`` returns one legal action or {}.
"""

from engine import register
from engine.tank_game.game import TankGame

GAME = register(TankGame())

__all__ = ["GAME", "TankGame"]
