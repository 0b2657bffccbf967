# Every stored result carries its ending (engine.ending.Ending): the way the match ended, the
# seats it concerns and the game's reason as a key with its parameters, so that no reader
# parses the English back.
#
# - A result stored before (ranking, scores, reason, winners, is_draw) is read once here as
#   ``Ending.from_json`` reads it (the lifecycle's own results recognised by rebuilding them
#   from their ranking, a game's reason read through its phrasebook), and the match's votes
#   tell what the result cannot: a concession that ended the match.
# - A match cancelled by its players had no result: it gets its cancel ending (the seats that
#   agreed), which is no result still.
# The old keys keep their values (a record made before still verifies); going back leaves the
# data as it is (the older code reads the old keys and ignores "ending").

from dataclasses import replace

from django.db import migrations


def endings(apps, schema_editor):
    import engine
    from engine import Phrasebook
    from engine.ending import Ending, How, by_cancel, by_concession

    Match = apps.get_model("games", "Match")
    MatchVote = apps.get_model("games", "MatchVote")
    ended_by = {match_id: (kind, seat, standing) for match_id, kind, seat, standing in
                MatchVote.objects.filter(status="passed", ended_match=True)
                .values_list("match_id", "kind", "seat_number", "standing")}
    for match in Match.objects.filter(status__in=["finished", "aborted"]).iterator():
        kind, seat, standing = ended_by.get(match.pk, (None, None, None))
        if match.result is None:
            if match.status == "aborted" and kind == "cancel":
                match.result = by_cancel(standing or []).as_json()
                match.save(update_fields=["result"])
            continue
        if not isinstance(match.result, dict) or "ending" in match.result:
            continue
        game = engine.games().get(match.game)
        phrasebook = game.phrasebook if game is not None else Phrasebook()
        ending = Ending.from_json(match.result, phrasebook)
        if kind == "concede" and seat is not None and ending.how in (How.RULES, How.NOBODY):
            ending = (by_concession(None, [seat], phrasebook) if not ending.ranking
                      else replace(ending, how=How.CONCESSION, seats=(seat,)))
        match.result = ending.as_json()
        match.save(update_fields=["result"])


class Migration(migrations.Migration):
    dependencies = [("games", "0028_seat_seen_at")]

    operations = [migrations.RunPython(endings, migrations.RunPython.noop)]
