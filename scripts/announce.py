"""Print the LAN address of `make run` and its QR code in the terminal, so a phone
at the table can scan it."""
import socket
import sys

import qrcode


def lan_address() -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # no packet is sent; this picks the LAN interface
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def main() -> None:
    port = sys.argv[1] if len(sys.argv) > 1 else "5000"
    url = f"http://{lan_address()}:{port}/"
    print(f"\nTablescribe is serving on {url}\n")
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.print_ascii(invert=True)


if __name__ == "__main__":
    main()
