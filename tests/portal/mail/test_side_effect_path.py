"""The path of a side effect, as docs/architecture.md draws it: from a resolved phase to the
mail's ``sendmail``, the project's own calls on the way, stage by stage (each stage a task
that ends by storing work and queueing the next). The drawing is read from the docs and
compared with the calls a real resolution makes, so neither can change without the other."""

from __future__ import annotations

import re
import smtplib
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

import durable.outbox
from games.models import Phase
from games.services import phase_resolve
from portal.delivery import pipeline

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("competitions", "dbops", "durable", "engine", "games", "portal")


def _drawn() -> dict[str, list[str]]:
    """The stages drawn in docs/architecture.md: the block after "The calls, stage by stage",
    a line ``stage: name`` then one ``path:function`` a line."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    block = text.split("The calls, stage by stage", 1)[1].split("```", 2)[1]
    stages: dict[str, list[str]] = {}
    current = None
    for line in block.splitlines():
        if match := re.match(r"^stage: (\S+)", line.strip()):
            current = stages.setdefault(match.group(1), [])
        elif line.strip() and current is not None:
            current.append(line.split("#")[0].strip())
    return stages


def _calls(frame, start: str) -> list[str]:
    """The project's functions on the stack of ``frame``, outermost first, from ``start``."""
    names = []
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if path.is_relative_to(ROOT) and path.relative_to(ROOT).parts[0] in PACKAGES:
            names.append(f"{path.relative_to(ROOT)}:{frame.f_code.co_qualname}")
        frame = frame.f_back
    names.reverse()
    return names[names.index(start):] if start in names else []


@pytest.mark.django_db(transaction=True)
def test_a_resolution_reaches_sendmail_by_the_path_the_docs_draw(
        eager, mailboxes, final_act_match, monkeypatch):
    seen: dict[str, list[str]] = {}

    def spy(owner, name, stage, start, *, then=None):
        real = getattr(owner, name)

        def spying(*args, **kwargs):
            if stage not in seen and (calls := _calls(sys._getframe(1), start)):
                seen[stage] = calls + [then or name]
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, spying)

    # (each stage: the task's function, down to the call that hands the work on)
    spy(durable.outbox, "rows_insert", "resolution", "games/services/resolve.py:phase_resolve",
        then="dbops/bulk.py:rows_insert")
    spy(pipeline, "deliver_many", "outbox", "durable/tasks.py:outbox_dispatch",
        then="portal/delivery/pipeline.py:deliver_many")
    spy(pipeline, "run_ahead", "delivery", "portal/delivery/tasks.py:deliver_due",
        then="portal/delivery/pipeline.py:run_ahead")
    spy(smtplib.SMTP, "sendmail", "sender", "portal/delivery/pipeline.py:run_ahead.<locals>.run",
        then="smtplib:SMTP.sendmail")

    match = final_act_match()
    phase = Phase.objects.filter(match=match).order_by("-number").first()
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    mailboxes.clear()
    seen.clear()
    assert phase_resolve(match_id=match.pk, phase_number=phase.number)
    assert mailboxes.to(match.alice.email)  # (the next phase's "your move")

    drawn = _drawn()
    assert seen == {stage: drawn[stage] for stage in seen}
    # between the stages, drawn too: the relay's (or the commit's) queueing of the outbox's
    # dispatch, and the delivery flush queued when the outbox's rows commit
    assert set(drawn) == set(seen) | {"relay", "flush"}
    total = sum(len(calls) for calls in drawn.values())
    assert f"{total} calls" in (ROOT / "docs" / "architecture.md").read_text()
