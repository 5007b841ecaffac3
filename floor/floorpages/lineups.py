"""The floor's line-ups, moves and histories (issue 12), on the ``floorpages`` blueprint (floor only):

- ``GET /floor/lineups``: every table's line-up (players, stacks, status, the ledger's chips in
  and out) and the form that moves a player from one table and seat to another;
- ``POST /floor/move``: the move, :func:`floor.tables.move_player` (``leave`` here and ``sit``
  there in one transaction: the chips are never on both tables, never on neither); a refusal is
  shown with the rules' message (422) and nothing is written;
- ``GET /floor/tables/<id>/history`` and ``GET /floor/players/<name>``: the hands each player was
  dealt, chips in and out and the net, computed from the log (:mod:`rules.reports.history`), never stored.

Decision: these are the floor's pages. A dealer seats, rebuys and moves players within a table from
the tablet (the seat menu); moving a player to another table, and a player's money over the night,
are the floor's business (a dealer gets 403 with the reason).
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypedDict

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField
from wtforms.validators import InputRequired, NumberRange

from floor import tables as table_log
from floor.extensions import db
from floor.inputs import ascii_int, is_whole
from floor.floorpages.views import bp, state_or_problem
from floor.models import LogEntry, Table
from floor.tournament import service as tournament_service
from rules import RulesError
from rules.reports.history import Hand, PlayerLine, TableHistory, table_history
from rules.jackpot import Seat
from rules.jackpot.state import SeatStatus
from rules.jackpot.seating import MOST_SEATS

__all__ = ["LineupSeat", "lineup", "seat_words", "history_of"]


class MoveForm(FlaskForm):
    """A player moved from a table and seat to another table and seat."""

    from_table = SelectField("From table", coerce=ascii_int)
    from_seat = IntegerField("Seat", validators=[InputRequired(), NumberRange(min=1, max=MOST_SEATS)])
    to_table = SelectField("To table", coerce=ascii_int)
    to_seat = IntegerField("Seat", validators=[InputRequired(), NumberRange(min=1, max=MOST_SEATS)])


class LineupSeat(NamedTuple):
    """One seat of a line-up: its number, who sits there (the engine's :class:`rules.jackpot.Seat`,
    None when the seat is empty) and the status in the floor's words."""

    seat: int
    at: Seat | None
    status: str


def seat_words(x: Seat, by_ruling: bool = True) -> str:
    """A seated player's status as the floor reads it: sitting out, waiting for the pot in play to
    be won, else the seat's status in this deal (active, folded, dead, out), a barred seat with
    why: barred by a ruling (F7) or, ``by_ruling`` false, shut out of a trips-to-win play-off (D9)."""
    if x.sitting_out:
        return "sitting out"
    if x.waiting:
        return "waits for the pot"
    if x.status == SeatStatus.BARRED:
        return "barred until the pot is won (F7)" if by_ruling else "shut out until the pot is won (D9)"
    return str(x.status)


def lineup(table: Table) -> dict[str, Any]:
    """A table's line-up as the floor reads it: the engine's typed state (deal, phase, pot, the
    ledger's chips in and out) and the seats in order up to the table's capacity, empty ones too."""
    state, problem = state_or_problem(table)
    if state is None:  # a log the rules refuse, or a broken record: flagged, never served
        return {"table": table, "state": None, "seats": [], "problem": problem, "desk": None}
    seats = [LineupSeat(s, x, seat_words(x, s in state.barred_by_ruling) if x is not None else "empty")
             for s in range(1, state.capacity + 1) for x in [state.seats.get(s)]]
    # a tournament's table is seated by its desk (floor.tournament.floorwork.desk_only): no "move…" here
    desk = tournament_service.of_table(table)
    return {"table": table, "state": state, "seats": seats, "problem": "", "desk": desk}


def _tables() -> list[Table]:
    return list(db.session.scalars(db.select(Table).order_by(Table.event_id, Table.name, Table.id)))


def _move_form(all_tables: list[Table]) -> MoveForm:
    form = MoveForm()
    names = [(t.id, t.label) for t in all_tables]
    form.from_table.choices = names
    form.to_table.choices = names
    return form


def _lineups_page(form: MoveForm, error: str = "", status: int = 200) -> Any:
    all_tables = _tables()
    return render_template("floorpages/lineups.html", lines=[lineup(t) for t in all_tables], form=form,
                           error=error), status


@bp.get("/lineups")
def lineups() -> Any:
    """Every table's line-up, and the form that moves a player between tables."""
    form = _move_form(_tables())
    for key in ("from_table", "from_seat", "to_table", "to_seat"):
        raw = request.args.get(key, "")
        if is_whole(raw):
            getattr(form, key).data = int(raw)
    return _lineups_page(form)


@bp.post("/move")
def move() -> Any:
    """Move a player to another table between deals: one transaction, or nothing at all."""
    form = _move_form(_tables())
    if not form.validate_on_submit():
        return _lineups_page(form, "Not moved: " + "; ".join(
            f"{getattr(form, k).label.text}: {' '.join(v)}" for k, v in form.errors.items()), 400)
    source = db.get_or_404(Table, form.from_table.data)
    target = db.get_or_404(Table, form.to_table.data)
    here = table_log.table_state(source).seats.get(form.from_seat.data)
    player = here.player if here is not None else None
    try:
        # the checks of a posted leave there and sit here: a tournament's table is its desk's to seat
        # (a cash player moved in brought cash chips into the tournament; one moved out left the
        # desk's record behind)
        table_log.check_posted(source, {"type": "leave", "seat": form.from_seat.data}, current_user)
        table_log.check_posted(target, {"type": "sit", "seat": form.to_seat.data, "player": player or "",
                                        "chips": here.stack if here is not None else 0}, current_user)
        table_log.move_player(source, form.from_seat.data, target, form.to_seat.data, current_user)
    except table_log.StaleVersion as exc:
        return _lineups_page(form, f"Not moved: {exc}", 409)
    except (RulesError, ValueError) as exc:
        return _lineups_page(form, f"Not moved, nothing was logged at either table: {exc}", 422)
    current_app.logger.info("%s moved %s from %s seat %s to %s seat %s", current_user.username, player,
                            source.name, form.from_seat.data, target.name, form.to_seat.data)
    # by label: every event numbers its tables from 1 ("Table 2 to Table 2" named two tables of the room)
    flash(f"{player} moved from {source.label} seat {form.from_seat.data} to {target.label} seat "
          f"{form.to_seat.data}.", "success")
    return redirect(url_for("floorpages.lineups"))


def history_of(table: Table) -> TableHistory:
    """The table's night by player, replayed from its log (:func:`rules.reports.history.table_history`)."""
    return table_history(table.setup, table_log.events_of(table))


@bp.get("/tables/<int:table_id>/history")
def table_history_page(table_id: int) -> Any:
    """One table's night: each player's hands, chips in and out, net; the seating steps; the hands."""
    table = db.get_or_404(Table, table_id)
    history = history_of(table)
    times = {seq: at for seq, at in db.session.execute(db.select(LogEntry.seq, LogEntry.logged_at)
                                                        .where(LogEntry.table_id == table.id))}
    return render_template("floorpages/table_history.html", table=table, history=history,
                           logged_at=lambda index: times.get(index + 1))


class PlayerNight(TypedDict):
    """One table of a player's night: the table, the player's line there, the hands they were dealt."""

    table: Table
    line: PlayerLine
    hands: list[Hand]


@bp.get("/players/<name>")
def player_history(name: str) -> Any:
    """One player's night over every table: hands dealt, chips in and out, net, table by table."""
    name = " ".join(name.split())
    if not name or len(name) > 80:
        abort(404, description="Name a player.")
    rows: list[PlayerNight] = []
    for table in _tables():
        history = history_of(table)
        line = history.player(name)
        if line is not None:
            hands = [h for h in history.hands if any(p.casefold() == name.casefold() for p in h.players.values())]
            rows.append({"table": table, "line": line, "hands": hands})
    if not rows:
        abort(404, description=f"Nobody called {name} has sat at any table.")
    totals = {key: sum(getattr(r["line"], key) for r in rows) for key in ("hands", "start", "bought_in", "taken_away")}
    totals["net"] = sum(r["line"].net for r in rows)
    return render_template("floorpages/player_history.html", name=rows[0]["line"].player, rows=rows, totals=totals)
