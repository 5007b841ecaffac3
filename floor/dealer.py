"""The dealer's tablet: pick a table, log the deal.

The table page (``/dealer/tables/<id>``) shows the table as the rules engine sees it and offers, as
buttons, only the actions in the state's ``legal`` list. A tap posts one event to the JSON API
(``POST /api/tables/<id>/events`` with ``expected_version`` and the ``X-CSRFToken`` header); the page
then swaps in the panel that ``/dealer/tables/<id>/panel`` renders from the new state, with the same
template the full page uses, so nothing about the game is decided in JavaScript. A refusal (422)
shows the engine's own message by the buttons; a stale version (409) says that another device logged
first and reloads the panel. An idle tablet polls ``GET /api/tables/<id>`` and catches up.

Calling the floor (``/dealer/tables/<id>/call-floor``, a small form: issue and seat) stores a
:class:`~floor.models.FloorCall`: the floor's overview lists it with the link to its dispute
(``/rulings/new?table=<id>&issue=<issue>&seat=<n>``), and the table page shows a "floor called"
banner until a ruling for the table answers it or a floor person dismisses it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, flash, jsonify, redirect, render_template, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import RadioField, SelectField

try:  # WTForms 3.3 deprecates (value, label) tuples as choices
    from wtforms.fields.choices import SelectChoice
except ImportError:  # pragma: no cover - WTForms before 3.3
    SelectChoice = None

from floor import tables
from floor.auth import require_role
from floor.extensions import db
from floor.models import FloorCall, LogEntry, Role, Ruling, Table
from rules import cards as cardlib
from rules import profiles

bp = Blueprint("dealer", __name__, url_prefix="/dealer")
bp.before_request(require_role(Role.dealer))

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


def choices(pairs: list[tuple[Any, str]]) -> list[Any]:
    """Form choices in the spelling the installed WTForms prefers."""
    return [SelectChoice(value, label) if SelectChoice else (value, label) for value, label in pairs]


class CallFloorForm(FlaskForm):
    issue = RadioField("What happened", choices=choices(list(ISSUES.items())), default="false_openers")
    seat = SelectField("Seat concerned", coerce=int)


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
    rulings = list(db.session.scalars(db.select(Ruling).where(Ruling.table_id == table.id,
                                                              Ruling.deal == state["deal"]).order_by(Ruling.id)))
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


@bp.get("/")
def index() -> Any:
    """The tables a dealer can pick."""
    tables_ = db.session.scalars(db.select(Table).order_by(Table.event_id, Table.name)).all()
    return render_template("dealer/index.html", tables=tables_)


@bp.get("/tables/<int:table_id>")
def table_page(table_id: int) -> Any:
    """The dealer's tablet page for one table: the state, and the actions allowed now."""
    table = db.get_or_404(Table, table_id)
    return render_template("dealer/table.html", **panel_context(table))


def open_call(table: Table) -> dict[str, Any] | None:
    """The latest open floor call at the table, for the banner (it clears once answered)."""
    calls = FloorCall.open_at(table.id)
    if not calls:
        return None
    latest = calls[-1]
    return {"issue": latest.issue, "label": ISSUES.get(latest.issue, latest.issue), "seat": latest.seat,
            "link": floor_link(table.id, latest.issue, latest.seat), "report": latest.event is not None}


@bp.get("/tables/<int:table_id>/panel")
def panel(table_id: int) -> Any:
    """The table panel as an HTML fragment in JSON, for the page to swap in after a tap or a poll."""
    table = db.get_or_404(Table, table_id)
    context = panel_context(table)
    return jsonify(version=table.version, html=render_template("dealer/_panel.html", **context))


def seat_choices(table: Table) -> list[Any]:
    seats = tables.state_of(table)["seats"]
    return choices([(int(s), f"Seat {s} · {x['player']}") for s, x in seats.items()])


@bp.route("/tables/<int:table_id>/call-floor", methods=["GET", "POST"])
def call_floor(table_id: int) -> Any:
    """Call the floor person to this table for an issue and a seat."""
    table = db.get_or_404(Table, table_id)
    form = CallFloorForm()
    form.seat.choices = seat_choices(table)
    if request.method == "GET":
        state = tables.state_of(table)
        default = state["jackpot"].get("opener") or state.get("to_act")
        if default is not None:
            form.seat.data = int(default)
        if request.args.get("issue") in ISSUES:
            form.issue.data = request.args["issue"]
    if form.validate_on_submit():
        label = ISSUES[form.issue.data]
        db.session.add(FloorCall(table_id=table.id, issue=form.issue.data, seat=form.seat.data,
                                 called_by=current_user))
        db.session.commit()
        current_app.logger.info("floor called to table %s (%s): %s, seat %s, by %s", table.id, table.name,
                                form.issue.data, form.seat.data, current_user.username)
        flash(f"Floor called to {table.name}: {label.lower()}, seat {form.seat.data}.", "info")
        return redirect(url_for("dealer.table_page", table_id=table.id))
    status = 400 if form.is_submitted() else 200
    return render_template("dealer/call_floor.html", table=table, form=form), status
