"""The logbook's sentences, in the rule book's style ("Corey — Shot at C5 (hit)").

Each logbook entry stores its line in English (``text``); these are the templates it is made
from, so that the portal can read a stored line back and say it in the reader's language
(``PHRASEBOOK``, see ``engine.base.Phrasebook``). Names of tanks, squares and numbers stay as
they are.
"""

from __future__ import annotations

from engine.base import Phrasebook, pgettext
from engine.base import gettext_noop as _

SEAT = _("Seat %(number)s")  # a tank without a name
# A tank's actions.
MOVED = _("%(who)s — Moved to %(square)s")
GAVE = _("%(who)s — Gave %(gold)s Gold to %(name)s")
BOUGHT_AP = _("%(who)s — Bought 1 action point")
UPGRADED = _("%(who)s — Upgraded Range (now %(range)s)")
SHOT = _("%(who)s — Shot at %(square)s (%(outcome)s)")
# What a shot did.
HIT_WALL = _("hit wall, durability %(durability)s")
WALL_DOWN_MINE = _("hit, wall destroyed, the gold mine grows")
WALL_DOWN = _("hit, wall destroyed")
HIT_DEAD_TANK = _("hit dead tank, durability %(durability)s")
TANK_DOWN = _("hit, tank destroyed")
HIT = pgettext("shot", "hit")
MISS = pgettext("shot", "miss")
# Tanks lost.
DESTROYED = _("%(name)s's tank was destroyed by %(who)s")
KILLED = _("%(name)s was killed by %(who)s (%(loot)s)")
LOOT_BOUNTY = _("loot %(share)s gold, coffer %(tax)s, bounty %(bounty)s")
LOOT = _("loot %(share)s gold, coffer %(tax)s")
# Gamedays.
GAMEDAY = _("Gameday %(number)s")
GAMEDAY_ON = _("Gameday %(number)s (%(date)s)")
OPENED = _("%(gameday)s opened")
OPENED_WITH = _("%(gameday)s opened: %(news)s")
AP_FOR_ALL = _("+1 AP to every living tank")
MINES_PAID = _("mines paid %(miners)s")
COFFER = _("coffer +%(gold)s")
ARMISTICE_COUNT = _("armistice %(count)s/%(limit)s")
# The Council.
OPENED_BALLOT = _("Council — %(who)s opened ballot %(ballot)s (%(decree)s) and voted")
VOTED = _("Council — %(who)s voted on ballot %(ballot)s (%(decree)s)")
DECREE = _("Council Decree — %(decree)s")
STIMULUS_TO = _("Stimulus to %(name)s")
BOUNTY_ON = _("%(gold)s Gold Bounty on %(name)s")
GRANT_LIFE_TO = _("Grant Life to %(name)s")
BALLOT_CLOSED = _("Council — Ballot %(ballot)s (%(decree)s) closed without passing")
STIMULUS = pgettext("decree", "Stimulus")
BOUNTY = pgettext("decree", "Bounty")
GRANT_LIFE = pgettext("decree", "Grant Life")
# The end.
ARMISTICE = _("Armistice — the Council wins: %(names)s")
LAST_MAN = _("%(name)s is the Last Man Standing")
NO_TANK_LEFT = _("No tank is left")

PHRASEBOOK = Phrasebook(
    MOVED, GAVE, BOUGHT_AP, UPGRADED, SHOT, DESTROYED, KILLED, OPENED_WITH, OPENED,
    OPENED_BALLOT, VOTED, DECREE, BALLOT_CLOSED, ARMISTICE, LAST_MAN, NO_TANK_LEFT,
    parts=[SEAT, HIT_WALL, WALL_DOWN_MINE, WALL_DOWN, HIT_DEAD_TANK, TANK_DOWN, HIT, MISS,
           LOOT_BOUNTY,
           LOOT, GAMEDAY_ON, GAMEDAY, AP_FOR_ALL, MINES_PAID, COFFER, ARMISTICE_COUNT,
           STIMULUS_TO, BOUNTY_ON, GRANT_LIFE_TO, STIMULUS, BOUNTY, GRANT_LIFE],
    # A result's reason is stored as a key.
    names={"armistice": _("The Council reached the armistice and wins."),
           "last-man-standing": _("The last tank standing wins.")},
)
