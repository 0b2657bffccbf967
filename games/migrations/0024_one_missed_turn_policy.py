# One missed-turn policy, and tenures for the matches made before them.
#
# - Final Strategy counted missed turns itself (an option "miss_limit", default 3, and a
#   "misses" counter in its state) and removed a seat on its own, whatever the match's
#   missed-deadline policy said. The match's policy decides now (games.services.resolve) and
#   the game only says what a removal means (Game.remove_seats). Its matches lose the option
#   and the counter (in the match's options and state, and in each phase's starting state, so
#   roll-backs and records replay them), and a removal the engine made is kept as the phase's
#   input it now is (the seat's revealed sheet marked "removed": the replay removes it again
#   after the sheets, as the engine did). The seats it removed stay out of the game.
# - Every player who held a seat of a match that started gets a tenure (SeatTenure): the
#   seat's player from when they joined; a player known only by their missed deadlines (they
#   were replaced) until their last miss. Ended matches' tenures end with the match.
# - A seat flagged for replacement in a match in play is offered to a new commander (a link);
#   a player still named on it keeps it until someone takes it.

import secrets

from django.db import migrations
from django.utils import timezone

GAME = "final-strategy"


def _without_counter(state):
    """``state`` without the engine's own miss counter and option (None: unchanged)."""
    if not isinstance(state, dict):
        return None
    options = state.get("options")
    if "misses" not in state and not (isinstance(options, dict) and "miss_limit" in options):
        return None
    state = {key: value for key, value in state.items() if key != "misses"}
    if isinstance(options, dict):
        state["options"] = {key: value for key, value in options.items() if key != "miss_limit"}
    return state


def final_strategy_counter(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Phase = apps.get_model("games", "Phase")
    for match in Match.objects.filter(game=GAME).iterator():
        fields = []
        if isinstance(match.options, dict) and "miss_limit" in match.options:
            match.options = {k: v for k, v in match.options.items() if k != "miss_limit"}
            fields.append("options")
        state = _without_counter(match.state)
        if state is not None:
            match.state = state
            fields.append("state")
        if fields:
            match.save(update_fields=fields)
    for phase in Phase.objects.filter(match__game=GAME).iterator():
        fields = []
        state = _without_counter(phase.state_before)
        if state is not None:
            phase.state_before = state
            fields.append("state_before")
        removed = [event.get("seat") for event in phase.events or []
                   if isinstance(event, dict) and event.get("type") == "remove"]
        revealed = dict(phase.revealed or {})
        for seat in removed:
            sheet = revealed.get(str(seat))
            if isinstance(sheet, dict) and not sheet.get("removed"):
                revealed[str(seat)] = {**sheet, "removed": True}
        if revealed != (phase.revealed or {}):
            phase.revealed = revealed
            fields.append("revealed")
        if fields:
            phase.save(update_fields=fields)


def tenures(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Seat = apps.get_model("games", "Seat")
    SeatTenure = apps.get_model("games", "SeatTenure")
    DeadlineMiss = apps.get_model("games", "DeadlineMiss")
    ModerationEntry = apps.get_model("games", "ModerationEntry")
    now = timezone.now()
    ended_statuses = {"finished", "aborted", "voided"}
    for match in Match.objects.exclude(status="open").filter(
            started_at__isnull=False).iterator():
        if SeatTenure.objects.filter(match=match).exists():
            continue
        ended = match.status in ended_statuses
        end_at = match.finished_at or now
        rows = []
        holders = set()
        for seat in Seat.objects.filter(match=match, user__isnull=False):
            started = max(seat.joined_at or match.started_at, match.started_at)
            forfeited = seat.status == "forfeited"
            rows.append(SeatTenure(
                match=match, seat_number=seat.number, user_id=seat.user_id, started_at=started,
                ended_at=end_at if ended or forfeited else None,
                ending="forfeited" if forfeited else "end" if ended else ""))
            holders.add((seat.user_id, seat.number))
        kicked = {entry.details.get("user_id") for entry in ModerationEntry.objects.filter(
            match=match, kind="kick") if isinstance(entry.details, dict)}
        last_miss = {}
        for user_id, seat_number, missed_at in DeadlineMiss.objects.filter(
                match=match).values_list("user_id", "seat_number", "missed_at"):
            key = (user_id, seat_number)
            last_miss[key] = max(missed_at, last_miss.get(key, missed_at))
        for (user_id, seat_number), until in last_miss.items():
            if (user_id, seat_number) in holders:
                continue
            rows.append(SeatTenure(
                match=match, seat_number=seat_number, user_id=user_id,
                started_at=min(match.started_at, until), ended_at=until,
                ending="kicked" if user_id in kicked else "missed"))
        SeatTenure.objects.bulk_create(rows)


def offers(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    now = timezone.now()
    for seat in Seat.objects.filter(match__status="active", status="flagged",
                                    offer_token__isnull=True):
        seat.offer_token = secrets.token_urlsafe(24)
        seat.offered_at = now
        seat.save(update_fields=["offer_token", "offered_at"])


def forwards(apps, schema_editor):
    final_strategy_counter(apps, schema_editor)
    tenures(apps, schema_editor)
    offers(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0023_seeking_a_commander"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
