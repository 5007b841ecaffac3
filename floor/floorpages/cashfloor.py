"""The cash floor's settings for the floor person (``/floor/cash``): which table is a must-move game
for which main game, the seated players' seat-change requests, and the dealers' push schedule.

The same work as the JSON API's ``/api/tables/<id>/feeds``, ``/seat_changes`` and ``/api/rotation``
(:mod:`floor.players.cashfloor`, :mod:`floor.rotation`), from a phone at the podium. Each action is
its own form (CSRF), checked for the floor role by itself; a refusal re-shows the page with the form
as it was sent and the reason beside it (422), and writes nothing. Decisions: docs/players.md,
"The floor's forms".

Who the rotation's forms offer (the push and the move by hand): every active account, the dealers
first, then the floor persons and the directors marked with their role. A card room short of a
dealer has a floor person deal a down; put in the push, the schedule and the board say where they
are (their own taps are never refused for it). Decision: docs/players.md, "Dealer rotation".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import flash, redirect, render_template, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, SelectMultipleField
from wtforms.validators import InputRequired, NumberRange
from wtforms.widgets import CheckboxInput, ListWidget

from floor import rotation, tables
from floor.auth.access import role_required
from floor.extensions import db
from floor.floorpages.views import bp, labelled_tables, state_or_problem
from floor.inputs import select_choices
from floor.localtime import local
from floor.models import Role, Table, User
from floor.players import cashfloor
from floor.players.models import SeatChange
from rules import RulesError
from rules.jackpot.table import TableState

NONE = ""  # "not a must-move game", "any seat"


class FeedsForm(FlaskForm):
    """This table feeds that main game (a must-move game), or nothing."""

    main = SelectField("Must move for", validate_choice=False)


class SeatChangeForm(FlaskForm):
    """A seated player asks for a seat (or any other) at the same table."""

    player = SelectField("Player", validate_choice=False, validators=[InputRequired()])
    seat = SelectField("Wants", validate_choice=False)


class CancelForm(FlaskForm):
    """A seat-change request taken back (the CSRF token is all it carries)."""


class AssignForm(FlaskForm):
    """The floor moves one dealer to a table by hand, over the schedule, until the round ends."""

    dealer = SelectField("Dealer", validate_choice=False, validators=[InputRequired()])
    table = SelectField("To table", validate_choice=False, validators=[InputRequired()])


class MultiCheckbox(SelectMultipleField):
    """A choice of several as tick boxes (one a line, a finger's size: floor.css ``label.check``)."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class RotationForm(FlaskForm):
    """The push schedule: the dealers in order (the first starts at the first table ticked), the
    tables, the minutes of a round."""

    dealers = SelectMultipleField("Dealers, in push order", validate_choice=False)
    tables = MultiCheckbox("Tables", coerce=int, validate_choice=False)
    minutes = IntegerField("Minutes a round", default=30,
                           validators=[InputRequired(), NumberRange(*rotation.MINUTES)])


@dataclass
class CashTable:
    """A cash table as this page shows it: seats, what it feeds or is fed by, requests waiting."""

    table: Table
    state: TableState
    feeds: Table | None
    fed_by: list[Table]
    mains: list[Table]  # the tables it could feed: same game and stakes
    requests: list[SeatChange]
    feeds_form: FeedsForm
    seat_change_form: SeatChangeForm
    refused: dict[str, str] = field(default_factory=dict)  # form name -> the reason

    @property
    def stakes(self) -> str:
        return f"{self.state.stakes['small_bet']}/{self.state.stakes['big_bet']}"


def _cash_tables(posted: dict[int, dict[str, Any]] | None = None) -> list[CashTable]:
    """Every cash table whose record reads, by name (a tournament's tables are the desk's)."""
    posted = posted or {}
    rows: list[tuple[Table, TableState]] = []
    for table in db.session.scalars(db.select(Table).order_by(Table.name, Table.id)):
        if cashfloor.is_desk_table(table):
            continue
        state, _problem = state_or_problem(table)
        if state is not None:
            rows.append((table, state))
    out = []
    feeding = {t.id: cashfloor.feeds_of(t) for t, _ in rows}
    for table, state in rows:
        stakes = (state.stakes["small_bet"], state.stakes["big_bet"])
        feeds = feeding[table.id]
        fed_by = [t for t, _ in rows if (f := feeding[t.id]) is not None and f.id == table.id]
        mains = [t for t, s in rows if t.id != table.id and t.profile_name == table.profile_name
                 and (s.stakes["small_bet"], s.stakes["big_bet"]) == stakes]
        mine = posted.get(table.id, {})
        feeds_form = mine.get("feeds") or FeedsForm(prefix=f"t{table.id}", formdata=None,
                                                    main=str(feeds.id) if feeds else NONE)
        seat_form = mine.get("seat_change") or SeatChangeForm(prefix=f"t{table.id}", formdata=None)
        offered = mains + ([feeds] if feeds is not None and feeds not in mains else [])
        sent = feeds_form.main.data or NONE  # a refused choice is shown as it was sent
        if sent.isdigit() and len(sent) < 19 and all(str(t.id) != sent for t in offered):
            offered += [t for t in [db.session.get(Table, int(sent))] if t is not None]
        feeds_form.main.choices = select_choices([(NONE, "— not a must-move game —")] +
                                                 [(str(t.id), t.label) for t in offered])
        seat_form.player.choices = select_choices(
            [(NONE, "— who asks —")] + [(_player_value(s.player_id, s.player), f"{s.player} (seat {n})")
                                       for n, s in sorted(state.seats.items())])
        seat_form.seat.choices = select_choices([(NONE, "any other seat")] +
                                                [(str(n), f"seat {n}") for n in range(1, state.capacity + 1)])
        out.append(CashTable(table, state, feeds, fed_by, mains, cashfloor.pending(table), feeds_form, seat_form,
                             mine.get("refused", {})))
    return out


def _player_value(player_id: int | None, name: str) -> str:
    """A seated player as the form sends them: ``#`` and the record's id, else the name as seated
    (a name of digits stays a name)."""
    return f"#{player_id}" if player_id is not None else name


def _player_sent(raw: str) -> Any:
    """The player the seat-change form sent: ``{"id": n}`` for ``#n``, else the name."""
    number = raw[1:]
    return {"id": int(number)} if raw.startswith("#") and number.isascii() and number.isdigit() and len(number) < 19 \
        else raw


def _who_deals() -> list[tuple[str, str]]:
    """Who the rotation's forms offer, as (user name, label): every active account, the dealers
    first, then the floor persons and the directors who may deal a down, marked with their role."""
    users = db.session.scalars(db.select(User).where(User.active.is_(True)))
    return [(u.username, u.username if u.role is Role.dealer else f"{u.username} ({u.role_name})")
            for u in sorted(users, key=lambda u: (u.role, u.username.casefold()))]


def _rotation_form(posted: RotationForm | None = None) -> RotationForm:
    """The rotation's form: as sent (a refusal), else the schedule in force, else empty. Every table
    may be in the push (a tournament's dealers rotate too)."""
    if posted is not None:
        form = posted
    else:
        running = rotation.in_force()
        data: dict[str, Any] = {}
        if running is not None:
            data = {"dealers": [db.session.get_one(User, d).username for d in running.dealer_ids],
                    "tables": list(running.table_ids), "minutes": running.minutes}
        form = RotationForm(formdata=None, **data)
    form.tables.choices = select_choices(labelled_tables())
    return form


def _assign_form(posted: AssignForm | None, who: list[tuple[str, str]]) -> AssignForm:
    """The move by hand: as sent (a refusal, a name no longer offered shown as sent), else empty."""
    form = posted or AssignForm(prefix="assign", formdata=None)
    people = list(who)
    if form.dealer.data and all(name != form.dealer.data for name, _ in people):
        people.append((form.dealer.data, form.dealer.data))
    form.dealer.choices = select_choices([(NONE, "— who —"), *people])
    form.table.choices = select_choices([(NONE, "— which table —"), *((str(i), n) for i, n in labelled_tables())])
    return form


def _page(status: int = 200, *, posted: dict[int, dict[str, Any]] | None = None,
          rotation_form: RotationForm | None = None, rotation_refused: str = "",
          assign_form: AssignForm | None = None, assign_refused: str = "") -> Any:
    rows = _cash_tables(posted)
    rform = _rotation_form(rotation_form)
    dealers = _who_deals()
    chosen = [d for d in rform.dealers.data or [] if d != NONE]
    places = max(len(dealers), len(chosen), 1)
    return render_template("floorpages/cashfloor.html", rows=rows, rotation_form=rform,
                           rotation_refused=rotation_refused, dealers=dealers,
                           assign_form=_assign_form(assign_form, dealers), assign_refused=assign_refused,
                           places=[chosen[i] if i < len(chosen) else NONE for i in range(places)],
                           running=rotation.in_force(), slots=rotation.slots(), cancel_form=CancelForm()), status


def _back(anchor: str) -> Any:
    return redirect(url_for("floorpages.cash_floor") + anchor)


def _errors(form: FlaskForm) -> str:
    return "; ".join(f"{getattr(form, k).label.text}: {' '.join(v)}" for k, v in form.errors.items())


@bp.get("/cash")
@role_required(Role.floor)
def cash_floor() -> Any:
    """The must-move games, the seat-change requests and the dealers' rotation, each with its form."""
    return _page()


@bp.post("/cash/tables/<int:table_id>/feeds")
@role_required(Role.floor)
def set_feeds(table_id: int) -> Any:
    """Link this table to its main game as a must-move game, or unlink it."""
    table = db.get_or_404(Table, table_id)
    form = FeedsForm(prefix=f"t{table.id}")
    raw = form.main.data or NONE
    try:
        if not form.validate_on_submit():
            raise RulesError(f"not saved: {_errors(form) or 'the form expired; reload the page'}")
        main = None
        if raw != NONE:
            main = db.session.get(Table, int(raw)) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None
            if main is None:
                raise RulesError(f"feeds: there is no table {raw!r}")
        cashfloor.set_feeds(table, main, current_user._get_current_object())
        db.session.commit()
    except (RulesError, tables.NotYours) as exc:
        db.session.rollback()
        return _page(422, posted={table.id: {"feeds": form, "refused": {"feeds": str(exc)}}})
    flash(f"{table.name} is a must-move game for {main.name}." if main is not None
          else f"{table.name} is not a must-move game.", "success")
    return _back(f"#table-{table.id}")


@bp.post("/cash/tables/<int:table_id>/seat_changes")
@role_required(Role.floor)
def ask_seat_change(table_id: int) -> Any:
    """Take a seated player's request for another seat."""
    table = db.get_or_404(Table, table_id)
    form = SeatChangeForm(prefix=f"t{table.id}")
    raw_player, raw_seat = form.player.data or NONE, form.seat.data or NONE
    try:
        if not form.validate_on_submit():
            raise RulesError(f"not taken: {_errors(form) or 'the form expired; reload the page'}")
        request = cashfloor.ask_seat_change(table, _player_sent(raw_player), raw_seat if raw_seat != NONE else None,
                                            current_user._get_current_object())
        db.session.commit()
    except (RulesError, ValueError, tables.NotYours) as exc:
        db.session.rollback()
        return _page(422, posted={table.id: {"seat_change": form, "refused": {"seat_change": str(exc)}}})
    wants = f"seat {request.seat}" if request.seat is not None else "any other seat"
    flash(f"{request.player.name} asks for {wants} at {table.name}.", "success")
    return _back(f"#table-{table.id}")


@bp.post("/cash/tables/<int:table_id>/seat_changes/<int:request_id>/cancel")
@role_required(Role.floor)
def cancel_seat_change(table_id: int, request_id: int) -> Any:
    """Take a seat-change request back (the player no longer wants to move)."""
    table = db.get_or_404(Table, table_id)
    try:
        if not CancelForm().validate_on_submit():
            raise RulesError("not cancelled: the form expired; reload the page")
        request = cashfloor.cancel_seat_change(table, request_id, current_user._get_current_object())
        db.session.commit()
    except RulesError as exc:
        db.session.rollback()
        return _page(422, posted={table.id: {"refused": {"cancel": str(exc)}}})
    flash(f"{request.player.name}'s seat change at {table.name} cancelled.", "success")
    return _back(f"#table-{table.id}")


@bp.post("/cash/rotation")
@role_required(Role.floor)
def set_rotation() -> Any:
    """A push schedule from now over the dealers and tables chosen, replacing the one in force.
    The places offer every active account, dealers first (:func:`_who_deals`): a floor person who
    deals a down is put in the push like a dealer (docs/players.md, "Dealer rotation")."""
    form = RotationForm()
    try:
        if not form.validate_on_submit():
            raise RulesError(f"rotation not set: {_errors(form) or 'the form expired; reload the page'}")
        dealers = [d for d in form.dealers.data or [] if d != NONE]
        rotation.make(dealers, list(form.tables.data or []), form.minutes.data, current_user._get_current_object())
        db.session.commit()
    except RulesError as exc:
        db.session.rollback()
        return _page(422, rotation_form=form, rotation_refused=str(exc))
    flash(f"The dealers rotate every {form.minutes.data} minutes from now.", "success")
    return _back("#rotation")


@bp.post("/cash/rotation/assign")
@role_required(Role.floor)
def assign_dealer() -> Any:
    """Move a dealer to a table by hand, until the round ends (an hour in a room that does not
    rotate): over the schedule, as ``POST /api/rotation/assign``."""
    form = AssignForm(prefix="assign")
    raw = form.table.data or NONE
    try:
        if not form.validate_on_submit():
            raise RulesError(f"nobody moved: {_errors(form) or 'the form expired; reload the page'}")
        table = db.session.get(Table, int(raw)) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None
        if table is None:
            raise RulesError(f"assign: there is no table {raw!r}")
        moved = rotation.assign(form.dealer.data, table, current_user._get_current_object())
        db.session.commit()
    except RulesError as exc:
        db.session.rollback()
        return _page(422, assign_form=form, assign_refused=str(exc))
    dealer = db.session.get_one(User, moved.dealer_id).username
    flash(f"{dealer} deals at {table.label} until {local(moved.until, '%H:%M')}, moved by hand.", "success")
    return _back("#assign")


@bp.post("/cash/rotation/end")
@role_required(Role.floor)
def end_rotation() -> Any:
    """The room no longer rotates (the floor's moves by hand run out with their round)."""
    if not CancelForm().validate_on_submit():
        return _page(422, rotation_refused="not ended: the form expired; reload the page")
    running = rotation.in_force()
    if running is not None:
        rotation.end(running)
        db.session.commit()
        flash("The dealers no longer rotate.", "success")
    return _back("#rotation")
