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


def submit(match, user, seat: int, number: int | None = None, phase: int | None = None, *,
           data: dict | None = None, text: str | None = None, source: str = "web"):
    """Seat ``seat``'s orders, sent by ``user`` through the service: ``{"number": number}``
    (a Toy Duel's orders), or ``data``, or the typed ``text``. Without ``phase``, the match's
    open phase (``match`` is read again from the database first). Returns the receipt."""
    from games import services

    if phase is None:
        match.refresh_from_db()
        phase = match.phase_number
    if data is None and number is not None:
        data = {"number": number}
    return services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                  phase_number=phase, data=data, text=text, source=source)
