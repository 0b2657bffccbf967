from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PushConfig(AppConfig):
    name = "portal.push"
    label = "push"
    verbose_name = _("Web push")

    def ready(self) -> None:
        from portal import outbound  # noqa: F401  (registers its system check)
        from portal.accounts.models import Channel
        from portal.accounts.notifications import device_check_register
        from portal.push import receivers  # noqa: F401  (connects the signal receivers)
        from portal.push.services.subscriptions import has_subscription

        device_check_register(Channel.PUSH, has_subscription)  # (the profile offers push)
