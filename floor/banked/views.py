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

Dealers log; only a director sets up a table (403 otherwise). The state is always
``rules.banked.round.replay`` over the log from the current round's deal (an earlier round was
checked when it was logged and cannot change).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from io import BytesIO
from typing import Any

from flask import (Blueprint, current_app, flash, g, has_request_context, jsonify, redirect, render_template,
                   request, send_file, url_for)
from flask_login import current_user
from markupsafe import Markup
from sqlalchemy.exc import IntegrityError

from floor import tapids, witness
from floor.auth.access import require_role, role_required, safe_next
from floor.banked import tablet
from floor.banked.models import BankedCall, BankedEntry, BankedTable, logged_round_start
from floor.extensions import csrf, db
from floor.inputs import BadNumber, is_whole, whole, whole_or_none
from floor.models import Role, canonical_json, utcnow
from floor.seals import SealBroken, head_content, keyed_digest, same
from floor.tables import CALL_THE_DIRECTOR
from rules import RulesError
from rules.banked import DEFAULT_PAYTABLE, PAYTABLE_SOURCE, BankedOptions, banked_options
from rules.banked.dealer import ITEM_WORDS, Item
from rules.banked.disputes import build_banked_tree
from rules.banked.round import EVENT_TYPES, check_setup, replay

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


class Refused(Exception):
    """An event this route never logs (a floor ruling comes only from the dispute page)."""


class Stale(Exception):
    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"another device logged first: this page showed version {expected}, the table is at "
                         f"{actual}; the table is shown as it is now")


def round_entries(table: BankedTable) -> list[tuple[int, dict[str, Any]]]:
    """The log from the current round's deal, undos and withdrawn entries included: (seq, event),
    each checked against its seal and its link to the one before (issue 20). The round start is
    trusted only under a good head seal; a head changed outside the app (a moved round start) is
    not believed: the round is found in the log itself, from its last standing deal (``flask
    verify`` names the broken seal). One round read from the database, however long the day."""
    witness.seen()  # no cache here: read on what other processes witnessed, then refuse a rolled-back log
    witness.check_not_behind("banked", table.id, table.version)
    start = table.round_start
    if not table.head_seal_intact:
        start = logged_round_start(table)
        if not same(table.head_seal, keyed_digest({**head_content(table.id, table.version, table.head_digest,
                                                                  table.setup), "kind": "banked",
                                                   "round_start": start})):
            raise SealBroken(f"{table.name}: the table's seal does not match its version, the end of its log or its "
                             f"setup: they were changed outside the app. {CALL_THE_DIRECTOR}")
    first = max(start, 1)
    prev = "" if first == 1 else db.session.scalar(db.select(BankedEntry.digest).where(
        BankedEntry.table_id == table.id, BankedEntry.seq == first - 1)) or "-"
    entries: list[tuple[int, dict[str, Any]]] = []
    expected = first
    for entry in db.session.scalars(db.select(BankedEntry).where(
            BankedEntry.table_id == table.id, BankedEntry.seq >= first, BankedEntry.seq <= table.version)
            .order_by(BankedEntry.seq)):
        if entry.seq != expected or not same(entry.prev_digest, prev) or not same(entry.digest, entry.compute_digest()):
            raise SealBroken(f"{table.name}: entry {min(entry.seq, expected)} of the log does not match its seal: the "
                             f"log was changed outside the app. {CALL_THE_DIRECTOR}")
        entries.append((entry.seq, entry.payload))
        prev, expected = entry.digest, expected + 1
    if table.version and (expected != table.version + 1 or not same(prev, table.head_digest)):
        raise SealBroken(f"{table.name}: the log does not end where the table's seal says: entries were removed "
                         f"outside the app. {CALL_THE_DIRECTOR}")
    return entries


def current_round(table: BankedTable) -> list[Mapping[str, Any]]:
    """The events of the current round that stand (earlier rounds were settled when logged; an undo
    and the entry it withdrew are left out: :mod:`floor.banked.tablet`)."""
    return [payload for _, payload in tablet.standing(round_entries(table))]


def state_of(table: BankedTable) -> dict[str, Any]:
    return replay(table.setup, current_round(table))


def append(table: BankedTable, event: dict[str, Any], expected_version: int | None,
           tap_id: str | None = None) -> dict[str, Any]:
    """Check ``event`` with the rules and log it; returns the new state. Raises RulesError (refused),
    Stale (another device was first); nothing is written then. An undo (``{"type": "void",
    "event": seq}``) withdraws the round's last standing entry if it is a dealer's kind
    (:func:`floor.banked.tablet.check_undo`); the round is replayed without it. ``tap_id`` is the
    tablet's id of the tap (:mod:`floor.tapids`), unique per table like the entry's number."""
    db.session.refresh(table)
    if expected_version is not None and expected_version != table.version:
        raise Stale(expected_version, table.version)
    entries = round_entries(table)
    undone = None
    if event.get("type") == "void":
        undone = tablet.check_undo(entries, event)
        state = replay(table.setup, [p for s, p in tablet.standing(entries) if s != undone[0]])
    else:
        state = replay(table.setup, [p for _, p in tablet.standing(entries)] + [event])  # the round read once
    # the dealer's id; none from the CLI or the demo, which log without a request
    user_id = current_user.id if has_request_context() and current_user.is_authenticated else None
    entry = BankedEntry(table_id=table.id, seq=table.version + 1, payload=event, logged_by_id=user_id,
                        logged_at=utcnow(), prev_digest=table.head_digest or "", tap_id=tap_id)
    entry.digest = entry.compute_digest()
    # Re-sealed only when the seal read was good: a head changed behind the app's back stays
    # detectably broken for `flask verify`.
    sealed = table.head_seal_intact
    table.version, table.head_digest = entry.seq, entry.digest
    if event.get("type") == "deal":
        table.round_start = entry.seq
    elif undone is not None and undone[1].get("type") == "deal":
        table.round_start = logged_round_start(table, below=table.round_start)  # the round before is in play again
    if sealed:
        table.head_seal = table.compute_head_seal()
    db.session.add(entry)
    if event.get("type") == "ruling":  # the floor's ruling answers the calls open at this table
        for call in BankedCall.open_at(table.id):
            call.closed_at, call.ruling_id = utcnow(), event.get("ruling")
            call.closed_by_id = user_id
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        db.session.refresh(table)
        raise Stale(expected_version if expected_version is not None else table.version - 1, table.version) from None
    if undone is not None and undone[1].get("type") == "deal":
        state = state_of(table)
    return state


def event_from_form(table: BankedTable, options: BankedOptions, form: Any) -> dict[str, Any]:
    """The event the page's form describes (the rules check it afterwards)."""
    kind = form.get("type", "")
    if kind == "void":
        event = form.get("event", "")
        return {"type": "void", "event": int(event) if is_whole(event) else event}
    if kind not in EVENT_TYPES:
        raise RulesError(f"unknown event type {kind!r}")
    if kind == "deal":
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
    if kind in ("fold", "bet"):
        return {"type": kind, "box": form.get("box", "")}
    if kind == "exchange":
        return {"type": kind, "box": form.get("box", ""), "discards": form.get("discards", ""),
                "drawn": form.get("drawn", "")}
    if kind == "reveal":
        return {"type": kind, "dealer": form.get("dealer", "")}
    return {"type": kind, "drawn": form.get("drawn", "")}


def canonical(event: dict[str, Any]) -> dict[str, Any]:
    """The event as logged: box numbers as ints (the rules read either; the log keeps one spelling)."""
    out = dict(event)
    if "box" in out:
        try:
            out["box"] = int(out["box"])
        except (TypeError, ValueError):
            pass  # the rules refuse it with their message
    return out


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
    options = banked_options(table.setup.get("options"))
    entries = round_entries(table)
    state = replay(table.setup, [p for _, p in tablet.standing(entries)])
    rows = {e.seq: e for e in db.session.scalars(db.select(BankedEntry).where(
        BankedEntry.table_id == table.id, BankedEntry.seq >= (entries[0][0] if entries else 0),
        BankedEntry.seq <= table.version))}
    gone = {int(p["event"]) for _, p in entries if p.get("type") == "void"}
    log = [{"seq": seq, "words": tablet.entry_words(p, options.money), "withdrawn": seq in gone,
            "kind": p.get("type"), "who": rows[seq].logged_by.username if seq in rows and rows[seq].logged_by else "",
            "at": rows[seq].logged_at if seq in rows else None} for seq, p in reversed(entries)]
    undo = tablet.withdrawable(entries)
    return render_template("banked/table.html", table=table, state=state, options=options,
                           money=options.money, error=error, log=log,
                           undo=({"seq": undo[0], "words": tablet.entry_words(undo[1], options.money)} if undo else None),
                           seen=tablet.seen_cards(p for _, p in tablet.standing(entries)), deck=PICKER_DECK,
                           calls=BankedCall.open_at(table.id)), status


@bp.get("/tables/<int:table_id>")
def table_page(table_id: int) -> Any:
    return _page(db.get_or_404(BankedTable, table_id))


@bp.get("/tables/<int:table_id>.json")
def table_json(table_id: int) -> Any:
    table = db.get_or_404(BankedTable, table_id)
    return jsonify(id=table.id, name=table.name, version=table.version, setup=table.setup, state=state_of(table))


@bp.post("/tables/<int:table_id>/events")
@csrf.exempt  # checked below: bearer-token clients need no token, session clients (forms, pages) do
def log_event(table_id: int) -> Any:
    if not g.get("bearer") and current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()
    table = db.get_or_404(BankedTable, table_id)
    options = banked_options(table.setup.get("options"))
    as_json = request.is_json
    # a tap the tablet's script sends (banked.js, ?tap=1): the page's form, answered in JSON so that a
    # tap kept while offline or logged out is told logged or not without leaving the page
    tap = request.args.get("tap") == "1"
    body = request.get_json(silent=True) if as_json else None
    try:
        tap_id = tapids.read(body if isinstance(body, dict) else request.form)
    except ValueError as exc:
        return jsonify(error=str(exc)), 400
    again = tapids.find(BankedEntry, table.id, tap_id)
    if again is not None:  # a tap sent again (DESIGN part four): the entry it logged the first time
        return sent_before(table, again, as_json or tap)
    try:
        if as_json:
            if not isinstance(body, dict):
                raise RulesError("an event is a JSON object with a 'type'")
            expected = body.pop("expected_version", None)
            event = canonical(tapids.strip(body))
        else:
            expected = whole_or_none(request.form.get("version"), "version")
            event = canonical(event_from_form(table, options, request.form))
        if event.get("type") == "ruling":  # only the floor's dispute page logs a ruling, with its sealed record
            raise Refused("a ruling is logged by the floor's dispute page (Call the floor), not from the tablet")
        state = append(table, event, expected if isinstance(expected, int) else None, tap_id)
    except Refused as exc:
        if as_json or tap:
            return jsonify(error=str(exc)), 403
        return _page(table, 403, str(exc))
    except Stale as exc:
        again = tapids.find(BankedEntry, table.id, tap_id)
        if again is not None:  # the same tap posted twice at once: the other post logged it
            return sent_before(table, again, as_json or tap)
        if as_json or tap:
            return jsonify(error=str(exc), version=table.version), 409
        return _page(table, 409, str(exc))
    except (RulesError, BadNumber) as exc:
        db.session.rollback()
        if as_json or tap:
            return jsonify(error=str(exc)), 422
        return _page(table, 422, str(exc))
    if as_json:
        return jsonify(version=table.version, state=state), 201
    if tap:
        return jsonify(version=table.version), 201
    return redirect(url_for("banked.table_page", table_id=table.id))


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
    :func:`floor.prints.views.tree_diagrams`): (heading, SVG as a data URI, width, height)."""
    from floor.prints.views import tree_diagrams  # not at import: floor.prints imports much of the app

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
    from floor.prints import stored  # not at import: floor.prints imports much of the app

    table = db.get_or_404(BankedTable, table_id)
    rules = canonical_json({"options": table.setup.get("options") or {}, "boxes": table.boxes,
                            "version": current_app.config.get("FLOOR_VERSION", "")})
    data = stored.summary_pdf("banked", str(table.id), hashlib.sha256(rules.encode()).hexdigest(),
                              lambda: _summary(table, print_mode=True))
    return send_file(BytesIO(data), mimetype="application/pdf", as_attachment=True,
                     download_name=f"banked-rules-{table.id}.pdf")
