"""The Moderator role: a group of accounts with exactly the permissions moderating needs (see
docs/moderation.md). Made by the reports' data migration ``0002_moderator_group`` and kept
exact after every ``migrate`` (and every test-database flush) by a ``post_migrate`` receiver
(``portal.accounts.apps``). The permissions are named, not imported: the apps that define them
(reports, chat, signals) sit above the accounts."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission

MODERATOR_GROUP = "Moderator"
MODERATOR_PERMISSIONS = [
    ("games", "view_match"),
    ("games", "moderate_match"),
    ("games", "view_seat"),
    ("games", "change_seat"),
    ("games", "view_phase"),
    ("games", "view_submission"),
    ("games", "view_matchstatuschange"),
    ("games", "view_action"),
    ("games", "view_logbookstrike"),
    ("games", "view_moderationentry"),
    ("games", "view_leave"),
    ("games", "view_leaveextension"),
    ("reports", "view_report"),
    ("reports", "change_report"),
    ("chat", "hide_message"),
    ("chat", "view_messagehide"),
    ("auth", "view_user"),
    ("signals", "view_signal"),
    ("signals", "change_signal"),
    ("signals", "view_signalaction"),
    ("signals", "view_clienttrace"),
    ("signals", "view_relationship"),
]


def moderator_group_sync() -> Group | None:
    """Create the group if missing and give it exactly MODERATOR_PERMISSIONS (None while a
    permission does not exist yet, e.g. mid-migration)."""
    wanted = []
    for app_label, codename in MODERATOR_PERMISSIONS:
        permission = Permission.objects.filter(content_type__app_label=app_label,
                                               codename=codename).first()
        if permission is None:
            return None
        wanted.append(permission)
    group, _ = Group.objects.get_or_create(name=MODERATOR_GROUP)
    group.permissions.set(wanted)
    return group


def on_post_migrate(sender: Any, **kwargs: Any) -> None:
    moderator_group_sync()
