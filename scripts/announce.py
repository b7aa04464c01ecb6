"""Print the address phones at the table open, and its QR code, when `make run` starts:
`python -m scripts.announce HOST PORT`. No QR code for an address nothing answers on:
a server bound to the loopback only (HOST=127.0.0.1) is out of every phone's reach."""
import sys
from urllib.parse import urlsplit

import qrcode

from web.address import ALL_INTERFACES, configured, is_loopback, lan_address


def phone_url(host: str, port: str) -> str:
    """PUBLIC_URL (a proxy in front of a loopback-bound server is fine), else the bound
    address, or the LAN address when bound to every interface."""
    if configured():
        return configured().rstrip("/") + "/"
    address = lan_address() if host in ALL_INTERFACES else host
    return f"http://{'[%s]' % address if ':' in address else address}:{port}/"


def main(host: str = "0.0.0.0", port: str = "5000") -> None:
    url = phone_url(host, port)
    if is_loopback(urlsplit(url).hostname or ""):
        print(f"\nTablescribe is serving on http://{host}:{port}/ for this computer only: phones cannot"
              " reach it.\nFor the table, run `make run` (HOST=0.0.0.0, the default) on a machine in the"
              " phones' network, or set PUBLIC_URL (README).\n")
        return
    print(f"\nTablescribe is serving on {url}\n")
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.print_ascii(invert=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
