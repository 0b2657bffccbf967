from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "portal.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from portal.accounts import signals  # noqa: F401  (connects the receivers)
        from portal.translations import keep_lookups

        keep_lookups()  # (each message looked up once per language: portal/translations.py)
