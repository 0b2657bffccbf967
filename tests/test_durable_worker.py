"""Every Celery task of the project is declared with ``durable.worker.task``: acknowledged late,
requeued when its worker is lost, no result kept, said once in the base class."""

import importlib
import re
from pathlib import Path

from celery import current_app

from durable.worker import Worker

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("analysis", "clocks", "competitions", "dbops", "durable", "engine", "games", "portal")


def project_files():
    for package in PACKAGES:
        yield from (ROOT / package).rglob("*.py")


def test_every_task_of_the_project_is_a_worker():
    for path in project_files():
        if path.name == "tasks.py":
            importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
    ours = {name: task for name, task in current_app.tasks.items()
            if not name.startswith("celery.")}
    assert len(ours) >= 20, sorted(ours)
    for name, task in ours.items():
        assert isinstance(task, Worker), name
        assert task.acks_late and task.reject_on_worker_lost and task.ignore_result, name


def test_no_module_declares_a_task_or_its_options_itself():
    declaring = re.compile(r"\bshared_task\b|@\w+\.task\b|\backs_late\s*=|\bTASK_OPTIONS\b")
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in project_files() if path != ROOT / "durable" / "worker.py"
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if declaring.search(line)]
    assert not found, found
