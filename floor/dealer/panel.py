"""The dealer's table panel: the table as the rules engine sees it, and the taps allowed now.

:func:`panel_context` reads the replayed state and the tail of the log; the template
``dealer/_panel.html`` shows it. The full tablet page, the idle poll (``/dealer/tables/<id>/panel``)
and the answer to a tap (``POST /api/tables/<id>/events?panel=1``, :func:`render_panel`) all render
the same template from the same context, so nothing about the game is decided in JavaScript.
"""

from __future__ import annotations

from typing import Any

from flask import render_template, url_for
from flask_login import current_user

from floor import tables
from floor.extensions import db
from floor.models import FloorCall, IssuedRuling, LogEntry, Role, Table
from rules import cards as cardlib
from rules import profiles

__all__ = ["ISSUES", "panel_context", "render_panel", "describe", "open_call", "floor_link", "picker_cards"]

# The decision tree's issues (DESIGN.md, "Facts"), in the words a dealer reads on the button.
ISSUES = {
    "false_openers": "False openers",
    "opener_cannot_show": "Opener cannot show openers",
    "split_openers": "Split openers do not add up",
    "wrong_card_count": "Wrong number of cards",
    "discard_retrieval": "Opener asks to retrieve discards",
    "caller_refund": "Caller wants the bet back",
}

SUIT_ROWS = (("s", "♠"), ("h", "♥"), ("d", "♦"), ("c", "♣"))
REQUIREMENT_WORDS = {"J": "jacks or better", "Q": "queens or better", "K": "kings or better", "A": "aces or better"}
LOG_TAIL = 6


def profile_of(table: Table) -> profiles.Profile:
    """The table's house rules, as the engine reads them from the setup."""
    return profiles.get_profile(table.setup.get("profile"))


def picker_cards(profile: profiles.Profile) -> dict[str, Any]:
    """The cards of the table's deck, one row per suit (aces first) and the joker apart."""
    deck = cardlib.deck(wild=profile.wild, stripped=profile.stripped_deck)
    rows = []
    for suit, symbol in SUIT_ROWS:
        row = sorted((c for c in deck if not c.is_joker and c.suit == suit), key=lambda c: -c.rank)
        rows.append({"suit": suit, "symbol": symbol, "cards": [str(c) for c in row]})
    return {"rows": rows, "joker": any(c.is_joker for c in deck), "count": len(deck)}


VERBS = {"pass": "passes", "open": "opens", "call": "calls", "raise": "raises", "fold": "folds",
         "check": "checks", "bet": "bets", "draw": "draws", "show": "shows", "muck": "mucks",
         "reopen": "reopens", "false_openers": "did not hold openers"}


def describe(event: dict[str, Any]) -> str:
    """A logged event in a few words: 'seat 3 calls', 'deal', 'withdraw #7' (the engine's numbering)."""
    kind = str(event.get("type", "?"))
    if kind == "void":
        return f"withdraw #{event.get('event')}"
    words = [f"seat {event['seat']}"] if event.get("seat") is not None else []
    words.append(VERBS.get(kind, kind.replace("_", " ")))
    if event.get("amount") is not None:
        words.append(f"for {event['amount']}")
    if kind == "draw":
        words.append(str(event.get("count", 0)))
        if event.get("split"):
            words.append("(split, escrow " + " ".join(map(str, event.get("escrow") or [])) + ")")
    if kind == "show":
        words.append(" ".join(map(str, event.get("cards") or [])))
    return " ".join(words)


def floor_link(table_id: int, issue: str, seat: int | None) -> str:
    """The floor person's dispute page for this call (built by the rulings pages)."""
    query: dict[str, Any] = {"table": table_id, "issue": issue}
    if seat is not None:
        query["seat"] = seat
    return url_for("rulings.new", **query)


def panel_context(table: Table) -> dict[str, Any]:
    """Everything the panel template shows, read from the replayed state and the log."""
    state = tables.state_of(table)
    profile = profile_of(table)
    # Only the tail of the log is shown: never load a whole day's log for one tap.
    tail = list(db.session.scalars(db.select(LogEntry).where(LogEntry.table_id == table.id)
                                   .order_by(LogEntry.seq.desc()).limit(LOG_TAIL)))
    legal = {move["type"]: move for move in state.get("legal", [])}
    undo = state.get("undo")  # the engine says what can be withdrawn (the latest live event of the hand)
    target = None
    if undo is not None:
        target = next((e for e in tail if e.seq - 1 == undo["event"]), None) or db.session.scalars(
            db.select(LogEntry).where(LogEntry.table_id == table.id, LogEntry.seq == undo["event"] + 1)).one()
    seen: dict[str, str] = {}  # cards already face up in this deal: no hand can hold them
    for seat, info in state["seats"].items():
        for card in info.get("shown") or []:
            seen[str(card)] = f"shown by seat {seat}"
    for seat, escrowed in (state.get("escrow") or {}).items():
        for card in escrowed:
            seen[str(card)] = f"in escrow for seat {seat}"
    # the rulings of the deal on the table (between deals: of the deal just finished), each once
    rulings = list(db.session.scalars(db.select(IssuedRuling).where(
        IssuedRuling.table_id == table.id, IssuedRuling.deal == state["deal"]).order_by(IssuedRuling.id)))
    return {
        "table": table,
        "state": state,
        "legal": legal,
        "deal_rulings": rulings,
        "call": open_call(table),
        "floor_role": current_user.may(Role.floor),
        "profile": profile,
        "ante_cap": profile.ante_deals,
        "requirement": REQUIREMENT_WORDS.get(state["jackpot"].get("requirement"),
                                             str(state["jackpot"].get("requirement"))),
        "deck": picker_cards(profile),
        "seen": seen,
        # numbered as the engine numbers them in its messages: the 0-based position in the log
        "log_tail": [(entry.seq - 1, describe(entry.payload), entry.seq - 1 in state.get("voided", []))
                     for entry in tail],
        "undo": None if target is None else {"index": target.seq - 1, "text": describe(target.payload)},
        "issues": ISSUES,
    }


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
