"""Addresses of the IANA special-purpose registries that are not globally reachable, and IPv6
addresses carrying an internal IPv4 one: refused however they are reached (written out, behind
a name, at registration and at connection)."""

from __future__ import annotations

import socket
from typing import Any

SPECIAL_ADDRESSES = [
    "64:ff9b:1::a9fe:a9fe",  # local-use NAT64 (RFC 8215) for 169.254.169.254
    "::127.0.0.1",  # IPv4-compatible (RFC 4291)
    "fec0::1",  # site-local (RFC 3879)
    "192.0.0.8",  # IPv4 dummy address (RFC 7600)
    "192.0.0.171",  # NAT64/DNS64 discovery (RFC 8880)
    "64:ff9b::a9fe:a9fe",  # well-known NAT64 (RFC 6052) for 169.254.169.254
    "::ffff:169.254.169.254",  # IPv4-mapped
    "2002:a9fe:a9fe::1",  # 6to4 for 169.254.169.254
    "2001:0:a9fe:a9fe::1",  # Teredo, server 169.254.169.254
    "3fff::1",  # documentation (RFC 9637)
    "5f00::1",  # SRv6 SIDs (RFC 9602)
    "100:0:0:1::1",  # dummy IPv6 prefix (RFC 9780)
]


def getaddrinfo_entry(address: str, port: int) -> tuple[Any, ...]:
    """What ``socket.getaddrinfo`` answers for a name resolving to ``address``."""
    if ":" in address:
        return (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))
    return (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))
