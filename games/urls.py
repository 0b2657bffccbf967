"""The site's generic pages; every game's own pages come from its plug-in (``games.plugins``),
mounted under ``matches/<id>/<game>/`` and ``games/<game>/``."""

from django.urls import path

from games import plugins
from games.views import lobby, match, orders, plans, records, replay, seeking, votes

app_name = "games"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("matches/mine/", lobby.my_matches, name="my_matches"),
    path("matches/new/", lobby.create, name="match_create"),
    path("invite/<str:token>/", lobby.invite, name="invite"),
    path("invite/<str:token>/accept/", lobby.invite_accept, name="invite_accept"),
    path("seats/<str:seat_token>/", seeking.seat_offer, name="seat_offer"),
    path("seats/<str:seat_token>/take/", seeking.take, name="seat_take"),
    path("matches/<int:match_id>/", match.match_detail, name="match"),
    path("matches/<int:match_id>/status/", match.submission_status, name="submission_status"),
    path("matches/<int:match_id>/history/", match.history, name="history"),
    path("matches/<int:match_id>/replay/<int:phase_number>/", replay.replay, name="replay"),
    path("matches/<int:match_id>/record.json", records.record_json, name="record_json"),
    path("matches/<int:match_id>/record.txt", records.record_text, name="record_text"),
    path("matches/<int:match_id>/votes/", votes.panel, name="votes"),
    path("matches/<int:match_id>/votes/propose/", votes.propose, name="vote_propose"),
    path("matches/<int:match_id>/votes/<int:vote_id>/ballot/", votes.cast, name="vote_cast"),
    path("matches/<int:match_id>/concede/", votes.concede, name="concede"),
    path("matches/<int:match_id>/join/", match.join, name="join"),
    path("matches/<int:match_id>/leave/", match.leave, name="leave"),
    path("matches/<int:match_id>/seats/<int:seat_number>/orders/", orders.orders, name="orders"),
    path("matches/<int:match_id>/seats/<int:seat_number>/sheet/", orders.my_sheet, name="sheet"),
    path("matches/<int:match_id>/seats/<int:seat_number>/plan/", plans.panel, name="plan"),
    path("matches/<int:match_id>/seats/<int:seat_number>/plan/save/", plans.save,
         name="plan_save"),
    path("matches/<int:match_id>/seats/<int:seat_number>/plan/clear/", plans.clear,
         name="plan_clear"),
    path("matches/<int:match_id>/seats/<int:seat_number>/plan/check/", plans.branch_check,
         name="plan_branch_check"),
    path("matches/<int:match_id>/seats/<int:seat_number>/plan/branch/", plans.branch_add,
         name="plan_branch_add"),
    path("matches/<int:match_id>/seats/<int:seat_number>/ahead/save/", plans.ahead_save,
         name="sheet_ahead_save"),
    path("matches/<int:match_id>/seats/<int:seat_number>/ahead/clear/", plans.ahead_clear,
         name="sheet_ahead_clear"),
    path("games/<slug:slug>/rules/", replay.rules, name="rules"),
    *plugins.url_patterns(),
]
