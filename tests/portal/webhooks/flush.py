"""Run the delivery pipeline's webhook channel until nothing is due (as its task does)."""

from __future__ import annotations


def flush() -> int:
    from portal.delivery.pipeline import flush as pipeline_flush

    return pipeline_flush("webhook")
