"""The address a phone at the table opens: the join link, its QR code and the one
`make run` prints. Never the loopback the host's own browser may have used
(127.0.0.1 on the server machine is every phone's own self, not this server)."""
from __future__ import annotations

import ipaddress
import json
import os
import socket

ALL_INTERFACES = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 or localhost (``host`` without its port; [::1] with brackets too)."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """This machine's address on the LAN (the interface its default route uses), or
    127.0.0.1 when it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # no packet is sent; this picks the interface
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def configured() -> str | None:
    """PUBLIC_URL from the environment (README: behind a proxy, or a name phones know)."""
    return os.environ.get("PUBLIC_URL") or None


def phone_base(host_url: str, host: str, bound_to: str, port: str, scheme: str) -> str:
    """The base URL for phones, given the address this request came to (``host_url``,
    ``host`` without port) and the address the server listens on (``bound_to``, its
    ``port``): the request's own address unless it is a loopback; then this machine's
    LAN address when the server listens on every interface. A server that listens on the
    loopback only has no address a phone can open: its loopback URL stays, and the page
    says so (``is_loopback`` of the result)."""
    if not is_loopback(host):
        return host_url
    if bound_to in ALL_INTERFACES:
        lan = lan_address()
        if not is_loopback(lan):
            return f"{scheme}://{lan}:{port}/"
    return host_url


def server_url(host: str, port: str) -> str:
    """The base URL phones open for a server listening on ``host``:``port`` when no request
    says which address was used (`make run`'s banner, `hand-seat`): PUBLIC_URL when set,
    else the LAN address when it listens on every interface, else the bound address."""
    if configured():
        return configured().rstrip("/") + "/"
    found = lan_address() if host in ALL_INTERFACES else host
    return f"http://{'[%s]' % found if ':' in found else found}:{port}/"


def record_served(instance_path: str, host: str, port: str) -> None:
    """Where `make run` serves (its announcement, once the port is bound): the command-line
    links (`hand-seat`, `organiser-link`) open there without repeating HOST and PORT."""
    with open(os.path.join(instance_path, "serving.json"), "w", encoding="utf-8") as f:
        json.dump({"host": host, "port": str(port)}, f)


def last_served(instance_path: str) -> tuple[str, str]:
    """(host, port) `make run` last served on; 0.0.0.0:5000 (its defaults) before any."""
    try:
        with open(os.path.join(instance_path, "serving.json"), encoding="utf-8") as f:
            served = json.load(f)
        return str(served["host"]), str(served["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return "0.0.0.0", "5000"
