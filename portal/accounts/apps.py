from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "portal.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from portal.accounts import signals  # noqa: F401  (connects the receivers)
