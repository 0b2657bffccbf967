from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = _("Clubs, ladders and tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from competitions import receivers  # noqa: F401  (connects the signal receivers)
        from competitions.votes import tournament_boards_are_not_cancelled
        from games.services.votes import vote_rule_add

        vote_rule_add(tournament_boards_are_not_cancelled)
