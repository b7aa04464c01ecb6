"""Join and hand-over codes guessed from one address are limited (web/ratelimit.py,
docs/reliability.md §5): wrong guesses only, per address, in windows the limiter forgets,
its memory bounded."""
from __future__ import annotations

import pytest

from tests.conftest import csrf_of, game_by_api, path_of
from web.ratelimit import RateLimiter


@pytest.fixture
def app_config():
    return {"RATE_LIMITS": {"join": (3, 60.0)}, "WTF_CSRF_ENABLED": True}  # CSRF on, as in production


def test_join_attempts_are_rate_limited_per_address(app, client):
    game = game_by_api(client)
    guesses = [client.get(f"/games/{game['id']}/join/guess{i}").status_code for i in range(5)]
    assert guesses == [404] * 3 + [429] * 2
    limited = client.get(path_of(game["join_url"]))
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert client.get(f"/games/{game['id']}/hand/guess").status_code == 429  # hand-over links too
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.7"  # another phone on the LAN is not blocked
    assert other.get(f"/games/{game['id']}/join/guess").status_code == 404


def test_phones_joining_with_the_right_code_never_spend_the_budget(client):
    """Only wrong guesses count: a hall of phones behind one address (or a test run) joins
    table after table with the right codes and is never refused."""
    for _ in range(4):
        game = game_by_api(client)
        path = path_of(game["join_url"])
        pages = [client.get(path) for _ in range(3)]
        assert [page.status_code for page in pages] == [200] * 3
        joined = client.post(path, data={"seat": "1", "csrf_token": csrf_of(pages[-1].get_data(as_text=True))})
        assert joined.status_code == 302
    assert client.get(f"/games/{game['id']}/join/guess").status_code == 404  # guesses still count


def test_the_rate_limiter_forgets_old_windows_and_stays_bounded():
    now = [0.0]
    limiter = RateLimiter(3, 60, max_keys=100, clock=lambda: now[0])
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    now[0] = 61
    assert limiter.allow("a")
    for i in range(10_000):
        limiter.allow(f"10.{i // 256}.{i % 256}.1")
    assert len(limiter) == 100
