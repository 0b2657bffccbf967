"""The Moderator group, with exactly the permissions moderating needs (not superuser): see the
matches, seats, phases, sheets (sealed until revealed: the admin shows "sealed"), the logbook
and the audit trail; moderate matches (pause, extend, roll back, replace, void, kick: the
``games.moderate_match`` permission); hand a flagged seat over (change seat); work the report
queue; look users up. Nothing else: no editing of matches' settings, no deleting, no users'
accounts."""

from django.db import migrations

GROUP = "Moderator"
PERMISSIONS = [
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
    ("auth", "view_user"),
]


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally made after all migrations ran (post_migrate): make them now.
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    wanted = []
    for app_label, codename in PERMISSIONS:
        wanted.append(Permission.objects.get(content_type__app_label=app_label,
                                             codename=codename))
    group.permissions.set(wanted)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("reports", "0001_initial"),
        ("games", "0013_moderation_and_vacation"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
