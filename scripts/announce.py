"""Print the address phones at the table open, and its QR code, when `make run` starts:
`python -m scripts.announce HOST PORT`. No QR code for an address nothing answers on:
a server bound to the loopback only (HOST=127.0.0.1) is out of every phone's reach."""
import sys
from urllib.parse import urlsplit

import qrcode

from web.address import is_loopback, server_url


def main(host: str = "0.0.0.0", port: str = "5000") -> None:
    url = server_url(host, port)  # PUBLIC_URL: a proxy in front of a loopback-bound server is fine
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
