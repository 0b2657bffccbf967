from django.urls import path

from games.views import lobby, match, orders, tank_game

app_name = "games"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("matches/mine/", lobby.my_matches, name="my_matches"),
    path("matches/new/", lobby.create, name="match_create"),
    path("invite/<str:token>/", lobby.invite, name="invite"),
    path("invite/<str:token>/accept/", lobby.invite_accept, name="invite_accept"),
    path("matches/<int:match_id>/", match.match_detail, name="match"),
    path("matches/<int:match_id>/status/", match.submission_status, name="submission_status"),
    path("matches/<int:match_id>/history/", match.history, name="history"),
    path("matches/<int:match_id>/join/", match.join, name="join"),
    path("matches/<int:match_id>/leave/", match.leave, name="leave"),
    path("matches/<int:match_id>/seats/<int:seat_number>/orders/", orders.orders, name="orders"),
    path("matches/<int:match_id>/seats/<int:seat_number>/sheet/", orders.my_sheet, name="sheet"),
    # Continuous games (Tank Game V4): actions, the live play area, the logbook.
    path("matches/<int:match_id>/act/", tank_game.act, name="tank_act"),
    path("matches/<int:match_id>/play/", tank_game.play, name="tank_play"),
    path("matches/<int:match_id>/logbook/", tank_game.logbook, name="tank_logbook"),
    path("matches/<int:match_id>/logbook.txt", tank_game.logbook_text, name="tank_logbook_text"),
]
