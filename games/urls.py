from django.urls import path

from games.views import (
    final_act,
    final_act_rules,
    final_act_setup,
    lobby,
    match,
    orders,
    tank_game,
)

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
    # Final Act: the order sheet (live check, seal), the setup, the replay, the rules.
    path("matches/<int:match_id>/seats/<int:seat_number>/sheet/validate/",
         final_act.sheet_validate, name="fa_sheet_validate"),
    path("matches/<int:match_id>/seats/<int:seat_number>/sheet/submit/",
         final_act.sheet_submit, name="fa_sheet_submit"),
    path("matches/<int:match_id>/seats/<int:seat_number>/setup/validate/",
         final_act_setup.validate, name="fa_setup_validate"),
    path("matches/<int:match_id>/seats/<int:seat_number>/setup/",
         final_act_setup.submit, name="fa_setup_submit"),
    path("matches/<int:match_id>/replay/<int:phase_number>/",
         final_act.replay, name="fa_replay"),
    path("games/final-act/rules/", final_act_rules.rules,
         name="fa_rules"),
    # Continuous games (Tank Game V4): actions, the live play area, the logbook.
    path("matches/<int:match_id>/act/", tank_game.act, name="tank_act"),
    path("matches/<int:match_id>/play/", tank_game.play, name="tank_play"),
    path("matches/<int:match_id>/logbook/", tank_game.logbook, name="tank_logbook"),
    path("matches/<int:match_id>/logbook.txt", tank_game.logbook_text, name="tank_logbook_text"),
]
