"""Contacting a URL that a user gave (a push endpoint, later a webhook) without letting the user
reach anything inside: the one way the server makes such a request.

The rules, held by a :class:`Policy`: the scheme is https (the certificate is verified for the
URL's host name), the port is one of the policy's (443), the host is on the policy's allow-list,
and every address the host resolves to is globally reachable by the IANA special-purpose
registries, with every IPv4 address carried inside an IPv6 one (NAT64, IPv4-mapped,
IPv4-compatible, 6to4, Teredo) checked as well (``portal.address_registry``). A redirect is
never followed: its answer is returned as it is.

The API:

- ``check(url, policy=...)``: the URL's syntax, scheme, port and host, without DNS. Raises
  :class:`Refused`; returns the URL's parts.
- ``resolve(url, policy=...)``: ``check``, then resolve the host and check every address.
  Raises :class:`Refused` (a refused address, or a name that does not resolve); returns a
  :class:`Target`. For a form or API: say at once why an address will not do.
- ``addresses_check(host, port, addresses, policy=...)``: the address rule alone, for addresses
  found some other way.
- ``session(policy=...)``: a ``requests.Session`` whose every request is checked as above
  and whose every new connection resolves the host itself, checks every address and connects
  only to those addresses (no second lookup: a DNS answer that changes between the check and
  the connection cannot slip an internal address in). Redirects are not followed, proxies and
  ``.netrc`` from the environment are ignored. A refused URL or address raises
  :class:`Refused` before any byte is sent; a name that does not resolve, or an address that
  does not answer, raises ``requests.ConnectionError`` as usual (worth trying again later).

``settings.OUTBOUND_ALLOW_LOOPBACK`` (tests and development only; refused with DEBUG off) lets a
URL whose addresses are all loopback through on any port: the tests' local stand-ins, and a
receiver a developer runs on their own machine (``make run`` turns it on). It also lets a plain
``http`` URL through when its host names this machine (``localhost``, ``127.0.0.1``, ``[::1]``)
and every address it resolves to is loopback: a local receiver rarely has a certificate.
``settings.OUTBOUND_CA_BUNDLE`` names a PEM file of CAs to verify certificates with instead of
the default bundle (the tests' own CA)."""

from __future__ import annotations

import ipaddress
import socket
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import SplitResult, urlsplit

import requests
from django.conf import settings
from django.core import checks
from django.utils.translation import gettext as _
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util import parse_url
from urllib3.util.timeout import _DEFAULT_TIMEOUT

from portal.address_registry import globally_reachable

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
MAX_URL_LENGTH = 2000


class Refused(ValueError):
    """The URL or one of its addresses is not allowed; ``reason`` says why, for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Policy:
    """What a caller may contact. ``hosts`` is the allow-list: a name matches itself,
    ``*.example.com`` matches the names under example.com, ``*`` matches every host."""

    hosts: tuple[str, ...] = ("*",)
    ports: frozenset[int] = frozenset({443})
    allow_loopback: bool = field(default_factory=lambda: settings.OUTBOUND_ALLOW_LOOPBACK)

    def host_allowed(self, host: str) -> bool:
        host = host.rstrip(".").lower()
        for pattern in self.hosts:
            pattern = pattern.strip().rstrip(".").lower()
            if pattern == "*" or host == pattern or (
                    pattern.startswith("*.") and host.endswith(pattern[1:])):
                return True
        return False


@dataclass(frozen=True)
class Target:
    """A checked URL: its host, port and the addresses it resolved to (all allowed)."""

    url: str
    host: str
    port: int
    addresses: tuple[Address, ...]


def _port_refused(policy: Policy) -> Refused:
    return Refused(_("The address must use port %(ports)s.")
                   % {"ports": ", ".join(str(port) for port in sorted(policy.ports))})


def check(url: str, *, policy: Policy) -> SplitResult:
    """The URL's scheme, port and host against the policy, without DNS."""
    if not isinstance(url, str) or not url.strip():
        raise Refused(_("The address is empty."))
    if len(url) > MAX_URL_LENGTH:
        raise Refused(_("The address is longer than %(max)s characters.")
                      % {"max": MAX_URL_LENGTH})
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port
        # The host urllib3 will connect to must be the host checked here: refuse what the two
        # parsers could read differently (backslashes, control characters, spaces).
        seen_by_urllib3 = (parse_url(url).host or "").strip("[]").rstrip(".").lower()
    except ValueError as error:
        raise Refused(_("The address is not a valid URL.")) from error
    if "\\" in url or any(ord(char) <= 0x20 or ord(char) == 0x7F for char in url) or (
            seen_by_urllib3 != (parts.hostname or "").rstrip(".")):
        raise Refused(_("The address is not a valid URL."))
    host = (parts.hostname or "").rstrip(".")
    if parts.scheme.lower() != "https" and not (
            parts.scheme.lower() == "http" and policy.allow_loopback and names_loopback(host)):
        raise Refused(_("The address must be an https URL."))
    if not host or parts.username is not None or parts.password is not None:
        raise Refused(_("The address must name a host, and no user or password."))
    if not policy.allow_loopback and (port or 443) not in policy.ports:
        raise _port_refused(policy)
    if not policy.host_allowed(host):
        raise Refused(_("%(host)s is not one of the services this site sends to.")
                      % {"host": host})
    return parts


def names_loopback(host: str) -> bool:
    """Whether ``host`` names this machine: ``localhost`` (RFC 6761) or a loopback address."""
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def addresses_of(host: str, port: int, *, policy: Policy,
                 plain: bool = False) -> list[tuple[Any, ...]]:
    """Resolve ``host`` once and check every address: the ``getaddrinfo`` entries to connect
    to. Raises :class:`Refused` if any address is not allowed (or, unless every address is
    loopback and the policy allows loopback, the port is not one of the policy's; or, for a
    ``plain`` http connection, any address is not loopback), and ``socket.gaierror`` if the
    name does not resolve."""
    entries = socket.getaddrinfo(host, port, socket.AF_UNSPEC, socket.SOCK_STREAM)
    if not entries:
        raise socket.gaierror(socket.EAI_NONAME, "no address")
    addresses = [ipaddress.ip_address(entry[4][0]) for entry in entries]
    if plain and not (policy.allow_loopback
                      and all(address.is_loopback for address in addresses)):
        raise Refused(_("The address must be an https URL."))
    addresses_check(host, port, addresses, policy=policy)
    return entries


def addresses_check(host: str, port: int, addresses: list[Address], *, policy: Policy) -> None:
    """Raise :class:`Refused` unless every address of ``host`` is allowed on ``port``."""
    if policy.allow_loopback and all(address.is_loopback for address in addresses):
        return
    if not all(globally_reachable(address) for address in addresses):
        raise Refused(_("%(host)s does not resolve to public addresses only.") % {"host": host})
    if port not in policy.ports:
        raise _port_refused(policy)


def resolve(url: str, *, policy: Policy) -> Target:
    """``check`` the URL, resolve its host and check every address (for a form or an API)."""
    parts = check(url, policy=policy)
    plain = parts.scheme.lower() == "http"
    host, port = (parts.hostname or "").rstrip("."), parts.port or (80 if plain else 443)
    try:
        entries = addresses_of(host, port, policy=policy, plain=plain)
    except (socket.gaierror, UnicodeError) as error:
        raise Refused(_("%(host)s cannot be found.") % {"host": host}) from error
    return Target(url=url.strip(), host=host, port=port,
                  addresses=tuple(ipaddress.ip_address(entry[4][0]) for entry in entries))


def _connect(entries: Iterable[tuple[Any, ...]], timeout: Any,
             socket_options: Any) -> socket.socket:
    """Connect to the first of the checked addresses that answers (as urllib3 does)."""
    error: OSError | None = None
    for family, kind, proto, _name, address in entries:
        sock = socket.socket(family, kind, proto)
        try:
            for option in socket_options or ():
                sock.setsockopt(*option)
            if timeout is not _DEFAULT_TIMEOUT:
                sock.settimeout(timeout)
            sock.connect(address)
            return sock
        except OSError as failure:
            error = failure
            sock.close()
    raise error or OSError("no address to connect to")


class _PinnedConnection:
    """Mixed into urllib3's connections: the socket goes to an address checked in the same
    step that resolved it; TLS (SNI, certificate) still uses the URL's host name."""

    policy: Policy

    def _new_conn(self) -> socket.socket:
        host, port = self._dns_host, self.port  # type: ignore[attr-defined]
        try:
            entries = addresses_of(host, port, policy=self.policy,
                                   plain=not isinstance(self, HTTPSConnection))
            sock = _connect(entries, self.timeout, self.socket_options)  # type: ignore[attr-defined]
        except (socket.gaierror, UnicodeError) as error:
            raise NameResolutionError(host, self, error) from error  # type: ignore[arg-type]
        except TimeoutError as error:
            raise ConnectTimeoutError(self, f"Connection to {host} timed out.") from error
        except OSError as error:
            raise NewConnectionError(  # type: ignore[arg-type]
                self, f"Failed to establish a new connection: {error}") from error
        sys.audit("http.client.connect", self, host, port)
        return sock


class _Adapter(HTTPAdapter):
    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        pinned = {"policy": self.policy}
        connection = type("PinnedHTTPSConnection", (_PinnedConnection, HTTPSConnection), pinned)
        plain = type("PinnedHTTPConnection", (_PinnedConnection, HTTPConnection), pinned)
        self.poolmanager.pool_classes_by_scheme = {
            "https": type("PinnedHTTPSPool", (HTTPSConnectionPool,), {"ConnectionCls": connection}),
            # Loopback only, in development (check() and addresses_of() refuse it otherwise).
            "http": type("PinnedHTTPPool", (HTTPConnectionPool,), {"ConnectionCls": plain}),
        }

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        check(request.url or "", policy=self.policy)
        if kwargs.get("proxies"):
            raise Refused(_("Requests to addresses users gave never go through a proxy."))
        return super().send(request, **kwargs)


class _Session(requests.Session):
    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().send(request, **kwargs)


def session(*, policy: Policy) -> requests.Session:
    """A session that only contacts what ``policy`` allows (see the module's docstring)."""
    pinned = _Session()
    pinned.trust_env = False  # no proxy, no .netrc from the environment
    pinned.verify = settings.OUTBOUND_CA_BUNDLE or True
    for prefix in ("https://", "http://"):
        pinned.mount(prefix, _Adapter(policy))
    return pinned


@checks.register(checks.Tags.security)
def loopback_only_in_development(**kwargs: Any) -> list[checks.CheckMessage]:
    """OUTBOUND_ALLOW_LOOPBACK lets users' URLs reach this machine: never in production."""
    if getattr(settings, "OUTBOUND_ALLOW_LOOPBACK", False) and not settings.DEBUG:
        return [checks.Error(
            "OUTBOUND_ALLOW_LOOPBACK is on with DEBUG off: URLs users give could reach this "
            "machine's own services.", hint="Turn OUTBOUND_ALLOW_LOOPBACK off in production.",
            id="portal.E101")]
    return []
