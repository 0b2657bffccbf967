from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = "Clubs, ladders and tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from competitions import receivers  # noqa: F401  (connects the signal receivers)
