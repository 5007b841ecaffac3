"""A table's past hands for the floor person: the list, one hand's log in words, and the export.

- ``/floor/tables/<id>/hands``: every deal of the table, newest first: when, the button, how it
  ended (who won what, or the pot that carried), the rulings it produced;
- ``/floor/tables/<id>/hands/<deal>``: one hand event by event in the engine's words, with who
  logged each and when, the withdrawn ones struck through;
- ``/floor/tables/<id>/hands.txt``: the table's hands as PokerStars-style hand-history text
  (:mod:`rules.reports.hand_text` says why that format); ``?deal=<n>`` for one hand.

The hands are cut from one replay of the table's log (:func:`rules.reports.hand_history.hands`): a day's
log of a few thousand events replays in well under a second, and these pages are read now and
then by the floor, never on a dealer's tap.
"""

from __future__ import annotations

from typing import Any

from flask import Response, abort, render_template, request

from floor.extensions import db
from floor.inputs import BadNumber, whole
from floor.localtime import local
from floor.models import IssuedRuling, LogEntry, Table
from floor.tables import sealed_entries, table_state
from rules import RulesError
from rules.reports.hand_history import Hand, hands, result_words
from rules.reports.hand_text import hands_text
from rules.jackpot.events import event_words
from rules.words import card_face, requirement_words


def _log(table: Table) -> list[LogEntry]:
    """The table's log, each entry checked against its seal (a past hand is shown only as sealed)."""
    return sealed_entries(table)


def _hands(table: Table) -> tuple[list[Hand], list[LogEntry]]:
    entries = _log(table)
    try:
        return hands(table.setup, [e.payload for e in entries]), entries
    except (RulesError, ValueError) as exc:  # a setup the current rules refuse
        abort(409, description=f"The log of {table.name} does not replay: {exc}")


def hand_list(table_id: int) -> Any:
    table = db.get_or_404(Table, table_id, description=f"There is no table {table_id}.")
    cut, entries = _hands(table)
    rulings = _rulings_by_deal(table)
    lines = [{"hand": h, "when": local(entries[h.first_index].logged_at, "%H:%M") if h.steps else "",
              "day": local(entries[h.first_index].logged_at, "%Y-%m-%d") if h.steps else "",
              "result": result_words(h), "rulings": rulings.get(h.deal, [])} for h in reversed(cut)]
    # the house's take at this table (issue 32), from the state the sealed log replays to
    return render_template("floorpages/hands.html", table=table, lines=lines, house=table_state(table).house)


def hand_page(table_id: int, deal: int) -> Any:
    table = db.get_or_404(Table, table_id, description=f"There is no table {table_id}.")
    cut, entries = _hands(table)
    hand = next((h for h in cut if h.deal == deal), None)
    if hand is None:
        abort(404, description=f"{table.name} has no deal {deal} (deals 1 to {len(cut)}).")
    # each event with the players' names; the engine's sentence beside it when it says more
    # ("deal 2, button on seat 3: antes of 5 taken", "...; the draw starts (D2)")
    steps = []
    for s in hand.steps:
        entry = entries[s.index]
        steps.append({"step": s, "at": local(entry.logged_at, "%H:%M:%S"),
                      "by": entry.logged_by.username if entry.logged_by else "",
                      "more": s.said if s.said != event_words(s.event) else ""})
    return render_template("floorpages/hand.html", table=table, hand=hand, steps=steps, result=result_words(hand),
                           requirement=requirement_words(hand.requirement),
                           rulings=_rulings_by_deal(table).get(hand.deal, []),
                           previous=deal - 1 if deal > 1 else None, following=deal + 1 if deal < len(cut) else None,
                           face=card_face)


def hand_export(table_id: int) -> Any:
    table = db.get_or_404(Table, table_id, description=f"There is no table {table_id}.")
    cut, entries = _hands(table)
    deal = request.args.get("deal", "")
    if deal:
        try:
            number = whole(deal, "deal", 1)
        except BadNumber as exc:
            abort(400, description=str(exc))
        cut = [h for h in cut if h.deal == number]
        if not cut:
            abort(404, description=f"{table.name} has no deal {deal}.")
    times = {i: local(e.logged_at, "%Y/%m/%d %H:%M:%S %Z") for i, e in enumerate(entries)}
    text = hands_text(cut, table.name, table.id, times)
    name = f"table-{table.id}-hands.txt" if not deal else f"table-{table.id}-deal-{deal}.txt"
    return Response(text, mimetype="text/plain", headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _rulings_by_deal(table: Table) -> dict[int, list[IssuedRuling]]:
    out: dict[int, list[IssuedRuling]] = {}
    for row in db.session.scalars(db.select(IssuedRuling).where(IssuedRuling.table_id == table.id)
                                  .order_by(IssuedRuling.id)):
        if row.deal is not None:
            out.setdefault(row.deal, []).append(row)
    return out


def register(bp: Any) -> None:
    bp.add_url_rule("/tables/<int:table_id>/hands", view_func=hand_list, methods=["GET"])
    bp.add_url_rule("/tables/<int:table_id>/hands/<int:deal>", view_func=hand_page, methods=["GET"])
    bp.add_url_rule("/tables/<int:table_id>/hands.txt", view_func=hand_export, methods=["GET"])


__all__ = ["register"]
