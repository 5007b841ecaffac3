"""The promotions page for the floor (issue 32): ``/floor/promotions``.

The pools the drops fund, what each holds now and the hand it pays, the awards paid, and a form to
award one: the pool, the table, the deal and the player. The player is picked as a record (the
player picker, ``floor/static/playerpicker.js``: by name or card number, the record's id sent in
``player_id`` beside the name shown); a name typed and not picked is the name as seated. The award
is checked against the hand the log holds and paid whole (:func:`floor.promotions.award`): the
record must be the one the log's seat names at that deal. A refusal re-shows the page (422) with
the form as sent and the reason beside it and at the top, and writes nothing. Laid out for a
phone: the floor person pays a high hand at the table. Decisions: docs/house.md, "Promotions".
"""

from __future__ import annotations

import re
from typing import Any

from flask import flash, redirect, render_template, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectField, StringField
from wtforms.validators import DataRequired, Length, NumberRange

from floor import promotions
from floor.extensions import db
from floor.floorpages.views import labelled_tables
from floor.inputs import select_choices
from floor.models import Table
from floor.players.models import Player
from floor.seals import SealBroken
from floor.witness import RolledBack
from rules import RulesError
from rules.house import POOLS
from rules.reports.promotions import pool_words

#: The picker's label of a record: "Bob · card 42 · #7" (playerpicker.js ``label``), maybe "· BANNED".
_LABEL = re.compile(r"^(?P<name>[^·]+?)\s*·.*#(?P<id>\d{1,18})(\s*·\s*BANNED)?\s*$")


class AwardForm(FlaskForm):
    pool = SelectField("Promotion", choices=select_choices((p, pool_words(p)) for p in POOLS))
    table = SelectField("Table", coerce=int)
    deal = IntegerField("Deal", validators=[DataRequired(), NumberRange(min=1)])
    player = StringField("Player", validators=[DataRequired(), Length(max=120)])
    player_id = HiddenField()  # the record picked (playerpicker.js); empty: the name as seated


def _form() -> AwardForm:
    form = AwardForm()
    form.table.choices = select_choices(labelled_tables())
    return form


def _page(form: AwardForm, status: int = 200, refused: str = "") -> Any:
    return render_template("floorpages/promotions.html", pools=promotions.pools().values(), form=form,
                           refused=refused), status


def page() -> Any:
    return _page(_form())


def picked(shown: str, player_id: str) -> tuple[str, str]:
    """The name shown and the record's id the form sent (``""``: none): the hidden ``player_id``
    the picker fills, else the id in the picker's label (a tap on Pay before the picker answered).

    >>> picked(" Bob ", ""), picked("Bob · card 42 · #7", ""), picked("Bob · #7 · BANNED", "7")
    (('Bob', ''), ('Bob', '7'), ('Bob', '7'))
    """
    label = _LABEL.match(shown)
    name = label.group("name") if label else shown
    return " ".join(name.split()), player_id.strip() or (label.group("id") if label else "")


def player_sent(shown: str, player_id: str) -> str | dict[str, int]:
    """The player the form names: the record (``{"id": n}``) when one was picked, else the name as
    seated. A record whose name is not the one shown (the name changed after the pick) is refused:
    pick again."""
    name, number = picked(shown, player_id)
    if not number:
        return name
    if not (number.isascii() and number.isdigit() and 0 < int(number) < 2**63):
        raise promotions.AwardRefused(f"{number!r} is not a player's record: pick the player from the list")
    record = db.session.get(Player, int(number))  # None: refused by the award, as the API's is
    if record is not None and name.casefold() != record.name.casefold():
        raise promotions.AwardRefused(f"the player shown ({name}) is not the record picked "
                                      f"({record.name}, #{record.id}): pick the player from the list again")
    return {"id": int(number)}


def award() -> Any:
    form = _form()
    try:
        if not form.validate_on_submit():
            raise promotions.AwardRefused("; ".join(f"{getattr(form, k).label.text or k}: {' '.join(v)}"
                                                    for k, v in form.errors.items()))
        table = db.get_or_404(Table, form.table.data, description=f"There is no table {form.table.data}.")
        player = player_sent(form.player.data or "", form.player_id.data or "")
        row = promotions.award(form.pool.data, player, table, form.deal.data, current_user)
    except (LookupError, promotions.AwardRefused, promotions.PoolWithheld, promotions.AwardRace,
            SealBroken, RolledBack, RulesError, ValueError) as exc:
        db.session.rollback()
        return _page(form, 422, str(exc))
    flash(f"The {pool_words(row.pool)} promotion pays {row.amount} to {row.player}"
          f"{f' (player #{row.player_id})' if row.player_id is not None else ''} for {table.name}, deal {row.deal}: "
          f"{row.hand}. Pay it from the pool's cash; the pool starts again from 0.", "success")
    return redirect(url_for("floorpages.promotions"))


def register(bp: Any) -> None:
    bp.add_url_rule("/promotions", "promotions", page, methods=["GET"])
    bp.add_url_rule("/promotions/award", "promotion_award", award, methods=["POST"])


__all__ = ["register"]
