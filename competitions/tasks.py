"""Celery tasks of the competitions: they take ids and call one idempotent service."""

from __future__ import annotations

from celery import shared_task

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="competitions.tasks.sweep", **TASK_OPTIONS)
def sweep() -> dict:
    """Start due tournaments, end due rounds, catch up results (beat, every few seconds)."""
    from competitions.services.sweep import competitions_sweep

    return competitions_sweep()

