"""Reading the lifecycle's outbox in tests: the side effects a transaction promised."""

from durable.models import OutboxEvent


def promised(match_id: int, *, kind: str | None = None) -> list[tuple[str, dict]]:
    """(name, payload) of every undone outbox row about ``match_id``, oldest first."""
    rows = OutboxEvent.objects.filter(series=match_id, done_at__isnull=True).order_by("pk")
    if kind is not None:
        rows = rows.filter(kind=kind)
    return [(row.name, row.payload) for row in rows]
