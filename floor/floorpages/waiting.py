"""The waiting lists beside the tables on the floor's overview (issue 31): the floor puts a walk-in
on a game's list, calls a listed player when a seat opens and seats them at an open seat, from a
phone. The same work as the JSON API's ``/api/lists``, ``/api/lists/<id>/join``, ``/call`` and
``/seat`` (:mod:`floor.players.lists`), with the page's words. Decisions: docs/players.md, "The board"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import flash, redirect, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, StringField
from wtforms.validators import InputRequired, Optional

from floor import tables
from floor.extensions import db
from floor.floorpages.views import bp
from floor.models import Table
from floor.players import lists
from floor.players.models import WaitingList
from rules import RulesError


class CallForm(FlaskForm):
    """A listed player called: a seat opened for them."""

    player_id = HiddenField(validators=[InputRequired()])


class SeatForm(FlaskForm):
    """A listed player seated: ``place`` is "table:seat" (one of the open seats offered); the
    buy-in, not asked of a must-move player (they move up with their stack)."""

    player_id = HiddenField(validators=[InputRequired()])
    place = StringField("Seat", validators=[InputRequired()])
    chips = IntegerField("Buy-in", validators=[Optional()])


class JoinForm(FlaskForm):
    """A player put on a game's list (made the first time someone joins it): a name typed (a walk-in
    nobody has met gets a record, as at a seat) or a record picked (``player_id``, playerpicker.js)."""

    game = HiddenField(validators=[InputRequired()])
    stakes = HiddenField(validators=[InputRequired()])
    player = StringField("Player", validators=[Optional()])
    player_id = HiddenField(validators=[Optional()])


def _back() -> Any:
    return redirect(url_for("floorpages.index") + "#lists")


def _player(form: CallForm | SeatForm) -> dict[str, int] | None:
    raw = form.player_id.data or ""
    return {"id": int(raw)} if raw.isascii() and raw.isdigit() and len(raw) < 19 else None


def _listed(work: Callable[[], str], refused: str,
            errors: tuple[type[Exception], ...] = (RulesError,)) -> Any:
    """Do a list's ``work`` (it returns what to say) and commit it, or roll it back and say why it
    was ``refused``; back to the overview's lists either way."""
    try:
        said = work()
        db.session.commit()
    except errors as exc:
        db.session.rollback()
        flash(f"{refused}: {exc}", "error")
    else:
        flash(said, "success")
    return _back()


@bp.post("/lists/join")
def join_listed() -> Any:
    """Put a player at the end of a game's list; the game's first player starts its list. The page
    offered calling and seating only: a walk-in could be put on a list through the JSON API alone."""
    form = JoinForm()
    picked = _player(form) if form.player_id.data else None
    if not form.validate_on_submit() or (picked is None and not (form.player.data or "").strip()):
        flash("Not put on the list: name the player (or pick them by name or card number).", "error")
        return _back()
    user = current_user._get_current_object()
    game, stakes = form.game.data or "", form.stakes.data or ""

    def work() -> str:
        wl = db.session.scalars(db.select(WaitingList).where(WaitingList.game == game, WaitingList.stakes == stakes,
                                                             WaitingList.interest.is_(False))).first()
        if wl is None:
            wl = lists.create(game, stakes, False, user)
        entry = lists.join(wl, picked or (form.player.data or "").strip(), user)
        return f"{entry.player.name} is on the {wl.game} {wl.stakes} list, number {len(lists.waiting(wl))}."

    return _listed(work, "Not put on the list")


@bp.post("/lists/<int:list_id>/call")
def call_listed(list_id: int) -> Any:
    wl = db.get_or_404(WaitingList, list_id)
    form = CallForm()
    player = _player(form)
    if not form.validate_on_submit() or player is None:
        flash("Not called: the form was not complete; try again.", "error")
        return _back()

    def work() -> str:
        entry = lists.call(wl, player, current_user._get_current_object())
        return f"{entry.player.name} called for {wl.game} {wl.stakes}."

    return _listed(work, "Not called")


@bp.post("/lists/<int:list_id>/seat")
def seat_listed(list_id: int) -> Any:
    wl = db.get_or_404(WaitingList, list_id)
    form = SeatForm()
    player = _player(form)
    table_no, _, seat_no = (form.place.data or "").partition(":")
    if not form.validate_on_submit() or player is None or not (table_no.isdigit() and seat_no.isdigit()):
        flash("Not seated: choose the seat; the buy-in is a whole number of chips.", "error")
        return _back()
    table = db.session.get(Table, int(table_no)) if len(table_no) < 19 else None
    if table is None:
        flash("Not seated: that table is gone.", "error")
        return _back()

    def work() -> str:
        entry = lists.seat(wl, player, table, int(seat_no), form.chips.data, current_user._get_current_object())
        return f"{entry.player.name} seated at {table.label}, seat {seat_no}."

    return _listed(work, "Not seated, nothing was logged",
                   (RulesError, ValueError, tables.NotYours, tables.StaleVersion))
