from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "portal.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from portal.accounts import signals  # noqa: F401  (connects the receivers)
        from portal.accounts.roles import on_post_migrate
        from portal.translations import keep_lookups

        # The Moderator group, made exact once every app's permissions exist: after auth's
        # own receiver (which makes them), at the last app's signal.
        post_migrate.connect(on_post_migrate, dispatch_uid="reports_moderator_group")

        keep_lookups()  # (each message looked up once per language: portal/translations.py)
