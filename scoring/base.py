"""The contract every game module fulfils: declared data plus pure functions.

A game module declares its ``Rules`` (what the fold and the referee need) and, in
``presentation.py``, its ``Presentation`` (words, forms, templates, the board view); one
``GameKind`` pairs them and the registry in ``scoring/__init__.py`` lists it. The core
(``events/``, ``web/``) only ever talks to a game through this contract, so no rule of
one game leaks into the core or into another game.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from importlib import import_module
from typing import Any, Callable, Mapping, NamedTuple

import orjson
from scoring.i18n import msg

Text = Mapping[str, str]  # {lang: text}: scoring.i18n.msg("English") in every catalog's language


def text(hu: str, en: str) -> dict[str, str]:
    """A text put together from texts already in their language (a list of names joined, a
    label and its mark): Hungarian and English; other languages show the English. A message
    of its own is ``msg("English %(value)s", value=...)`` from the catalogs (scoring/i18n.py)."""
    return {"hu": hu, "en": en}


@dataclass(frozen=True)
class Problem:
    """Why a move is refused: the rule it breaks and a message in every language."""

    rule: str
    text: Text = field(hash=False)

    @property
    def hu(self) -> str:
        return self.text["hu"]

    @property
    def en(self) -> str:
        return self.text["en"]

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.rule, **self.text}

    def naming(self, players, places: Mapping[str, str] | None = None) -> "Problem":
        """The problem with each ``player(seat)`` in its texts replaced by that seat's name
        and each ``place(id)`` by the name the table's board gives it (``places``): the rules
        know seats and ids, the table knows who sits there and what its board calls a place
        (``events/domain/projection.py`` names every problem before it leaves the rules)."""
        if not any("\u27e8" in said for said in self.text.values()):
            return self
        return Problem(self.rule, named(self.text, players, places))


_PLAYER = re.compile("\u27e8player (-?\\d+)\u27e9")
_PLACE = re.compile("\u27e8place ([^\u27e9]*)\u27e9")


def named(said: Text, players, places: Mapping[str, str] | None) -> dict[str, str]:
    """A rules' text with its ``player(seat)`` and ``place(id)`` filled in with names."""
    def seat_name(found: re.Match) -> str:
        seat = int(found[1])
        return players[seat].get("name", f"#{seat + 1}") if 0 <= seat < len(players) else f"#{seat + 1}"

    def place_name(found: re.Match) -> str:
        return (places or {}).get(found[1]) or found[1]
    return {lang: _PLACE.sub(place_name, _PLAYER.sub(seat_name, text_)) for lang, text_ in said.items()}


def player(seat: int) -> str:
    """The player of ``seat`` in a refusal's text, to be named by ``Problem.naming``: the
    state holds seats, not names (the table's players have them)."""
    return f"\u27e8player {seat}\u27e9"


def place(place_id: str) -> str:
    """A place of the board in a refusal's or a score part's text, to be named with the name
    the table's board profile gives it (``Rules.place_names``): the state holds ids, not names."""
    return f"\u27e8place {place_id}\u27e9"


def hu_rulebook(where: str) -> dict[str, str]:
    """A rule page's pointer into the Hungarian rulebook in the box: its section or heading."""
    return msg("Rulebook (HU): %(where)s", where=where)


@dataclass(frozen=True)
class RuleSection:
    """One rule as a player reads it on the game's rule page (``/rules/<book>#s<n>``): the
    section a refusal cites (``ref``, e.g. "2.3"), the project's own short text of the rule
    with the numbers the app uses, and where to look it up in the printed rulebook.
    ``says`` is a few whole sentences, each a {"hu", "en"} text."""

    ref: str
    title: Text
    says: tuple[Text, ...]
    book: Text | None = None  # the rulebook's section; None: the app's own rule
    # A table of the numbers, when a list reads better than sentences: the first row is the
    # header; a cell is a number, a name, or a {"hu", "en"} text.
    table: tuple[tuple[Any, ...], ...] = ()

    @property
    def anchor(self) -> str:
        return "s" + self.ref.replace(".", "-")


@dataclass(frozen=True)
class Move:
    """What a game module sees of a stored event: the envelope the rules may need
    (``seq`` to name the event in a score breakdown, ``seat`` of the recorder) and
    the upcast payload."""

    seq: int
    type: str
    data: Mapping[str, Any]
    seat: int | None = None


class ScorePart(NamedTuple):
    """One part of a player's score: a category, its points and the events behind it.

    A named tuple rather than a frozen dataclass: immutable all the same, and built five
    times faster; a long score pad game builds thousands per tap (docs/performance.md)."""

    category: str
    points: int
    events: tuple[int, ...] = ()
    label: Text | None = None  # e.g. which province / alliance, for "why do I have 37?"

    def as_dict(self, players=(), places: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The part as pages and the API read it, its label's ``place(id)`` named (``places``)."""
        label = self.label
        if label and any("\u27e8" in said for said in label.values()):
            label = named(label, players, places)
        return {"category": self.category, "points": self.points,
                "events": list(self.events), "label": dict(label) if label else None}


@dataclass(frozen=True)
class Option:
    """A set-up option declared by a game: shown on the new-game form, recorded in
    the game's first event."""

    name: str
    default: Any
    label: Text
    choices: tuple[Any, ...] | None = None  # None: free value of the default's type
    help: Text | None = None


@dataclass(frozen=True)
class EventSpec:
    """A game event type: its current payload version, JSON Schema, upcasters and
    labels.

    ``upcasters[n]`` turns a version-n payload into a version n+1 payload; stored
    rows are never rewritten, payloads are upcast when read.
    """

    schema: Mapping[str, Any]
    label: Text
    version: int = 1
    upcasters: Mapping[int, Callable[[dict], dict]] = field(default_factory=dict)


@dataclass(frozen=True)
class Boards:
    """Board profiles a game is played on, stored by ``events/application/boards.py``. A game
    pins one in its options as {"id", "version", "data"}. The rules' part of them; the
    editor's (``BoardEditor``) is the presentation's."""

    validate: Callable[[dict], list[Problem]]             # contradictions in a profile's data
    builtin: tuple[dict, ...] = ()                        # shipped profiles: {"id", "data"}
    # The facts a game needs before move 1, given when the game is created: options.board =
    # {"id": profile, ...answers} -> (the latest version's data, that request) -> the data
    # completed, or FormError naming what is still missing (events/application/boards.py saves it).
    complete: Callable[[dict, Mapping[str, Any]], dict] | None = None
    # The facts a table entered while playing that the profile lacks (Han's alliances):
    # (the profile's latest data, the game's state) -> the data with them, or None when they
    # add nothing; after an event of a type in ``learns_from`` events/application/boards.py saves it as
    # the profile's next version, in that event's transaction, so the next game asks nothing.
    learn: Callable[[dict, dict], dict | None] | None = None
    learns_from: frozenset[str] = frozenset()


@dataclass(frozen=True)
class BoardEditor:
    """The board profiles' editor at ``/boards/<kind>/``, with the game's
    ``templates/games/<kind>/_editor.html``."""

    from_form: Callable[[dict, Mapping[str, str]], dict]  # editor form -> data, or FormError
    missing: Callable[[dict], list[Text]] = lambda data: []  # facts the profile leaves unknown


# Templates the core includes from templates/games/<kind>/ when a game provides them (and
# declares them in ``Presentation.templates``); _form.html, the move form, every game has.
TEMPLATE_HOOKS = frozenset({
    "_board.html",     # the board view, shown when has_board
    "_setup.html",     # replaces the generic option fields of the new-game form (parse_options)
    "_players.html",   # a note above the new-game form's player rows
    "_live_oob.html",  # form parts refreshed out of band on a live update
    "_form_fields.html",  # the move form inside its pushed wrapper: rendered once per move and view, shared
    "_board_parts.html",  # a board whose view lists its `rows` by `round`: the rows a move changed, and the totals
    "_board_part.html",   # one part of a board sent by parts (``Presentation.board_parts``), by its data alone
})


@dataclass(frozen=True)
class Rules:
    """A game's rules, all the fold and the referee need: pure functions of the state and
    declared data, with no words for a page (as boardgame.io's game beside its board).
    ``scoring/<game>/__init__.py`` declares them; ``events/domain`` needs nothing else."""

    kind: str
    min_players: int
    max_players: int
    rules_version: int
    event_types: Mapping[str, EventSpec]
    setup: Callable[[list[dict], dict], dict]
    check: Callable[[dict, Move], list[Problem]]
    apply: Callable[[dict, Move], dict]
    score: Callable[[dict], dict[int, list[ScorePart]]]
    is_over: Callable[[dict], bool]
    options: tuple[Option, ...] = ()
    check_setup: Callable[[list[dict], dict], list[Problem]] | None = None
    tiebreak: Callable[[dict, int], tuple] | None = None
    # Each seat's total, for a game whose score() grows with its length: the history
    # (events/application/states.py) asks it after every event. None: the sum of score()'s parts.
    totals: Callable[[dict], dict[int, int]] | None = None
    # Each seat's count of score()'s parts and its last ``n`` of them, for a game with
    # ``totals`` whose parts grow with its length: the table page lists the last ones, and
    # every tap redraws it, so they are read from the end of the state, not scored whole.
    # (state, n) -> {seat: (count, [parts])}. None: taken from score().
    recent_parts: Callable[[dict, int], dict[int, tuple[int, list[ScorePart]]]] | None = None
    # Whose turn the log is in (docs/rules/<game>.md, "Turns"): state -> (a key naming the
    # turn, the seat whose it is or None for the table as a whole), None when it is nobody's
    # (the game is over). The key names one turn in the whole game: the time while the state
    # is in it is that turn's, even when another comes between (events/domain/turns.py).
    # None: the game has no turns, only a duration.
    turn: Callable[[dict], tuple[tuple, int | None] | None] | None = None
    boards: Boards | None = None  # board profiles, for games whose board varies
    # A short legal game for the contract test: () -> (players, options, [(type, data), ...]).
    # It must use every event type the game declares.
    demo: Callable[[], tuple[list[dict], dict, list[tuple[str, dict]]]] | None = None
    bgg_id: int | None = None  # BoardGameGeek's id of the published game, for BG Stats (docs/people.md §8)
    # The names the table's board profile gives places, by id, from the set-up's options:
    # (options) -> {place id: name}, for the ``place(id)`` of the rules' refusals and score
    # parts (Han's provinces). The state keeps the ids only.
    place_names: Callable[[Mapping[str, Any]], dict[str, str]] | None = None

    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}


@dataclass(frozen=True)
class Presentation:
    """A game as the phones show it: its words, forms, templates and board view, derived
    from the rules' facts when a page renders (as boardgame.io's board beside its game).
    ``scoring/<game>/presentation.py`` declares it; the fold never loads it."""

    title: Text
    # The move in words; ``state`` (the game's state the move was made on, before it) lends
    # what the move changed — who left, whose it was —; ``options`` (the table's set-up) the
    # names the table gave things, e.g. a board profile's provinces; either None where not at hand.
    describe: Callable[..., Text]
    parse_form: Callable[[dict, Mapping[str, str]], tuple[str, dict]]
    categories: Mapping[str, Text] = field(default_factory=dict)
    tiebreak_rule: Text | None = None
    # The tie-break's values in words for the final sheet ("20 gold, character 2"): the
    # tuple is for sorting (a character number negated, so that a lower one wins).
    tiebreak_words: Callable[[list], Text] | None = None
    # Templates under templates/games/<kind>/: _form.html (the move form, always),
    # _board.html (the board view, when has_board) and _setup.html (replaces the
    # generic option fields of the new-game form, when parse_options is given).
    has_board: bool = False
    parse_options: Callable[[Mapping[str, str]], dict] | None = None
    # What the game's templates need, derived from the folded facts when a page renders
    # (the state holds facts only): (state, players, options=...) -> dict, given to
    # templates as ``view``; ``options`` lends the names the table gave things.
    view: Callable[..., dict] | None = None
    # The event types whose newest move the view highlights (() : any of the game's moves;
    # None: it highlights none). The core finds that move in the log when a page renders
    # (folded, neither voided nor refused) and calls view(state, players, last=Move or None).
    last_of: tuple[str, ...] | None = None
    # Whether a seated phone's move form depends on its seat (Five Tribes' score sheet opens
    # on the phone's own position): its pushes are then rendered for each seat apart.
    form_per_seat: bool = False
    # The optional template hooks (TEMPLATE_HOOKS) this game provides under
    # templates/games/<kind>/, beside the required _form.html.
    templates: frozenset[str] = frozenset()
    # The final sheet as one grid, for a game whose parts are all of one kind (the score pad's
    # rounds): (state) -> [{"round", "cells": [{"points", "events", "total"} or None per seat]}].
    # None: the sheet lists each player's parts, and a table by category.
    sheet: Callable[[dict], list[dict]] | None = None
    # The name of the game a table plays, when its options give one (the score pad kept for
    # "Carcassonne"): (options) -> text or None. None: the game is its title.
    named: Callable[[Mapping[str, Any]], Text | None] | None = None
    # What the phone of a seat (None: a spectator) may see of the state, for the API's
    # state: (state, seat) -> state, e.g. Maharaja's secret gold shown to its owner only.
    redact: Callable[[dict, int | None], dict] | None = None
    board_editor: BoardEditor | None = None  # the board profiles' editor, for games with ``boards``
    # A board made of parts (areas, cities, tracks, player mats), so a move's answer renders
    # and sends only the parts whose data changed (web/partial.py): (state, view, players,
    # seat) -> [{"id": DOM id, "is": which part, ...all it shows}], in the board's order;
    # templates/games/<kind>/_board_part.html renders one from its dict and the players alone,
    # so the dict is the part's key. None: the board is sent whole with each move.
    board_parts: Callable[..., list[dict]] | None = None
    # All the data a seated phone's move form (``_form.html`` with nothing typed) renders
    # from beside the players, the seat's view, the language and the page's address: (state,
    # view) -> data orjson can encode. A tap whose form showed the same data is answered
    # without the form, only its per-move hidden fields (web/partial.py ``form_key``). None:
    # the form is sent whole with each move (one that changes with nearly every move).
    form_data: Callable[[dict, dict], Any] | None = None
    # The move form's fields that draw the board for the request (Five Tribes' path tapped on
    # its tiles): a move posted with one is answered with the whole board, which that phone
    # showed drawn for it.
    drawn_by: tuple[str, ...] = ()

    def title_for(self, options: Mapping[str, Any]) -> Text:
        """What a table of this game is called: the name its options give, else the title."""
        return (self.named(options) if self.named else None) or self.title


_RULES = frozenset(f.name for f in fields(Rules))


class GameKind:
    """A game kind as the registry lists it: its ``rules``, and its ``presentation``, read
    from the module ``presents`` names (``scoring.<game>.presentation``) only when a page,
    a form or the log's words first ask for it — so a fold imports no form, view or
    template code. Either half's fields read as the kind's own (``kind.apply``, ``kind.view``),
    the rules' as plain attributes (the fold reads them at every step)."""

    def __init__(self, rules: Rules, presents: str):
        self.__dict__.update({name: getattr(rules, name) for name in _RULES})
        self.rules, self.presents = rules, presents

    @cached_property
    def presentation(self) -> Presentation:
        return import_module(self.presents).PRESENTATION

    def __getattr__(self, name: str):
        if name.startswith("__") or name in ("presentation", "rules", "presents"):
            raise AttributeError(name)
        return getattr(self.presentation, name)

    def default_options(self) -> dict[str, Any]:
        return self.rules.default_options()

    def changed(self, **changes) -> "GameKind":
        """This kind with some fields of either half replaced (a retired rules version;
        a test's own tie-break): the presentation's changes made to a loaded copy."""
        of_rules = {k: v for k, v in changes.items() if k in _RULES}
        kind = GameKind(replace(self.rules, **of_rules), self.presents)
        shown = {k: v for k, v in changes.items() if k not in _RULES}
        if shown:
            kind.presentation = replace(self.presentation, **shown)
        return kind

    def __repr__(self) -> str:
        return f"GameKind({self.kind!r}, rules_version={self.rules_version})"


class FormError(ValueError):
    """Raised by ``parse_form`` when the phone form cannot become an event."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.en for p in problems))
        self.problems = problems


def clone(state: dict) -> dict:
    """A deep copy of a JSON-shaped state, so ``apply`` can stay pure: a JSON round
    trip (tuples become lists, keys strings). Every fold step pays for one, so it is
    done by orjson, several times faster (docs/performance.md), falling back to the
    standard library for what orjson refuses (e.g. integers beyond 64 bits)."""
    try:
        return orjson.loads(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS))
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.loads(json.dumps(state))
