"""What a shared match shows to anybody (its embed, its link preview, its feed): a public
match's board and story as a spectator sees them, drawn by the game's plug-in. Never a seat's
view, whoever asks: a shared page is the same for everyone, so nothing sealed can be in it."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import Http404
from django.utils.translation import gettext as _

import engine
from games import plugins, selectors
from games.endings import ending_words
from games.models import Match, Phase


def public_match_or_404(match_id: int) -> Match:
    """The match if it is public (anybody may watch it); a 404 for any other, whoever asks:
    a private match has no embed, preview or feed, even for its players."""
    if not 0 < match_id < 2**63:
        raise Http404(_("No such match."))
    match = Match.objects.filter(pk=match_id, is_public=True).first()
    if match is None:
        raise Http404(_("No such match."))
    return match


@dataclass
class Snapshot:
    """A public match as a spectator reads it now, in the reader's language."""

    match: Match
    game_name: str
    status: str  # "Phase 3: orders", "Finished", "Waiting for players"
    # The last resolved phase: its label ("Phase 2: orders") and its events told in words.
    last_label: str = ""
    last_lines: list[str] = field(default_factory=list)
    result: str = ""
    board: str = ""  # HTML (the game's picture of the position), "" before the match starts
    board_css: str = ""  # the static path of the board's stylesheet, "" if it has none
    position_words: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        """One line for a link preview or a feed: the game, where the match is, the result."""
        parts = [self.game_name, self.status]
        if self.result:
            parts.append(self.result)
        return " · ".join(part for part in parts if part)


def phase_title(plugin: plugins.GamePlugin, number: int, name: str) -> str:
    label = plugin.phase_label(name) if name else ""
    if label:
        return _("Phase %(number)s: %(name)s") % {"number": number, "name": label}
    return _("Phase %(number)s") % {"number": number}


def last_resolved_phase(match: Match) -> Phase | None:
    return selectors.match_history(match).order_by("-number").first()


def match_snapshot(match: Match, *, board: bool = True, story: bool = True) -> Snapshot:
    """The spectator's view of public ``match`` (``board=False``: without drawing the board;
    ``story=False``: without the last phase, for a one-line ``summary``)."""
    game = engine.games().get(match.game)
    plugin = plugins.plugin_for(match.game)
    if match.status == Match.Status.ACTIVE:
        status = phase_title(plugin, match.phase_number, match.phase_name)
    else:  # "Waiting for players", "Finished", ...
        status = str(match.get_status_display())
    snapshot = Snapshot(match=match, game_name=game.name if game else match.game, status=status)
    last = last_resolved_phase(match) if story else None
    if last is not None:
        snapshot.last_label = phase_title(plugin, last.number, last.name)
        snapshot.last_lines = plugin.round_report(last.events or [], None)
    snapshot.result = result_words(match)
    if board and game is not None and match.state is not None:
        # The picture of a position with no page around it: the spectator's (seat None).
        snapshot.board = plugin.lesson_board(match.state, None)
        snapshot.board_css = plugin.board_stylesheet()
        snapshot.position_words = plugin.position_words(match.state, None)
    return snapshot


def result_words(match: Match) -> str:
    """How the match ended, in words ("" while it runs): as every surface says it."""
    if match.status not in (Match.Status.FINISHED, Match.Status.ABORTED):
        return ""
    return ending_words(match)
