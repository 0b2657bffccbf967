"""portal.outbound: a URL a user gave is contacted only over https, on the policy's port, at a
host on its list whose every address is global, at the address checked, and never redirected.
The targets are local https stand-ins (tests/portal/tls.py) that count every TCP connection."""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys

import pytest
import requests

from portal import outbound
from portal.address_registry import SPECIAL_PURPOSE
from tests.portal.special_addresses import SPECIAL_ADDRESSES, getaddrinfo_entry
from tests.portal.tls import StandIn, ca_bundle

ANYWHERE = ("*",)
# Every way of writing an internal address that a parser of dotted quads lets through.
INTERNAL_SPELLINGS = ["https://127.1/", "https://2130706433/", "https://0x7f000001/",
                      "https://0177.0.0.1/", "https://169.254.43518/", "https://localhost./",
                      "https://localhost/", "https://[::1]/", "https://[::ffff:127.0.0.1]/",
                      "https://10.1.2.3/", "https://100.64.0.1/"]


@pytest.fixture
def stand_ins(settings):
    settings.OUTBOUND_CA_BUNDLE = ca_bundle()
    made: list[StandIn] = []

    def make(status: int = 200, headers: dict[str, str] | None = None) -> StandIn:
        made.append(StandIn(status, headers))
        return made[-1]

    yield make
    for stand_in in made:
        stand_in.stop()


def local(**kwargs) -> outbound.Policy:
    """The tests' widening: loopback allowed (on any port), at the names given."""
    return outbound.Policy(hosts=kwargs.pop("hosts", ("localhost",)), allow_loopback=True,
                           **kwargs)


@pytest.mark.parametrize("url", INTERNAL_SPELLINGS)
def test_an_internal_address_is_refused_however_it_is_written(url):
    with pytest.raises(outbound.Refused, match="does not resolve to public addresses only"):
        outbound.resolve(url, policy=outbound.Policy(hosts=ANYWHERE, allow_loopback=False))


def test_a_name_that_resolves_to_an_internal_address_is_refused():
    name = socket.gethostname()
    try:
        addresses = {entry[4][0] for entry in socket.getaddrinfo(name, 443)}
    except OSError:
        pytest.skip(f"this machine's name {name} does not resolve")
    if all(ipaddress.ip_address(address).is_global for address in addresses):
        pytest.skip(f"this machine's name {name} resolves to public addresses")
    with pytest.raises(outbound.Refused, match="does not resolve to public addresses only"):
        outbound.resolve(f"https://{name}/", policy=outbound.Policy(allow_loopback=False))


@pytest.mark.parametrize("address, public", [
    ("8.8.8.8", True), ("2606:4700:4700::1111", True), ("64:ff9b::808:808", True),
    ("10.0.0.1", False), ("172.16.0.1", False), ("192.168.1.1", False), ("127.0.0.1", False),
    ("169.254.169.254", False), ("100.64.0.1", False), ("0.0.0.0", False),
    ("224.0.0.1", False), ("255.255.255.255", False), ("::1", False), ("fe80::1", False),
    ("fc00::1", False), ("::ffff:10.0.0.1", False), ("2002:a00:1::", False),
    ("64:ff9b::a00:1", False), ("ff02::1", False),
    # The registries' globally reachable rows inside wider refused ones, and a 6to4 address
    # carrying a public IPv4 one.
    ("192.0.0.9", True), ("2001:1::1", True), ("2002:808:808::1", True),
    ("192.31.196.1", True),
    *((address, False) for address in SPECIAL_ADDRESSES),
])
def test_only_global_addresses_are_public(address, public):
    allowed = True
    try:
        outbound.addresses_check("example.com", 443, [ipaddress.ip_address(address)],
                                 policy=outbound.Policy(allow_loopback=False))
    except outbound.Refused:
        allowed = False
    assert allowed is public


@pytest.mark.parametrize("address", SPECIAL_ADDRESSES)
def test_a_special_purpose_address_written_out_is_refused(address):
    literal = f"[{address}]" if ":" in address else address
    with pytest.raises(outbound.Refused, match="does not resolve to public addresses only"):
        outbound.resolve(f"https://{literal}/", policy=outbound.Policy(allow_loopback=False))


@pytest.mark.parametrize("address", SPECIAL_ADDRESSES)
def test_the_session_never_connects_to_a_special_purpose_address(stand_ins, monkeypatch,
                                                                 address):
    """A name resolving to the address. Were the connection let through, it is diverted to a
    local stand-in (nothing here may reach such an address) and counted there."""
    target = stand_ins()
    real_lookup, real_connect, asked = socket.getaddrinfo, outbound._connect, []

    def resolver(host, port, *args, **kwargs):
        if host == "special.example":
            return [getaddrinfo_entry(address, port)]
        return real_lookup(host, port, *args, **kwargs)

    def diverted(entries, timeout, options):
        asked.extend(entry[4][0] for entry in entries)
        return real_connect([(socket.AF_INET, socket.SOCK_STREAM, 6, "",
                              ("127.0.0.1", target.port))], timeout, options)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    monkeypatch.setattr(outbound, "_connect", diverted)
    policy = outbound.Policy(ports=frozenset({target.port}), allow_loopback=False)
    with outbound.session(policy=policy) as http, \
            pytest.raises(outbound.Refused, match="special.example does not resolve to public"):
        http.post(f"https://special.example:{target.port}/", data=b"x", timeout=5)
    assert asked == [] and target.connections == 0


def test_every_row_of_the_registry_table_names_its_rfc_and_is_a_block():
    for row in SPECIAL_PURPOSE:
        assert row.rfc.startswith("RFC ") and row.name, row
        assert row.reachable in (True, False, None), row
    blocks = [row.network for row in SPECIAL_PURPOSE]
    assert len(blocks) == len(set(blocks))


def test_every_address_of_a_name_must_be_public_not_just_the_first():
    addresses = [ipaddress.ip_address("8.8.8.8"), ipaddress.ip_address("10.0.0.1")]
    with pytest.raises(outbound.Refused, match="example.com does not resolve to public"):
        outbound.addresses_check("example.com", 443, addresses,
                                 policy=outbound.Policy(allow_loopback=False))


@pytest.mark.parametrize("url, reason", [
    ("http://push.example.com/x", "must be an https URL"),
    ("ftp://push.example.com/x", "must be an https URL"),
    ("https://push.example.com:8443/x", "must use port 443"),
    ("https://8.8.8.8:22/x", "must use port 443"),
    ("https://user:secret@push.example.com/x", "no user or password"),
    ("https:///x", "must name a host"),
    ("https://push.example.com:99999/x", "not a valid URL"),
    ("https://evil.example/x", "evil.example is not one of the services"),
    ("https://push.example.com.evil.example/x", "is not one of the services"),
    ("https://evil.example\\@push.example.com/x", "not a valid URL"),
    ("https://push.example.com\\@evil.example/x", "not a valid URL"),
    ("https://push.example.com /x", "not a valid URL"),
    ("https://push.example.com/x\ny", "not a valid URL"),
])
def test_the_url_is_checked_before_any_lookup(url, reason):
    policy = outbound.Policy(hosts=("push.example.com", "8.8.8.8"), allow_loopback=False)
    with pytest.raises(outbound.Refused, match=reason):
        outbound.check(url, policy=policy)


def test_the_allow_list_matches_names_and_their_subdomains_only():
    policy = outbound.Policy(hosts=("fcm.googleapis.com", "*.push.apple.com"))
    assert policy.host_allowed("fcm.googleapis.com") and policy.host_allowed("FCM.googleapis.com.")
    assert policy.host_allowed("web.push.apple.com")
    assert not policy.host_allowed("push.apple.com.evil.example")
    assert not policy.host_allowed("evilpush.apple.com")
    assert not policy.host_allowed("googleapis.com")


def test_another_port_is_refused_without_a_connection_even_on_loopback_allowed(stand_ins):
    target = stand_ins()
    with outbound.session(policy=outbound.Policy(hosts=ANYWHERE, allow_loopback=False)) as http, \
            pytest.raises(outbound.Refused, match="must use port 443"):
        http.get(target.url(), timeout=5)
    # With loopback allowed, a public address still needs port 443.
    with pytest.raises(outbound.Refused, match="must use port 443"):
        outbound.resolve("https://8.8.8.8:8443/", policy=local(hosts=ANYWHERE))
    assert target.connections == 0


def test_the_session_connects_to_the_checked_address_and_verifies_the_name(stand_ins):
    target = stand_ins()
    with outbound.session(policy=local()) as http:
        answer = http.post(target.url("/hello"), data=b"x", timeout=5)
    assert answer.status_code == 200
    assert target.requests == [("POST", "/hello", f"localhost:{target.port}")]


def test_a_certificate_for_another_name_is_refused(stand_ins, settings):
    target = stand_ins()
    settings.OUTBOUND_CA_BUNDLE = ""  # the default bundle does not know the tests' CA
    with outbound.session(policy=local()) as http, pytest.raises(requests.exceptions.SSLError):
        http.get(target.url(), timeout=5)
    assert target.requests == []


def test_the_session_refuses_an_internal_address_before_connecting(stand_ins):
    target = stand_ins()
    policy = outbound.Policy(hosts=("localhost",), ports=frozenset({target.port}),
                             allow_loopback=False)
    with outbound.session(policy=policy) as http, \
            pytest.raises(outbound.Refused, match="localhost does not resolve to public"):
        http.get(target.url(), timeout=5)
    assert target.connections == 0


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_returned_never_followed(stand_ins, status):
    elsewhere = stand_ins()
    redirecting = stand_ins(status, {"Location": elsewhere.url("/internal")})
    with outbound.session(policy=local()) as http:
        answer = http.post(redirecting.url("/x"), data=b"payload", timeout=5,
                           allow_redirects=True)
        again = http.get(redirecting.url("/y"), timeout=5)
    assert (answer.status_code, again.status_code) == (status, status)
    assert len(redirecting.requests) == 2
    assert elsewhere.connections == 0


def test_a_name_is_resolved_once_and_connected_to_as_checked(stand_ins, monkeypatch):
    """DNS rebinding: the check's answer is public, a second lookup would say loopback (where
    the stand-in listens). The connection must go to the first answer, or nowhere."""
    target = stand_ins()
    real = socket.getaddrinfo
    lookups: list[str] = []

    def rebinding(host, port, *args, **kwargs):
        if host != "rebind.example":
            return real(host, port, *args, **kwargs)
        lookups.append(host)
        address = "192.88.99.1" if len(lookups) == 1 else "127.0.0.1"  # global, then here
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    policy = outbound.Policy(hosts=ANYWHERE, ports=frozenset({target.port}),
                             allow_loopback=False)
    with outbound.session(policy=policy) as http, pytest.raises(requests.ConnectionError):
        http.get(f"https://rebind.example:{target.port}/", timeout=0.5)
    assert lookups == ["rebind.example"]
    assert target.connections == 0


def test_environment_proxies_are_ignored(stand_ins, monkeypatch):
    target = stand_ins()
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")  # nothing listens there
    with outbound.session(policy=local()) as http:
        assert http.get(target.url(), timeout=5).status_code == 200
        with pytest.raises(outbound.Refused, match="proxy"):
            http.get(target.url(), timeout=5, proxies={"https": "http://127.0.0.1:9"})


def test_loopback_is_refused_in_production_by_a_system_check(settings):
    settings.DEBUG, settings.OUTBOUND_ALLOW_LOOPBACK = False, True
    [error] = outbound.loopback_only_in_development()
    assert error.id == "portal.E101"
    settings.DEBUG = True
    assert outbound.loopback_only_in_development() == []


def test_loopback_cannot_be_switched_on_with_debug_off():
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "x" * 50,
           "OUTBOUND_ALLOW_LOOPBACK": "true", "DJANGO_SETTINGS_MODULE": "portal.settings"}
    done = subprocess.run([sys.executable, "-c", "import django; django.setup()"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "OUTBOUND_ALLOW_LOOPBACK must be off when DEBUG is off" in done.stderr


class _PlainReceiver:
    """A plain http receiver on loopback (a developer's local webhook receiver)."""

    def __init__(self) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.posts: list[bytes] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                receiver.posts.append(self.rfile.read(int(self.headers["Content-Length"])))
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, args=(0.01,), daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def plain_receiver():
    receiver = _PlainReceiver()
    yield receiver
    receiver.stop()


def test_plain_http_reaches_a_local_receiver_in_development_only(plain_receiver):
    """`make run` allows loopback: a developer's receiver on this machine, plain http, any
    port. Without it (production) the same address is refused before any connection."""
    url = f"http://127.0.0.1:{plain_receiver.port}/hook"
    with outbound.session(policy=outbound.Policy(allow_loopback=True)) as http:
        assert http.post(url, data=b"hi", timeout=5).status_code == 204
    assert outbound.resolve(f"http://localhost:{plain_receiver.port}/hook",
                            policy=outbound.Policy(allow_loopback=True)).port == plain_receiver.port
    with outbound.session(policy=outbound.Policy(allow_loopback=False)) as http, \
            pytest.raises(outbound.Refused, match="must be an https URL"):
        http.post(url, data=b"no", timeout=5)
    assert plain_receiver.posts == [b"hi"]


@pytest.mark.parametrize("url", ["http://8.8.8.8/hook", "http://hooks.example.test/hook",
                                 "http://10.1.2.3:9911/hook", "ftp://127.0.0.1/hook"])
def test_plain_http_elsewhere_than_this_machine_is_refused_even_in_development(url):
    with pytest.raises(outbound.Refused, match="must be an https URL"):
        outbound.resolve(url, policy=outbound.Policy(allow_loopback=True))


def test_plain_http_to_localhost_that_resolves_outside_is_refused(monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, port, *args: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("8.8.8.8", port))])
    with pytest.raises(outbound.Refused, match="must be an https URL"):
        outbound.resolve("http://localhost:443/hook", policy=outbound.Policy(allow_loopback=True))
