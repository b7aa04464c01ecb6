"""What a phone shows is what it records (issue 34), without a browser: at every state of every
shipped example game (examples/*.json and each game's demo) and along random legal playouts
branching off them, every choice of every form a seated phone's table page shows — each
option, radio, checkbox, tile and button — is submitted as a browser submits it (parsed by
lxml: tests/web/as_a_browser.py) through the real routes. Each either is refused or records
an event whose line in the log names what the choice's label named; the event is captured
at the store's append, so nothing is stored and the next choice meets the same state.

How "names" is judged, over the choices a player picks one of (a select's options, a radio
group, a form's buttons), in each of the three languages (the page and the log line in one,
each test run in every one): the words that set a label apart from its siblings' are its
distinctive words; a recorded line must hold one of them whenever the group's lines echo
labels at all, hold every player a label names, and hold no distinctive word of a sibling's
label that is not in its own (among the words in which the group's lines differ). A word is
compared as ``words`` reads it: Hungarian and German inflect at a word's end, so there a long
word counts by its first six letters.
"""
from __future__ import annotations

import json
import os
import random
import re

import pytest
from werkzeug.datastructures import MultiDict

from events.application.table import new_game, record
from events.domain.event import Event
from events.application.states import describe
from events.storage import store
from scoring import GAMES
from tests.conftest import EXAMPLES, example_moves
from tests.web import as_a_browser


class Captured(BaseException):
    """An append stopped before it stores: the event a submission would record. A
    BaseException, so no route's handler mistakes it for its own failure."""

    def __init__(self, db, game_id, new):
        self.db, self.game_id, self.new = db, game_id, new


@pytest.fixture(params=["en", "hu", "de"])
def harness(app, monkeypatch, request):
    """A harness whose phones and log read one language: each test runs in every one."""
    return capturing(app, monkeypatch, request.param)


def capturing(app, monkeypatch, lang: str = "en") -> Harness:
    """The app's appends captured, not stored (but for the moves a harness records itself);
    its phones read the pages, and the log's lines are read, in ``lang``."""
    real_append = store.append
    held = {"record": False}

    def append(db, game_id, new, *args, **kwargs):
        if held["record"]:
            return real_append(db, game_id, new, *args, **kwargs)
        raise Captured(db, game_id, new)

    monkeypatch.setattr(store, "append", append)
    from web import views
    # a refusal's answer is the whole table page again; whether it was refused is all that counts here
    monkeypatch.setattr(views, "refuse", lambda *a, **k: ("refused", 422))
    return Harness(app, held, lang)


class Harness:
    def __init__(self, app, held, lang: str = "en"):
        self.app, self.held, self.lang = app, held, lang
        self.db = store.connect(app.config["DATABASE"], on_recorded=app.extensions["on_recorded"])
        self.problems: list[str] = []
        self.checked = {"choices": 0, "recorded": 0, "groups": 0, "states": 0, "typed": 0, "kinds": set(), "forms": set()}

    def new(self, kind, players, options):
        self.held["record"] = True
        try:
            created = new_game(self.db, kind, players, options, "labels")
        finally:
            self.held["record"] = False
        return created

    def record(self, game_id, type_, data, seat):
        self.held["record"] = True
        try:
            seq = store.last_seq(self.db, game_id)
            record(self.db, game_id, type_, data, seq, seat, "labels", f"l{seq}", states=self.states)
        finally:
            self.held["record"] = False

    @property
    def states(self):
        return self.app.extensions["tablescribe"].states

    def phone(self, created, seat):
        client = self.app.test_client()
        client.set_cookie("lang", self.lang)
        client.set_cookie(f"seat_{created['id']}", created["seats"][seat]["token"])
        return client

    def look(self, created, seat) -> list[tuple]:
        """Every choice of the seat's page, submitted: (choice, event or None, its line)."""
        game_id = created["id"]
        client = self.phone(created, seat)
        doc = as_a_browser.page(client.get(f"/games/{game_id}").get_data(as_text=True))
        out = []
        for choice in as_a_browser.choices(doc):
            event, line = self.submit(client, game_id, choice, choice.pairs)
            out.append((choice, event, line))
        for choice, fields in as_a_browser.typed(doc):
            event, line = self.submit(client, game_id, choice, choice.pairs)
            if event is not None:
                self.problems += typed_mismatches(choice, fields, line, self.players(created), self.lang)
                self.checked["typed"] += 1
        self.checked["states"] += 1
        return out

    def players(self, created) -> list[str]:
        return [p["name"] for p in self.states.load(self.db, created["id"]).players]

    def submit(self, client, game_id, choice, pairs):
        action = choice.form.get("action")
        try:
            response = client.post(action, data=MultiDict(pairs))
        except Captured as captured:
            return self.described(captured)
        assert response.status_code < 500, (action, pairs)
        return None, None

    def described(self, captured):
        table = self.states.load(self.db, captured.game_id)
        new = captured.new
        event = Event(table.seq + 1, new.type, new.version, new.data, new.seat, new.device, "", new.client_event_id, "")
        return event, describe(table, event)[self.lang]  # said on the table it is made on


WORD = re.compile(r"[#\w]+")
# German participles put "ge" after a separable prefix ("wegschicken", "weggeschickt")
PARTICLE = re.compile(r"^(ab|an|auf|aus|ein|fort|mit|nach|vor|weg|zu|zurück)ge(?=\w{4})")


def words(text: str, lang: str = "en") -> list[str]:
    """Lower case, "#" dropped; in English a plural's or verb's "s" too ("bids" is "bid"); in
    Hungarian and German, which inflect a word at its end, a long word is its first six
    letters ("elküldi", "elküldve": "elküld"; "Handwerkern": "handwe"), after a German
    participle's "ge" ("weggeschickt": "wegsch")."""
    out = [w.lower().lstrip("#") for w in WORD.findall(text or "") if w.strip("#")]
    if lang == "en":
        return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in out]
    return [PARTICLE.sub(r"\1", w)[:6] for w in out]


def tokens(text: str, lang: str = "en") -> set[str]:
    return set(words(text, lang))


def distinctive(label: list[str], siblings: list[list[str]]) -> set[str]:
    """The words of a label where some sibling's label says something else, place by place
    ("Palace 1 (1/3)" beside "Palace 2 (1/2)": 1 and 3)."""
    return {w for i, w in enumerate(label) if any(len(s) <= i or s[i] != w for s in siblings)}


# Maharaja's villages are labelled with whose houses stand there ("village 2 (Anna)"): a help for
# finding the village, not what the move names (the journey, the house moved name villages only)
OWNERS_SHOWN = {"via", "place", "house_place", "move_from", "move_to"}


def mismatches(looked: list[tuple], players: list[str], lang: str = "en") -> list[str]:
    """What the recorded lines say against the labels, group by group (the module's docstring)."""
    groups: dict[str, list] = {}
    for choice, event, line in looked:
        groups.setdefault(choice.group, []).append((choice, event, line))
    names = {w for p in players for w in words(p, lang)}
    found = []
    for group, items in groups.items():
        if group.endswith(" action"):   # a form's own buttons: each records the move it is for
            found += [f"{group}: '{c.label}' ({c.submitter.get('value')}) recorded {e.type}: '{line}'"
                      for c, e, line in items if e is not None and not c.submitter.get("value").startswith(e.type)]
            continue
        labels = [words(c.label, lang) for c, _, _ in items]
        own_words = [distinctive(lab, labels) for lab in labels]
        recorded = [(c, own_words[i], line, tokens(line, lang)) for i, (c, e, line) in enumerate(items) if e is not None]
        distinct = {json.dumps([e.type, e.data], sort_keys=True) for _, e, _ in items if e is not None}
        if not recorded or (len(distinct) == 1 and len(recorded) > 1):
            continue   # nothing recorded, or every choice records the same (a row left empty): nothing named
        echoed = set().union(*(t for *_, t in recorded)) & set().union(*own_words)
        line_common = set.intersection(*(t for *_, t in recorded))
        for choice, own, line, said in recorded:
            others = set().union(*own_words) - tokens(choice.label, lang)
            wrong = others & (said - line_common) if len(recorded) > 1 else set()
            if own and echoed and not own & said:  # the group's lines echo its labels, this one not its own
                found.append(f"{group}: '{choice.label}' recorded '{line}', which names none of it")
            elif (own & names) - said and group.rsplit(" ", 1)[-1] not in OWNERS_SHOWN:
                found.append(f"{group}: '{choice.label}' recorded '{line}', without {sorted((own & names) - said)}")
            elif wrong:
                found.append(f"{group}: '{choice.label}' recorded '{line}', naming {sorted(wrong)} of another choice")
    return found


ROUND = {"en": re.compile(r"\bround (\d+)", re.IGNORECASE), "hu": re.compile(r"\b(\d+)\. (?:kör|forduló)", re.IGNORECASE),
         "de": re.compile(r"\brunde (\d+)", re.IGNORECASE)}


def typed_mismatches(choice, fields: dict, line: str, players: list[str], lang: str = "en") -> list[str]:
    """Numbers typed: a line that holds a field's figure holds it after the player the field's
    label names (points beside their player: "Round 3: Anna +11, Béla +12"), and a line naming
    a round names the round the section is headed with."""
    found = []
    said = [w for w in WORD.findall(line.lower())]
    names = {p.lower() for p in players}
    for label, value in fields.items():
        persons = {w for w in words(label, "en") if w in names}
        if value not in said or not persons:
            continue
        before = [w for w in said[:said.index(value)] if w in names]
        if not before or before[-1] not in persons:
            found.append(f"{choice.group}: {value} typed beside '{label}' recorded '{line}'")
    shown, recorded = ROUND[lang].findall(choice.label), ROUND[lang].findall(line)
    if shown and recorded and shown[0] != recorded[0]:
        found.append(f"{choice.group}: '{choice.label}' recorded '{line}'")
    return found


def check_state(h: Harness, created, seats, players) -> list[tuple]:
    looked_all = []
    for seat in seats:
        looked = h.look(created, seat)
        h.problems += mismatches(looked, players, h.lang)
        h.checked["choices"] += len(looked)
        h.checked["recorded"] += sum(1 for _, e, _ in looked if e is not None)
        h.checked["forms"] |= {c.group for c, _, _ in looked}
        looked_all += looked
    return looked_all


def _demo(kind):
    players, options, moves = GAMES[kind].demo()
    return kind, players, options, [(t, d, 0) for t, d in moves]


def replay(h: Harness, game, every: int = 1, all_seats: bool = False, playouts: int = 0,
           steps: int = 0, seed: int = 34):
    """Check the game's states (every ``every``-th, the last always), each seated phone or one
    seat a state in turn; then ``playouts`` random legal playouts of ``steps`` moves, each
    branching off a random state of the game, checked at every state."""
    kind, players, options, moves = game
    names = [p["name"] for p in players]
    created = h.new(kind, players, options)
    h.checked["kinds"].add(kind)
    seats = range(len(players))
    branch_points = []
    for i in range(len(moves) + 1):
        if i % every == 0 or i == len(moves):
            check_state(h, created, seats if all_seats else [i % len(players)], names)
            branch_points.append(i)
        if i < len(moves):
            type_, data, seat = moves[i]
            h.record(created["id"], type_, data, seat)
    rng = random.Random(seed)
    for _ in range(playouts):
        play_out(h, game, rng.choice(branch_points), steps, rng, all_seats)
    unique = sorted(set(h.problems))
    assert not unique, f"{len(unique)} choices record other than their label says:\n" + "\n".join(unique[:15])


def play_out(h: Harness, game, start: int, steps: int, rng, all_seats: bool):
    kind, players, options, moves = game
    names = [p["name"] for p in players]
    created = h.new(kind, players, options)
    for type_, data, seat in moves[:start]:
        h.record(created["id"], type_, data, seat)
    for step in range(steps):
        seats = range(len(players)) if all_seats else [rng.randrange(len(players))]
        looked = check_state(h, created, seats, names)
        legal = [e for c, e, _ in looked if e is not None and "/moves" in c.form.get("action", "")]
        if not legal:
            return
        event = rng.choice(legal)
        h.record(created["id"], event.type, event.data, event.seat)


FAST_EVERY = {"dragon": 9, "five-tribes": 20, "han": 6, "maharaja": 20}
CURRENT = [p for p in EXAMPLES if not p.endswith("-v1.json")]  # the -v1 games: old payloads, in the slow run


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_choice_of_each_demo_records_what_its_label_names(harness, kind):
    """Each game kind's demo, every state, one phone a state in turn, with short random playouts."""
    replay(harness, _demo(kind), playouts=2, steps=4)
    assert harness.checked["recorded"], harness.checked


@pytest.mark.parametrize("path", CURRENT, ids=os.path.basename)
def test_every_choice_along_the_examples_records_what_its_label_names(harness, path):
    """Each shipped example, a state in every few (the last always), one phone a state in turn."""
    game = example_moves(path)
    replay(harness, game, every=FAST_EVERY.get(game[0], 1), playouts=1, steps=3)


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_every_choice_at_every_state_of_the_examples_on_every_phone(harness, path):
    replay(harness, example_moves(path), all_seats=True, playouts=6, steps=12)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_choice_of_each_demo_on_every_phone_with_long_playouts(harness, kind):
    replay(harness, _demo(kind), all_seats=True, playouts=10, steps=20, seed=3434)
