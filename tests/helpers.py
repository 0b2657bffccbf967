"""What many tests do the same way, said once: a client logged in as someone, a seat's orders
sent through the service. The fixtures every test may take (``make_user``, ``toy_duel``,
``moderator``) are in tests/conftest.py; the portal's builders of played matches in
tests/portal/builders.py."""

from __future__ import annotations

from django.test import Client


def client_for(user=None, **options) -> Client:
    """A test client logged in as ``user`` (anonymous for None); ``options`` go to Client."""
    client = Client(**options)
    if user is not None:
        client.force_login(user)
    return client


def as_moderator(user):
    """``user`` made a moderator (the Moderator group, what the site's moderators are given),
    read afresh so its permissions are."""
    from django.contrib.auth.models import Group

    user.groups.add(Group.objects.get(name="Moderator"))
    return type(user).objects.get(pk=user.pk)


def submit(match, user, seat: int, number: int | None = None, phase: int | None = None, *,
           data: dict | None = None, text: str | None = None, source: str = "web"):
    """Seat ``seat``'s orders, sent by ``user`` through the service: ``{"number": number}``
    (a Toy Duel's orders), or ``data``, or the typed ``text``. Without ``phase``, the match's
    open phase (``match`` is read again from the database first). Returns the receipt;
    ``match`` is read again after it too (a resolution run eagerly shows)."""
    from games import services

    if phase is None:
        match.refresh_from_db()
        phase = match.phase_number
    if data is None and number is not None:
        data = {"number": number}
    receipt = services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                     phase_number=phase, data=data, text=text, source=source)
    match.refresh_from_db()
    return receipt


def play_round(match, sheets: dict | None = None, *, resolve: bool = True) -> None:
    """Every seat of ``match`` sends its orders for the open phase through the service, then
    the phase resolves (not with ``resolve=False``: a worker or an eager task does it).
    ``sheets`` maps a seat number to its orders: a number (a Toy Duel's ``{"number": n}``),
    typed text, or the data itself; a seat not in it sends its game's default orders."""
    import engine
    from games import services

    match.refresh_from_db()
    game = engine.games()[match.game]
    phase = match.phase_number
    for seat in match.seats.select_related("user").order_by("number"):
        orders = (sheets or {}).get(seat.number)
        if orders is None:
            orders = game.default_submission(match.state, seat.number)
        submit(match, seat.user, seat.number, phase=phase,
               **({"number": orders} if isinstance(orders, int)
                  else {"text": orders} if isinstance(orders, str) else {"data": orders}))
    if resolve:
        assert services.phase_resolve(match_id=match.pk, phase_number=phase)
    match.refresh_from_db()
