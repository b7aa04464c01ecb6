"""The statistics pages (HU/EN, phone first) and their JSON (``GET /api/people``,
``GET /api/stats``): read from the read model (group/plays.py) joined with the
roster, never by folding games. Every number links to the plays it counts."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from urllib.parse import urlencode

from flask import Blueprint, abort, jsonify, render_template, request, url_for

from events.application import photos
from events.domain.projection import voided_in
from events.storage import store
from group import plays, ratings, statistics
from group import roster as roster_log
from scoring import GAMES, get_game
from web import stats_chart
from web.organiser import is_organiser
from web.db import caches, get_db
from flask_babel import gettext, ngettext

from web.i18n import number, tr

bp = Blueprint("stats", __name__)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits: "٢٠٢٤" is no year here
MAX_PEOPLE = 12
PLAYS_PAGE = 50  # plays listed per page, the newest first


class BadFilter(ValueError):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def _date(name: str) -> str | None:
    raw = request.args.get(name) or None
    if raw is None:
        return None
    try:
        if not _DATE.fullmatch(raw):
            raise ValueError
        return date.fromisoformat(raw).isoformat()
    except ValueError:
        raise BadFilter(gettext("%(name)s must be a date YYYY-MM-DD.", name=name)) from None


def _person_ids(raw: list[str], roster) -> tuple[int, ...]:
    ids = []
    for value in raw:
        for part in value.split(","):
            if not part:
                continue
            if not (part.isascii() and part.isdigit() and len(part) < 12):
                raise BadFilter(gettext("Unknown person %(name)s.", name=repr(part[:20])))
            person = int(part)
            if person not in roster.people:  # a well-formed id of nobody: not found, as a game's
                raise BadFilter(gettext("There is no person #%(person)s.", person=person), status=404)
            ids.append(roster.canonical(person))
    if len(ids) > MAX_PEOPLE:
        raise BadFilter(gettext("At most %(count)s people.", count=MAX_PEOPLE))
    return tuple(dict.fromkeys(ids))


def _filters(roster) -> dict:
    kind = request.args.get("kind") or None
    if kind is not None and len(kind) > 100:
        raise BadFilter(gettext("The game name is too long."))
    key = _stat_key(kind) if kind else None
    since, until = _date("since"), _date("until")  # a malformed date (400) before a person of nobody (404)
    return {"key": key, "people": _person_ids(request.args.getlist("people"), roster),
            "since": since, "until": until}


def _stat_key(kind: str) -> str:
    """A game as the statistics group it (group/plays.py:game_key), from the form the API
    documents: a kind ("han") or a score pad's game ("scorepad:Azul", the title in any case). A kind no
    game has, or a title after a kind that has no titles, is refused, not an empty answer."""
    name, colon, title = kind.partition(":")
    game = get_game(name)
    if game is None or (colon and (game.bgg_id is not None or not title)):
        raise BadFilter(gettext("Unknown game kind %(kind)s.", kind=repr(kind[:40])))
    return plays.game_key(game.kind, title)


def _query(filters: dict) -> dict:
    """The filters as URL parameters (links keep them)."""
    out = [("kind", filters["key"])] if filters["key"] else []
    out += [("people", p) for p in filters["people"]]
    out += [(k, filters[k]) for k in ("since", "until") if filters[k]]
    return out


def plays_link(filters: dict, **extra) -> str:
    """The plays page for a number: the page's filters plus what the number counts."""
    params = _query(filters)
    for name, value in extra.items():
        if name == "kind":
            params = [(k, v) for k, v in params if k != "kind"]
        params += [(name, v) for v in (value if isinstance(value, (list, tuple)) else [value])]
    return url_for("stats.plays_page") + "?" + urlencode(params)


def with_filters(endpoint: str, filters: dict, **values) -> str:
    """A statistics page's address keeping the filters of this one."""
    query = urlencode(_query(filters))
    return url_for(endpoint, **values) + (f"?{query}" if query else "")


def page_link(page: int) -> str:
    """This page's address, every filter kept, at another page of its list."""
    params = [(k, v) for k, v in request.args.items(multi=True) if k != "page"] + [("page", page)]
    return url_for(request.endpoint, **(request.view_args or {})) + "?" + urlencode(params)


def num(value) -> str:
    """A figure as people write it in the phone's language: 7, 7.5 / 7,5 (never 7.0); – for none."""
    return number(value)


def game_link(game_id: str) -> str:
    """One play: its final sheet, or for an imported play (no moves here) its row."""
    if game_id.startswith("bgs-"):
        return url_for("stats.plays_page", game=game_id)
    return url_for("audit.final", game_id=game_id)


def duration(seconds: int) -> str:
    hours, minutes = divmod(seconds // 60, 60)
    return f"{hours}:{minutes:02d}"


def game_title(key: str, title: str = "") -> str:
    kind, _, _ = key.partition(":")
    game = get_game(kind)
    name = tr(game.title) if game else kind
    return f"{title} ({name})" if title else name


def category_label(kind: str, category: str) -> str | None:
    """The category's name in the game's own words, or None for a game that names
    none (a score pad's rounds are no categories)."""
    game = get_game(kind)
    if game is None or not game.categories:
        return None
    return tr(game.categories.get(category)) or category


@bp.record_once
def _setup(state) -> None:
    state.app.jinja_env.filters["num"] = num
    state.app.jinja_env.globals.update(plays_link=plays_link, game_title=game_title,
                                       with_filters=with_filters, games_registry=GAMES,
                                       game_link=game_link, duration=duration, page_link=page_link,
                                       category_label=category_label)


def _page(render):
    """Run a page; a bad filter is a 400 with the reason (a person who does not exist a 404),
    on the page or as JSON."""
    try:
        return render()
    except BadFilter as err:
        if request.path.startswith("/api/"):
            return jsonify({"error": err.message}), err.status
        return render_template("error.html", status=err.status, message=err.message), err.status


@dataclass(frozen=True)
class Group:
    """What a statistics or people page shows of the group, read once by the page's
    loader (``load_group``): the roster, the games left out of every figure, and what
    stats/base.html says of them."""
    roster: roster_log.Roster
    left_out: dict[str, tuple[int, str]]
    notices: dict

    def plays(self, db, *filters, **named) -> list[dict]:
        """The counted plays (group/plays.py:read) matching ``filters``."""
        return plays.read(db, self.roster, *filters, **named, leave_out=self.left_out, cache=caches().plays)

    def rated(self, db) -> dict:
        return plays.rated(db, self.roster, self.left_out, caches().plays)


def load_group(db) -> Group:
    """The group's read model: the roster (its last change), the games left out (the
    imported ones not counted, the finished ones' record checks) and the roster's own check."""
    out = plays.left_out(db, caches().verified, caches().plays)
    broken = roster_log.unverified_from(db, cache=caches().roster)
    notices = {"left_out": sorted(g for g, (seq, _) in out.items() if seq),
               "not_counted": sorted(g for g, (seq, _) in out.items() if not seq),
               "roster": roster_log.warning(broken) if broken else None}
    return Group(roster_log.load(db, caches().roster), out, notices)


def render_group(template: str, group: Group | None = None, **context) -> str:
    """A page of stats/base.html with the group's notices (read here unless ``group``) and
    whether this phone is the organiser's."""
    group = group or load_group(get_db())
    return render_template(template, notices=group.notices, organiser=is_organiser(), **context)


def _render(template: str, group: Group, filters: dict, **context):
    return render_group(template, group, filters=filters, roster=group.roster, all_people=group.roster.active(),
                        **context)


def left_out() -> dict[str, tuple[int, str]]:
    """The finished games left out of every statistic: their record does not verify, or they
    were imported without a trusted signature and not accepted (group/plays.py:left_out)."""
    return plays.left_out(get_db(), caches().verified, caches().plays)


def final_thumbs(db, game_ids: list[str]) -> dict[str, str]:
    """For the statistics' play list: each game's final-board photo (else its last photo)
    that is not void, as its thumbnail's address. Reads only the photo, void and dispute
    events of these games: the list never folds a game."""
    by_game = store.events_of_types(db, list(game_ids), (
        "photo-attached", "event-voided", "dispute-opened", "dispute-resolved"))
    found: dict[str, str] = {}
    for game_id, events in by_game.items():
        voided = voided_in(events)
        live = [e for e in photos.attached(events) if e.seq not in voided]
        pick = [e for e in live if e.data["about"] == "final"] or live
        if pick:
            found[game_id] = url_for("photos.image", game_id=game_id, sha256=pick[-1].data["thumb_sha256"])
    return found


def _context():
    """A statistics page's loader: the group, the filters the address names, the plays they keep."""
    db = get_db()
    group = load_group(db)
    filters = _filters(group.roster)
    found = group.plays(db, filters["key"], filters["people"], filters["since"], filters["until"])
    return group, filters, found


# ---- pages ---------------------------------------------------------------------------

@bp.get("/stats")
def index():
    def render():
        group, filters, found = _context()
        roster = group.roster
        titles = {p["key"]: p["title"] for p in found}
        games = [{"key": k, "title": titles[k], **g} for k, g in statistics.games_summary(found).items()]
        totals = statistics.totals(found)
        people = [{**p, **totals[p["id"]]} for p in roster.active() if p["id"] in totals]
        people.sort(key=lambda p: (-p["wins"], -p["plays"], p["name"].casefold()))
        chart = stats_chart.bars([{"label": game_title(g["key"], g["title"]), "value": g["plays"],
                                   "href": with_filters("stats.game", filters, key=g["key"])} for g in games],
                                 gettext("Plays per game"))
        return _render("stats/index.html", group, filters, games=games, people=people, plays=found,
                       chart=chart)
    return _page(render)


@bp.get("/stats/people/<int:person>")
def person(person: int):
    def render():
        group, filters, found = _context()
        roster = group.roster
        if person not in roster.people:
            abort(404)
        canonical = roster.canonical(person)
        figures = statistics.person_figures(found, canonical)
        chart = stats_chart.bars([
            {"label": game_title(key, g["title"]), "value": g["wins"], "text": f"{g['wins']} / {g['plays']}",
             "href": plays_link(filters, kind=key, people=canonical, won=canonical)}
            for key, g in figures["games"].items()], gettext("Wins per game"))
        rated = group.rated(get_db())
        mine = {key: table[canonical] for key, table in rated.items() if canonical in table}
        start = ratings.Rating().conservative  # where everyone starts: the line's first point
        # the line ends on the rating the text shows, written as the text writes it (3,3 not 3.2)
        trends = {key: stats_chart.trend([start] + [p["rating"] for p in r.trend][:-1] + [r.conservative],
                                         gettext("Rating play by play"), number(r.conservative))
                  for key, r in mine.items()}
        return _render("stats/person.html", group, filters, person=roster.people[canonical],
                       figures=figures, chart=chart, ratings=mine, trends=trends)
    return _page(render)


@bp.get("/stats/games/<path:key>")
def game(key: str):
    def render():
        group, filters, found = _context()
        roster = group.roster
        mine = [p for p in found if p["key"] == key]
        figures = statistics.game_figures(found, key)
        kind = key.partition(":")[0]
        link = plays_link(filters, kind=key)
        distribution = stats_chart.bars([
            {"label": f"{b['low']}–{b['high']}" if b["high"] != b["low"] else str(b["low"]),
             "value": b["count"], "href": link} for b in figures["distribution"]],
            gettext("Score distribution"))
        deciding = [{"label": category_label(kind, c), "value": round(100 * d["rate"]),
                     "text": f"{d['winner_led']} / {d['games']}", "href": link}
                    for c, d in figures["deciding"].items() if category_label(kind, c)]
        durations = stats_chart.bars([
            {"label": ngettext("%(num)d player", "%(num)d players", n),
             "value": round((d["average"] or 0) / 60, 1), "text": gettext("%(minutes)s min · %(plays)s×", minutes=round((d['average'] or 0) / 60), plays=d['plays']),
             "href": link} for n, d in figures["durations"].items()],
            gettext("Average playing time by number of players"))
        return _render("stats/game.html", group, filters, key=key, figures=figures, durations_chart=durations,
                       ranking=ratings.ranked(group.rated(get_db()).get(key, {})),
                       title=mine[0]["title"] if mine else "", kind=kind, distribution=distribution,
                       deciding=stats_chart.bars(deciding, gettext("The winner led this category")))
    return _page(render)


@bp.get("/stats/together")
def together():
    def render():
        group, filters, found = _context()
        roster = group.roster
        people = list(filters["people"])
        figures = statistics.head_to_head(found, people) if len(people) >= 2 else None
        chart = stats_chart.bars([{"label": roster.people[p]["name"], "value": len(figures["wins"][p]),
                                   "href": plays_link(filters, won=p)} for p in people],
                                 gettext("Wins in the plays together")) if figures else ""
        rated = group.rated(get_db())
        chances = {(pair["a"], pair["b"], key): ratings.chance_ahead(rated.get(key, {}), pair["a"], pair["b"])
                   for pair in (figures["pairs"] if figures else []) for key in pair["games"] if key}
        return _render("stats/together.html", group, filters, people=people, chart=chart,
                       figures=figures, chances=chances)
    return _page(render)


@bp.get("/stats/plays")
def plays_page():
    def render():
        group, filters, found = _context()
        roster = group.roster
        chosen = list(reversed(_narrow(found, roster)))
        page = max(0, min(request.args.get("page", 0, type=int), len(chosen) // PLAYS_PAGE))
        shown = chosen[page * PLAYS_PAGE:(page + 1) * PLAYS_PAGE]
        return _render("stats/plays.html", group, filters, total=len(chosen), page=page, plays=shown,
                       thumbs=final_thumbs(get_db(), [p["game_id"] for p in shown]),
                       more=(page + 1) * PLAYS_PAGE < len(chosen))
    return _page(render)


def _narrow(found: list[dict], roster) -> list[dict]:
    """The plays list's own filters, read from the request (statistics.narrow says what
    each keeps)."""
    return statistics.narrow(found, won=_person_ids(request.args.getlist("won"), roster),
                             ahead=_person_ids(request.args.getlist("ahead"), roster),
                             behind=_person_ids(request.args.getlist("behind"), roster),
                             games=set(request.args.getlist("game")), first_won=request.args.get("first") == "1")


# ---- JSON ----------------------------------------------------------------------------

def _ratings_json(rated: dict, roster, key: str | None) -> dict:
    """Each game's people, best first, with mean, uncertainty and the conservative number
    (over every play, whatever the date filters: a rating is the whole history)."""
    return {k: [{"person": person, "name": roster.people[person]["name"], **r.as_dict()}
                for person, r in ratings.ranked(table)]
            for k, table in sorted(rated.items()) if not key or k == key}


@bp.get("/api/people")
def api_people():
    db = get_db()
    roster = roster_log.load(db, caches().roster)
    totals = statistics.totals(plays.read(db, roster, leave_out=left_out(), cache=caches().plays))
    # "since": a person's first play (an imported history starts long before its import);
    # someone who has not played yet is there since being added
    empty = {"plays": 0, "wins": 0, "first_played": None, "last_played": None}
    return jsonify({"people": [{"id": p["id"], "name": p["name"],
                                "since": totals.get(p["id"], empty)["first_played"] or p["since"],
                                **totals.get(p["id"], empty)}
                               for p in roster.active()]})


@bp.get("/api/stats")
def api_stats():
    def render():
        group, filters, found = _context()
        roster = group.roster
        keys = sorted({p["key"] for p in found})
        seats = statistics.seats_by_person(found)
        return jsonify({"left_out": {g: {"from": seq, "reason": why} for g, (seq, why) in sorted(group.left_out.items())},
                        "filters": {"kind": filters["key"], "people": list(filters["people"]),
                                    "since": filters["since"], "until": filters["until"]},
                        "plays": len(found),
                        "games": {k: statistics.game_figures(found, k) for k in keys},
                        "people": {str(p): {"name": roster.people[p]["name"],
                                            **statistics.person_figures(found, p, mine)}
                                   for p, mine in sorted(seats.items())},
                        "together": statistics.head_to_head(found, list(filters["people"]))
                        if len(filters["people"]) >= 2 else None,
                        "ratings": _ratings_json(group.rated(get_db()), roster, filters["key"])})
    return _page(render)
