from django.apps import AppConfig


class ClocksConfig(AppConfig):
    name = "clocks"
    verbose_name = "Clocks and active hours"
    default_auto_field = "django.db.models.BigAutoField"
