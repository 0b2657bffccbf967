"""Two toy games for the plug-in boundary's tests, added purely through the registries.

- "toy-phases": Toy Duel whose phases are named "setup" (round 1) and "orders" (after), the
  names Final Act uses: no other game's page may answer for it (404, never a 500).
- "toy-plugged": Toy Duel with a web plug-in of its own: a panel on the match page, a URL of its
  own (``hint/``: the viewer's own sealed number, never the other seat's), its own "your move"
  mail body, its own rules page text and its own e-mail line finder.
- "toy-huddle": Toy Count (three seats taking turns) whose plug-in declares a channel of
  messages, "huddle": the seats whose turn it is not (its members change at every turn).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import path
from django.utils.html import format_html

import engine
from engine import PhaseKind, Prompt
from games import plugins
from tests.toygame import ToyCount, ToyDuel


class ToyPhases(ToyDuel):
    slug = "toy-phases"
    name = "Toy Phases"

    def prompts(self, state):
        if self.result(state) is not None:
            return {}
        name = "setup" if state["round"] == 1 else "orders"
        return {seat: Prompt(PhaseKind.SIMULTANEOUS, name) for seat in (1, 2)}


class ToyPlugged(ToyDuel):
    """Pick a number from 1 to 5 each round; the higher number scores; first to 3 wins."""

    slug = "toy-plugged"
    name = "Toy Plugged"


@login_required
def hint(request, match_id: int) -> HttpResponse:
    """The viewer's own sealed number in the open phase, or that there is none."""
    from games import selectors
    from games.models import Match, Submission

    match = Match.objects.get(pk=match_id)
    seat = selectors.match_seat_for_user(match, request.user)
    sheet = Submission.objects.filter(phase__match=match, phase__number=match.phase_number,
                                      seat=seat).first() if seat else None
    text = f"TOY-HINT: you sealed {sheet.data['number']}" if sheet else "TOY-HINT: nothing yet"
    return HttpResponse(format_html("<p>{}</p>", text))


class ToyPluggedPlugin(plugins.GamePlugin):
    slug = "toy-plugged"

    def match_urls(self):
        return [path("hint/", hint, name="toy_plugged_hint")]

    def page_context(self, request, match, context) -> dict[str, Any]:
        extra = super().page_context(request, match, context)
        extra["panels"] = [format_html('<section class="toy-panel"><h2>TOY-PLUGGED-PANEL</h2>'
                                       "<p>Round {}</p></section>", match.state["round"])]
        return extra

    def board_text(self, state, seat):
        return f"TOY-BOARD round {state['round']}: " + ", ".join(
            f"{self.game.seat_name(int(s))} {v}" for s, v in sorted(state["scores"].items()))

    def mail_bodies(self, name: str, context: dict[str, Any]) -> tuple[str, str]:
        if name != "phase_opened":
            return super().mail_bodies(name, context)
        text = (f"TOY-PLUGGED YOUR MOVE, {context['seat_name']}.\n{context['board']}\n"
                f"Reply with one number from 1 to 5 (to {context['reply_address']}).\n")
        return text, format_html("<pre>{}</pre>", text)

    def rules_context(self, request) -> dict[str, Any]:
        context = super().rules_context(request)
        context["description"] = "TOY-PLUGGED RULES: pick a number; the higher one scores."
        return context

    def problem_lines(self, problems, text):
        return [f"TOY-LINE {p.path}: {p.message}" for p in problems]


class ToyHuddle(ToyCount):
    """Take turns adding 1 to 3 to a counter; whoever brings it to the target wins."""

    slug = "toy-huddle"
    name = "Toy Huddle"
    max_seats = 4


class ToyHuddlePlugin(plugins.GamePlugin):
    slug = "toy-huddle"

    def message_channels(self, match) -> list[plugins.GameChannel]:
        if match.state is None:
            return []
        waiting = frozenset(range(1, match.state["seats"] + 1)) - {match.state["turn"]}
        return [plugins.GameChannel("huddle", "Huddle", waiting)]


TOY_PHASES = engine.register(ToyPhases())
TOY_PLUGGED = engine.register(ToyPlugged())
TOY_HUDDLE = engine.register(ToyHuddle())
plugins.register(ToyPluggedPlugin())
plugins.register(ToyHuddlePlugin())
for _toy in (TOY_PHASES, TOY_PLUGGED):
    plugins.install(_toy.slug)
