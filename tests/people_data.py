"""A card room as the people's pages meet it at 2 a.m., for the browser tests of issue 16.

:func:`load` fills an app's database with the demo event (two tables, one mid-pot, one with a
ruling) and two more tables whose players have long and non-Latin names: one at the showdown (the
card picker on screen) and one with a ruling against a Chinese name (王小明), plus an open floor call.
It returns the ids the tests visit. Nothing here is a stub: every entry goes through
:func:`floor.tables.append`, so the rules accept it as they would a dealer's tap.
"""

from __future__ import annotations

from typing import Any

from floor import tables
from floor.demo import load_demo
from floor.extensions import db
from floor.models import CardRoomEvent, FloorCall, IssuedRuling, User

LONG = "Maximilian Alexander Featherstonehaugh-Worthington"
NAMES = ["王小明", LONG, "Анастасия Петрова", "Bob"]
RULED_NAMES = ["Bob", "王小明", LONG, "Анастасия Петрова"]  # 王小明 opens at seat 2 and is ruled against


def setup(players: list[str]) -> dict[str, Any]:
    return {"profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
            "seats": [{"seat": n, "player": p, "stack": 500} for n, p in enumerate(players, start=1)]}


def play_to_showdown(table, dealer: User) -> None:
    """Seat 2 opens, everyone calls, everyone draws (seat 4 stands pat), all check: the showdown."""
    tables.append(table, {"type": "deal"}, dealer)
    tables.append(table, {"type": "open", "seat": 2, "amount": 10}, dealer)
    for seat in (3, 4, 1):
        tables.append(table, {"type": "call", "seat": seat}, dealer)
    for seat, count in ((2, 1), (3, 3), (4, 0), (1, 2)):
        tables.append(table, {"type": "draw", "seat": seat, "count": count}, dealer)
    while tables.state_of(table)["phase"] == "postdraw":
        tables.append(table, {"type": "check", "seat": tables.state_of(table)["to_act"]}, dealer)


def load(app) -> dict[str, int]:
    """The demo event and the two tables of long names; returns the ids the pages need."""
    with app.app_context():
        list(load_demo())
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        floor = db.session.scalars(db.select(User).where(User.username == "fred")).one()
        event = db.session.scalars(db.select(CardRoomEvent)).first()
        showdown = tables.create_table("Table 3 · Featherstonehaugh", setup(NAMES), event.id)
        play_to_showdown(showdown, dealer)
        ruled = tables.create_table("Table 4 · 王", setup(RULED_NAMES), event.id)
        for entry in ({"type": "deal"}, {"type": "open", "seat": 2, "amount": 10}, {"type": "call", "seat": 3}, {"type": "call", "seat": 4},
                      {"type": "call", "seat": 1}):
            tables.append(ruled, entry, dealer)
        # seat 2 (王小明) opened, three called, and seat 2 cannot show openers (F5)
        tables.append(ruled, {"type": "false_openers", "seat": 2}, floor, reported_by=dealer)
        db.session.add(FloorCall(table_id=showdown.id, issue="wrong_card_count", seat=1, called_by=dealer))
        db.session.commit()
        ruling = db.session.scalars(db.select(IssuedRuling).where(IssuedRuling.table_id == ruled.id)).first()
        return {"showdown": showdown.id, "ruled": ruled.id, "ruling": ruling.id if ruling else 0,
                "event": event.id, "dealer": dealer.id, "midpot": 1}
