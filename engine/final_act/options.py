"""Match options and scenario positions: validation and normalization."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Option, OptionKind, OptionsError, Problem
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.checks import is_int, unknown_fields
from engine.final_act.scenario import validate_scenario
from engine.final_act.units import ADVANCED_RULES, TOKENS

TOKEN_MODES = ("all", "random-k", "draft-k")
OPTION_KEYS = ("advanced", "tokens", "extra_forces", "round_limit", "scenario")
DEFAULT_ROUND_LIMIT = 80
MAX_ROUND_LIMIT = 1000
DEFAULT_K = 3
MAX_LIST = 200


def default_options() -> dict[str, Any]:
    return {
        "advanced": [],
        "tokens": None,
        "extra_forces": False,
        "round_limit": DEFAULT_ROUND_LIMIT,
    }


def validate_options(options: Any) -> dict[str, Any]:
    """Normalized options, or OptionsError listing every problem."""
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise OptionsError([Problem("", _("Options must be a JSON object."))])
    problems: list[Problem] = []
    result = default_options()
    problems.extend(unknown_fields(options, OPTION_KEYS, "", "option"))

    advanced = options.get("advanced", [])
    if not isinstance(advanced, list) or len(advanced) > MAX_LIST:
        problems.append(Problem("advanced", _("'advanced' must be a list of advanced rule names.")))
    else:
        for i, rule in enumerate(advanced):
            if rule not in ADVANCED_RULES:
                problems.append(
                    Problem(
                        f"advanced.{i}",
                        _("Unknown advanced rule %(value)s; known: %(rules)s."),
                        {"value": board.show(rule), "rules": ', '.join(ADVANCED_RULES)},
                    )
                )
        result["advanced"] = [r for r in ADVANCED_RULES if r in advanced]

    tokens = options.get("tokens")
    if tokens is not None:
        if not isinstance(tokens, Mapping):
            problems.append(Problem("tokens", _('\'tokens\' must be an object like '
                                                '{"mode": "all"}.')))
        else:
            problems.extend(unknown_fields(tokens, ("mode", "k"), "tokens", "token option"))
            mode = tokens.get("mode")
            k = tokens.get("k", DEFAULT_K)
            if mode not in TOKEN_MODES:
                problems.append(
                    Problem("tokens.mode", _("Token mode must be one of %(modes)s."),
                            {"modes": ', '.join(TOKEN_MODES)})
                )
            if not is_int(k) or not 1 <= k <= len(TOKENS):
                problems.append(
                    Problem("tokens.k", _("k must be a whole number from 1 to %(count)s."),
                            {"count": len(TOKENS)})
                )
            elif mode in TOKEN_MODES:
                result["tokens"] = {"mode": "all"} if mode == "all" else {"mode": mode, "k": k}

    extra = options.get("extra_forces", False)
    if not isinstance(extra, bool):
        problems.append(Problem("extra_forces", _("'extra_forces' must be true or false.")))
    else:
        result["extra_forces"] = extra

    limit = options.get("round_limit", DEFAULT_ROUND_LIMIT)
    if not is_int(limit) or not 1 <= limit <= MAX_ROUND_LIMIT:
        problems.append(
            Problem(
                "round_limit",
                _("The round limit must be a whole number from 1 to %(most)s."),
                {"most": MAX_ROUND_LIMIT},
            )
        )
    else:
        result["round_limit"] = limit

    if "scenario" in options:
        scenario = validate_scenario(options["scenario"], result, problems)
        if scenario is not None:
            result["scenario"] = scenario
    if problems:
        raise OptionsError(problems)
    return result


# -- the options as a form shows them (``validate_options`` above stays the judge) -------------

OPTIONS_SCHEMA: tuple[Option, ...] = (
    Option("advanced", OptionKind.CHOICES, _("Advanced rules"),
           choices=(("wrecks", _("Wrecks block squares and line of fire")),
                    ("officer_loss", _("Officer loss costs a shell")),
                    ("double_shot", _("Double shot, once per game")),
                    ("repair", _("Repair behind a berm, once per game")))),
    # null or {"mode", "k"}: drawn by the web plug-in's own widget
    Option("tokens", OptionKind.CUSTOM, _("Action tokens"),
           _("k is the number of tokens each side gets (1 to 7)."), widget="action-tokens"),
    Option("extra_forces", OptionKind.BOOL,
           _("Extra Forces (anti-tank infantry and a repair unit)")),
    Option("round_limit", OptionKind.INT, _("Round limit"),
           _("The match ends after this many rounds."), minimum=1, maximum=MAX_ROUND_LIMIT),
)
