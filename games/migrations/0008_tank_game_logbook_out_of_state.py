"""Tank Game: the logbook moves out of the match state (state version 1 -> 2).

Forward, for each Tank Game match whose state still holds ``log``: the entries are checked
against the ``Action`` rows (each row's events, in logbook order, struck rows aside). Rows
written before a strike-out may hold entries the replay has since changed: then the match is
replayed from its stored inputs and, if the replay gives the very logbook the state held, each
row gets its replayed entries; if not, the migration stops and names the match (nothing is
guessed). When the replay also gives the state itself, each tick row gets its checkpoint. Then
the state drops ``log`` and keeps only its count.

Backward: each state gets its ``log`` again from the rows' entries (struck rows aside).
"""

from django.db import migrations

SLUG = "tank-game"


def _inputs(rows):
    return [{"seq": row.seq, "kind": row.kind, "seat": row.seat,
             "action": row.data if row.kind == "action" else None,
             "at": row.at.isoformat()} for row in rows]


def forward(apps, schema_editor):
    import engine
    from engine.tank_game import upgrade

    Match = apps.get_model("games", "Match")
    Action = apps.get_model("games", "Action")
    game = engine.get(SLUG)
    for match in Match.objects.filter(game=SLUG, state__isnull=False).iterator():
        if upgrade.is_current(match.state):
            continue
        state, log = upgrade.without_log(match.state)
        rows = list(Action.objects.filter(match=match, struck=False).order_by("seq"))
        start = game.start(match.seats.count(), match.options, match.seed)
        steps = list(game.replay_steps(start, match.seed, _inputs(rows)))
        replayed = [events or [] for _entry, _state, events in steps]
        stored = [e for row in rows for e in row.events]
        changed = {}
        if stored != log:
            if [e for events in replayed for e in events] != log:
                raise RuntimeError(
                    f"Match {match.pk}: its logbook does not match its Action rows, nor their "
                    "replay; fix the rows by hand, then migrate again.")
            for row, events in zip(rows, replayed, strict=True):
                if row.events != events:
                    row.events = events
                    changed[row.pk] = row
        if steps and steps[-1][1] == state:  # the replay is the live state: checkpoints hold
            for row, (_entry, after, _events) in zip(rows, steps, strict=True):
                if row.kind == "tick":
                    row.state_after = after
                    changed[row.pk] = row
        Action.objects.bulk_update(list(changed.values()), ["events", "state_after"],
                                   batch_size=200)
        match.state = state
        match.save(update_fields=["state"])


def backward(apps, schema_editor):
    from engine.tank_game import upgrade

    Match = apps.get_model("games", "Match")
    Action = apps.get_model("games", "Action")
    for match in Match.objects.filter(game=SLUG, state__isnull=False).iterator():
        if not upgrade.is_current(match.state):
            continue
        events = Action.objects.filter(match=match, struck=False).order_by("seq") \
            .values_list("events", flat=True)
        match.state = upgrade.with_log(match.state, [e for row in events for e in row])
        match.save(update_fields=["state"])
        Action.objects.filter(match=match).update(state_after=None)


class Migration(migrations.Migration):

    dependencies = [("games", "0007_action_state_after")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
