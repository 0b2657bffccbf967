"""Atom feeds (Django's syndication framework) for following the site in a feed reader: a public
match's phases told in words, a public club's results, a tournament's rounds (docs/sharing.md).
Each tells what any spectator may read and nothing more; a private match or club, or a
tournament of one, has no feed (404). The calendar's iCalendar feed is portal.feeds.views."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.syndication.views import Feed
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _

from competitions import selectors as competitions
from competitions.models import Club, Pairing, Tournament
from games import plugins, selectors
from games.models import Match
from portal.sharing.selectors import match_snapshot, phase_title, public_match_or_404, result_words

ITEMS = 50  # the newest this many


@dataclass(frozen=True)
class Item:
    """One entry of a feed."""

    title: str
    text: str
    link: str
    when: datetime | None


class AtomFeed(Feed):
    feed_type = Atom1Feed

    def item_title(self, item: Item) -> str:
        return item.title

    def item_description(self, item: Item) -> str:
        return item.text

    def item_link(self, item: Item) -> str:
        return item.link

    def item_pubdate(self, item: Item) -> datetime | None:
        return item.when

    def item_updateddate(self, item: Item) -> datetime | None:
        return item.when

    def __call__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        response = super().__call__(request, *args, **kwargs)
        response["Cache-Control"] = "public, max-age=300"
        return response


class MatchFeed(AtomFeed):
    """A public match: each resolved phase and what happened in it, the ending last."""

    def get_object(self, request: HttpRequest, match_id: int) -> Match:
        return public_match_or_404(match_id)

    def title(self, match: Match) -> str:
        return str(match)

    def link(self, match: Match) -> str:
        return reverse("games:match", args=[match.pk])

    def subtitle(self, match: Match) -> str:
        return match_snapshot(match, board=False, story=False).summary

    def items(self, match: Match) -> list[Item]:
        plugin = plugins.plugin_for(match.game)
        url = reverse("games:match", args=[match.pk])
        phases = list(selectors.match_history(match).order_by("-number")[:ITEMS])
        items = [Item(title=phase_title(plugin, phase.number, phase.name),
                      text="\n".join(plugin.round_report(phase.events or [], None))
                      or _("Nothing happened."),
                      link=f"{url}?replay={phase.number}", when=phase.resolved_at)
                 for phase in phases]
        ended = result_words(match)
        if match.finished_at is not None and ended:
            items.insert(0, Item(title=_("The match is over"), text=ended, link=url,
                                 when=match.finished_at))
        return items


def public_club_or_404(slug: str) -> Club:
    club = Club.objects.filter(slug=slug, is_public=True).first()
    if club is None:
        raise Http404(_("No such club."))
    return club


class ClubResultsFeed(AtomFeed):
    """A public club: the results of its public matches, newest first."""

    def get_object(self, request: HttpRequest, slug: str) -> Club:
        return public_club_or_404(slug)

    def title(self, club: Club) -> str:
        return _("Results of %(club)s") % {"club": club.name}

    def link(self, club: Club) -> str:
        return reverse("competitions:club", args=[club.slug])

    def subtitle(self, club: Club) -> str:
        return club.description[:200]

    def items(self, club: Club) -> list[Item]:
        finished = (competitions.club_matches(club)
                    .filter(is_public=True, status=Match.Status.FINISHED,
                            finished_at__isnull=False).order_by("-finished_at")[:ITEMS])
        return [Item(title=str(match), text=result_words(match) or _("Finished"),
                     link=reverse("games:match", args=[match.pk]), when=match.finished_at)
                for match in finished]


def visible_tournament_or_404(tournament_id: int) -> Tournament:
    """A tournament anybody may look at: of no club, or of a public one."""
    if not 0 < tournament_id < 2**63:
        raise Http404(_("No such tournament."))
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None or (tournament.club_id and not tournament.club.is_public):
        raise Http404(_("No such tournament."))
    return tournament


class TournamentRoundsFeed(AtomFeed):
    """A tournament's rounds, newest first: each with its pairings and how their matches
    stand."""

    def get_object(self, request: HttpRequest, tournament_id: int) -> Tournament:
        return visible_tournament_or_404(tournament_id)

    def title(self, tournament: Tournament) -> str:
        return _("Rounds of %(tournament)s") % {"tournament": tournament.name}

    def link(self, tournament: Tournament) -> str:
        return reverse("competitions:tournament", args=[tournament.pk])

    def subtitle(self, tournament: Tournament) -> str:
        return str(tournament.get_format_display())

    def items(self, tournament: Tournament) -> list[Item]:
        rounds = list(tournament.rounds.order_by("-number")[:ITEMS])
        pairings: dict[int, list[Pairing]] = {}
        for pairing in Pairing.objects.filter(round__in=rounds).select_related(
                "first__user", "second__user", "match").order_by("board"):
            pairings.setdefault(pairing.round_id, []).append(pairing)
        url = reverse("competitions:tournament", args=[tournament.pk])
        return [Item(
            title=_("Round %(number)s: %(status)s") % {
                "number": round_.number, "status": round_.get_status_display()},
            text="\n".join(pairing_line(p) for p in pairings.get(round_.pk, [])),
            link=f"{url}#round-{round_.number}",
            when=round_.finished_at or round_.starts_at) for round_ in rounds]


def pairing_line(pairing: Pairing) -> str:
    """"alice – bob: Won by Alpha." (a bye: "alice: a bye")."""
    match = pairing.match
    names = " – ".join(entry.name for entry in (pairing.first, pairing.second) if entry) \
        or str(match or "")
    if match is None:
        return _("%(names)s: a bye") % {"names": names}
    if match.status == Match.Status.FINISHED:
        how = result_words(match) or str(match.get_status_display())
    else:
        how = str(match.get_status_display())
    return _("%(names)s: %(how)s") % {"names": names, "how": how}
