"""The host's seat control (web/seats.py): a seat locked against the join link, a lost
phone's seat handed to a new phone by a one-time link, the host's own seat handed over by
the server's command; only the host may."""
from __future__ import annotations

import re

from tests.conftest import game_by_api, bits_of, holding_seat, path_of


def _count(db, game_id) -> int:
    from events.storage import store
    return store.last_seq(db, game_id)


def _join(app, game, seat):
    phone = app.test_client()
    return phone, phone.post(path_of(game["join_url"]), data={"seat": str(seat)})


def test_host_locks_a_seat_and_the_join_link_no_longer_opens_it(app, client):
    game = game_by_api(client)
    host, guest = holding_seat(app, game, 0), holding_seat(app, game, 1)
    assert guest.post(f"/games/{game['id']}/seats/2/lock", data={"locked": "1"}).status_code == 403
    assert host.post(f"/games/{game['id']}/seats/2/lock", data={"locked": "1"}).status_code == 303
    page = app.test_client().get(path_of(game["join_url"])).data.decode()
    assert 'value="2"' not in page and 'value="1"' in page
    _, refused = _join(app, game, 2)
    assert refused.status_code == 403
    _, joined = _join(app, game, 1)
    assert joined.status_code == 302
    assert host.post(f"/games/{game['id']}/seats/2/lock", data={"locked": "0"}).status_code == 303
    assert _join(app, game, 2)[1].status_code == 302


def test_a_lost_phone_is_replaced_and_the_game_goes_on(app, client, db):
    game = game_by_api(client)
    host, lost = holding_seat(app, game, 0), holding_seat(app, game, 1)
    page = host.post(f"/games/{game['id']}/seats/1/hand").data.decode()
    link = re.search(r'data-testid="hand-link">([^<]+)<', page).group(1)
    path = path_of(link)
    assert bits_of(path.rsplit("/", 1)[1]) >= 128
    # The lost phone's token stops working at once, on the forms and on the API.
    assert lost.post(f"/games/{game['id']}/moves", data={
        "expected_seq": "1", "action": "points-recorded", "seat": "1", "points": "2"}).status_code == 403
    assert client.post(f"/api/games/{game['id']}/events", headers={"X-Seat-Token": game["seats"][1]["token"]},
                       json={"type": "game-ended", "data": {}, "expected_seq": 1,
                             "client_event_id": "z"}).status_code == 403
    new_phone = app.test_client()
    shown = new_phone.get(path)  # GET names the seat and uses nothing up
    assert shown.status_code == 200 and 'data-testid="hand-player">Béla<' in shown.data.decode()
    assert new_phone.post(path).status_code == 303
    assert new_phone.post(f"/games/{game['id']}/moves", data={
        "expected_seq": "1", "action": "points-recorded", "seat": "1", "points": "2"}).status_code == 303
    assert _count(db, game["id"]) == 2
    assert app.test_client().post(path).status_code == 404  # the link works once
    assert app.test_client().get(path).status_code == 404
    # A newer hand-over voids older unused links.
    first = re.search(r'data-testid="hand-link">([^<]+)<',
                      host.post(f"/games/{game['id']}/seats/2/hand").data.decode()).group(1)
    host.post(f"/games/{game['id']}/seats/2/hand")
    assert app.test_client().post(path_of(first)).status_code == 404


def test_the_server_can_hand_the_hosts_own_seat_to_a_new_phone(app, client, db):
    game = game_by_api(client)
    with app.app_context():
        result = app.test_cli_runner().invoke(args=["hand-seat", game["id"], "0"])
    assert result.exit_code == 0, result.output
    path = "/" + result.output.strip().split("://", 1)[-1].split("/", 1)[-1] if "://" in result.output \
        else result.output.strip()
    old_host = holding_seat(app, game, 0)
    assert old_host.get(f"/games/{game['id']}/seats").status_code == 403
    new_host = app.test_client()
    assert new_host.post(path).status_code == 303
    assert new_host.get(f"/games/{game['id']}/seats").status_code == 200
    with app.app_context():
        assert app.test_cli_runner().invoke(args=["hand-seat", game["id"], "9"]).exit_code != 0
