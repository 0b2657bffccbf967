"""games/prepared.py (querysets compiled once, run with new values) and games/bulk.py's
``rows_insert``: the same models as Django's own query and insert, one statement each."""

import re
from datetime import timedelta

import pytest
from django.db import OperationalError, connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dbops.bulk import rows_insert, rows_update
from games import services
from games.models import Leave, MatchStatusChange, Phase, Seat
from games.prepared import Prepared
from games.services.vacation import with_leave

pytestmark = pytest.mark.django_db

ON_POSTGRES = connection.vendor == "postgresql"


@pytest.fixture
def matches(make_user):
    users = [make_user(f"prep{n}") for n in (1, 2, 3)]
    made = [services.match_create(creator=users[0], game="final-act", options={},
                                  hours_per_phase=24,
                                  seats=[{"kind": "human", "user": users[n % 3]},
                                         {"kind": "human", "user": users[(n + 1) % 3]}])
            for n in range(3)]
    return made, users


def fields_of(obj):
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
            if f.attname not in obj.get_deferred_fields()}


def test_a_prepared_query_returns_what_the_queryset_returns_for_any_values(matches):
    made, users = matches
    now = timezone.now()
    Leave.objects.create(user=users[1], starts_at=now - timedelta(days=1),
                         ends_at=now + timedelta(days=2), days=3)
    builds = []

    def build(ids, now):
        builds.append(ids)
        return with_leave(Seat.objects.filter(match_id__any_of=ids), now).order_by("id")

    seats = Prepared(Seat, build, ids="ints", now="time")
    for ids, at in (([made[0].pk], now), ([made[1].pk, made[2].pk], now),
                    ([made[2].pk], now - timedelta(days=3)), ([], now)):
        expected = list(with_leave(Seat.objects.filter(match_id__in=ids), at).order_by("id"))
        got = seats(ids=ids, now=at)
        assert [fields_of(s) for s in got] == [fields_of(s) for s in expected]
        assert [s.on_leave_until for s in got] == [s.on_leave_until for s in expected]
        assert all(not s._state.adding and s._state.db == "default" for s in got)
    assert any(s.on_leave_until for s in seats(ids=[made[0].pk, made[1].pk], now=now))
    if ON_POSTGRES:  # built twice with stand-ins to compile, then never again
        assert len(builds) == 2


def test_select_related_and_locks_come_back_as_django_makes_them(matches):
    made, _ = matches
    phases = Prepared(Phase, lambda ids: (
        Phase.objects.select_related("match").defer("state_before")
        .select_for_update(of=("match",), no_key=True)
        .filter(match_id__any_of=ids, status=Phase.Status.OPEN).order_by("match_id")),
        ids="ints")
    with transaction.atomic():
        with CaptureQueriesContext(connection) as first:
            got = phases(ids=[m.pk for m in made])
            for phase in got:  # the match is there already: no query
                assert phase.match.state == phase.match.__class__.objects.get(
                    pk=phase.match_id).state
        with CaptureQueriesContext(connection) as again:
            phases(ids=[made[0].pk])
    assert [p.match_id for p in got] == sorted(m.pk for m in made)
    assert all(p.get_deferred_fields() == {"state_before"} for p in got)
    assert len(first) == 1 + len(made) and len(again) == 1
    if ON_POSTGRES:  # one SQL text for any number of ids, the lock in it
        assert first[0]["sql"].split("WHERE")[0] == again[0]["sql"].split("WHERE")[0]
        assert "= ANY(" in again[0]["sql"] and "FOR NO KEY UPDATE OF" in again[0]["sql"]


@pytest.mark.skipif(not ON_POSTGRES, reason="prepared in PostgreSQL's sessions only")
def test_a_server_side_query_is_prepared_once_per_session_and_planned_once(matches):
    made, _ = matches
    now = timezone.now()

    def build(ids, now):  # constants too, one of them with a %, and a value used twice
        return with_leave(Seat.objects.filter(
            match_id__any_of=ids, status=Seat.Status.TAKEN,
            joined_at__lte=now).exclude(bot__contains="50%"), now).order_by("id")

    plain = Prepared(Seat, build, ids="ints", now="time")
    planned = Prepared(Seat, build, server_side=True, ids="ints", now="time")

    def sent(**values):
        with CaptureQueriesContext(connection) as captured:
            got = planned(**values)
        assert [fields_of(s) for s in got] == [fields_of(s) for s in plain(**values)]
        # each round trip's statements (prepared in the same one as its first execution)
        return [re.findall(r"(?:^|; )(PREPARE|EXECUTE|SELECT) ", query["sql"])
                for query in captured]

    assert sent(ids=[made[0].pk], now=now) == [["PREPARE", "EXECUTE"]]
    for ids in ([made[1].pk, made[2].pk], [], [m.pk for m in made]):
        assert sent(ids=ids, now=now) == [["EXECUTE"]]
    assert sent(ids=[made[0].pk], now=now - timedelta(days=1)) == [["EXECUTE"]]
    with connection.cursor() as cursor:  # planned once, for any values (the settings)
        cursor.execute("SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                       " WHERE name = %s", [planned.name])
        assert cursor.fetchone() == (5, 0)
    assert "EXECUTE" not in planned.explain(ids=[made[0].pk], now=now)  # the plan it runs

    # A session that lost its statements (a pooler's reset) fails one call, clearly; the
    # next one prepares them again.
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    with pytest.raises(OperationalError, match="does not exist"), transaction.atomic():
        planned(ids=[made[0].pk], now=now)
    assert sent(ids=[made[0].pk], now=now) == [["PREPARE", "EXECUTE"]]


@pytest.mark.skipif(not ON_POSTGRES, reason="prepared in PostgreSQL's sessions only")
def test_a_server_side_query_without_values_is_prepared_and_run(matches):
    made, _ = matches
    plain = Prepared(Seat, lambda: Seat.objects.filter(match__in=made).order_by("id"))
    planned = Prepared(Seat, lambda: Seat.objects.filter(match__in=made).order_by("id"),
                       server_side=True)
    for _ in range(2):  # prepared, then only run
        with CaptureQueriesContext(connection) as captured:
            got = planned()
        assert [fields_of(s) for s in got] == [fields_of(s) for s in plain()] and got
    assert [q["sql"] for q in captured] == [f"EXECUTE {planned.name}"]


def test_a_value_the_query_does_not_use_is_refused(matches):
    ignoring = Prepared(Seat, lambda ids, now: Seat.objects.filter(match_id__any_of=ids),
                        ids="ints", now="time")
    if ON_POSTGRES:
        with pytest.raises(ValueError, match="now"):
            ignoring(ids=[1], now=timezone.now())
    with pytest.raises(TypeError, match="expected the values"):
        ignoring(ids=[1])


def test_rows_insert_writes_what_bulk_create_writes_and_sets_the_ids(matches):
    made, users = matches
    rows = [MatchStatusChange(match=made[0], old_status="active", new_status="active",
                              changed_by=users[n], note=f"note {n}") for n in range(3)]
    with CaptureQueriesContext(connection) as captured:
        rows_insert(rows)
    assert len(captured) == 1
    stored = {c.pk: c for c in MatchStatusChange.objects.filter(note__startswith="note ")}
    assert sorted(stored) == sorted(r.pk for r in rows)
    for row in rows:
        assert not row._state.adding and row.changed_at is not None  # auto_now_add filled in
        assert fields_of(stored[row.pk]) == fields_of(row)


def test_rows_update_writes_one_row_or_many_in_one_statement(matches):
    made, _ = matches
    seats = list(Seat.objects.filter(match__in=made).order_by("id"))
    for n, seat in enumerate(seats):
        seat.missed_total = n + 7
    for rows in (seats[:1], seats):
        with CaptureQueriesContext(connection) as captured:
            rows_update(rows, ["missed_total"])
        assert len(captured) == 1
    assert [s.missed_total for s in Seat.objects.filter(match__in=made).order_by("id")] == \
        [n + 7 for n in range(len(seats))]


def test_queries_run_together_in_one_round_trip_return_what_each_returns(matches):
    from games.prepared import run_together
    from games.services.vacation import seats_with_hours_and_leave

    made, _ = matches
    ids = [m.pk for m in made[:2]]
    phases_of = Prepared(Phase, lambda ids: Phase.objects.filter(match_id__any_of=ids)
                         .order_by("id"), ids="ints")
    now = timezone.now()
    alone = (seats_with_hours_and_leave(ids=ids, now=now), phases_of(ids=ids))
    with CaptureQueriesContext(connection) as captured:
        together = run_together((seats_with_hours_and_leave, {"ids": ids, "now": now}),
                                (phases_of, {"ids": ids}))
    assert [[fields_of(o) for o in part] for part in together] == \
        [[fields_of(o) for o in part] for part in alone]
    assert len(captured) == (1 if ON_POSTGRES else 2)
    with pytest.raises(TypeError, match="expected the values"):
        run_together((phases_of, {"ids": ids, "now": now}))


def test_writes_held_for_one_round_trip_are_sent_in_order_when_the_block_ends(matches):
    from dbops.bulk import one_round_trip

    made, users = matches
    seat = Seat.objects.filter(match=made[0]).order_by("id").first()
    row = MatchStatusChange(match=made[0], old_status="active", new_status="active",
                            changed_by=users[0], note="held")
    seen = []
    with CaptureQueriesContext(connection) as captured, one_round_trip():
        seat.missed_total = 41
        rows_update([seat], ["missed_total"])
        rows_insert([row], then=lambda: seen.append(row.pk))
        if ON_POSTGRES:  # nothing sent yet
            assert len(captured) == 0 and row.pk is None and not seen
    assert len(captured) == (1 if ON_POSTGRES else 2)
    assert seen == [row.pk] and MatchStatusChange.objects.filter(pk=row.pk, note="held").exists()
    assert Seat.objects.get(pk=seat.pk).missed_total == 41

    with pytest.raises(RuntimeError), one_round_trip():
        seat.missed_total = 99
        rows_update([seat], ["missed_total"])
        raise RuntimeError("the block failed")
    if ON_POSTGRES:  # an exception in the block sends nothing
        assert Seat.objects.get(pk=seat.pk).missed_total == 41


def test_a_block_that_commits_with_its_writes_must_hold_the_outermost_transaction(matches):
    from dbops.bulk import one_round_trip

    made, _ = matches
    seat = Seat.objects.filter(match=made[0]).order_by("id").first()
    seat.missed_total = 5
    with transaction.atomic(), pytest.raises(RuntimeError, match="outermost"), \
            one_round_trip(commit=True):  # in a savepoint
        rows_update([seat], ["missed_total"])
    if ON_POSTGRES:
        assert Seat.objects.get(pk=seat.pk).missed_total == 0


@pytest.mark.skipif(not ON_POSTGRES, reason="prepared in PostgreSQL's sessions only")
def test_a_write_is_prepared_once_per_session_in_the_string_that_first_sends_it(matches):
    from dbops import bulk

    made, _ = matches
    seats = list(Seat.objects.filter(match__in=made).order_by("id"))[:2]

    def forget():  # as a new session, or a pooler's reset, would
        with connection.cursor() as cursor:
            cursor.execute("DEALLOCATE ALL")

    def sent(total):
        for seat in seats:
            seat.missed_total = total
        with CaptureQueriesContext(connection) as captured:
            rows_update(seats, ["missed_total"])
        assert [s.missed_total for s in Seat.objects.filter(pk__in=[s.pk for s in seats])] \
            == [total, total]
        (sql,) = [query["sql"] for query in captured]
        return sql

    forget()
    bulk._in_session.pop(connection.connection, None)
    first = sent(3)
    assert first.startswith('PREPARE bulk_') and '; EXECUTE bulk_' in first
    again = sent(4)
    assert again.startswith("EXECUTE bulk_") and "PREPARE" not in again
    assert bulk.readable(again).startswith('UPDATE "games_seat" AS t SET "missed_total"')
    assert bulk.readable(first).split(" -- ")[0] == bulk.readable(again).split(" -- ")[0]

    # A session that lost its statements fails one call, clearly; the next prepares again.
    forget()
    with pytest.raises(OperationalError, match="does not exist"), transaction.atomic():
        sent(5)
    assert sent(6).startswith("PREPARE bulk_")


# -- the pages' prepared queries (values rows, values that are not parameters) -----------------

def test_values_rows_come_back_as_values_list_gives_them(matches):
    made, _ = matches
    taken = Prepared(Seat, lambda match_id, number: (
        Seat.objects.filter(match_id=match_id, number=number, status=Seat.Status.TAKEN)
        .values_list("pk", "joined_at")), match_id="int", number="int")
    reordered = Prepared(Seat, lambda ids: (
        Seat.objects.filter(match_id__any_of=ids).annotate(twice=F("number") * 2)
        .order_by("pk").values_list("twice", "pk", "number")), ids="ints")
    for match in made:
        for number in (1, 2, 3):  # each value in its place among the constants; dates as dates
            assert taken(match_id=match.pk, number=number) == list(
                Seat.objects.filter(match_id=match.pk, number=number,
                                    status=Seat.Status.TAKEN).values_list("pk", "joined_at"))
    ids = [m.pk for m in made]
    assert reordered(ids=ids) == list(
        Seat.objects.filter(match_id__in=ids).annotate(twice=F("number") * 2)
        .order_by("pk").values_list("twice", "pk", "number"))


@pytest.mark.skipif(not ON_POSTGRES, reason="compiled on PostgreSQL only")
@pytest.mark.parametrize("build", [
    lambda number: Seat.objects.filter(number=number * 2),  # not a parameter: an expression
    lambda number: Seat.objects.order_by("pk")[:number],  # written into the SQL
])
def test_a_value_that_is_not_only_a_parameter_is_refused(build, matches):
    with pytest.raises(ValueError, match="not only the query's parameters|not in its query"):
        Prepared(Seat, build, number="int")(number=1)


def test_the_lobby_lists_and_seats_match_their_querysets(make_user):
    from games import selectors

    alice, bob = make_user("lobby_alice"), make_user("lobby_bob")
    for title, seats in (("Waiting", [{"kind": "human", "user": alice}, {"kind": "human"}]),
                         ("Playing", [{"kind": "human", "user": alice},
                                      {"kind": "human", "user": bob}])):
        services.match_create(creator=alice, game="final-act", options={}, hours_per_phase=24,
                              title=title, seats=seats)
    for start, stop in ((0, 26), (1, 26), (0, 26)):
        waiting, playing = selectors.lobby_page(start, stop)
        assert [m.pk for m in waiting] == [m.pk for m in selectors.lobby_open()[start:stop]]
        assert [m.pk for m in playing] == [m.pk for m in selectors.lobby_running()[start:stop]]
    waiting, playing = selectors.lobby_page(0, 26)
    players, open_seats = selectors.lobby_seats([m.pk for m in waiting + playing])
    assert open_seats == {waiting[0].pk: 1}
    assert [p.name for p in players[playing[0].pk]] == ["lobby_alice", "lobby_bob"]
    assert players[waiting[0].pk][0].badge == "new"


def test_a_matchs_seats_come_with_their_players_as_select_related_leaves_them(
        make_user, django_assert_num_queries):
    from games import selectors

    alice = make_user("seated_alice")
    match = services.match_create(creator=alice, game="final-act", options={},
                                  hours_per_phase=24, title="Half full",
                                  seats=[{"kind": "human", "user": alice}, {"kind": "human"}])
    expected = list(match.seats.select_related("user"))
    with django_assert_num_queries(1):
        seats = selectors.match_seats(match)
        assert [fields_of(s) for s in seats] == [fields_of(s) for s in expected]
        assert seats[0].user == alice and seats[0].user.get_username() == "seated_alice"
        assert seats[1].user is None and seats[0].match is match
