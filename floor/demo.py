"""The demo event that ``make run`` loads: accounts, two seated tables, a pot in play, a ruling;
beside it a tournament drawn at two tables (clock not started) and a banked table of three boxes,
so every page has something to show.

Loading is idempotent: a second run changes nothing and prints the same logins. The demo
passwords are random per installation (kept in ``instance/demo-accounts.txt``, readable by
the owner only), so a demo database copied somewhere else does not come with known passwords.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from datetime import date
from typing import Any

from flask import current_app

from floor import tables
from floor.accounts import create_user
from floor.extensions import db
from floor.banked.models import BankedTable
from floor.models import CardRoomEvent, Role, User
from floor.tournament import desk
from floor.tournament import service as tournament
from rules.tournament import PRESETS

ACCOUNTS = [("director", Role.director), ("floor", Role.floor), ("dealer1", Role.dealer), ("dealer2", Role.dealer)]
EVENT_NAME = "Demo Friday Jackpots"
TOURNAMENT_NAME = "Demo Sunday Freezeout"
TOURNAMENT_PLAYERS = ["Lea", "Max", "Nia", "Oto", "Pia", "Quin", "Ray", "Sol", "Tia", "Uma", "Vic", "Wen"]
BANKED_NAME = "Banked 1"

SEATS = {
    "Table 1": ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"],
    "Table 2": ["Gus", "Hana", "Ivo", "Jo", "Kai"],
}


def _passwords_file() -> str:
    return os.path.join(current_app.instance_path, "demo-accounts.txt")


def _read_passwords() -> dict[str, str]:
    try:
        with open(_passwords_file(), encoding="utf-8") as fh:
            return dict(line.rstrip("\n").split(" ", 1) for line in fh if " " in line)
    except FileNotFoundError:
        return {}


def _write_passwords(passwords: dict[str, str]) -> None:
    fd = os.open(_passwords_file(), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.writelines(f"{name} {pw}\n" for name, pw in passwords.items())


def demo_setup(players: list[str]) -> dict[str, Any]:
    return {
        "profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
        "seats": [{"seat": n, "player": name, "stack": 500} for n, name in enumerate(players, start=1)],
    }


def _passes(*seats: int) -> list[dict[str, Any]]:
    return [{"type": "pass", "seat": s} for s in seats]


DEMO_LOGS: dict[str, list[dict[str, Any]]] = {
    # Left mid-pot: two dead deals (everyone passed, the button moved), then the third deal of the
    # pot (its last ante under the three-deal cap) opened by seat 5 and called by seat 6.
    "Table 1": [
        {"type": "deal"}, *_passes(2, 3, 4, 5, 6, 1),
        {"type": "deal"}, *_passes(3, 4, 5, 6, 1, 2),
        {"type": "deal"}, {"type": "pass", "seat": 4}, {"type": "open", "seat": 5, "amount": 10},
        {"type": "call", "seat": 6},
    ],
    # A false opener found before the draw: seat 3 opened, seat 4 called, then seat 3 could not
    # show openers; nobody reopened, so the engine's ruling (POT_CARRIES_OVER) stands issued.
    "Table 2": [
        {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3, "amount": 10},
        {"type": "call", "seat": 4}, {"type": "false_openers", "seat": 3}, *_passes(4, 5, 1),
    ],
}


def load_demo(reset: bool = False) -> Iterator[str]:
    """Create what is missing of the demo; yield the lines to print."""
    passwords = {} if reset else _read_passwords()
    for username, role in ACCOUNTS:
        user = db.session.scalars(db.select(User).where(User.username == username)).first()
        if user is None or username not in passwords:
            passwords[username] = secrets.token_urlsafe(9)
            if user is None:
                create_user(username, role, passwords[username])
            else:
                user.set_password(passwords[username])
                db.session.commit()
    _write_passwords(passwords)

    event = db.session.scalars(db.select(CardRoomEvent).where(CardRoomEvent.name == EVENT_NAME)).first()
    if event is None:
        event = CardRoomEvent(name=EVENT_NAME, starts_on=date.today(), profile="cardroom")
        db.session.add(event)
        db.session.commit()
        dealer = db.session.scalars(db.select(User).where(User.username == "dealer1")).one()
        floor = db.session.scalars(db.select(User).where(User.username == "floor")).one()
        for name, players in SEATS.items():
            table = tables.create_table(name, demo_setup(players), event.id)
            for event_data in DEMO_LOGS.get(name, []):
                # the dealer logs the play; false openers are the floor's word, on the dealer's report
                if event_data["type"] in tables.FLOOR_EVENTS:
                    tables.append(table, event_data, floor, reported_by=dealer)
                else:
                    tables.append(table, event_data, dealer)
        yield f"Loaded the demo event {EVENT_NAME!r} with {len(SEATS)} tables."
    else:
        yield f"The demo event {EVENT_NAME!r} is already loaded."
    yield from _load_tournament()
    yield from _load_banked()
    yield "Demo logins (user / password):"
    for username, role in ACCOUNTS:
        yield f"  {username:<9} {passwords[username]:<14} ({role.name})"


def _load_tournament() -> Iterator[str]:
    """A freezeout of twelve entries drawn at two tables; the director starts its clock."""
    if db.session.scalars(db.select(CardRoomEvent).where(CardRoomEvent.name == TOURNAMENT_NAME)).first():
        return
    t = tournament.create(TOURNAMENT_NAME, PRESETS["regular"][1])
    for n in (1, 2):
        tournament.add_table(t, f"Table {n}", 8)
    for player in TOURNAMENT_PLAYERS:
        desk.add_entry(t, player, None)
    tournament.draw_seats(t)
    yield f"Loaded the demo tournament {TOURNAMENT_NAME!r}: {len(TOURNAMENT_PLAYERS)} entries drawn at 2 tables."


def _load_banked() -> Iterator[str]:
    """A banked table of three boxes, with the default banked options."""
    if db.session.scalars(db.select(BankedTable).where(BankedTable.name == BANKED_NAME)).first():
        return
    table = BankedTable(name=BANKED_NAME, setup={"boxes": 3, "options": {}})
    db.session.add(table)
    db.session.flush()  # the id, which the head's seal covers
    table.seal_head()
    db.session.commit()
    yield f"Loaded the demo banked table {BANKED_NAME!r} (3 boxes)."
