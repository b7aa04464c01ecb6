"""Timeline, disputes with what-if, replay, final sheet, score race, rescore, import:
the audit pages through the Flask client (the browser walk is tests/browser/test_audit.py)."""
import io
import json
import re

from events.application.export import export_game
from events.application.table import load, record
from events.domain.projection import standings
from events.storage import store
from scoring import GAMES, RETIRED, scorepad
from scoring.base import ScorePart
from tests.conftest import PAD_WITH_DISPUTES, played_pad, post_form, sit_at


def count(db, gid):
    return store.last_seq(db, gid)


def scores_in(html: str, prefix: str) -> dict[int, int]:
    return {int(s): int(v) for s, v in re.findall(rf'data-testid="{prefix}-(\d+)">(-?\d+)<', html)}


def test_timeline_lists_every_event_with_words_recorder_time_and_score_change(client, db, scored_pad):
    html = client.get(f"/games/{scored_pad['id']}/timeline?lang=en").get_data(as_text=True)
    for seq in range(1, 6):
        assert f'id="e{seq}"' in html
    assert "Cili: +30 points (big)" in html and "Round closed" in html
    assert "Cili +30" in html and "phone-" in html
    assert html.count('<span class="delta ') == 3  # the three points changed a score, the rest did not


def test_timeline_filters_by_player_and_by_event_type(client, scored_pad):
    by_cili = client.get(f"/games/{scored_pad['id']}/timeline?seat=2").get_data(as_text=True)
    assert re.findall(r'id="e(\d+)"', by_cili) == ["4", "5"]  # the +30 for Cili, the round she closed
    closes = client.get(f"/games/{scored_pad['id']}/timeline?type=round-closed").get_data(as_text=True)
    assert re.findall(r'id="e(\d+)"', closes) == ["5"]


def test_a_voids_link_leads_to_the_void_even_on_a_filtered_timeline(client, db):
    gid = played_pad(db)  # event 4 is voided by event 5
    everything = client.get(f"/games/{gid}/timeline").get_data(as_text=True)
    assert 'href="#e5">#5</a>' in everything
    filtered = client.get(f"/games/{gid}/timeline?type=points-recorded").get_data(as_text=True)
    assert 'id="e5"' not in filtered and f'href="/games/{gid}/timeline#e5">#5</a>' in filtered


def test_a_watcher_cannot_dispute_and_nothing_is_appended(client, db, scored_pad):
    response = post_form(client, f"/games/{scored_pad['id']}/events/4/dispute", comment="no", expected_seq=5)
    assert response.status_code == 403 and count(db, scored_pad["id"]) == 5


def test_dispute_what_if_then_void_matches_the_what_if(client, db, scored_pad):
    sit_at(client, scored_pad, 0)
    gid = scored_pad["id"]
    opened = post_form(client, f"/games/{gid}/events/4/dispute?lang=en", comment="Cili had 3, not 30",
                  expected_seq=5, client_event_id="d1")
    assert opened.status_code == 303 and opened.location.endswith(f"/games/{gid}/disputes/6")
    assert "Disputed move #4" in client.get(f"/games/{gid}?lang=en").get_data(as_text=True)

    page = client.get(f"/games/{gid}/disputes/6?lang=en").get_data(as_text=True)
    assert count(db, gid) == 6  # the what-if is a fork: viewing it appends nothing
    assert scores_in(page, "now") == {0: 10, 1: 8, 2: 30}
    assert scores_in(page, "whatif") == {0: 10, 1: 8, 2: 0}
    assert scores_in(page, "before") == {0: 10, 1: 8, 2: 0} and scores_in(page, "after")[2] == 30
    assert "The rules allow this move" in page and "Round 1" in page
    whatif = scores_in(page, "whatif")

    sit_at(client, scored_pad, 2)
    assert post_form(client, f"/games/{gid}/disputes/6/comment", comment="I did score 30",
                expected_seq=6).status_code == 303
    refused = post_form(client, f"/games/{gid}/disputes/6/resolve", outcome="voided", reason="", expected_seq=7)
    assert refused.status_code == 422 and count(db, gid) == 7
    assert post_form(client, f"/games/{gid}/disputes/6/resolve", outcome="voided", reason="recount: 3",
                expected_seq=7).status_code == 303
    table = load(db, gid)
    assert {r["seat"]: r["score"] for r in standings(table)} == whatif
    assert table.voided[4]["reason"] == "recount: 3"
    timeline = client.get(f"/games/{gid}/timeline?lang=en").get_data(as_text=True)
    row = timeline[timeline.index('id="e4"'):timeline.index('id="e5"')]
    assert "voided" in row and "recount: 3" in row and 'href="#e8"' in row
    assert "Disputed move" not in client.get(f"/games/{gid}?lang=en").get_data(as_text=True)


def test_a_kept_dispute_changes_nothing(client, db, scored_pad):
    sit_at(client, scored_pad, 1)
    gid = scored_pad["id"]
    post_form(client, f"/games/{gid}/events/2/dispute", comment="?", expected_seq=5)
    before = standings(load(db, gid))
    assert post_form(client, f"/games/{gid}/disputes/6/resolve", outcome="kept", reason="",
                expected_seq=6).status_code == 303
    assert standings(load(db, gid)) == before and load(db, gid).disputes[6]["status"] == "kept"
    # kept is not for ever: a new argument may dispute the move again
    timeline = client.get(f"/games/{gid}/timeline").get_data(as_text=True)
    assert f'action="/games/{gid}/events/2/dispute"' in timeline
    assert post_form(client, f"/games/{gid}/events/2/dispute", comment="new evidence", expected_seq=7).status_code == 303
    assert f'action="/games/{gid}/events/2/dispute"' not in client.get(f"/games/{gid}/timeline").get_data(as_text=True)


def test_undoing_a_disputed_move_closes_its_dispute_everywhere(client, db, scored_pad):
    """The disputed move is voided from the log (here: undone) instead of through the
    dispute: the table no longer lists it as open, and the dispute page says what became
    of it and offers neither "keep" (which would claim the move stands) nor "void"."""
    sit_at(client, scored_pad, 0)
    gid = scored_pad["id"]
    post_form(client, f"/games/{gid}/events/4/dispute", comment="30 is too many", expected_seq=5)
    table = client.get(f"/games/{gid}?lang=en").get_data(as_text=True)
    assert "Disputed move #4" in table
    post_form(client, f"/games/{gid}/events/4/void", reason="recount", expected_seq=6)
    assert load(db, gid).voided[4]["by"] == 7
    table = client.get(f"/games/{gid}?lang=en").get_data(as_text=True)
    live = client.get(f"/games/{gid}/live?seq=6&lang=en").get_data(as_text=True)
    assert "Disputed move #4" not in table and "Disputed move #4" not in live
    page = client.get(f"/games/{gid}/disputes/6?lang=en").get_data(as_text=True)
    assert "Closed: the move was voided meanwhile" in page and "(#7: recount)" in page
    assert "Open dispute" not in page and 'value="kept"' not in page and "Add comment" not in page


def test_a_stale_dispute_form_is_refused_with_409(client, db, scored_pad):
    sit_at(client, scored_pad, 0)
    response = post_form(client, f"/games/{scored_pad['id']}/events/2/dispute", comment="late", expected_seq=3)
    assert response.status_code == 409 and count(db, scored_pad["id"]) == 5


def test_replay_shows_the_standings_at_each_step_and_highlights_the_change(client, db, scored_pad):
    gid = scored_pad["id"]
    for at in range(1, 6):
        html = client.get(f"/games/{gid}/replay?at={at}").get_data(as_text=True)
        expected = {r["seat"]: r["score"] for r in standings(load(db, gid, at))}
        assert scores_in(html, "score") == expected, at
        assert f'data-testid="step">{at}<' in html and f'data-at="{at}"' in html
    step_4 = client.get(f"/games/{gid}/replay?at=4").get_data(as_text=True)
    assert re.search(r'<li data-seat="2" class="changed">', step_4) and "+30" in step_4
    assert 'data-step="prev" href="/games/' in step_4 and "at=3" in step_4
    assert 'data-testid="step">5<' in client.get(f"/games/{gid}/replay?at=99").get_data(as_text=True)
    assert 'data-testid="step">1<' in client.get(f"/games/{gid}/replay?at=-4").get_data(as_text=True)
    assert 'data-testid="step">5<' in client.get(f"/games/{gid}/replay?at=x").get_data(as_text=True)


def test_final_sheet_explains_breakdown_and_shared_ranks(client, db):
    gid = played_pad(db, [(0, "points-recorded", {"seat": 0, "points": 5}),
                    (1, "points-recorded", {"seat": 1, "points": 5}),
                    (0, "round-closed", {}),
                    (1, "points-recorded", {"seat": 1, "points": 2}),
                    (1, "points-recorded", {"seat": 0, "points": 2}),
                    (0, "game-ended", {})])
    html = client.get(f"/games/{gid}/final?lang=en").get_data(as_text=True)
    assert scores_in(html, "final") == {0: 7, 1: 7}
    assert "They share rank 1" in html and "no tie-break rule" in html
    assert "Round 1" in html and "Round 2" in html and 'title="#2"' in html  # a cell names its event
    assert html.count(">Round 1<") == 1  # the score pad's rounds once, in one grid (issue 26, item 12)
    assert store.read_events(db, gid)[-1].hash in html


def test_the_final_page_names_a_tie_break_when_the_game_has_one(client, db, monkeypatch):
    kind = scorepad.GAME.changed(tiebreak=lambda state, seat: (-seat,),
                               tiebreak_rule={"hu": "a korábbi hely nyer", "en": "earlier seat wins"})
    monkeypatch.setitem(GAMES, "scorepad", kind)
    gid = played_pad(db, [(0, "points-recorded", {"seat": 0, "points": 3}),
                    (1, "points-recorded", {"seat": 1, "points": 3})])
    html = client.get(f"/games/{gid}/final?lang=en").get_data(as_text=True)
    assert "They share rank 1: the tie-break decides only once the game is over." in html  # not yet
    record(db, gid, "game-ended", {}, 3, 0, "phone-0", "end")
    html = client.get(f"/games/{gid}/final?lang=en").get_data(as_text=True)
    assert "The tie-break decides (earlier seat wins): Anna 1." in html


def test_the_tie_break_line_says_its_values_in_words_not_its_sorting_key(client, db, monkeypatch):
    """Issue 39 §11: Maharaja's tie-break read "Csilla 2. (20, -2)", a negated character
    number (the sorting key) read as minus two."""
    from scoring import maharaja
    kind = scorepad.GAME.changed(tiebreak=lambda state, seat: (20, -(seat + 1)),
                               tiebreak_rule=maharaja.GAME.tiebreak_rule, tiebreak_words=maharaja.GAME.tiebreak_words)
    monkeypatch.setitem(GAMES, "scorepad", kind)
    gid = played_pad(db, [(0, "points-recorded", {"seat": 0, "points": 3}),
                    (1, "points-recorded", {"seat": 1, "points": 3})])
    record(db, gid, "game-ended", {}, 3, 0, "phone-0", "end")
    html = client.get(f"/games/{gid}/final?lang=en").get_data(as_text=True)
    assert "Anna 1. (20 gold, character 1), Béla 2. (20 gold, character 2)" in html and "(20, -2)" not in html
    assert "Béla 2. (20 arany, 2. karakter)" in client.get(f"/games/{gid}/final?lang=hu").get_data(as_text=True)
    assert "Béla 2. (20 Gold, Person 2)" in client.get(f"/games/{gid}/final?lang=de").get_data(as_text=True)


def test_audit_pages_have_no_inline_style_or_script(client, scored_pad):
    gid = scored_pad["id"]
    for path in ("", "/timeline", "/replay?at=2", "/final", "/rescore", "/disputes/99"):
        response = client.get(f"/games/{gid}{path}")
        html = response.get_data(as_text=True)
        assert response.status_code in (200, 404), path
        assert 'style="' not in html and not re.search(r"<script(?![^>]*\bsrc=)", html), path


def test_the_score_race_is_a_lazy_image_of_the_game(client, db, scored_pad):
    gid = scored_pad["id"]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert f'loading="lazy" src="/games/{gid}/race.svg?seq=5"' in page
    chart = client.get(f"/games/{gid}/race.svg")
    assert chart.mimetype == "image/svg+xml" and b"<polyline" in chart.data
    assert b'xmlns="http://www.w3.org/2000/svg"' in chart.data
    assert client.get("/games/nope/race.svg").status_code == 404


def _doubled(state):
    return {seat: [ScorePart(p.category, 2 * p.points, p.events, p.label) for p in parts]
            for seat, parts in scorepad.GAME.score(state).items()}


def test_old_games_keep_their_rules_and_rescore_shows_the_difference_first(client, db, scored_pad, monkeypatch):
    gid = scored_pad["id"]
    monkeypatch.setitem(GAMES, "scorepad", scorepad.GAME.changed(rules_version=2, score=_doubled))
    monkeypatch.setitem(RETIRED, ("scorepad", 1), scorepad.GAME)
    assert {r["seat"]: r["score"] for r in standings(load(db, gid))} == {0: 10, 1: 8, 2: 30}  # pinned v1
    assert "rescore" in client.get(f"/games/{gid}?lang=en").get_data(as_text=True)
    preview = client.get(f"/games/{gid}/rescore?lang=en").get_data(as_text=True)
    assert count(db, gid) == 5
    assert re.search(r"Cili</th>\s*<td class=\"num\">30 \(1\.\)</td><td class=\"num\">60 \(1\.\)</td>", preview)
    assert post_form(client, f"/games/{gid}/rescore", expected_seq=5).status_code == 403
    sit_at(client, scored_pad)
    assert post_form(client, f"/games/{gid}/rescore", expected_seq=5).status_code == 303
    table = load(db, gid)
    assert table.rules_version == 2 and {r["seat"]: r["score"] for r in standings(table)} == {0: 20, 1: 16, 2: 60}
    assert load(db, gid, at=5).rules_version == 1  # the replay before the rescore still scores as v1
    assert post_form(client, f"/games/{gid}/rescore", expected_seq=6).status_code == 422


def test_export_download_and_import_upload(client, db, scored_pad, other_app, other_db):
    gid = scored_pad["id"]
    response = client.get(f"/games/{gid}/export.json")
    assert "attachment" in response.headers["Content-Disposition"]
    doc = json.loads(response.get_data(as_text=True))
    assert {k: v for k, v in doc.items() if k != "signature"} == {**export_game(db, gid), "game": {**doc["game"]}}
    assert doc["signature"]["origin"]["game"] == gid  # signed by this server (events/application/signing.py)
    here = client.post("/import?lang=en", data={"file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                       content_type="multipart/form-data")  # the same game again, on its own server
    assert here.status_code == 409 and f'href="/games/{gid}" data-testid="already-here"' in here.get_data(as_text=True)
    other = other_app.test_client()  # another server takes it
    imported = other.post("/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                          content_type="multipart/form-data")
    assert imported.status_code == 303
    new_id = imported.location.rsplit("/", 1)[1]
    assert new_id != gid and standings(load(other_db, new_id)) == standings(load(db, gid))
    # The importing phone holds the host's seat of the new game: it can go on recording and
    # show the join code to the others (before, nobody could ever sit at an imported scored_pad).
    table = other.get(f"/games/{new_id}?lang=en").get_data(as_text=True)
    assert 'id="move-form"' in table and 'data-testid="join-link"' in table
    assert other.post(f"/games/{new_id}/moves", data={"seat": "1", "points": "2", "expected_seq": "5"}).status_code == 303
    assert store.read_events(other_db, new_id)[-1].seat == 0 and count(db, gid) == 5

    doc["events"][3]["data"]["points"] = 31
    refused = client.post("/import?lang=en", data={"file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                          content_type="multipart/form-data")
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "<strong>#4</strong>" in html and "hash does not match" in html
    junk = client.post("/import", data={"file": (io.BytesIO(b"\xff{"), "g.json")},
                       content_type="multipart/form-data")
    assert junk.status_code == 422


def test_an_upload_that_is_not_json_is_named_as_such(client, db):
    """A chosen file of other bytes was answered 'Choose an exported game (JSON)', as if no
    file had been chosen."""
    for junk in (b"hello", b"\xff{", b"[" * 5000):
        refused = client.post("/import?lang=en", data={"file": (io.BytesIO(junk), "g.json")},
                              content_type="multipart/form-data")
        assert refused.status_code == 422 and "This file is not JSON" in refused.get_data(as_text=True)
    empty = client.post("/import?lang=en", data={}, content_type="multipart/form-data")
    assert empty.status_code == 422 and "Choose an exported game (JSON)." in empty.get_data(as_text=True)


def test_the_shared_game_of_the_export_tests_renders_every_audit_page(client, db):
    gid = played_pad(db, PAD_WITH_DISPUTES)
    for path in ("/timeline", "/replay?at=9", "/final", "/disputes/8", "/disputes/12"):
        assert client.get(f"/games/{gid}{path}").status_code == 200, path
    page = client.get(f"/games/{gid}/disputes/8?lang=en").get_data(as_text=True)
    assert "Resolved: the move is void" in page and 'data-testid="whatif"' not in page


def test_a_move_the_rules_refuse_after_a_void_is_flagged_and_left_out(db):
    gid = played_pad(db, [(0, "points-recorded", {"seat": 0, "points": 4}),
                    (0, "round-closed", {}),
                    (0, "points-recorded", {"seat": 1, "points": 2})])
    record(db, gid, "event-voided", {"target": 2, "reason": "wrong table"}, 4, 1, "dev", "v")
    table = load(db, gid)
    assert list(table.flagged) == [3] and table.game["round"] == 1  # the close did not count
    assert [p.category for p in table.rules.score(table.game)[1]] == ["round-1"]


def test_a_flagged_move_is_marked_on_the_table_page_and_the_timeline(client, db):
    gid = played_pad(db, [(0, "points-recorded", {"seat": 0, "points": 4}),
                    (0, "round-closed", {})])
    record(db, gid, "event-voided", {"target": 2, "reason": "wrong table"}, 3, 1, "dev", "v")
    for page in (f"/games/{gid}?lang=en", f"/games/{gid}/live?seq=1&lang=en", f"/games/{gid}/timeline?lang=en"):
        html = client.get(page).get_data(as_text=True)
        flagged = re.search(r'<li id="e3"[^>]*class="[^"]*flagged[^"]*">(.*?)</li>', html, re.S)
        assert flagged and "Nothing has been recorded in round 1 yet. <a class=\"rule-link\" href=\"/rules/scorepad#s2\">Rule §2</a>" in flagged.group(1), page
        assert re.search(r'<li id="e2"[^>]*class="voided', html), page


def test_an_import_may_be_larger_than_a_move_form(client, app, db, scored_pad, other_app):
    doc = export_game(db, scored_pad["id"])
    doc["padding"] = "x" * (app.config["MAX_CONTENT_LENGTH"] + 1000)  # unknown keys are ignored
    response = other_app.test_client().post("/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 303


def test_an_import_refusal_speaks_hungarian_too(client, db, scored_pad):
    doc = export_game(db, scored_pad["id"])
    del doc["events"][2]
    response = client.post("/import?lang=hu", data={"file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                           content_type="multipart/form-data")
    html = response.get_data(as_text=True)
    assert response.status_code == 422 and "<strong>#4</strong>" in html and "hiányzó vagy felcserélt" in html


def test_walking_a_history_equals_folding_at_every_step(db):
    from events.application.states import walk
    from events.domain.projection import fold
    events = store.read_events(db, played_pad(db))
    for event, table in walk(events):
        assert table == fold(events, event.seq), event.seq
