"""The host's start (issue 39 §1-4): `make run` prints the organiser's link once its port is
bound, at every start until a phone has opened it; the command-line links open where it
served; Ctrl-C stops it without a traceback; the clock is the host machine's time zone."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest
import tzlocal
import tzlocal.unix

from app import create_app
from tests.conftest import ROOT, free_port

LINK = re.compile(r"https?://\S+/organiser/[0-9a-f]{64}")


class MakeRun:
    """`make run` on 127.0.0.1:``port`` with its own instance folder, in its own process
    group (make, gunicorn's master, its workers): Ctrl-C is a SIGINT to the whole group, as
    a terminal sends it."""

    def __init__(self, instance: str, port: int):
        self.port = port
        self.log = tempfile.NamedTemporaryFile("w+", prefix="make-run-", suffix=".log")
        env = {**os.environ, "TABLESCRIBE_INSTANCE": instance}
        env.pop("PUBLIC_URL", None)
        self.proc = subprocess.Popen(["make", "--no-print-directory", "run", "HOST=127.0.0.1", f"PORT={port}"],
                                     cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def get(self, path: str = "/") -> None:
        """``path`` answered, once the server answers at all."""
        deadline = time.monotonic() + 120
        while True:
            try:
                return urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=30).close()
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def wait_for(self, text: str, timeout: float = 120) -> str:
        """The output once it holds ``text`` (a condition, not a time: the deadline only
        ends a start that hangs)."""
        deadline = time.monotonic() + timeout
        while text not in self.output():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                return self.output()
            time.sleep(0.1)
        return self.output()

    def ctrl_c(self) -> tuple[int, str]:
        """Its exit code and all it printed."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
        try:
            return self.proc.wait(30), self.output()
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.log.close()


ANNOUNCED = "Ctrl-C stops the server"  # the announcement's last line


def _cli(instance: str, *args: str) -> str:
    env = {**os.environ, "TABLESCRIBE_INSTANCE": instance}
    for name in ("PUBLIC_URL", "HOST", "PORT"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "flask", "--app", "app", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True, timeout=60).stdout


def test_make_run_prints_the_organisers_link_once_serving_until_it_is_opened(tmp_path):
    port = free_port()
    first = MakeRun(str(tmp_path), port)
    try:
        said = first.wait_for(ANNOUNCED)
        link = LINK.search(said)
        assert link and said.index("Listening at") < link.start(), said
        # the command-line links open where `make run` served, with no --port repeated
        assert f"127.0.0.1:{port}/organiser/" in _cli(str(tmp_path), "organiser-link")
        again = MakeRun(str(tmp_path), free_port())  # a second start: not opened yet
        assert LINK.search(again.wait_for(ANNOUNCED)), again.output()
        again.ctrl_c()
        urllib.request.urlopen(link.group(0), timeout=30).close()  # the organiser's phone opens it
    finally:
        first.ctrl_c()
    third = MakeRun(str(tmp_path), port)
    try:
        said = third.wait_for(ANNOUNCED)
        assert ANNOUNCED in said and not LINK.search(said), said  # opened: not printed any more
        assert LINK.search(_cli(str(tmp_path), "organiser-link"))  # the README's command: any time
    finally:
        third.ctrl_c()


def test_a_taken_port_prints_no_organiser_link_and_the_next_start_does(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = MakeRun(str(tmp_path), taken.getsockname()[1])
        busy.proc.wait(120)
        exit_code, said = busy.ctrl_c()
    assert exit_code != 0
    assert "Address already in use" in said and not LINK.search(said), said
    free = MakeRun(str(tmp_path), free_port())
    try:
        assert LINK.search(free.wait_for(ANNOUNCED)), free.output()
    finally:
        free.ctrl_c()


def test_ctrl_c_stops_make_run_without_a_traceback(tmp_path):
    server = MakeRun(str(tmp_path), free_port())
    assert "Booting worker" in server.wait_for("Booting worker"), server.output()
    server.get()
    server.get()  # both workers up and serving
    exit_code, said = server.ctrl_c()  # make itself ends by the signal ("make: *** … Interrupt")
    assert "Traceback" not in said and "Error" not in said and "Shutting down: Master" in said, said
    with pytest.raises(ProcessLookupError):  # nothing of it is left running
        os.killpg(server.proc.pid, 0)


def test_the_clock_is_the_host_machines_time_zone_unless_timezone_says_another(monkeypatch):
    monkeypatch.delenv("TIMEZONE", raising=False)
    monkeypatch.setenv("TZ", "Asia/Tokyo")  # tzlocal reads TZ first, then /etc/localtime
    # tzlocal keeps the zone it found first (an earlier test's app): found again here, and
    # the earlier one back after this test
    monkeypatch.setattr(tzlocal.unix, "_cache_tz_name", None)
    tzlocal.reload_localzone()
    # the factory itself, not app_on: with no config it reads the zone as `make run` does
    assert create_app().config["TIMEZONE"] == "Asia/Tokyo"
    monkeypatch.setenv("TIMEZONE", "Europe/Lisbon")
    assert create_app().config["TIMEZONE"] == "Europe/Lisbon"
    monkeypatch.setenv("TIMEZONE", "Mars/Olympus")  # no such zone: the machine's, and a warning
    assert create_app().config["TIMEZONE"] == "Asia/Tokyo"
