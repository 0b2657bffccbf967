"""Which IP addresses are reachable on the public internet, from the IANA registries rather
than from Python's ``is_global`` (whose tables differ between Python releases and miss ranges:
192.0.0.8, the local-use NAT64 prefix, IPv4-compatible and site-local addresses).

The rule (``globally_reachable``): the most specific row of ``SPECIAL_PURPOSE`` that holds the
address decides; a row whose registry entry says neither yes nor no ("N/A": 6to4, Teredo, the
old ORCHID block) leaves it to the next wider row; an IPv4 address in no row is global. Then
every IPv4 address an IPv6 address carries (``embedded_ipv4``: NAT64, IPv4-mapped,
IPv4-compatible, 6to4, Teredo) must be globally reachable too, since a gateway or relay would
carry the connection on to it.

Sources: the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890, as updated),
and, marked "address space", the few rows of the IANA IPv4 and IPv6 Address Space registries
that the special-purpose ones leave out (multicast; IPv6 outside the global unicast block
2000::/3, which holds site-local fec0::/10 and the deprecated IPv4-compatible ::/96)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

YES, NO, NOT_STATED = True, False, None


@dataclass(frozen=True)
class Row:
    """One registry entry: the block, its name, where it is defined, and whether the registry
    marks it globally reachable (``NOT_STATED``: the next wider row decides)."""

    network: Network
    name: str
    rfc: str
    reachable: bool | None


def _row(block: str, name: str, rfc: str, reachable: bool | None) -> Row:
    return Row(ipaddress.ip_network(block), name, rfc, reachable)


SPECIAL_PURPOSE: tuple[Row, ...] = (
    # IPv4 Special-Purpose Address Registry
    _row("0.0.0.0/8", '"This network"', "RFC 791 §3.2", NO),
    _row("0.0.0.0/32", '"This host on this network"', "RFC 1122 §3.2.1.3", NO),
    _row("10.0.0.0/8", "Private-Use", "RFC 1918", NO),
    _row("100.64.0.0/10", "Shared Address Space", "RFC 6598", NO),
    _row("127.0.0.0/8", "Loopback", "RFC 1122 §3.2.1.3", NO),
    _row("169.254.0.0/16", "Link Local", "RFC 3927", NO),
    _row("172.16.0.0/12", "Private-Use", "RFC 1918", NO),
    _row("192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890 §2.1", NO),
    _row("192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335", NO),
    _row("192.0.0.8/32", "IPv4 dummy address", "RFC 7600", NO),
    _row("192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723", YES),
    _row("192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155", YES),
    _row("192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2", NO),
    _row("192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2", NO),
    _row("192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737", NO),
    _row("192.31.196.0/24", "AS112-v4", "RFC 7535", YES),
    _row("192.52.193.0/24", "AMT", "RFC 7450", YES),
    _row("192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC 7526", NOT_STATED),
    _row("192.168.0.0/16", "Private-Use", "RFC 1918", NO),
    _row("192.175.48.0/24", "Direct Delegation AS112 Service", "RFC 7534", YES),
    _row("198.18.0.0/15", "Benchmarking", "RFC 2544", NO),
    _row("198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737", NO),
    _row("203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737", NO),
    _row("240.0.0.0/4", "Reserved", "RFC 1112 §4", NO),
    _row("255.255.255.255/32", "Limited Broadcast", "RFC 8190, RFC 919 §7", NO),
    # IPv4 address space
    _row("224.0.0.0/4", "Multicast", "RFC 5771", NO),
    # IPv6 address space: only 2000::/3 is global unicast; the rest is reserved, unique-local,
    # link-local, site-local (fec0::/10, RFC 3879) or multicast (ff00::/8).
    _row("::/0", "Outside global unicast", "RFC 4291 §2.4", NO),
    _row("2000::/3", "Global Unicast", "RFC 4291 §2.4", YES),
    # IPv6 Special-Purpose Address Registry
    _row("::1/128", "Loopback Address", "RFC 4291", NO),
    _row("::/128", "Unspecified Address", "RFC 4291", NO),
    _row("::ffff:0:0/96", "IPv4-mapped Address", "RFC 4291", NO),
    _row("64:ff9b::/96", "IPv4-IPv6 Translation (well-known prefix)", "RFC 6052", YES),
    _row("64:ff9b:1::/48", "IPv4-IPv6 Translation (local-use prefix)", "RFC 8215", NO),
    _row("100::/64", "Discard-Only Address Block", "RFC 6666", NO),
    _row("100:0:0:1::/64", "Dummy IPv6 Prefix", "RFC 9780", NO),
    _row("2001::/23", "IETF Protocol Assignments", "RFC 2928", NO),
    _row("2001::/32", "TEREDO", "RFC 4380, RFC 8190", NOT_STATED),
    _row("2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723", YES),
    _row("2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155", YES),
    _row("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", "RFC 9665", YES),
    _row("2001:2::/48", "Benchmarking", "RFC 5180", NO),
    _row("2001:3::/32", "AMT", "RFC 7450", YES),
    _row("2001:4:112::/48", "AS112-v6", "RFC 7535", YES),
    _row("2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843", NOT_STATED),
    _row("2001:20::/28", "ORCHIDv2", "RFC 7343", YES),
    _row("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374",
         YES),
    _row("2001:db8::/32", "Documentation", "RFC 3849", NO),
    _row("2002::/16", "6to4", "RFC 3056", NOT_STATED),
    _row("2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC 7534", YES),
    _row("3fff::/20", "Documentation", "RFC 9637", NO),
    _row("5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602", NO),
    _row("fc00::/7", "Unique-Local", "RFC 4193, RFC 8190", NO),
    _row("fe80::/10", "Link-Local Unicast", "RFC 4291", NO),
)

# IPv6 blocks that carry an IPv4 address in their last 32 bits (RFC 6052 §2.2 for a /96
# NAT64 prefix; RFC 4291 §2.5.5 for IPv4-compatible and IPv4-mapped). The local-use NAT64
# prefix may be cut into /96s anywhere inside its /48: its last 32 bits are read the same way.
LAST_32_BITS = tuple(ipaddress.IPv6Network(block) for block in (
    "64:ff9b::/96", "64:ff9b:1::/48", "::/96", "::ffff:0:0/96"))


def rows_holding(address: Address) -> list[Row]:
    """The registry rows whose block holds ``address``, the most specific first."""
    rows = [row for row in SPECIAL_PURPOSE
            if row.network.version == address.version and address in row.network]
    return sorted(rows, key=lambda row: row.network.prefixlen, reverse=True)


def embedded_ipv4(address: Address) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address ``address`` carries (NAT64, IPv4-compatible, IPv4-mapped, 6to4,
    Teredo server and client)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return []
    found: list[ipaddress.IPv4Address] = []
    if any(address in block for block in LAST_32_BITS):
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.extend(address.teredo)
    return found


def _row_says(address: Address) -> bool:
    for row in rows_holding(address):
        if row.reachable is not NOT_STATED:
            return row.reachable
    return address.version == 4  # an IPv4 address in no row is ordinary unicast


def globally_reachable(address: Address) -> bool:
    """True if the registries mark ``address`` globally reachable, and every IPv4 address it
    carries as well. An IPv6 address with a zone (``fe80::1%eth0``) is never."""
    if isinstance(address, ipaddress.IPv6Address) and address.scope_id:
        return False
    return _row_says(address) and all(_row_says(inner) for inner in embedded_ipv4(address))
