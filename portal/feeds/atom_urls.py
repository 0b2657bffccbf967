"""The Atom feeds (portal/feeds/atom.py), each beside the page it follows."""

from django.urls import path

from portal.feeds import atom

app_name = "feeds"

urlpatterns = [
    path("matches/<int:match_id>/feed.atom", atom.MatchFeed(), name="match"),
    path("clubs/<slug:slug>/feed.atom", atom.ClubResultsFeed(), name="club"),
    path("tournaments/<int:tournament_id>/feed.atom", atom.TournamentRoundsFeed(),
         name="tournament"),
]
