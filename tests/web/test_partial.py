"""A tap's answer carries only what the move changed (issue 38 item 2; web/partial.py): its
size does not grow with the game, and a page that takes it shows what a freshly loaded page
shows. Sizes, not times."""
import re

import pytest

from tests.conftest import post_move

PLAYERS = ("Anna", "Béla", "Cili")


def _grown(table_of, rounds: int):
    """A score pad of three players, ``rounds`` rounds entered a whole round at a time."""
    table = table_of("scorepad", PLAYERS)
    for r in range(1, rounds + 1):
        table.play("round-entered", {"round": r, "entries": [{"seat": s, "points": (r * 7 + s * 3) % 23 - 5}
                                                             for s in range(len(PLAYERS))]}, r % len(PLAYERS))
    return table


def _answer(table, rounds_before: int) -> tuple[int, str]:
    """The answer to the next round entered from seat 0's phone, which showed the table
    just before it; with its move number."""
    phone = table.phone(0)
    url = f"/games/{table.id}"
    assert phone.get(url).status_code == 200  # the phone shows the table before the move
    r = rounds_before + 1
    answer = phone.post(f"{url}/moves", headers={"HX-Request": "true"}, data={
        "action": "round-entered", "round": str(r), "expected_seq": str(rounds_before + 1),
        "client_event_id": f"tap-{r}", **{f"points_{s}": str(r % 9 + s) for s in range(len(PLAYERS))}})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    return rounds_before + 2, answer.get_data(as_text=True)


def test_a_moves_answer_weighs_the_same_at_move_10_and_at_move_200(table_of):
    """The whole table fragment was the answer: at move 10 its log, pad and scoreboard were
    still short, at move 200 full. Only the regions the move changed weigh the same at any
    length: within the digits of larger numbers and the standings rows' few more parts (a
    row lists a player's last 12 parts; at move 10 each of the three players has 9, and the
    round entered changes all three rows). The whole fragment grew by 11.8 kB here."""
    seq_short, short = _answer(_grown(table_of, 8), 8)
    seq_long, long = _answer(_grown(table_of, 198), 198)
    assert (seq_short, seq_long) == (10, 200)
    assert abs(len(long.encode()) - len(short.encode())) <= 2500, (len(short), len(long))
    assert 'id="table-body"' not in long  # the regions alone, not the table fragment
    assert 'data-testid="ack"' in long and "#200:" in long


def test_the_answer_carries_the_moves_regions_by_their_ids(table_of):
    """The answer holds the move's own log entry (added at the top of the list, the oldest
    shown one taken away), the round it entered, the totals, its rows of the standings and
    the next move form, each an out-of-band swap of a region the page has."""
    table = _grown(table_of, 30)
    _, answer = _answer(table, 30)
    page = table.phone(0).get(f"/games/{table.id}").get_data(as_text=True)
    swapped = re.findall(r'id="([^"]+)"[^>]*hx-swap-oob="true"', answer)
    assert {"live-seq", "turn-clock", "pad-totals", "log-seq", "log-undo", "move-form"} <= set(swapped)
    assert all(f'id="{region}"' in page for region in swapped)
    assert re.search(r'<li id="e32"[^>]*hx-swap-oob="afterbegin:#events"', answer)
    assert '<li id="e20" hx-swap-oob="delete">' in answer  # twelve entries shown: #21 to #32
    assert re.search(r'id="pad-round-31"[^>]*hx-swap-oob="beforeend:#pad-rows"', answer)
    assert any(region.startswith("standing-") for region in swapped)


def test_a_moves_answer_labels_the_standings_shown_parts_not_every_round(table_of, monkeypatch):
    """The standings rows list each player's last 12 parts: a tap on a long score pad
    labels those, not a part for every round of every player (the whole game was scored
    for each tap, two thirds of its work at 1,000 events). A count, not a time."""
    import importlib
    score = importlib.import_module("scoring.scorepad.score")  # the package's ``score`` is the function
    table = _grown(table_of, 150)
    labelled = []
    real = score.msg
    monkeypatch.setattr(score, "msg", lambda *a, **k: labelled.append(a) or real(*a, **k))
    _, answer = _answer(table, 150)
    assert "standing-" in answer
    scoreboards = 2  # the phone's page just before the move, and the answer
    assert 0 < len(labelled) <= scoreboards * 12 * len(PLAYERS), len(labelled)


def test_without_a_known_table_before_the_answer_is_the_whole_fragment(table_of):
    """A phone whose table this server has not rendered just before the move (another
    worker did, or it is the first look) gets the whole fragment, as before."""
    table = _grown(table_of, 5)
    phone = table.phone(0)
    answer = phone.post(f"/games/{table.id}/moves", headers={"HX-Request": "true"}, data={
        "action": "round-entered", "round": "6", "expected_seq": "6", "client_event_id": "tap-6",
        **{f"points_{s}": "1" for s in range(len(PLAYERS))}})
    assert answer.status_code == 200 and 'id="table-body"' in answer.get_data(as_text=True)
    assert "HX-Reswap" not in answer.headers


@pytest.mark.parametrize("htmx", [False, True])
def test_an_undo_is_answered_with_the_whole_table(table_of, htmx):
    """An undo changes what the log and the board show further back: the whole fragment, or
    without JavaScript the redirect to the whole page."""
    table = _grown(table_of, 5)
    phone = table.phone(0)
    phone.get(f"/games/{table.id}")
    answer = phone.post(f"/games/{table.id}/undo", headers={"HX-Request": "true"} if htmx else {},
                        data={"expected_seq": "6", "client_event_id": "undo-6"})
    if htmx:
        assert answer.status_code == 200 and 'id="table-body"' in answer.get_data(as_text=True)
    else:
        assert answer.status_code == 303


def test_without_javascript_a_move_is_the_redirect_to_the_whole_page(table_of):
    table = _grown(table_of, 5)
    phone = table.phone(0)
    phone.get(f"/games/{table.id}")
    answer = post_move(phone, f"/games/{table.id}", action="round-entered", round="6",
                       **{f"points_{s}": "1" for s in range(len(PLAYERS))})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("?done=7")


BOARD_KINDS = ("han", "maharaja", "five-tribes", "dragon")


def _tapped(table, seat: int, seq: int, form=None):
    """The answer the phone of ``seat`` (English) gets for move ``seq``, which it recorded
    (the one recording path, then the answer as the move route gives it) from ``form``."""
    from web import views
    with table.app.test_request_context(f"/games/{table.id}/moves", method="POST", data=form or {}, headers={
            "HX-Request": "true", "Cookie": f"lang=en; seat_{table.id}={table.tokens[seat]}"}):
        return views.after_write(table.id, seat, seq).get_data(as_text=True)


def _swapped(page, answer: str):
    """``page`` (an lxml tree) with the answer's out-of-band elements swapped in whole by their
    ids, as htmx does (``hx-swap-oob="true"``)."""
    from lxml import html
    for element in html.fragments_fromstring(answer):
        if not isinstance(element, html.HtmlElement):
            continue
        for new in element.iter():
            if new.get("hx-swap-oob") == "true" and new.get("id"):
                old = page.get_element_by_id(new.get("id"), None)
                if old is not None:
                    del new.attrib["hx-swap-oob"]
                    new.tail = old.tail
                    old.getparent().replace(old, new)
    return page


def _board(page) -> str:
    from lxml import html
    return re.sub(r"\s+", " ", html.tostring(page.get_element_by_id("board"), encoding="unicode"))


@pytest.mark.parametrize("kind", BOARD_KINDS)
def test_a_boards_changed_parts_make_the_board_a_fresh_page_shows(table_of, kind):
    """Each move of the game's demo, tapped on seat 0's phone: the answer carries the parts of
    the board the move changed, not the whole board, and the page they are swapped into
    shows the board a freshly loaded page shows."""
    from lxml import html
    from scoring import GAMES
    players, options, moves = GAMES[kind].demo()
    first = max(3, len(moves) // 3)  # a table that shows the join code is answered whole
    table = table_of(kind, [p["name"] for p in players], moves[:first], options)
    phone = table.phone(0)
    url = f"/games/{table.id}"
    page = html.fromstring(phone.get(url).get_data(as_text=True))
    tapped = 0
    for n, move in enumerate(moves[first:], start=first + 1):
        seat, type_, data = move if len(move) == 3 else (0, *move)
        seq = table.play(type_, data, seat).seq
        answer = _tapped(table, 0, seq)
        fresh = html.fromstring(phone.get(url).get_data(as_text=True))
        if 'id="table-body"' in answer:  # the game's end, answered whole
            assert n == len(moves), f"move {n} answered whole"
            break
        assert 'id="board"' not in answer, f"move {n} sent the whole board"
        assert _board(_swapped(page, answer)) == _board(fresh), f"move {n}"
        page, tapped = fresh, tapped + 1
    assert tapped >= 3


def test_a_move_tapped_on_a_board_drawn_for_the_phone_gets_the_whole_board(table_of):
    """A Five Tribes move tapped tile by tile on the board (its path in the address) came from
    a board drawn for that phone alone, which the view's parts do not know: the whole board."""
    from scoring import GAMES
    players, options, moves = GAMES["five-tribes"].demo()
    at = next(n for n, move in enumerate(moves) if move[-2] == "meeples-moved" and n >= 3)
    table = table_of("five-tribes", [p["name"] for p in players], moves[:at], options)
    table.phone(0).get(f"/games/{table.id}")
    seat, type_, data = moves[at] if len(moves[at]) == 3 else (0, *moves[at])
    seq = table.play(type_, data, seat).seq
    answer = _tapped(table, 0, seq, {"tap": "B2.B3"})
    assert 'id="board" hx-swap-oob="true"' in answer and 'id="table-body"' not in answer


def test_a_view_keeps_a_short_digest_per_board_part(table_of):
    """The server keeps the keys of 4,096 views; a part's key is a digest of its data, not
    the data (Five Tribes' 30 tiles, Maharaja's 30 villages), so a view costs the same
    whatever its board holds."""
    from web.db import caches
    table = table_of("maharaja", demo=True)
    table.phone(0).get(f"/games/{table.id}")
    with table.app.app_context():
        ((_, keys), _), = [kept for kept in caches().seen._kept.values()]  # its last table, none before
    parts = {name: key for name, key in keys.items() if name.startswith("part-")}
    assert len(parts) >= 10 and all(len(key) == 16 for key in parts.values())


def _push(table, seat: int, shown: int, regions: bool = True):
    """What seat ``seat``'s page, showing the table at ``shown``, fetches by its poll (the
    stream pushes the same bytes: tests/web/test_stream.py)."""
    query = f"seq={shown}" + ("&regions=1" if regions else "")
    return table.phone(seat).get(f"/games/{table.id}/live?{query}", headers={"HX-Request": "true"})


def _watched(table_of, rounds: int):
    """``_grown``, its table loaded by seat 1's phone, then a round entered from seat 0's."""
    table = _grown(table_of, rounds)
    assert table.phone(1).get(f"/games/{table.id}").status_code == 200
    return table, _answer(table, rounds)[0]


def test_a_push_to_a_phone_that_shows_the_table_before_is_the_moves_regions_alone(table_of):
    """The other phones of the table got the whole live region and the whole log with every
    move. A page that shows the table just before the move gets the move's regions, as the
    tapping phone's answer, each morphed into its place as a whole push morphs the region
    (an open part or a typed text stays); instead of the tapper's next form it gets what a
    whole push changes in the move form: its entry and its expected_seq."""
    table, seq = _watched(table_of, 30)
    push = _push(table, 1, seq - 1)
    html = push.get_data(as_text=True)
    assert push.status_code == 200 and push.headers["HX-Reswap"] == "none"
    assert html.lstrip().startswith(f'<span id="live-seq" data-seq="{seq}" data-from="{seq - 1}" hidden hx-swap-oob="true">')
    assert 'id="live"' not in html and 'id="log"' not in html  # neither the region nor the log whole
    assert re.search(r'id="turn-clock"[^>]*hx-swap-oob="morph"', html)
    assert re.search(r'id="pad-totals"[^>]*hx-swap-oob="morph"', html)
    assert re.search(r'id="standing-\d"[^>]*hx-swap-oob="morph"', html)
    assert re.search(r'id="pad-round-31"[^>]*hx-swap-oob="beforeend:#pad-rows"', html)
    assert re.search(r'<li id="e32"[^>]*hx-swap-oob="afterbegin:#events"', html)
    assert f'id="expected-seq" value="{seq}" hx-swap-oob="true"' in html
    assert re.search(r'id="pad-entry"[^>]*hx-swap-oob="morph"', html)
    assert 'id="move-form"' not in html and 'data-testid="ack"' not in html  # not the tapper's form and ✓
    whole = _push(table, 1, seq - 1, regions=False).get_data(as_text=True)
    assert 'id="live"' in whole and len(html.encode()) * 3 < len(whole.encode())


def test_a_push_of_a_move_weighs_the_same_at_move_10_and_at_move_200(table_of):
    (short_seq, short), (long_seq, long) = [
        (seq, _push(table, 1, seq - 1).get_data(as_text=True))
        for table, seq in (_watched(table_of, 8), _watched(table_of, 198))]
    assert (short_seq, long_seq) == (10, 200) and 'data-from="199"' in long
    assert abs(len(long.encode()) - len(short.encode())) <= 2500, (len(short), len(long))


@pytest.mark.parametrize("shown", [29, 0])
def test_a_page_that_does_not_show_the_table_before_gets_the_whole_region(table_of, shown):
    """A page behind by more than the move (it missed a push), or one that says nothing of
    its table, is sent the whole region: the regions would not fit it."""
    table, seq = _watched(table_of, 30)
    push = _push(table, 1, shown)
    assert 'id="live"' in push.get_data(as_text=True) and "HX-Reswap" not in push.headers


def test_a_page_that_does_not_take_regions_gets_the_whole_region(table_of):
    """A page loaded before this server (its poll and stream say nothing of regions) cannot
    check that regions fit: it gets the whole region, as it always did."""
    table, seq = _watched(table_of, 30)
    push = _push(table, 1, seq - 1, regions=False)
    assert 'id="live"' in push.get_data(as_text=True) and "HX-Reswap" not in push.headers


def test_an_undo_is_pushed_whole(table_of):
    """An undo changes what the log and the board show further back: every phone gets the
    whole region."""
    table, seq = _watched(table_of, 30)
    assert _push(table, 1, seq - 1).headers["HX-Reswap"] == "none"  # seat 1's view knows the move
    table.phone(0).post(f"/games/{table.id}/undo", headers={"HX-Request": "true"},
                        data={"expected_seq": str(seq), "client_event_id": "undo"})
    push = _push(table, 1, seq)
    assert 'id="live"' in push.get_data(as_text=True) and "HX-Reswap" not in push.headers


def _form_of(page) -> dict:
    """The move form's hidden fields on ``page`` (an lxml tree), as the phone posts them."""
    form = page.get_element_by_id("move-form")
    return {i.get("name"): i.get("value") or "" for i in form.iter("input") if i.get("type") == "hidden"}


def _han_tap(phone, url: str, page, **fields):
    """``phone`` taps "Exchange a card" for whoever's turn it is on ``page``'s move form."""
    return phone.post(f"{url}/moves", headers={"HX-Request": "true"},
                      data={**_form_of(page), "seat": "turn", "action": "card-exchanged", **fields})


def test_an_answer_that_keeps_the_form_makes_the_next_tap_a_new_move(table_of):
    """A Han move that leaves the move form as it was is answered without the form, and
    with its per-move hidden fields afresh: the phone's next tap is recorded as a move of
    its own at the next seq (a kept client_event_id had been taken for the move before and
    dropped), and the page shows the form a freshly loaded one shows."""
    from lxml import html
    from events.storage import store
    from scoring import GAMES
    players, options, _moves = GAMES["han"].demo()
    # cards exchanged until the pile holds about what the app expects: the form no longer
    # says the count (docs/rules/han.md §4.1), and an exchange leaves it as it was
    exchanges = [(s % 3, "card-exchanged", {"seat": s % 3}) for s in range(28)]
    table = table_of("han", [p["name"] for p in players], exchanges, options)
    phone, url = table.phone(0), f"/games/{table.id}"
    page = html.fromstring(phone.get(url).get_data(as_text=True))
    for tap in range(3):
        before = _form_of(page)
        answer = _han_tap(phone, url, page).get_data(as_text=True)
        assert 'id="move-form"' not in answer and 'data-form-kept' in answer, f"tap {tap}: the form was sent"
        page = _swapped(page, answer)
        after, seq = _form_of(page), store.last_seq(table.db, table.id)
        assert after["expected_seq"] == str(seq) == str(int(before["expected_seq"]) + 1)
        assert after["client_event_id"] != before["client_event_id"] and after["form_key"] == before["form_key"]
        assert "✓" in page.get_element_by_id("move-status").text_content()  # the tap's outcome, in the form
        fresh = html.fromstring(phone.get(url).get_data(as_text=True))
        assert _form(page) == _form(fresh), f"tap {tap}"
    assert store.last_seq(table.db, table.id) == 1 + len(exchanges) + 3  # three taps, three moves


def _form(page) -> str:
    """The move form as a player sees it: without its per-move hidden values and the
    outcome of the phone's last tap (which a freshly loaded page does not say)."""
    from lxml import html
    form = html.fromstring(html.tostring(page.get_element_by_id("move-form")))
    form.get_element_by_id("move-status").drop_tree()
    for name in ("csrf_token", "client_event_id", "expected_seq"):
        for i in form.xpath(f'//input[@name="{name}"]'):
            i.set("value", "")
    return re.sub(r"\s+", " ", html.tostring(form, encoding="unicode"))


def test_a_form_that_shows_other_data_is_sent_whole(table_of):
    """A move that changes what the form shows (Han's piece placed: the sites still free,
    the tally's counts) is answered with the form whole; as is a tap from a form whose key
    is not the one the next form would have (here: none posted)."""
    from lxml import html
    from scoring import GAMES
    _players, options, moves = GAMES["han"].demo()
    placed = next(n for n, move in enumerate(moves) if move[-2] == "pieces-placed" and n >= 3)
    table = table_of("han", [p["name"] for p in _players], moves[:placed], options)
    phone, url = table.phone(0), f"/games/{table.id}"
    page = html.fromstring(phone.get(url).get_data(as_text=True))
    seat, type_, data = moves[placed] if len(moves[placed]) == 3 else (0, *moves[placed])
    seq = table.play(type_, data, seat).seq
    assert 'id="move-form"' in _tapped(table, 0, seq, {"form_key": _form_of(page)["form_key"]})
    assert 'id="move-form"' in _han_tap(phone, url, page, form_key="").get_data(as_text=True)
