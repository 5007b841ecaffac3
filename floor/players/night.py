"""A player's night (``GET /api/players/<id>``, issue 31): the tables sat at, with the buy-ins,
cash-outs and hours seated of each stint, read from the sealed logs; the waiting lists (joined,
called, off and why), the tournament entries and the promotions paid to the record.

A table is read when its setup or its log names the player (by record, or by the name when a seat
names no record: logs from before players were records). Its log is replayed event by event with
the rules, and the player's seat followed: a stint begins when they are seated (the setup, at the
table's creation; a ``sit``) and ends when they are not (a ``leave``, a move to another table). What
came in and went out of the table's ledger with an event at their seat (a sit's chips, a rebuy, the
stack taken on leaving; an undo of one of those undoes it) is theirs. At a tournament's table the
chips are the tournament's: the stints are listed, and the money is the entry's (buy-ins, rebuys,
add-ons). A table whose record is broken is listed with the reason, its figures withheld.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import String, cast, func

from floor import promotions, tables
from floor.extensions import db
from floor.localtime import utc_text
from floor.models import Entry, LogEntry, Table, Tournament, utcnow
from floor.players.models import ListEntry, Player, WaitingList
from rules import RulesError, jackpot

#: The events whose ledger moves are the seat's they name.
SEATING = frozenset({"sit", "add_chips", "leave"})


def _seat_of(state: jackpot.TableState, player: Player) -> int | None:
    """The seat where ``player`` sits in ``state``, or None."""
    folded = player.name.casefold()
    for seat, x in state.seats.items():
        if x.player_id == player.id or (x.player_id is None and x.player.casefold() == folded):
            return int(seat)
    return None


def _names_player(table: Table, player: Player) -> bool:
    seats = table.setup.get("seats") or []
    folded = player.name.casefold()
    return any(isinstance(s, dict) and (s.get("player_id") == player.id or str(s.get("player", "")).casefold() == folded)
               for s in seats)


def table_stints(table: Table, player: Player, now: datetime) -> dict[str, Any]:
    """The player's stints at ``table``: seat, from, until (None: still seated), chips in and out."""
    stints: list[dict[str, Any]] = []
    state = jackpot.start(table.setup)
    seat = _seat_of(state, player)
    if seat is not None:
        stints.append({"seat": seat, "from": utc_text(table.created_at), "until": None,
                       "bought_in": state.seats[seat].stack, "cashed_out": 0, "_from": table.created_at})
    for entry in tables.sealed_entries(table):
        before_seat = seat
        after = state.apply(entry.payload)
        seat = _seat_of(after, player)
        kind = entry.payload.get("type")
        at_their_seat = kind in SEATING and entry.payload.get("seat") in {before_seat, seat} - {None}
        mine = at_their_seat or (kind == "void" and before_seat != seat)
        if before_seat is None and seat is not None:
            stints.append({"seat": seat, "from": utc_text(entry.logged_at), "until": None, "bought_in": 0,
                           "cashed_out": 0, "_from": entry.logged_at})
        if stints and mine:
            stints[-1]["bought_in"] += after.chips_in - state.chips_in
            stints[-1]["cashed_out"] += after.chips_out - state.chips_out
        if seat is not None and stints:
            stints[-1]["seat"] = seat
        if before_seat is not None and seat is None and stints:
            stints[-1]["until"], stints[-1]["_until"] = utc_text(entry.logged_at), entry.logged_at
        state = after
    seconds = 0.0
    for stint in stints:
        seconds += ((stint.pop("_until", None) or now) - stint.pop("_from")).total_seconds()
    return {"table_id": table.id, "table": table.name, "event_id": table.event_id,
            "tournament": table.event_id is not None and db.session.scalars(
                db.select(Tournament).where(Tournament.event_id == table.event_id)).first() is not None,
            "stints": stints, "hours_seated": round(seconds / 3600, 2)}


def night(player: Player) -> dict[str, Any]:
    """The player's night as far as the logs hold it (see the module's docstring)."""
    now = utcnow()
    # the logs that name the player: a sit stores the record's name beside its id, as JSON text
    # (the name as json.dumps writes it, quotes and all: a whole name, never a part of another)
    token = json.dumps(player.name).lower()
    named = db.session.scalars(db.select(LogEntry.table_id).where(
        func.lower(cast(LogEntry.payload, String)).contains(token, autoescape=True)).distinct())
    candidates = set(named)
    rows = []
    for table in db.session.scalars(db.select(Table).order_by(Table.id)):
        if table.id not in candidates and not _names_player(table, player):
            continue
        try:
            row = table_stints(table, player, now)
        except tables.BROKEN_RECORD as exc:
            rows.append({"table_id": table.id, "table": table.name, "withheld": str(exc)})
            continue
        except RulesError:  # a log the rules no longer read cannot be the player's evidence
            continue
        if row["stints"]:
            rows.append(row)
    entries = []
    for e in db.session.scalars(db.select(Entry).where(
            (Entry.player_id == player.id) | ((Entry.player_id.is_(None)) & (Entry.player == player.name)))):
        t = e.tournament
        entries.append({"event_id": t.event_id, "event": t.event.name, "entered_at": utc_text(e.entered_at),
                        "rebuys": e.rebuys, "add_ons": e.add_ons, "reentries": e.reentries,
                        "out_at": utc_text(e.out_at)})
    waited = [{"list_id": e.list_id, "game": wl.game, "stakes": wl.stakes, "joined_at": utc_text(e.joined_at),
               "called_at": utc_text(e.called_at),
               "removed_at": utc_text(e.removed_at), "reason": e.reason}
              for e, wl in db.session.execute(db.select(ListEntry, WaitingList).join(
                  WaitingList, WaitingList.id == ListEntry.list_id).where(ListEntry.player_id == player.id)
                  .order_by(ListEntry.joined_at, ListEntry.id))]
    won = [promotions.to_json(a) for a in db.session.scalars(  # the awards naming the record (issue 32)
        db.select(promotions.PromotionAward).where(promotions.PromotionAward.player_id == player.id)
        .order_by(promotions.PromotionAward.id))]
    cash = [r for r in rows if not r.get("tournament") and "stints" in r]
    return {"tables": rows, "lists": waited, "entries": entries, "promotions": won,
            "buy_ins": sum(s["bought_in"] for r in cash for s in r["stints"]),
            "cash_outs": sum(s["cashed_out"] for r in cash for s in r["stints"]),
            "hours_seated": round(sum(r.get("hours_seated", 0) for r in rows), 2)}
