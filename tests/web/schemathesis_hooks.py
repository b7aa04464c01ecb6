"""schemathesis' hooks for tests/web/test_openapi.py (loaded through tests/web/schemathesis.toml).

The seat token is one per seat of one game (docs/api.md), so no fixed credential serves
every generated case. The games schemathesis itself creates (POST /api/games, the
document's links lead from there) hand their tokens back; this auth provider sends the
token of seat 0 with every request to such a game, as a phone would. A request to any
other game id goes without one. schemathesis then knows the token is real, and its
ignored_auth check sends the same request without it and with a wrong one, which must be
refused (401, 403).
"""
import schemathesis

TOKENS: dict[str, str] = {}  # game id -> the token of its seat 0


@schemathesis.hook
def after_call(context, case, response) -> None:
    if case.operation.label == "POST /api/games" and response.status_code == 201:
        created = response.json()
        TOKENS[created["id"]] = created["seats"][0]["token"]


@schemathesis.auth(refresh_interval=None, retry_on=[]).apply_to(name="POST /api/games/{game_id}/events")
class SeatToken:
    def get(self, case, context) -> dict[str, str]:
        return TOKENS

    def set(self, case, tokens, context) -> None:
        token = tokens.get(str((case.path_parameters or {}).get("game_id")))
        if token is not None:
            case.headers = {**(case.headers or {}), "X-Seat-Token": token}
