"""The dealer's table panel: the table as the rules engine sees it, and the taps allowed now.

:func:`panel_context` reads the engine's typed state (:class:`rules.jackpot.table.TableState`: its
attributes and readings, never the plain data of ``to_dict()``, which is made at the edges, for JSON
answers and storage) and the tail of the log; the template ``dealer/_panel.html`` shows it. The
full tablet page, the idle poll (``/dealer/tables/<id>/panel``) and the answer to a tap
(``POST /dealer/tables/<id>/taps``, :mod:`floor.dealer.taps`, :func:`render_panel`) all render the
same template from the same context, so nothing about the game is decided in JavaScript.
"""

from __future__ import annotations

from typing import Any

from flask import render_template, url_for
from flask_login import current_user
from markupsafe import Markup

from floor import tables
from floor.card_picker import picker_cards
from floor.extensions import db
from floor.models import FloorCall, IssuedRuling, LogEntry, Role, Table
from floor.rulings import stored
from floor.rulings.issues import ISSUES
from floor.tournament import floorwork
from floor.tournament import service as tournament_service
from rules.catalogue import RULES
from rules import words
import rules.jackpot.events as ev
from rules.jackpot.opening import PassMove
from rules.jackpot.table import TableState

__all__ = ["panel_context", "render_panel", "describe", "open_call", "floor_link"]

#: Rule id -> title, for the rule ids of the engine's sentences (:func:`rule_words`).
TITLES = {rule_id: rule.title for rule_id, rule in RULES.items()}
LOG_TAIL = 6


def describe(event: dict[str, Any], withdrawn: str | None = None) -> str:
    """A logged event in a few plain words: 'seat 3 calls', 'seat 4 stands pat', 'undo: entry 8
    withdrawn (seat 3 calls)' (``withdrawn``: the words of the entry an undo withdrew, when known);
    the words are the event type's label (:func:`rules.jackpot.events.event_words`)."""
    said = ev.event_words(event)
    return f"{said} ({withdrawn})" if withdrawn and event.get("type") == "void" else said


#: The issues of a ruling on the opener's openers: once the floor has ruled one in a deal, the
#: tablet no longer offers to report false openers in it.
OPENER_ISSUES = frozenset({"false_openers", "opener_cannot_show"})


def rule_words(text: Any) -> Any:
    """The engine's sentences with each rule id followed by the rule's title (``(D2)`` reads
    ``(rule D2, the draw)``): the tablet's readers do not know the ids by heart. Markup stays markup."""
    said = words.rule_ids_in_words(str(text), TITLES)
    return Markup(said) if isinstance(text, Markup) else said


def floor_link(table_id: int, issue: str, seat: int | None) -> str:
    """The floor person's dispute page for this call (built by the rulings pages)."""
    query: dict[str, Any] = {"table": table_id, "issue": issue}
    if seat is not None:
        query["seat"] = seat
    return url_for("rulings.new", **query)


def panel_context(table: Table) -> dict[str, Any]:
    """Everything the panel template shows, read from the engine's typed state (never its plain
    data: that is made for JSON answers and storage) and the tail of the log."""
    state = tables.table_state(table)
    profile = state.profile
    # Only the tail of the log is shown: never load a whole day's log for one tap.
    tail = list(db.session.scalars(db.select(LogEntry).where(LogEntry.table_id == table.id)
                                   .order_by(LogEntry.seq.desc()).limit(LOG_TAIL)))
    moves = state.legal()
    legal = {move.kind: move for move in moves}  # the engine's move values, by kind (rules.jackpot.moves)
    tournament = tournament_level(table, state)
    if tournament is not None:
        # the desk seats a tournament's tables, and nobody deals during its break: the server
        # refuses both (floor.tournament.floorwork.desk_only, check_not_on_break), the tablet offers neither
        legal = {kind: move for kind, move in legal.items()
                 if kind not in floorwork.DESK_ONLY and not (kind == "deal" and tournament["on_break"])}
    undo = state.undo  # the engine says what can be withdrawn (the latest live event of the hand)
    target = None
    if undo is not None:
        target = next((e for e in tail if e.seq - 1 == undo.event), None) or db.session.scalars(
            db.select(LogEntry).where(LogEntry.table_id == table.id, LogEntry.seq == undo.event + 1)).one()
        if not current_user.may(Role.floor) and tables.floor_act(target) is not None:
            target = None  # the floor's act: the server refuses a dealer's undo of it (tables.check_undo)
    seen: dict[str, str] = {}  # cards already face up in this deal: no hand can hold them
    for seat, info in state.seats.items():
        for card in info.shown or ():
            seen[card] = f"shown by seat {seat}"
    for seat, escrowed in state.escrow.items():
        for card in escrowed:
            seen[card] = f"in escrow for seat {seat}"
    for seat, card in state.exposed:  # faced in the draw (D12) or left face up (D16): dead
        seen.setdefault(card, f"dead: faced to seat {seat} in the draw")
    # the rulings of the deal on the table (between deals: of the deal just finished), each once
    rulings = list(db.session.scalars(db.select(IssuedRuling).where(
        IssuedRuling.table_id == table.id, IssuedRuling.deal == state.deal_no).order_by(IssuedRuling.id)))
    voided = state.voided
    return {
        "table": table,
        "state": state,
        "legal": legal,
        "requests": state.requests(),
        "deal_rulings": rulings,
        "call": open_call(table),
        "floor_role": current_user.may(Role.floor),
        "profile": profile,
        "ante_cap": profile.ante_deals,
        # D17 spread, D5 pot limit and no limit: amounts are typed or stepped, not one button each
        "spread": profile.spread is not None or profile.betting in ("pot", "no_limit"),
        "big_bet": profile.betting in ("pot", "no_limit"),
        "requirement": words.requirement_words(state.jackpot.requirement),
        "stakes": stakes_line(state),
        "message": rule_words(words.faces_in_text(state.message or "")),
        "face": words.card_face, "drew": words.drew_words, "ruling_words": stored.headline_of,
        "deck": picker_cards(profile),
        "seen": seen,
        # numbered as every page numbers them: the entry's number from 1 (rules.words.entry_number)
        "log_tail": [(entry.seq, describe(entry.payload, withdrawn_words(entry, tail)), entry.seq - 1 in voided)
                     for entry in tail],
        "undo": None if target is None else {"index": target.seq - 1, "number": target.seq,
                                             "text": describe(target.payload)},
        "report_openers": may_report_openers(state, rulings, open_call(table)),
        # one tap throws a dead deal in, where the rules let every seat still to speak pass
        "throw_in": list(state.throw_in or ()) if any(isinstance(m, PassMove) for m in moves) else [],
        "pot_since": words.pot_since_words(state.deal_no, state.jackpot.deals),
        "hand_words": words.hand_words,
        "issues": ISSUES,
        "tournament": tournament,
    }


def withdrawn_words(entry: LogEntry, tail: list[LogEntry]) -> str | None:
    """The words of the entry an undo in the log's tail withdrew, when that entry is in the tail."""
    if entry.payload.get("type") != "void":
        return None
    target = next((e for e in tail if e.seq - 1 == entry.payload.get("event")), None)
    return describe(target.payload) if target is not None else None


def may_report_openers(state: TableState, rulings: list[IssuedRuling], call: dict[str, Any] | None) -> bool:
    """Whether the tablet offers to report (or, for the floor, log) false openers now: a deal is in
    play with an opener whose hand is not dead, no reopen offer is pending, the floor has not ruled on
    the opener's openers in this deal, and no report of it is waiting for the floor."""
    opener = state.jackpot.opener
    if opener is None or state.phase == "between_deals" or state.reopen:
        return False
    seat = state.seats.get(opener)
    if seat is None or seat.status == "dead":  # a ruling (or the rules) already took the hand
        return False
    if any(r.record.get("issue") in OPENER_ISSUES and r.superseded_by is None for r in rulings):
        return False
    return not (call is not None and call["report"])


def tournament_level(table: Table, state: TableState) -> dict[str, Any] | None:
    """The tournament's clock as the dealer needs it: the level, its stakes and the time left, and
    whether those stakes differ from the deal in play (the server writes them into the next deal,
    so the dealer does nothing but see it coming). None at a table of no tournament."""
    t = tournament_service.of_table(table)
    if t is None:
        return None
    c = tournament_service.clock(t)
    level = c.stakes.stakes
    in_force = state.stakes
    return {
        "name": t.event.name,
        "level": c.level,
        "on_break": c.on_break,
        "resumes": tournament_service.break_words(t),  # on a break: when play resumes
        "started": c.started,
        "running": c.running,
        "minutes_left": -(-c.seconds_left // 60),  # rounded up: "1 min left" while any time remains
        "stakes": words.stakes_words(level["ante"], level["small_bet"], level["big_bet"], True),
        "next_deal": any(in_force[k] != v for k, v in level.items()),
    }


def stakes_line(state: TableState) -> str:
    """The stakes of the deal in play (with spread betting, the spread: D17)."""
    stakes = state.stakes
    return words.stakes_words(stakes["ante"], stakes["small_bet"], stakes["big_bet"], anted(state),
                              spread=state.profile.spread, betting=state.profile.betting)


def anted(state: TableState) -> bool:
    """Whether the deal in play took antes. Antes stop within a pot only at the ante cap or the pot
    limit (O4) and do not come back before a new pot, so the deal took antes when every deal of the
    pot so far did; the one exception, the F9 penalty ante after such a stop, is counted by the
    engine as an ante deal too and reads here as none (its message names it)."""
    jp = state.jackpot
    return bool(state.stakes["ante"]) and jp.ante_deals >= jp.deals > 0


def open_call(table: Table) -> dict[str, Any] | None:
    """The latest open floor call at the table, for the banner (it clears once answered)."""
    calls = FloorCall.open_at(table.id)
    if not calls:
        return None
    latest = calls[-1]
    return {"id": latest.id, "issue": latest.issue, "label": ISSUES.get(latest.issue, latest.issue), "seat": latest.seat,
            "link": floor_link(table.id, latest.issue, latest.seat), "report": latest.event is not None}



def render_panel(table: Table) -> str:
    """The panel as HTML, as the tablet swaps it in (after a tap, or when a poll finds news)."""
    return render_template("dealer/_panel.html", **panel_context(table))
