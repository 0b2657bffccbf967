"""Work that must survive a crash, below every app: how the project's Celery tasks are declared
(``durable.worker``) and the one sweeper that queues again what a crash left undone
(``durable.sweep``). It depends on Celery and Django alone; games, competitions and the portal
declare their tasks and register their kinds of work with it."""
