"""The plays as a spreadsheet opens them (web/spreadsheet.py): /plays.xlsx with numbers,
dates and one meaning per column, /plays.<lang>.csv with a byte-order mark and the
language's separators."""
from __future__ import annotations

import csv
import io
import json
from datetime import datetime

import pytest
from openpyxl import load_workbook

from tests.conftest import finished_pad, import_example, upload_bgstats
from tests.group.bgstats_files import real_shaped_export


def _history(client, token):
    """A score pad of Azul (Anna 12, Béla 30), and from BG Stats a decimal and a co-op play."""
    finished_pad(client, token, "Azul", "230802")
    doc, _ = real_shaped_export()
    doc["plays"] = [doc["plays"][300], doc["plays"][350]]  # Pandemic won; Terraforming Mars 61.5
    assert "Imported: 2" in upload_bgstats(client, token, json.dumps(doc).encode()).get_data(as_text=True)


def test_the_xlsx_reads_back_with_numbers_dates_and_one_meaning_per_column(guarded):
    app, client, token, db = guarded
    _history(client, token)
    five_tribes = "examples/five-tribes-3p.json"
    import_example(client, token, five_tribes)
    response = client.get("/plays.xlsx")
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.data)).active
    rows = list(sheet.iter_rows(values_only=True))
    header, body = rows[0], rows[1:]
    assert len(set(header)) == len(header) and "Five Tribes: Palaces" in header
    assert not {h for h in header if h.lower() == "palaces"}  # a category is named with its game
    col = {name: i for i, name in enumerate(header)}
    azul = [r for r in body if r[col["game"]] == "Azul"]
    assert {r[col["played_as"]] for r in azul} == {"Anna", "Béla"}
    assert all(type(r[col["bgg_id"]]) is int and type(r[col["score"]]) is int and type(r[col["seat"]]) is int
               for r in azul)
    assert all(isinstance(r[col["date (UTC)"]], datetime) for r in body)
    mars = [r[col["score"]] for r in body if r[col["game"]] == "Terraforming Mars"]
    assert 61.5 in mars
    pandemic = [r[col["score"]] for r in body if r[col["game"]] == "Pandemic"]
    assert pandemic == [None, None]  # no points: an empty cell, not 0


@pytest.mark.parametrize("lang,sep,decimal", [("hu", ";", "61,5"), ("de", ";", "61,5"), ("en", ",", "61.5")])
def test_the_csv_for_a_spreadsheet_has_a_bom_and_the_languages_separators(guarded, lang, sep, decimal):
    app, client, token, db = guarded
    _history(client, token)
    page = client.get("/people").get_data(as_text=True)
    assert f"/plays.{'en'}.csv" in page  # the roster page links the phone's language
    response = client.get(f"/plays.{lang}.csv")
    assert response.status_code == 200 and response.data.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig")), delimiter=sep))
    col = {name: i for i, name in enumerate(rows[0])}
    assert {r[col["played_as"]] for r in rows[1:]} >= {"Anna", "Béla"}
    assert decimal in [r[col["score"]] for r in rows[1:]]
    assert all(r[col["bgg_id"]] in ("", "230802", "30549", "167791") for r in rows[1:])
    assert client.get("/plays.xx.csv").status_code == 404
