"""The plays as a spreadsheet opens them (docs/people.md §8): ``GET /plays.xlsx`` (an Excel
workbook written by openpyxl) and ``GET /plays.hu.csv`` (a CSV for the spreadsheet of
that language: a byte-order mark so Excel reads UTF-8, ``;`` and a decimal comma where the
language writes numbers so). Unlike the machine CSV, each column means one thing: a scoring
category is a column per game ("Maharaja: palaces" is not "Five Tribes: palaces"), numbers
are numbers, and every date is in UTC."""
from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

from flask import Blueprint, Response, abort
from openpyxl import Workbook

from group import plays
from group import roster as roster_log
from scoring import get_game
from web.bgstats import game_name
from web.db import caches, get_db
from web.stats import left_out

bp = Blueprint("spreadsheet", __name__)
COLUMNS = ["date (UTC)", "game_id", "game", "bgg_id", "person_id", "person", "played_as", "seat", "score",
           "rank", "winner", "imported"]
# The spreadsheets of these languages split a CSV on ";" and read "61,5" as a number.
SEMICOLON = {"hu", "de"}
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def sheet(db) -> tuple[list[str], list[list]]:
    """The header and one row per person per finished play, oldest first: ints as ints, a
    play without points an empty cell, the date a UTC datetime, then a column per game's
    scoring category, named "<game>: <category>" in English as the games name them."""
    roster = roster_log.load(db, caches().roster)
    found = plays.read(db, roster, leave_out=left_out(), cache=caches().plays)
    extra = list(dict.fromkeys(column for play in found for column in _categories(play)))
    rows = []
    for play in found:
        ended = datetime.fromisoformat(play["ended_at"]).astimezone(timezone.utc).replace(tzinfo=None)
        for seat in sorted(play["seats"], key=lambda s: s["seat"]):
            person = roster.people[seat["person"]] if seat["person"] else None
            row = [ended, play["game_id"], game_name(play), int(play["bgg_id"]) if play["bgg_id"] else None,
                   person["id"] if person else None, person["name"] if person else None, seat["name"],
                   seat["seat"] + 1, seat["score"], seat["rank"], int(seat["rank"] == 1), int(play["imported"])]
            points = _categories(play, seat)
            rows.append(row + [points.get(column) for column in extra])
    return COLUMNS + extra, rows


def _categories(play: dict, seat: dict | None = None) -> dict[str, int]:
    """The seat's points per category, keyed by their column (a play's columns, no seat)."""
    game = get_game(play["kind"])
    if game is None or not game.categories:
        return {}
    seats = [seat] if seat is not None else play["seats"]
    return {f"{game.title['en']}: {game.categories[c]['en']}": points
            for s in seats for c, points in s["breakdown"].items() if c in game.categories}


def _text(value) -> str | int | float | None:
    """A text cell a spreadsheet would run as a formula (=, +, -, @) is quoted."""
    return "'" + value if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


@bp.get("/plays.xlsx")
def plays_xlsx():
    header, rows = sheet(get_db())
    book = Workbook(write_only=True)
    page = book.create_sheet("Plays")
    page.append(header)
    for row in rows:
        page.append([_text(v) for v in row])
    out = io.BytesIO()
    book.save(out)
    return Response(out.getvalue(), mimetype=XLSX,
                    headers={"Content-Disposition": 'attachment; filename="tablescribe-plays.xlsx"'})


def locale_csv(locale: str) -> str:
    """The plays as the spreadsheet of ``locale`` reads a CSV."""
    if locale not in ("hu", "de", "en"):
        abort(404)
    header, rows = sheet(get_db())
    comma = locale in SEMICOLON
    out = io.StringIO()
    out.write("\ufeff")  # the byte-order mark: Excel reads the file as UTF-8 (Béla, not BÃ©la)
    writer = csv.writer(out, delimiter=";" if comma else ",", lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_csv_cell(v, comma) for v in row])
    return out.getvalue()


def _csv_cell(value, decimal_comma: bool):
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, float):
        return str(value).replace(".", ",") if decimal_comma else str(value)
    return _text(value)


@bp.get("/plays.<locale>.csv")
def plays_csv_for(locale: str) -> Response:
    return Response(locale_csv(locale), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="tablescribe-plays-{locale}.csv"'})
