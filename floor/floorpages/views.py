"""The floor person's pages (blueprint ``floorpages``, ``/floor``): the tables at a glance, the
calls and reports waiting for the floor, a dealer's report confirmed, a call dismissed, chips
corrected between deals. Settling a dispute is the rulings' walk (:mod:`floor.rulings`).

Named ``floorpages`` (it was ``floor.disputes``, blueprint ``disputes``) so that it is never taken
for :mod:`rules.jackpot.disputes`, what a table's log answers for a dispute."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import TextAreaField
from wtforms.validators import DataRequired, Length

from floor import tables as table_log
from floor.auth.access import require_role
from floor.extensions import db
from floor.inputs import is_whole
from floor.models import FloorCall, IssuedRuling, Role, Table, utcnow
from floor.players import board
from floor.rulings import issuing
from floor.rulings.issues import ISSUES
from floor.seals import SealBroken
from floor.witness import RolledBack
from rules import RulesError
from rules.jackpot.events import REASON_MAX
from rules.jackpot.table import Phase, TableState

bp = Blueprint("floorpages", __name__, url_prefix="/floor")
bp.before_request(require_role(Role.floor))


def state_or_problem(table: Table) -> tuple[TableState | None, str]:
    """The table's typed state, or why the floor cannot be shown it: a log the current rules refuse,
    a record that does not match its seals, a log behind the room's witness (issue 20).

    One table's broken record is that table's matter: the floor's overview and line-ups flag its
    line and go on showing every other table (a tampered table used to blank the whole overview at
    the moment the floor most needs it). Nothing of the broken table's log is shown, as on its own
    pages; ``flask verify`` names what was changed."""
    try:
        return table_log.table_state(table), ""
    except (RulesError, ValueError) as exc:  # a log the rules refuse: say so, never crash
        current_app.logger.warning("table %s: the log does not replay: %s", table.id, exc)
        return None, "the log does not replay: call the director"
    except SealBroken as exc:
        current_app.logger.error("table %s: %s", table.id, exc)
        return None, "the record does not match its seals: nothing is shown or logged here; call the director"
    except RolledBack as exc:
        current_app.logger.error("table %s: %s", table.id, exc)
        return None, "the log was rolled back: nothing is shown or logged here; call the director"


def labelled_tables() -> list[tuple[int, str]]:
    """Every table as (id, label) for a form's list: the cash tables, then a tournament's, each by
    its name (a tournament's with its event's: every event numbers its tables from 1). The dealers'
    rotation, a dealer sent by hand and a promotion's award choose from it."""
    return [(t.id, t.label) for t in db.session.scalars(
        db.select(Table).order_by(Table.event_id.is_not(None), Table.name, Table.id))]


def glance(table: Table) -> dict[str, Any]:
    """One table's line on the floor page: where the deal stands and what waits for the floor.

    A table is marked when the engine waits on a floor matter: a reopen offer after false openers
    (F3), or a showdown in progress (where openers must be proved). Open calls from the dealers'
    tablets are listed above the tables (:func:`index`). The line carries the engine's typed state
    (:class:`rules.jackpot.TableState`: ``deal_no``, ``phase``, ``pot``, ``reopen``), never its plain data.
    A table whose record cannot be read is flagged, with its state left out (:func:`state_or_problem`).
    """
    state, problem = state_or_problem(table)
    if state is None:
        return {"table": table, "state": None, "flags": [problem], "open_seats": []}
    flags = []
    if state.reopen is not None:
        flags.append("reopen offer pending: seats " + ", ".join(str(s) for s in state.reopen.eligible))
    if state.phase == Phase.SHOWDOWN:
        flags.append("showdown in progress")
    open_seats = [n for n in range(1, state.capacity + 1) if n not in state.seats]
    return {"table": table, "state": state, "flags": flags, "open_seats": open_seats}


@bp.get("/")
def index() -> Any:
    """The tables at a glance, the calls and reports waiting for the floor, the rulings the rules
    made that wait for a confirmation, and the latest rulings."""
    tables = db.session.scalars(db.select(Table).order_by(Table.event_id, Table.name)).all()
    rulings = db.session.scalars(db.select(IssuedRuling).order_by(IssuedRuling.id.desc()).limit(50)).all()
    calls = db.session.scalars(db.select(FloorCall).where(FloorCall.closed_at.is_(None)).order_by(FloorCall.id)).all()
    pending = db.session.scalars(db.select(IssuedRuling).where(
        IssuedRuling.by_rules.is_(True), IssuedRuling.confirmed_by_id.is_(None)).order_by(IssuedRuling.id)).all()
    now = utcnow()
    return render_template("floorpages/index.html", lines=[glance(t) for t in tables], rulings=rulings,
                           calls=calls, issues=ISSUES, form=DismissForm(),
                           pending=[r for r in pending if r.pending], games=board.games(),
                           waited=lambda e: board.minutes_waited(e, now))


@bp.post("/calls/<int:call_id>/confirm")
def confirm_call(call_id: int) -> Any:
    """Confirm a dealer's report (false openers): log it in this floor person's name and rule."""
    call = db.get_or_404(FloorCall, call_id)
    if not DismissForm().validate_on_submit():
        abort(400, description="The form expired; reload the floor page and try again.")
    try:
        row, state = issuing.confirm_call(call, current_user)
    except issuing.IssueError as exc:
        flash(str(exc), "error")
        return redirect(url_for("floorpages.index"))
    except table_log.StaleVersion as exc:
        flash(f"Not logged: {exc}", "error")
        return redirect(url_for("floorpages.index"))
    except (RulesError, ValueError) as exc:
        db.session.rollback()
        flash(f"The table refused it: {exc}. Settle the dispute by hand.", "error")
        return redirect(url_for("rulings.new", table=call.table_id, issue=call.issue, seat=call.seat, by_hand=1))
    message = issuing.false_openers_logged(call.table, row, state)
    if row is None:
        flash(message, "success")
        return redirect(url_for("floorpages.index"))
    flash(f"{message} Reported by {call.called_by.username}.", "success")
    return redirect(url_for("rulings.detail", ruling_id=row.id))


class CorrectionForm(FlaskForm):
    """Chips moved between seats by the floor, with the reason (the amounts sum to nothing)."""

    reason = TextAreaField("Why the chips move", validators=[DataRequired(), Length(max=REASON_MAX)])


@bp.route("/tables/<int:table_id>/correction", methods=["GET", "POST"])
def correction(table_id: int) -> Any:
    """Move chips between seats between deals (an award put right): a ``correction`` event. The page
    reads the typed state (each seat's player and stack, the phase)."""
    table = db.get_or_404(Table, table_id)
    state = table_log.table_state(table)
    form = CorrectionForm()
    ruling_id = request.values.get("ruling", "")
    about = db.session.get(IssuedRuling, int(ruling_id)) if is_whole(ruling_id, 1) else None
    error = ""
    # the amounts typed, shown again with a refusal: the floor puts right what the refusal names
    # (they came back empty, to be typed again beside the words that said what was wrong)
    sent = ({seat: (request.form.get(f"seat-{seat}") or "").strip()[:12] for seat in state.seats}
            if form.is_submitted() else {})
    if form.validate_on_submit():
        moves = []
        for seat in state.seats:
            raw = (request.form.get(f"seat-{seat}") or "").strip()
            if raw and raw not in ("0", "+0", "-0"):
                moves.append({"seat": int(seat), "amount": raw.replace("+", "").replace("−", "-")})
        reason = form.reason.data.strip()
        if about is not None:
            reason = f"{reason} (correcting ruling #{about.id})"
        try:
            table_log.append(table, {"type": "correction", "moves": moves, "reason": reason}, current_user,
                             _version(request.form.get("version")))
        except table_log.StaleVersion as exc:
            error = str(exc)
        except (RulesError, ValueError) as exc:
            db.session.rollback()
            error = str(exc)
        else:
            row = db.session.scalars(db.select(IssuedRuling).where(IssuedRuling.table_id == table.id)
                                     .order_by(IssuedRuling.id.desc())).first()
            flash(f"Chips corrected at {table.label}.", "success")
            return redirect(url_for("rulings.detail", ruling_id=row.id) if row else url_for("floorpages.index"))
        state = table_log.table_state(table)
    status = 422 if error else 400 if form.is_submitted() else 200
    return render_template("floorpages/correction.html", table=table, state=state, form=form, about=about,
                           error=error, sent=sent), status


def _version(raw: str | None) -> int | None:
    return int(raw) if raw is not None and is_whole(raw) else None


class DismissForm(FlaskForm):
    """Close a call without a ruling (the CSRF token is all it carries)."""


@bp.post("/calls/<int:call_id>/dismiss")
def dismiss_call(call_id: int) -> Any:
    """Close a dealer's call that needed no ruling."""
    call = db.get_or_404(FloorCall, call_id)
    if not DismissForm().validate_on_submit():
        abort(400, description="The form expired; reload the floor page and try again.")
    if call.is_open:
        call.closed_at, call.closed_by = utcnow(), current_user
        db.session.commit()
        flash(f"Call from {call.table.label} dismissed.", "info")
    return redirect(url_for("floorpages.index"))
