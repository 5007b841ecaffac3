"""Banked tables (blueprint ``banked``, ``/banked``): the banked joker game's tables, where boxes play
against the dealer (B1-B5, H3 of docs/rules.md).

- ``GET /banked/``: the banked tables; a director also gets the form to set one up
  (``POST /banked/tables``: name, number of boxes, the banked options as JSON).
- ``GET /banked/tables/<id>``: the dealer's tablet. The dealer logs what happens (the deal: each
  box's ante and cards; each box's fold, exchange or bet in box order; the dealer's cards; the
  cards the dealer draws) and the page shows what the rules decide: whose turn it is and what
  that box may do, which of the dealer's cards the list changes (B4), and every box's payout (B5).
- ``POST /banked/tables/<id>/events``: one event, from the page's forms or as JSON
  (``{"type": ..., ..., "expected_version": n}``). A refusal is 422 with the rules' message (which
  names the rule); a stale version 409; nothing is written unless the rules accept the event.
- ``GET /banked/tables/<id>.json``: the table's state.
- ``GET /banked/tables/<id>/rules`` and ``/rules.pdf``: the table's rule summary with the paytable
  and the dealer's list as a diagram.

Dealers log; only a director sets up a table (403 otherwise). The log and the state are
:mod:`floor.banked.log`'s (the one place that appends); the page reads the typed state
(``rules.banked.round.BankedState``) and offers the moves its ``legal()`` lists.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from io import BytesIO
from typing import Any

from flask import Blueprint, current_app, flash, g, jsonify, redirect, render_template, request, send_file, url_for
from flask_login import current_user
from markupsafe import Markup

from floor import tapids
from floor.auth.access import require_role, role_required, safe_next
from floor.banked import log, tablet
from floor.banked.models import BankedCall, BankedEntry, BankedTable
from floor.extensions import csrf, db
from floor.inputs import BadNumber, is_whole, whole, whole_or_none
from floor.models import Role, canonical_json, utcnow
from floor.prints import stored
from floor.prints.diagrams import tree_diagrams
from rules import RulesError
from rules.banked import DEFAULT_PAYTABLE, PAYTABLE_SOURCE, BankedOptions, banked_options
from rules.banked.dealer import ITEM_WORDS, Item
from rules.banked.disputes import build_banked_tree
from rules.banked.events import EVENTS, Deal
from rules.banked.round import check_setup

bp = Blueprint("banked", __name__, url_prefix="/banked")
bp.before_request(require_role(Role.dealer))

#: The dealer's list (B4) in order, for the diagram: (question, what the dealer does).
DEALER_LIST = (
    ("Three of a kind?", ITEM_WORDS[Item.THREE_OF_A_KIND]),
    ("Four cards of one suit?", ITEM_WORDS[Item.FLUSH_DRAW]),
    ("Four to a straight that two ranks complete?", ITEM_WORDS[Item.OPEN_STRAIGHT_DRAW]),
    ("A pair?", ITEM_WORDS[Item.PAIR]),
    ("Four to a straight that one rank completes?", ITEM_WORDS[Item.INSIDE_STRAIGHT_DRAW]),
)


def event_from_form(table: BankedTable, options: BankedOptions, form: Any) -> dict[str, Any]:
    """The event the page's form describes: its type's fields by name (the rules read them), the
    deal's spelled per box (``ante_<n>``, ``cards_<n>``, ``player_<n>``; a box without cards is not
    dealt)."""
    kind = EVENTS.type_of(form.get("type", ""))
    if kind is not Deal:
        return {"type": kind.kind, **{f.name: form.get(f.name, "") for f in fields(kind)}}
    antes: dict[str, int] = {}
    cards: dict[str, str] = {}
    players: dict[str, str] = {}
    for n in range(1, table.boxes + 1):
        hand = form.get(f"cards_{n}", "").strip()
        if hand:
            cards[str(n)] = hand
            antes[str(n)] = options.amount(form.get(f"ante_{n}", "").strip() or "missing")
            if form.get(f"player_{n}", "").strip():
                players[str(n)] = form.get(f"player_{n}", "").strip()
    return {"type": "deal", "antes": antes, "cards": cards, **({"players": players} if players else {})}


@bp.get("/")
def index() -> Any:
    tables = db.session.scalars(db.select(BankedTable).order_by(BankedTable.name)).all()
    return render_template("banked/index.html", tables=tables)


@bp.post("/tables")
@role_required(Role.director)
def create() -> Any:
    """A director sets up a banked table: its name, boxes (1-9) and banked options (JSON)."""
    name = request.form.get("name", "").strip()
    try:
        options = json.loads(request.form.get("options", "").strip() or "{}")
        boxes = whole(request.form.get("boxes", ""), "boxes")  # the rules name the bounds (B1)
        setup = {"boxes": boxes, "options": options}
        check_setup(setup)
        if not name:
            raise RulesError("a table needs a name")
    except (ValueError, RulesError) as exc:
        flash(f"The table was not set up: {exc}", "error")
        tables = db.session.scalars(db.select(BankedTable).order_by(BankedTable.name)).all()
        return render_template("banked/index.html", tables=tables), 422
    table = BankedTable(name=name, setup=setup)
    db.session.add(table)
    db.session.flush()  # the id, which the head's seal covers
    table.seal_head()
    db.session.commit()
    flash(f"Banked table {name} set up with {boxes} boxes.", "info")
    return redirect(url_for("banked.table_page", table_id=table.id))


#: The banked game's deck for the card picker: 52 cards and the joker, a row a suit (aces first).
PICKER_DECK = {"rows": [{"suit": suit, "symbol": symbol, "cards": [r + suit for r in "AKQJT98765432"]}
                        for suit, symbol in (("s", "\u2660"), ("h", "\u2665"), ("d", "\u2666"), ("c", "\u2663"))],
               "joker": True}


def _page(table: BankedTable, status: int = 200, error: str | None = None) -> Any:
    """The dealer's tablet: the round as the rules read it, the moves they allow now (``legal()``:
    the forms the page offers), the round's log, the cards already seen."""
    entries = log.round_entries(table)
    state = log.replayed(table, entries)
    moves = {m.type: m for m in state.legal()}
    undo = state.withdrawable
    return render_template("banked/table.html", table=table, state=state, moves=moves, options=state.options,
                           money=state.options.money, error=error, log=tablet.round_log(state.setup, entries),
                           undo=({"seq": undo[0], "words": undo[1].words(state.options.money)} if undo else None),
                           seen=state.seen_cards(), deck=PICKER_DECK, calls=BankedCall.open_at(table.id)), status


@bp.get("/tables/<int:table_id>")
def table_page(table_id: int) -> Any:
    return _page(db.get_or_404(BankedTable, table_id))


@bp.get("/tables/<int:table_id>.json")
def table_json(table_id: int) -> Any:
    table = db.get_or_404(BankedTable, table_id)
    return jsonify(id=table.id, name=table.name, version=table.version, setup=table.setup, state=log.state_of(table))


@bp.post("/tables/<int:table_id>/events")
@csrf.exempt  # checked below: bearer-token clients need no token, session clients (forms, pages) do
def log_event(table_id: int) -> Any:
    """One event from the page's forms, the tablet's script (``?tap=1``: the form, answered in JSON, so
    that a tap kept while offline or logged out is told logged or not without leaving the page) or a
    JSON client; logged by :func:`floor.banked.log.post`, answered here in the client's kind."""
    if not g.get("bearer") and current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()
    table = db.get_or_404(BankedTable, table_id)
    as_json, tap = request.is_json, request.args.get("tap") == "1"
    body = request.get_json(silent=True) if as_json else None
    try:
        tap_id = tapids.read(body if isinstance(body, dict) else request.form)
    except ValueError as exc:
        return jsonify(error=str(exc)), 400
    expected: Any = None
    try:
        if as_json:
            if not isinstance(body, dict):
                raise RulesError("an event is a JSON object with a 'type'")
            expected = body.pop("expected_version", None)
            event = tapids.strip(body)
        else:
            expected = whole_or_none(request.form.get("version"), "version")
            event = event_from_form(table, banked_options(table.setup.get("options")), request.form)
        posted = log.post(table, event, current_user, expected if isinstance(expected, int) else None, tap_id)
    except (RulesError, BadNumber) as exc:
        posted = log.Posted(422, table.version, str(exc))
    return _answer(table, posted, as_json, tap)


def _answer(table: BankedTable, posted: log.Posted, as_json: bool, tap: bool) -> Any:
    """A post's answer in the client's kind: JSON (the state), the tablet's script (the version) or
    the page (a redirect, or the page again with the refusal)."""
    if posted.again is not None:
        return sent_before(table, posted.again, as_json or tap)
    if posted.status == 201:
        assert posted.state is not None
        if as_json:
            return jsonify(version=posted.version, state=posted.state.to_dict()), 201
        return (jsonify(version=posted.version), 201) if tap else redirect(url_for("banked.table_page",
                                                                                  table_id=table.id))
    if as_json or tap:
        return jsonify(error=posted.message, **({"version": posted.version} if posted.status == 409 else {})), \
            posted.status
    return _page(table, posted.status, posted.message)


def sent_before(table: BankedTable, entry: BankedEntry, as_json: bool) -> Any:
    """The answer to a tap sent again: 200 with the entry it logged the first time (the page itself,
    for a form sent without the script)."""
    if not as_json:
        return redirect(url_for("banked.table_page", table_id=table.id))
    return jsonify(version=table.version, seq=entry.seq, event=entry.payload, repeated=True,
                   message=f"Logged once, as entry {entry.seq}: this tap was sent again and is not logged twice."), 200


@bp.route("/tables/<int:table_id>/call", methods=["GET", "POST"])
def call_floor(table_id: int) -> Any:
    """A dealer calls the floor person to a banked table: what about, and the box (optional). The
    call waits on the floor's overview until a floor ruling at this table or a dismissal closes it."""
    table = db.get_or_404(BankedTable, table_id)
    error, status = "", 200
    if request.method == "POST":
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()
        issue, box = request.form.get("issue", ""), request.form.get("box", "")
        if issue not in BankedCall.ISSUES:
            error, status = "Say what the floor is called for.", 400
        elif box and not is_whole(box, 1, table.boxes):
            error, status = f"The box is a number from 1 to {table.boxes}.", 400
        else:
            call = BankedCall(table_id=table.id, issue=issue, box=int(box) if box else None, called_by_id=current_user.id)
            db.session.add(call)
            db.session.commit()
            flash(f"Floor called: {call.words}. The floor person is on the way.", "info")
            return redirect(url_for("banked.table_page", table_id=table.id))
    return render_template("banked/call_floor.html", table=table, issues=BankedCall.ISSUES, error=error), status


@bp.post("/calls/<int:call_id>/dismiss")
@role_required(Role.floor)
def dismiss_call(call_id: int) -> Any:
    """A floor person closes a call that needed no ruling (a word at the table)."""
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()
    call = db.get_or_404(BankedCall, call_id)
    if call.closed_at is None:
        call.closed_at, call.closed_by_id = utcnow(), current_user.id
        db.session.commit()
    flash(f"Call at {call.table.name} dismissed.", "info")
    return redirect(safe_next(request.form.get("back")) or url_for("banked.table_page", table_id=call.table_id))


@bp.app_template_global()
def open_banked_calls() -> list[BankedCall]:
    """The open calls at banked tables, for the floor's overview (templates/floorpages/index.html)."""
    return BankedCall.open_at()


def dispute_diagrams(options: BankedOptions) -> list[tuple[str, Markup, int, int]]:
    """The floor's banked disputes as diagrams, one a dispute (the jackpot summary's way,
    :func:`floor.prints.diagrams.tree_diagrams`): (heading, SVG as a data URI, width, height)."""
    return tree_diagrams(build_banked_tree(options))


def _summary(table: BankedTable, print_mode: bool) -> str:
    options = banked_options(table.setup.get("options"))
    return render_template("banked/rules.html", table=table, options=options, print_mode=print_mode,
                           diagrams=dispute_diagrams(options),
                           dealer_list=DEALER_LIST, stand_words=ITEM_WORDS[Item.MADE_HAND],
                           nothing_words=ITEM_WORDS[Item.NOTHING], option_docs=BankedOptions.options(),
                           default_paytable=options.paytable == DEFAULT_PAYTABLE, paytable_source=PAYTABLE_SOURCE,
                           money=options.money)


@bp.get("/tables/<int:table_id>/rules")
def rules_page(table_id: int) -> Any:
    return _summary(db.get_or_404(BankedTable, table_id), print_mode=False)


@bp.get("/tables/<int:table_id>/rules.pdf")
def rules_pdf(table_id: int) -> Any:
    """The table's rule summary as an A4 PDF, made once per version of its options and kept
    (:mod:`floor.prints.stored`, as the jackpot profiles' summaries)."""
    table = db.get_or_404(BankedTable, table_id)
    rules = canonical_json({"options": table.setup.get("options") or {}, "boxes": table.boxes,
                            "version": current_app.config.get("FLOOR_VERSION", "")})
    data = stored.summary_pdf("banked", str(table.id), hashlib.sha256(rules.encode()).hexdigest(),
                              lambda: _summary(table, print_mode=True))
    return send_file(BytesIO(data), mimetype="application/pdf", as_attachment=True,
                     download_name=f"banked-rules-{table.id}.pdf")
