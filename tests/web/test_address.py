"""The join QR code carries an address a phone can open (issue 17, item 6): PUBLIC_URL, or
the server's LAN address, never the loopback the host's own browser used; the page warns
when the only address is a loopback; `make run` prints no QR code for an address nothing
answers on."""
import os
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from scripts import announce
from tests.conftest import api, free_port, start_server, stop_server
from web import address

LAN = "192.168.1.23"
WARNING = {"en": "Phones cannot open this address: 127.0.0.1 is each phone itself, so the link below works on this machine only",
           "hu": "A telefonok nem tudják megnyitni ezt a címet: a 127.0.0.1 minden telefonnak saját maga"}


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("127.3.4.5", True), ("localhost", True),
                                            ("::1", True), ("[::1]", True), ("192.168.1.23", False),
                                            ("tablescribe.example", False), ("0.0.0.0", False)])
def test_loopback_addresses_are_known(host, loopback):
    assert address.is_loopback(host) is loopback


@pytest.fixture
def lan(monkeypatch):
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    monkeypatch.setattr(address, "lan_address", lambda: LAN)


def _seated_page(app, environ: dict, lang: str, seat: int = 0) -> str:
    client = app.test_client()
    created = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]},
                          environ_overrides=environ).get_json()
    client.set_cookie(f"seat_{created['id']}", created["seats"][seat]["token"], path=f"/games/{created['id']}",
                      domain=environ["HTTP_HOST"].split(":")[0])
    return client.get(f"/games/{created['id']}?lang={lang}", environ_overrides=environ).get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_host_browsing_on_the_server_machine_gets_the_lan_address(app, lan, lang):
    """Opened as 127.0.0.1 on a server listening on every interface: the join link (and
    its QR code, drawn from the same URL) names the LAN address and the server's port."""
    page = _seated_page(app, {"HTTP_HOST": "127.0.0.1:5000", "SERVER_NAME": "0.0.0.0", "SERVER_PORT": "5000"}, lang)
    link = re.search(r'data-testid="join-link">([^<]+)<', page).group(1)
    assert link.startswith(f"http://{LAN}:5000/games/") and "/join/" in link
    assert 'data-testid="loopback-warning"' not in page


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_server_on_the_loopback_only_says_phones_cannot_reach_it(app, lan, lang):
    """Issue 26, item 11: the host's phone only, in one small line; the link stays (README)."""
    loopback = {"HTTP_HOST": "127.0.0.1:5000", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "5000"}
    page = _seated_page(app, loopback, lang)
    assert 'data-testid="loopback-warning"' in page and WARNING[lang] in page
    assert 'data-testid="join-link"' in page and 'class="qr"' in page
    other = _seated_page(app, loopback, lang, seat=1)
    assert 'loopback-warning' not in other and 'data-testid="join-link"' in other


def test_a_lan_address_or_public_url_is_kept_as_it_is(app, lan, monkeypatch):
    page = _seated_page(app, {"HTTP_HOST": "10.0.0.7:8000", "SERVER_NAME": "0.0.0.0", "SERVER_PORT": "8000"}, "en")
    assert 'href="http://10.0.0.7:8000/games/' in page
    monkeypatch.setenv("PUBLIC_URL", "https://tafel.example")
    page = _seated_page(app, {"HTTP_HOST": "127.0.0.1:5000", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "5000"}, "en")
    assert 'href="https://tafel.example/games/' in page and 'loopback-warning' not in page


def test_make_run_prints_no_qr_code_for_a_loopback_only_server(lan, capsys):
    announce.main("127.0.0.1", "5000")
    said = capsys.readouterr().out
    assert "phones cannot reach it" in said and "PUBLIC_URL" in said and "█" not in said and "▀" not in said


def test_make_run_prints_the_lan_address_and_its_qr_code(monkeypatch, capsys):
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    monkeypatch.setattr(address, "lan_address", lambda: LAN)
    announce.main("0.0.0.0", "5000")
    said = capsys.readouterr().out
    assert f"http://{LAN}:5000/" in said and "▀" in said


def test_behind_a_proxy_make_run_prints_public_url(monkeypatch, capsys):
    monkeypatch.setenv("PUBLIC_URL", "https://tafel.example")
    announce.main("127.0.0.1", "5000")
    said = capsys.readouterr().out
    assert "https://tafel.example/" in said and "▀" in said


# ---- a real server, real Chromium ----------------------------------------------------

def _server(tmp_path, bind):
    port = free_port()
    proc = start_server(str(tmp_path / "a.db"), port, bind=bind, public_url=False)
    return proc, f"http://127.0.0.1:{port}"


def _host_phone(new_phone, base: str):
    """A game on the server at ``base``, and the host's phone seated at it (via 127.0.0.1)."""
    created = api(base, "/api/games", {"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]})
    host = new_phone()
    host.context.add_cookies([{"name": f"seat_{created['id']}", "value": created["seats"][0]["token"],
                               "domain": "127.0.0.1", "path": f"/games/{created['id']}"}])
    return created, host


@pytest.mark.browser
def test_the_join_link_opens_on_a_phone_when_the_host_used_127_0_0_1(tmp_path, new_phone):
    lan = address.lan_address()
    if address.is_loopback(lan):
        pytest.skip("this machine has no LAN address")
    proc, base = _server(tmp_path, "0.0.0.0")
    try:
        created, host = _host_phone(new_phone, base)
        host.goto(f"{base}/games/{created['id']}")
        link = host.get_by_test_id("join-link").get_attribute("href")
        assert link.startswith(f"http://{lan}:{base.rsplit(':', 1)[1]}/")
        expect(host.get_by_test_id("loopback-warning")).to_have_count(0)
        # what a phone on the LAN gets when it scans the code: the join page
        phone = new_phone()
        phone.goto(link)
        expect(phone.get_by_role("button", name="Béla")).to_be_visible()
    finally:
        stop_server(proc)


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_loopback_only_server_warns_on_the_table_page(tmp_path, new_phone, lang):
    proc, base = _server(tmp_path, "127.0.0.1")
    try:
        created, host = _host_phone(new_phone, base)
        host.goto(f"{base}/lang/{lang}?next=/games/{created['id']}")
        warning = host.get_by_test_id("loopback-warning")
        expect(warning).to_contain_text(WARNING[lang])
        box = warning.bounding_box()
        assert box["y"] + box["height"] <= 844 * 2  # near the QR code, not buried under the log
        assert box["height"] <= 130  # small: a few lines of small print, not a large red box
        assert warning.evaluate("e => !e.matches('.problems')")  # a note, not the red box of a refusal
        other = new_phone()
        other.context.add_cookies([{"name": f"seat_{created['id']}", "value": created["seats"][1]["token"],
                                    "domain": "127.0.0.1", "path": f"/games/{created['id']}"}])
        other.goto(f"{base}/lang/{lang}?next=/games/{created['id']}")
        expect(other.locator("#move-form")).to_have_count(1)
        expect(other.get_by_test_id("loopback-warning")).to_have_count(0)
        host.screenshot(path=os.path.join("test-artifacts", f"loopback-warning-{lang}.png"), full_page=True)
    finally:
        stop_server(proc)


# ---- the host's lost phone: `flask --app app hand-seat` (the link it prints) -------------

def _hand_seat(app, *options):
    game = app.test_client().post("/api/games", json={"kind": "scorepad", "players": [
        {"name": "Anna"}, {"name": "Béla"}]}).get_json()
    return app.test_cli_runner().invoke(args=["hand-seat", game["id"], "0", *options])


def test_hand_seat_prints_a_link_on_the_lan_address_when_public_url_is_not_set(app, lan, monkeypatch):
    monkeypatch.delenv("HOST", raising=False)
    monkeypatch.delenv("PORT", raising=False)
    result = _hand_seat(app)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"http://{LAN}:5000/games/")  # `make run`'s defaults: every interface, 5000
    assert _hand_seat(app, "--port", "8000").stdout.startswith(f"http://{LAN}:8000/games/")


def test_hand_seat_prints_public_url_when_set(app, lan, monkeypatch):
    monkeypatch.setenv("PUBLIC_URL", "https://tafel.example")
    assert _hand_seat(app).stdout.startswith("https://tafel.example/games/")


def test_hand_seat_on_a_loopback_only_server_says_how_to_set_public_url(app, lan):
    result = _hand_seat(app, "--host", "127.0.0.1")
    assert result.exit_code == 0 and result.stdout.startswith("http://127.0.0.1:5000/games/")
    assert "Phones cannot open 127.0.0.1" in result.stderr and "PUBLIC_URL=" in result.stderr
