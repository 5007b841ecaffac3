"""The director's forms: events, tables with their seating, house profiles, accounts.

Each form checks its own fields; what only the rules can judge (a setup, a house profile's TOML)
is checked against ``rules/`` too, before anything is stored (see :mod:`floor.director.views`).
"""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateField,
    Form,
    FormField,
    IntegerField,
    PasswordField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (
    DataRequired,
    EqualTo,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)

from floor.extensions import db
from floor.models import Role, User
from rules import RulesError, profiles

#: Rows offered for seating; the rules decide how many players a deck can serve.
MAX_SEATS = 10
#: A generous ceiling on chip amounts: stops typos of extra zeros and integer overflow.
MAX_CHIPS = 10_000_000

SETUP_LOCKED = (
    "This table has logged events, so its setup (house rules, stakes, seats and stacks) is fixed: "
    "the log is read against the setup, and changing it now would change what the logged hands meant. "
    "Start a new table for a new line-up."
)


class EventForm(FlaskForm):
    name = StringField("Event name", validators=[DataRequired(), Length(max=120)])
    starts_on = DateField("Starts on", validators=[Optional()])
    profile = SelectField("Default house rules for its tables", choices=[])


class SeatForm(Form):
    """One seat: a blank player name leaves the seat empty."""

    player = StringField("Player", validators=[Optional(), Length(max=40)])
    stack = IntegerField("Stack", validators=[Optional(), NumberRange(min=0, max=MAX_CHIPS)])

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        name = (self.player.data or "").strip()
        if ok and name and self.stack.data is None:
            self.stack.errors.append("Give this player's starting stack.")
            return False
        if ok and not name and self.stack.data is not None:
            self.stack.errors.append("A stack needs a player; clear it or name the player.")
            return False
        return ok


class TableNameForm(FlaskForm):
    name = StringField("Table name", validators=[DataRequired(), Length(max=80)])


class TableForm(TableNameForm):
    profile = SelectField("House rules", choices=[])
    ante = IntegerField("Ante", validators=[InputRequired(), NumberRange(min=0, max=MAX_CHIPS)])
    small_bet = IntegerField("Small bet (before the draw)",
                             validators=[InputRequired(), NumberRange(min=1, max=MAX_CHIPS)])
    big_bet = IntegerField("Big bet (after the draw)",
                           validators=[InputRequired(), NumberRange(min=1, max=MAX_CHIPS)])
    button = IntegerField("Button at seat", validators=[InputRequired(), NumberRange(min=1, max=MAX_SEATS)])
    # seat1 ... seat10 are added below the class: one sub-form per seat, named by its number.

    @property
    def seat_rows(self) -> list[tuple[int, SeatForm]]:
        """(seat number, its sub-form) for every row of the seating table."""
        return [(n, getattr(self, f"seat{n}").form) for n in range(1, MAX_SEATS + 1)]

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        seated = [(row.player.data or "").strip() for _, row in self.seat_rows]
        seated = [name for name in seated if name]
        folded = [name.casefold() for name in seated]
        doubled = sorted({name for name in seated if folded.count(name.casefold()) > 1})
        if not seated:
            self.form_errors.append("Seat the players: a name and a stack on each occupied row.")
        elif doubled:
            self.form_errors.append(f"{', '.join(doubled)} is seated twice; each player needs a name of their own.")
        return ok and bool(seated) and not doubled

    def setup(self) -> dict[str, Any]:
        """The contract's setup object from the form's data."""
        seats = [{"seat": n, "player": row.player.data.strip(), "stack": row.stack.data}
                 for n, row in self.seat_rows if (row.player.data or "").strip()]
        return {"profile": self.profile.data, "ante": self.ante.data, "small_bet": self.small_bet.data,
                "big_bet": self.big_bet.data, "button": self.button.data, "seats": seats}


for _n in range(1, MAX_SEATS + 1):
    setattr(TableForm, f"seat{_n}", FormField(SeatForm, label=f"Seat {_n}"))


class HouseProfileForm(FlaskForm):
    name = StringField(
        "Short name (used in links and in each table's setup)",
        validators=[DataRequired(), Length(max=40),
                    Regexp(r"^[a-z0-9][a-z0-9_-]*$",
                           message="Use lower-case letters, digits, '-' and '_' only, starting with a letter or digit.")],
    )
    toml = TextAreaField("House rules (TOML)", validators=[DataRequired()])

    def validate_name(self, field: Any) -> None:
        if field.data in profiles.PROFILES:
            raise ValidationError(f"'{field.data}' is a named profile; pick another name for the house's own.")

    def validate_toml(self, field: Any) -> None:
        try:
            profiles.from_toml(field.data)
        except (RulesError, ValueError, TypeError) as exc:
            raise ValidationError(str(exc)) from None


class HouseProfileEditForm(HouseProfileForm):
    def validate_name(self, field: Any) -> None:
        """The name is fixed once created (events and tables refer to it); the form shows it read-only."""


def choices(pairs: list[tuple[str, str]]) -> list[Any]:
    """SelectField choices as WTForms 3.3 wants them (tuples are deprecated there)."""
    try:
        from wtforms.fields.choices import SelectChoice
    except ImportError:  # WTForms before 3.3
        return list(pairs)
    return [SelectChoice(value, label) for value, label in pairs]


ROLE_CHOICES = choices([(r.name, r.name) for r in Role])


class NewUserForm(FlaskForm):
    username = StringField(
        "User name",
        validators=[DataRequired(), Length(max=80),
                    Regexp(r"^\S+$", message="A user name has no spaces.")],
    )
    role = SelectField("Role", choices=ROLE_CHOICES, default="dealer")
    password = PasswordField("Password", validators=[DataRequired(), Length(min=8, max=200)])
    confirm = PasswordField("Password again", validators=[EqualTo("password", message="The passwords differ.")])

    def validate_username(self, field: Any) -> None:
        taken = User.named(field.data or "")
        if taken is not None:
            raise ValidationError(f"There is already a user called {taken.username}.")


class UserForm(FlaskForm):
    role = SelectField("Role", choices=ROLE_CHOICES)
    active = BooleanField("Active (may log in and use an API token)")


class ActionForm(FlaskForm):
    """A button that posts: only the CSRF token."""
