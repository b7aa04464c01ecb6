"""The files people already have (issue 37): the statistics' documented game names, a real
BG Stats history in (play by play), our BG Stats file and link as BG Stats' published
format has them, and the plays as a spreadsheet opens them."""
from __future__ import annotations

import pytest

from tests.group.test_bgstats import _finished_pad


@pytest.mark.parametrize("kind", ["scorepad:Azul", "scorepad:azul", "scorepad:AZUL"])
def test_the_documented_form_of_a_score_pad_game_finds_its_plays(guarded, kind):
    app, client, token, db = guarded
    _finished_pad(client, token, "Azul", "230802")
    answer = client.get("/api/stats", query_string={"kind": kind})
    assert answer.status_code == 200
    assert answer.get_json()["plays"] == 1 and list(answer.get_json()["games"]) == ["scorepad:azul"]


@pytest.mark.parametrize("kind", ["chess", "azul", "chess:Azul", "han:Azul", ":Azul", "SCOREPAD:Azul", "scorepad:"])
def test_an_unknown_game_kind_is_a_bad_request(guarded, kind):
    app, client, token, db = guarded
    _finished_pad(client, token, "Azul", "230802")
    answer = client.get("/api/stats", query_string={"kind": kind})
    assert answer.status_code == 400 and "error" in answer.get_json()
