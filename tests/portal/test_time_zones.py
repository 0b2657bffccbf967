"""The time-zone choice offers the current canonical zones, grouped by region, not ~600 names
with their old aliases ("US/Pacific", "Europe/Kiev", "Asia/Calcutta"); a profile saved with an
old alias still loads and saves."""

import pytest

from clocks.zones import zone_choices
from portal.accounts.forms import ProfileForm
from portal.accounts.services import profile_ensure, profile_update

pytestmark = pytest.mark.django_db


def offered(choices) -> list[str]:
    return [value for group, items in choices[1:] if isinstance(items, list)
            for value, _label in items] + [choices[0][0]]


def test_the_choice_holds_current_zones_by_region():
    choices = zone_choices()
    names = offered(choices)
    assert choices[0] == ("UTC", "UTC")
    assert "Europe/Kyiv" in names and "Asia/Kolkata" in names and "Europe/Paris" in names
    for alias in ("Europe/Kiev", "Asia/Calcutta", "US/Pacific", "GB", "Etc/GMT+3", "EST5EDT"):
        assert alias not in names
    assert 300 < len(names) < 450
    groups = {str(group): items for group, items in choices[1:]}
    assert ("Europe/Paris", "Europe/Paris") in groups["Europe"]
    assert ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos Aires") in \
        groups["America"]


def test_a_profile_with_an_old_alias_keeps_it(make_user):
    alice = make_user("alice")
    profile_update(user=alice, time_zone="Europe/Kiev")  # an alias Python still knows
    form = ProfileForm(instance=profile_ensure(user=alice))
    assert "Europe/Kiev" in [value for value, _label in form.fields["time_zone"].choices
                             if not isinstance(_label, list)]
    bound = ProfileForm({"time_zone": "Europe/Kiev", "language": "", "reminder_hours": "24",
                         "chat_handle": ""}, instance=profile_ensure(user=alice))
    assert bound.is_valid(), bound.errors
    fresh = ProfileForm({"time_zone": "US/Pacific", "language": "", "reminder_hours": "24",
                         "chat_handle": ""}, instance=profile_ensure(user=make_user("bob")))
    assert not fresh.is_valid() and "time_zone" in fresh.errors
