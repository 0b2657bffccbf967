"""Final Act's own widget on the create form: action tokens, none or a mode with its k."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.final_act.options import DEFAULT_K
from engine.final_act.units import TOKENS

NONE = ""
MODES = [
    (NONE, _("No action tokens")),
    ("all", _("All seven tokens each")),
    ("random-k", _("k tokens dealt at random")),
    ("draft-k", _("Each side drafts k tokens at setup")),
]
K_MODES = ("random-k", "draft-k")


class TokensWidget(forms.MultiWidget):
    def __init__(self) -> None:
        super().__init__([forms.Select(choices=MODES),
                          forms.NumberInput(attrs={"min": 1, "max": len(TOKENS),
                                                   "aria-label": _("k (tokens per side)")})])

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        """k is asked for only with a mode that has one (portal.js's data-shown-with)."""
        context = super().get_context(name, value, attrs)
        mode, k = context["widget"]["subwidgets"]
        if mode["attrs"].get("id"):
            k["attrs"] = {**k["attrs"], "data-shown-with": mode["attrs"]["id"],
                          "data-shown-values": " ".join(K_MODES)}
        return context

    def id_for_label(self, id_: str) -> str:
        """The field's label names the mode's select (Django's MultiWidget gives its label no
        ``for``, which leaves the select without a name; the number has its own)."""
        return f"{id_}_0" if id_ else id_

    def decompress(self, value: Any) -> list[Any]:
        if isinstance(value, dict):
            return [value.get("mode", NONE), value.get("k", DEFAULT_K)]
        return [NONE, DEFAULT_K]


class TokensField(forms.MultiValueField):
    """The ``tokens`` option: None, {"mode": "all"} or {"mode": ..., "k": k} (the engine
    checks k)."""

    widget = TokensWidget

    def __init__(self, **kwargs: Any) -> None:
        kwargs["required"] = False
        super().__init__(fields=[forms.ChoiceField(choices=MODES, required=False),
                                 forms.IntegerField(required=False)],
                         require_all_fields=False, **kwargs)

    def compress(self, data_list: list[Any]) -> dict[str, Any] | None:
        mode, k = (data_list or [NONE, None])[:2]
        if not mode:
            return None
        if mode == "all":
            return {"mode": "all"}
        return {"mode": mode, "k": DEFAULT_K if k is None else k}
