"""The promotions page for the floor (issue 32): ``/floor/promotions``.

The pools the drops fund, what each holds now and the hand it pays, the awards paid, and a form to
award one: the pool, the table, the deal and the player as seated. The award is checked against the
hand the log holds and paid whole (:func:`floor.promotions.award`); a refusal is shown with its
reason and nothing is written. Laid out for a phone: the floor person pays a high hand at the table.
"""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, StringField
from wtforms.validators import DataRequired, Length, NumberRange

from floor import promotions
from floor.extensions import db
from floor.inputs import select_choices
from floor.models import Table
from floor.seals import SealBroken
from floor.witness import RolledBack
from rules import RulesError
from rules.house import POOLS
from rules.reports.promotions import pool_words


class AwardForm(FlaskForm):
    pool = SelectField("Promotion", choices=select_choices((p, pool_words(p)) for p in POOLS))
    table = SelectField("Table", coerce=int)
    deal = IntegerField("Deal", validators=[DataRequired(), NumberRange(min=1)])
    player = StringField("Player (as seated)", validators=[DataRequired(), Length(max=80)])


def _form() -> AwardForm:
    form = AwardForm()
    form.table.choices = select_choices((t.id, t.name) for t in db.session.scalars(db.select(Table).order_by(Table.name)))
    return form


def page() -> Any:
    return render_template("floorpages/promotions.html", pools=promotions.pools().values(), form=_form())


def award() -> Any:
    form = _form()
    if not form.validate_on_submit():
        flash("Not paid: " + "; ".join(f"{getattr(form, k).label.text}: {' '.join(v)}" for k, v in form.errors.items()),
              "error")
        return redirect(url_for("floorpages.promotions"))
    table = db.get_or_404(Table, form.table.data, description=f"There is no table {form.table.data}.")
    try:
        row = promotions.award(form.pool.data, form.player.data, table, form.deal.data, current_user)
    except (LookupError, promotions.AwardRefused, promotions.PoolWithheld, promotions.AwardRace,
            SealBroken, RolledBack, RulesError, ValueError) as exc:
        flash(f"Not paid: {exc}", "error")
        return redirect(url_for("floorpages.promotions"))
    flash(f"The {pool_words(row.pool)} promotion pays {row.amount} to {row.player} ({table.name}, deal {row.deal}: "
          f"{row.hand}). Pay it from the pool's cash; the pool starts again from 0.", "success")
    return redirect(url_for("floorpages.promotions"))


def register(bp: Any) -> None:
    bp.add_url_rule("/promotions", "promotions", page, methods=["GET"])
    bp.add_url_rule("/promotions/award", "promotion_award", award, methods=["POST"])


__all__ = ["register"]
