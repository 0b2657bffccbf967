"""The site's VAPID key pair (RFC 8292): push services take our messages only when signed with
it, and browsers subscribe with its public key. Production sets ``VAPID_PRIVATE_KEY`` (make one
with ``manage.py push_vapid_keys``); development and tests generate one on first use and keep it
in ``VAR_DIR`` (``VAPID_GENERATE``), so subscriptions survive a restart."""

from __future__ import annotations

import base64
import logging
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02

logger = logging.getLogger(__name__)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_private_key() -> str:
    """A new P-256 private key as base64url of its 32 raw bytes (``VAPID_PRIVATE_KEY``)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def public_key_of(private_key: str) -> str:
    """The application server key browsers subscribe with: the public point, base64url."""
    key = Vapid02.from_string(private_key).public_key
    return b64url(key.public_bytes(serialization.Encoding.X962,
                                   serialization.PublicFormat.UncompressedPoint))


def _generated(path: Path) -> str:
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = new_private_key()
    path.write_text(key + "\n")
    path.chmod(0o600)
    logger.info("generated a development VAPID key in %s", path)
    return key


@lru_cache(maxsize=4)
def _private_key(configured: str, generate: bool, path: str) -> str:
    if configured:
        Vapid02.from_string(configured)  # a bad key fails here, loudly, not at the first push
        return configured
    return _generated(Path(path)) if generate else ""


def private_key() -> str:
    """The private key, or "" when push is not configured (production without a key)."""
    return _private_key(settings.VAPID_PRIVATE_KEY, settings.VAPID_GENERATE,
                        str(settings.VAPID_KEY_FILE))


def public_key() -> str:
    key = private_key()
    return public_key_of(key) if key else ""


def enabled() -> bool:
    return bool(private_key())


def claims() -> dict[str, str]:
    """The JWT claims pywebpush signs (it adds ``aud`` and ``exp`` per endpoint)."""
    return {"sub": settings.VAPID_SUBJECT}
