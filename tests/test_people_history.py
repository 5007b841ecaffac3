"""History and search for the floor (issue 16): a table's past hands, each hand's log in words,
the hands exported as hand-history text, rulings found by rule id, table, player and date."""

from __future__ import annotations

import html
import re
from datetime import date, timedelta

import pytest

from floor.extensions import db
from floor.models import IssuedRuling
from tests import people_data


@pytest.fixture
def room(app):
    return people_data.load(app)


def text_of(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def test_a_tables_past_hands_newest_first_with_how_each_ended(room, as_role):
    """O3: two deals nobody opened carried the pot; the third is in play (the demo's Table 1)."""
    page = as_role("floor").get(f"/floor/tables/{room['midpot']}/hands")
    assert page.status_code == 200
    rows = re.findall(r'<tr data-deal="(\d+)">(.*?)</tr>', page.get_data(as_text=True), re.S)
    assert [int(d) for d, _ in rows] == [3, 2, 1]
    words = [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for _, row in rows]
    assert "in play" in words[0]
    assert "nobody opened: the pot of 60 carries to the next deal" in words[1]
    assert "nobody opened: the pot of 30 carries to the next deal" in words[2]


def test_one_hand_reads_in_words_with_names_and_the_ruling(room, as_role):
    """F5: 王小明 opened without openers after three calls; the hand's page says so in words."""
    text = text_of(as_role("floor").get(f"/floor/tables/{room['ruled']}/hands/1"))
    assert "Seat 2 (王小明) opens for 10" in text
    assert "Seat 3 (Maximilian Alexander Featherstonehaugh-Worthington) calls" in text
    assert "Seat 2 (王小明) did not hold openers" in text
    assert "logged by dee" in text and "logged by fred" in text
    assert "Seat 2's hand is dead; the pot plays on." in text
    assert not re.search(r"\b[A-Z]+(_[A-Z]+)+\b", text)  # words, not outcome codes


def test_a_withdrawn_event_is_struck_through_in_the_hand(app, room, as_role):
    from floor import tables
    from floor.models import User

    with app.app_context():
        table = db.session.get(tables.Table, room["midpot"])
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        tables.append(table, {"type": "fold", "seat": 1}, dealer)
        tables.append(table, {"type": "void", "event": table.version - 1}, dealer)
    page = as_role("floor").get(f"/floor/tables/{room['midpot']}/hands/3").get_data(as_text=True)
    voided = re.findall(r'<li value="\d+" class="voided[^"]*">(.*?)</li>', page, re.S)
    assert len(voided) == 1 and "Seat 1 (Ann) folds" in voided[0] and "withdrawn" in voided[0]


def test_the_hands_export_as_pokerstars_style_text(room, as_role):
    client = as_role("floor")
    response = client.get(f"/floor/tables/{room['midpot']}/hands.txt")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    assert 'filename="table-1-hands.txt"' in response.headers["Content-Disposition"]
    text = response.get_data(as_text=True)
    assert text.count("Jackpot floor Hand #1-") == 3
    assert "Jackpot floor Hand #1-2: 5 Card Draw Jackpots (jacks or better to open) Limit (10/20, ante 5) - " in text
    assert "Table 'Table 1' Seat #2 is the button" in text
    assert "Pot carried in from earlier deals: 30" in text
    assert "Eve: bets 10" in text and "Finn: calls 10" in text
    one = client.get(f"/floor/tables/{room['ruled']}/hands.txt?deal=1").get_data(as_text=True)
    assert one.count("Jackpot floor Hand #") == 1 and "王小明: bets 10" in one
    assert client.get(f"/floor/tables/{room['ruled']}/hands.txt?deal=7").status_code == 404
    assert client.get(f"/floor/tables/{room['ruled']}/hands.txt?deal=-1").status_code == 400


def test_the_history_is_the_floors(room, as_role):
    dealer = as_role("dealer")
    for url in (f"/floor/tables/{room['midpot']}/hands", f"/floor/tables/{room['midpot']}/hands/1",
                f"/floor/tables/{room['midpot']}/hands.txt"):
        response = dealer.get(url)
        assert response.status_code == 403 and b"for the floor role" in response.data


def ruling_ids(response) -> list[int]:
    return [int(i) for i in re.findall(r'href="/rulings/(\d+)">#', response.get_data(as_text=True))]


def test_rulings_are_found_by_rule_table_player_and_date(app, room, as_role):
    """The demo's ruling at Table 2 (POT_CARRIES_OVER: F3) and the one against 王小明 at Table 4 (F5)."""
    client = as_role("floor")
    with app.app_context():
        cites = {r.id: set(r.record["citations"]) for r in db.session.scalars(db.select(IssuedRuling))}
    f5 = sorted((i for i, c in cites.items() if "F5" in c), reverse=True)
    assert f5 == [room["ruling"]]
    assert ruling_ids(client.get("/rulings/?rule=F5")) == f5
    assert ruling_ids(client.get("/rulings/?rule=f5")) == f5  # as typed on a phone
    assert ruling_ids(client.get("/rulings/?table=table 4")) == [room["ruling"]]
    assert ruling_ids(client.get("/rulings/?player=王小明")) == [room["ruling"]]
    assert ruling_ids(client.get("/rulings/?player=jo")) == [1]  # seat 4, Jo, takes back 10 at Table 2
    today = client.get(f"/rulings/?date={date.today().isoformat()}")
    assert sorted(ruling_ids(today)) == sorted(cites)
    assert ruling_ids(client.get(f"/rulings/?date={(date.today() - timedelta(days=2)).isoformat()}")) == []
    assert ruling_ids(client.get("/rulings/?rule=F5&player=Jo")) == []
    assert "1 ruling found" in text_of(client.get("/rulings/?rule=F5"))
    bad = client.get("/rulings/?date=yesterday")
    assert bad.status_code == 400 and "date: a day as YYYY-MM-DD" in text_of(bad)
    assert client.get("/rulings/?rule=DROP TABLE").status_code == 400
