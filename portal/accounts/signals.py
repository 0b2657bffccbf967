"""Every user gets a profile the moment the account exists (sign-up, admin, createsuperuser)."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from portal.accounts.services import profile_ensure, superuser_email_trust


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_profile_ensure")
def create_profile(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        profile_ensure(user=instance)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_superuser_email")
def trust_superuser_email(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw and instance.is_superuser:
        superuser_email_trust(user=instance)
