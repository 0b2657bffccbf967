"""Tank Game's rules page: every number on it (costs, limits, starting values, the default
schedule and cooldown) is read from the engine, so the page says what the matches play by."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

import engine
from engine.tank_game import actions, council, gameday, state
from games.option_fields import notes_text
from games.plugins import bot_name

SLUG = "tank-game"
LOOT_EXAMPLE = 10  # the victim's gold in the page's example of a kill


def rules_context() -> dict[str, Any]:
    game = engine.get(SLUG)
    defaults = game.default_options()
    maps = next(option for option in game.options_schema() if option.path == "map")
    share, tax = actions.loot_split(LOOT_EXAMPLE)
    return {
        "game": game,
        "min_seats": game.min_seats,
        "max_seats": game.max_seats,
        "bots_list": ", ".join(bot_name(game.slug, bot) for bot in game.bots),
        "maps": [gettext(label) for _key, label in maps.choices],
        "schedule": notes_text(game, defaults),
        "cooldown": defaults["cooldown_minutes"],
        "armistice": defaults["armistice_limit"],
        "start_lives": state.START_LIVES,
        "start_ap": state.START_AP,
        "start_range": state.START_RANGE,
        "max_ap": state.MAX_AP,
        "max_lives": state.MAX_LIVES,
        "dead_durability": state.DEAD_DURABILITY,
        "buy_ap": actions.BUY_AP_COST,
        "upgrade_range": actions.UPGRADE_RANGE_COST,
        "stimulus": council.COST["stimulus"],
        "grant_life": council.COST["grant_life"],
        "grant_life_members": council.GRANT_LIFE_MEMBERS,
        "bounty_low": council.BOUNTY_GOLD[0],
        "bounty_high": council.BOUNTY_GOLD[1],
        "councillor_income": gameday.INCOME[1],
        "senator_income": gameday.INCOME[2],
        "loot_gold": LOOT_EXAMPLE,
        "loot_share": share,
        "loot_tax": tax,
    }
