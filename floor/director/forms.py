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
    HiddenField,
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

from floor.director import variants
from floor.extensions import db
from floor.models import Role, User
from rules import RulesError, bounds, profiles
from rules.jackpot.events import NAME_MAX

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

    # as long as the rules take a name (a long double-barrelled name must fit, not be refused)
    player = StringField("Player", validators=[Optional(), Length(max=NAME_MAX)])
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
    # players come and go (rules.jackpot.seating): the seats the table has, and the house's buy-in cap
    capacity = IntegerField("Seats at the table (blank: 8, or the highest seat taken)",
                            validators=[Optional(), NumberRange(min=2, max=MAX_SEATS)])
    max_buy_in = IntegerField("Maximum buy-in (blank: no maximum)",
                              validators=[Optional(), NumberRange(min=1, max=MAX_CHIPS)])
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
        playable = True
        if len(seated) < 2:
            # a deal needs two hands: a table of one (or none) could never be dealt
            have = "nobody is seated" if not seated else f"only {seated[0]} is seated"
            self.form_errors.append(f"A table needs at least two players to deal: {have}. "
                                    "Seat the players: a name and a stack on each occupied row.")
            playable = False
        elif doubled:
            self.form_errors.append(f"{', '.join(doubled)} is seated twice; each player needs a name of their own.")
            playable = False
        small, big = self.small_bet.data, self.big_bet.data
        if isinstance(small, int) and isinstance(big, int) and big < small:
            # limit draw: the bet after the draw is the big bet, never less than the one before it
            self.big_bet.errors = [*self.big_bet.errors, f"The big bet ({big}) is below the small bet ({small}): "
                                   "the bet after the draw is at least the bet before it (usually twice it)."]
            self.form_errors.append("The big bet is below the small bet; see the stakes below.")
            playable = False
        return ok and playable

    def setup(self) -> dict[str, Any]:
        """The contract's setup object from the form's data."""
        seats = [{"seat": n, "player": row.player.data.strip(), "stack": row.stack.data}
                 for n, row in self.seat_rows if (row.player.data or "").strip()]
        setup = {"profile": self.profile.data, "ante": self.ante.data, "small_bet": self.small_bet.data,
                 "big_bet": self.big_bet.data, "button": self.button.data, "seats": seats}
        # only when given: a setup without them reads as before (8 seats, no maximum)
        for key in ("capacity", "max_buy_in"):
            if getattr(self, key).data is not None:
                setup[key] = getattr(self, key).data
        return setup


for _n in range(1, MAX_SEATS + 1):
    setattr(TableForm, f"seat{_n}", FormField(SeatForm, label=f"Seat {_n}"))


def choices(pairs: list[tuple[str, str]]) -> list[Any]:
    """SelectField choices as WTForms 3.3 wants them (tuples are deprecated there)."""
    try:
        from wtforms.fields.choices import SelectChoice
    except ImportError:  # WTForms before 3.3
        return list(pairs)
    return [SelectChoice(value, label) for value, label in pairs]


class HouseProfileForm(FlaskForm):
    name = StringField(
        "Short name (used in links and in each table's setup)",
        validators=[DataRequired(), Length(max=40),
                    Regexp(r"^[a-z0-9][a-z0-9_-]*$",
                           message="Use lower-case letters, digits, '-' and '_' only, starting with a letter or digit.")],
    )
    toml = TextAreaField("House rules (TOML)", validators=[DataRequired()])
    # The variants (docs/contract.md, "Variants") as fields, each with its rule text: on saving they are
    # written into the TOML (floor.director.variants.merge), which the rules then check.
    variants_shown = HiddenField()  # the page sends "1": a client that posts only the TOML keeps it as written
    opening_minimum = SelectField("Opening minimum", description=variants.doc("opening_minimum"),
                                  validate_choice=False)
    open_with_raise = BooleanField("Open with a raise", description=variants.doc("open_with_raise"))
    check_open = BooleanField("Declare openers with a check", description=variants.doc("check_open"))
    # a blind's bounds are the house rules' (rules/bounds.py), not a table's stakes (MAX_CHIPS)
    blinds_small = IntegerField("Small blind", validators=[Optional(), NumberRange(
        min=bounds.BOUNDS["blinds"].low, max=bounds.BOUNDS["blinds"].high)], description=variants.doc("blinds"))
    blinds_big = IntegerField("Big blind", validators=[Optional(), NumberRange(
        min=bounds.BOUNDS["blinds"].low, max=bounds.BOUNDS["blinds"].high)])
    # a straddle and how many re-straddles (O2, O7): "off", or the re-straddles allowed after it
    straddle = SelectField("Straddle", description=variants.doc("straddle"), validate_choice=False,
                           choices=choices([("off", "No straddle"), ("0", "A straddle, no re-straddle")]
                                           + [(str(n), f"A straddle and up to {n} re-straddle{'s' if n > 1 else ''}")
                                              for n in bounds.choices("straddle") if n]))
    trips_to_win = BooleanField("Trips to win", description=variants.doc("trips_to_win"))
    jacks_back = BooleanField("Jacks back", description=variants.doc("jacks_back"))
    jacks_back_blind = BooleanField("Blind in the low round", description=variants.doc("jacks_back_blind"))
    age = BooleanField("The age (Foster's blind game)", description=variants.doc("age"))
    draw_rounds = SelectField("Draws a hand", description=variants.doc("draw_rounds"),
                              validate_choice=False)
    ace_draws_four = BooleanField("Four cards only to an ace", description=variants.doc("ace_draws_four"))
    wild = SelectField("Joker and wild cards", description=variants.doc("wild"),
                       validate_choice=False)
    wild_rank = StringField("Wild rank", validators=[Optional(), Length(max=2)], description=variants.doc("wild_rank"))
    stripped_deck = BooleanField("Stripped 32-card deck", description=variants.doc("stripped_deck"))
    southern_placement = SelectField("Southern hands placed", description=variants.doc("southern_placement"),
                                     validate_choice=False)
    newcomers_wait = BooleanField("Newcomers wait for a carried pot", description=variants.doc("newcomers_wait"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, options in variants.CHOICES.items():
            getattr(self, name).choices = choices([(o, o) for o in options])
        if not self.is_submitted():
            self.variants_shown.data = "1"

    @property
    def variant_fields(self) -> list[Any]:
        """The variant fields in the form's order (the blinds as their two numbers)."""
        names = [n for n in variants.VARIANTS if n != "blinds"]
        at = names.index("straddle")
        return [getattr(self, n) for n in names[:at]] + [self.blinds_small, self.blinds_big] + \
            [getattr(self, n) for n in names[at:]]

    def fill_variants(self, profile: profiles.Profile) -> None:
        """Show a profile's variant options in the fields (a GET)."""
        for name, value in variants.values_of(profile).items():
            if name == "blinds":
                self.blinds_small.data, self.blinds_big.data = value if value else (None, None)
            elif name == "straddle":  # true plays as a straddle with no re-straddle
                self.straddle.data = "off" if value is False else "0" if value is True else str(value)
            else:
                getattr(self, name).data = str(value) if name == "draw_rounds" else value

    def variant_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name in variants.VARIANTS:
            if name == "blinds":
                small, big = self.blinds_small.data, self.blinds_big.data
                values[name] = [small, big] if small is not None or big is not None else None
            elif name == "draw_rounds":
                values[name] = int(self.draw_rounds.data) if (self.draw_rounds.data or "").isdigit() else 1
            elif name == "wild_rank":
                values[name] = (self.wild_rank.data or "").strip().upper() or None
            elif name == "straddle":  # "off", "0" (a straddle: written as true) or the re-straddles
                picked = self.straddle.data or "off"
                values[name] = False if picked == "off" else True if picked == "0" else \
                    int(picked) if picked.isdigit() else picked
            else:
                values[name] = getattr(self, name).data
        return values

    def validate(self, extra_validators: Any = None) -> bool:
        # the fields are written into the TOML first, so the rules check what will be stored
        if self.variants_shown.data and (self.blinds_small.data is None) != (self.blinds_big.data is None):
            super().validate(extra_validators)
            self.blinds_big.errors = [*self.blinds_big.errors, "Give both blinds, small and big, or neither."]
            return False
        if self.variants_shown.data and self.toml.data:
            self.toml.data = variants.merge(self.toml.data, self.variant_values())
        return super().validate(extra_validators)

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
