"""Receipts for sealed sheets: sha256(salt + canonical JSON of the normalized sheet).

The author keeps (salt, receipt); after the phase resolves anyone can check the revealed sheet
against the receipt with ``receipt_verify``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any


def canonical_json(data: Any) -> str:
    """The one byte-stable JSON spelling of a sheet."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def new_salt() -> str:
    return secrets.token_hex(16)


def receipt_for(*, salt: str, data: Any) -> str:
    return hashlib.sha256((salt + canonical_json(data)).encode()).hexdigest()


def receipt_verify(*, salt: str, data: Any, receipt: str) -> bool:
    """True when ``receipt`` is the receipt of ``data`` sealed with ``salt``."""
    try:
        expected = receipt_for(salt=salt, data=data)
    except (TypeError, ValueError):
        return False
    return hmac.compare_digest(expected.encode(), str(receipt).encode())  # bytes: any text
