from django.urls import path

from competitions.views import clubs, ladders, tournaments

app_name = "competitions"

urlpatterns = [
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/new/", clubs.club_create, name="club_create"),
    path("clubs/join/<str:token>/", clubs.club_join, name="club_join"),
    path("clubs/<slug:slug>/", clubs.club_detail, name="club"),
    path("clubs/<slug:slug>/request/", clubs.club_request, name="club_request"),
    path("clubs/<slug:slug>/requests/<int:request_id>/", clubs.club_request_decide,
         name="club_request_decide"),
    path("clubs/<slug:slug>/invite/", clubs.club_invite, name="club_invite"),
    path("clubs/<slug:slug>/leave/", clubs.club_leave, name="club_leave"),
    path("clubs/<slug:slug>/members/<int:user_id>/", clubs.club_member, name="club_member"),
    path("clubs/<slug:slug>/removals/<int:user_id>/lift/", clubs.club_removal_lift,
         name="club_removal_lift"),
    path("clubs/<slug:slug>/invite-link/reset/", clubs.club_invite_link_reset,
         name="club_invite_link_reset"),
    path("clubs/<slug:slug>/ladders/new/", clubs.club_ladder_create, name="ladder_create"),
    path("clubs/<slug:slug>/matches/new/", clubs.club_match_create, name="club_match_create"),
    path("clubs/<slug:slug>/tournaments/new/", tournaments.tournament_create,
         name="tournament_create"),
    path("ladders/<int:ladder_id>/", ladders.ladder_detail, name="ladder"),
    path("ladders/<int:ladder_id>/players/<int:user_id>/", ladders.ladder_player,
         name="ladder_player"),
    path("ladders/<int:ladder_id>/challenge/", ladders.challenge_create, name="challenge_create"),
    path("challenges/<int:challenge_id>/", ladders.challenge_answer, name="challenge_answer"),
    path("tournaments/<int:tournament_id>/", tournaments.tournament_detail, name="tournament"),
    path("tournaments/<int:tournament_id>/crosstable/", tournaments.tournament_crosstable,
         name="crosstable"),
    path("tournaments/<int:tournament_id>/bracket/", tournaments.tournament_bracket,
         name="bracket"),
    path("tournaments/<int:tournament_id>/<str:action>/", tournaments.tournament_action,
         name="tournament_action"),
]
