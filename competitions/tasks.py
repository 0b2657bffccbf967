"""Celery tasks of the competitions: they take ids and call one idempotent service."""

from __future__ import annotations

from durable.worker import task


@task("competitions.tasks.sweep")
def sweep() -> dict:
    """Start due tournaments, end due rounds, catch up results (beat, every few seconds)."""
    from competitions.services.sweep import competitions_sweep

    return competitions_sweep()

