"""What `make run` prints once its server serves (gunicorn.conf.py's `when_ready`, after the
port is bound: a port already taken prints nothing): the address phones at the table open
and its QR code, the organiser's link (at every start until a phone has opened it), and the
table's time zone. `python -m scripts.announce HOST PORT`; it also records HOST and PORT in
instance/serving.json for the command-line links. No QR code for an address nothing answers
on: a server bound to the loopback only (HOST=127.0.0.1) is out of every phone's reach."""
import signal
import sys
from urllib.parse import urlsplit

import qrcode

from web.address import is_loopback, record_served, server_url


def main(host: str = "0.0.0.0", port: str = "5000") -> None:
    url = server_url(host, port)  # PUBLIC_URL: a proxy in front of a loopback-bound server is fine
    if is_loopback(urlsplit(url).hostname or ""):
        print(f"\nTablescribe is serving on http://{host}:{port}/ for this computer only: phones cannot"
              " reach it.\nFor the table, run `make run` (HOST=0.0.0.0, the default) on a machine in the"
              " phones' network, or set PUBLIC_URL (README).\n")
        return
    print(f"\nTablescribe is serving on {url}\nPhones on this machine's Wi-Fi open it (or scan the code);"
          f" a firewall must let port {port} in.\n")
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.print_ascii(invert=True)


def for_the_host(host: str, port: str) -> None:
    """The announcement, then what the app knows: the organiser's link until it is opened,
    the clock's zone; HOST and PORT recorded for `hand-seat` and `organiser-link`."""
    from app import create_app  # here, not in gunicorn's master: that imports no app
    from web import cli, organiser
    app = create_app()
    record_served(app.instance_path, host, port)
    main(host, port)
    with app.app_context():
        if not organiser.was_opened():
            cli.print_organiser_link(host, port, organiser.link)
    print(f"Times are on the {app.config['TIMEZONE']} clock (another: TIMEZONE=Europe/Lisbon make run)."
          " Ctrl-C stops the server.\n", flush=True)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C while it prints: it just ends, no traceback
    for_the_host(*sys.argv[1:3])
