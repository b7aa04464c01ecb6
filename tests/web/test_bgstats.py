"""The BG Stats pages (web/bgstats.py), CSRF on: /plays.csv with a formula neutralised and
`export-plays`; the import page takes a real history larger than a move's form limit and
refuses a post without its token."""
from __future__ import annotations

import json

from group import roster
from tests.conftest import bgstats_export, finished_pad, upload, upload_bgstats


def test_plays_csv_and_export_plays(guarded, tmp_path):
    app, client, token, db = guarded
    game_id = finished_pad(client, token, "=HYPERLINK(1)")
    text_ = client.get("/plays.csv").get_data(as_text=True)
    lines = text_.strip().split("\r\n")
    assert lines[0].startswith("date,game_id,game,bgg_id,person_id,person,played_as,seat,score,rank,winner,imported")
    assert len(lines) == 3 and ",'=HYPERLINK(1)," in lines[1] and ",Béla,Béla,2,30,1,1,0" in lines[2]
    out = tmp_path / "plays.json"
    result = app.test_cli_runner().invoke(args=["export-plays", str(out)])
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text(encoding="utf-8"))["plays"]
    assert [(r["person"], r["score"], r["winner"]) for r in rows] == [("Anna", 12, 0), ("Béla", 30, 1)]
    assert rows[0]["game_id"] == game_id


def test_a_bgstats_export_past_the_forms_limit_is_taken(guarded):
    """A real history is larger than a move's 256 KiB; the import takes up to 8 MiB."""
    app, client, token, db = guarded
    response = upload_bgstats(client, token, json.dumps(bgstats_export(about="x" * 2_000_000)).encode())
    assert response.status_code == 200 and "Imported: 1" in response.get_data(as_text=True)


def test_the_import_needs_the_csrf_token(guarded):
    app, client, token, db = guarded
    response = upload(client, "/people/import-bgstats", json.dumps(bgstats_export()).encode())
    assert response.status_code == 400 and roster.last_seq(db) == 0
