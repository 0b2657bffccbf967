"""Work that must survive a crash, below every app: what the Celery tasks of the project are
built on (``durable.worker``). It depends on Celery alone; games, competitions and the portal
declare their tasks with it."""
