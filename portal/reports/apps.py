from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReportsConfig(AppConfig):
    name = "portal.reports"
    label = "reports"
    verbose_name = _("Reports and moderators")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from portal.reports.roles import on_post_migrate

        # After auth's own receiver (which makes the permissions): the last app's signal.
        post_migrate.connect(on_post_migrate, dispatch_uid="reports_moderator_group")
