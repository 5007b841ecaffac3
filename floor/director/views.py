"""The director's pages: events, tables and seating, house rules, users.

Everything a director changes is checked before it is stored: forms validate their fields
(:mod:`floor.director.forms`), a house profile must pass ``rules.profiles.from_toml`` and a table's
setup must pass the rules' own check (``floor.tables.create_table`` replays it with no events). A
table's setup (profile, stakes, seats and stacks) can only change while its log is empty: the log
is read against the setup, so changing it afterwards would rewrite what the logged hands meant.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_login import current_user

from floor import tables
from floor.accounts import create_user
from floor.auth.access import require_role
from floor.director.forms import (
    SETUP_LOCKED,
    ActionForm,
    EventForm,
    HouseProfileEditForm,
    HouseProfileForm,
    NewUserForm,
    TableForm,
    TableNameForm,
    UserForm,
    choices,
)
from floor.extensions import db, rows_changed
from floor.house_profiles import ProfileNotFound, find_profile, profile_choices, resolve_profile
from floor.models import CardRoomEvent, HouseProfile, Role, Table, User
from floor.players import service as players
from rules import RulesError, jackpot, profiles

bp = Blueprint("director", __name__, url_prefix="/director")
bp.before_request(require_role(Role.director))

#: Ids are SQLite's signed 64-bit integers; a larger number in a URL names nothing.
MAX_ID = 2**63 - 1


@bp.url_value_preprocessor
def ids_in_range(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """An id too large for the database is a 404, not an overflow deep in the driver."""
    if values and any(isinstance(v, int) and v > MAX_ID for v in values.values()):
        abort(404, description="There is nothing with that number.")

# --------------------------------------------------------------------------- helpers

def _invalid(template: str, **context: Any) -> Any:
    """Re-render a form page with its messages in place: 400 for an invalid POST."""
    return render_template(template, **context), 400


def _table_form(table: Table | None, event: CardRoomEvent | None) -> TableForm:
    form = TableForm()
    form.profile.choices = choices(profile_choices())
    if request.method == "GET":
        if table is not None:
            setup = table.setup
            form.name.data = table.name
            form.profile.data = table.profile_name
            form.ante.data = setup.get("ante")
            form.small_bet.data = setup.get("small_bet")
            form.big_bet.data = setup.get("big_bet")
            form.button.data = setup.get("button")
            form.capacity.data = setup.get("capacity")
            form.max_buy_in.data = setup.get("max_buy_in")
            by_seat = {s.get("seat"): s for s in setup.get("seats", [])}
            for number, row in form.seat_rows:
                if number in by_seat:
                    row.player.data = by_seat[number].get("player")
                    row.stack.data = by_seat[number].get("stack")
        else:
            form.profile.data = event.profile if event is not None else "cardroom"
            form.ante.data, form.small_bet.data, form.big_bet.data, form.button.data = 5, 10, 20, 1
    return form


def _checked_setup(form: TableForm) -> dict[str, Any] | None:
    """The form's setup as the rules accept it, or None with the rules' message on the form."""
    setup = form.setup()
    try:
        setup["profile"] = resolve_profile(setup["profile"])
        jackpot.replay(setup, [])
    except (RulesError, ValueError, TypeError, KeyError) as exc:
        form.form_errors.append(f"The rules refuse this setup: {exc}")
        return None
    try:  # each seat names its player's record (issue 31); a banned player is refused with the reason
        return players.amend_setup(setup, current_user)
    except RulesError as exc:
        db.session.rollback()
        form.form_errors.append(f"The seats refuse this setup: {exc}")
        return None


# --------------------------------------------------------------------------- overview

@bp.get("/")
def index() -> Any:
    """Events with their tables, house profiles and users."""
    events = db.session.scalars(db.select(CardRoomEvent)
                                .order_by(CardRoomEvent.starts_on.desc(), CardRoomEvent.id.desc())).all()
    loose = db.session.scalars(db.select(Table).where(Table.event_id.is_(None)).order_by(Table.id)).all()
    house = db.session.scalars(db.select(HouseProfile).order_by(HouseProfile.name)).all()
    users = db.session.scalars(db.select(User).order_by(User.role_name, User.username)).all()
    return render_template("director/index.html", events=events, loose=loose, house=house, users=users,
                           named=profiles.PROFILES)


# --------------------------------------------------------------------------- events

@bp.route("/events/new", methods=["GET", "POST"])
def event_new() -> Any:
    """Create an event: name, date, default house rules."""
    form = EventForm()
    form.profile.choices = choices(profile_choices())
    if form.validate_on_submit():
        event = CardRoomEvent(name=form.name.data.strip(), starts_on=form.starts_on.data, profile=form.profile.data)
        db.session.add(event)
        db.session.commit()
        flash(f"Event {event.name} created. Add its tables below.", "success")
        return redirect(url_for("director.event_edit", event_id=event.id))
    if form.is_submitted():
        return _invalid("director/event_form.html", form=form, event=None)
    return render_template("director/event_form.html", form=form, event=None)


@bp.route("/events/<int:event_id>", methods=["GET", "POST"])
def event_edit(event_id: int) -> Any:
    """An event: edit its name, date and default house rules; list its tables."""
    event = db.get_or_404(CardRoomEvent, event_id)
    form = EventForm(obj=event)
    form.profile.choices = choices(profile_choices())
    if form.validate_on_submit():
        event.name = form.name.data.strip()
        event.starts_on = form.starts_on.data
        event.profile = form.profile.data
        db.session.commit()
        flash("Event saved. Tables keep the house rules they were set up with.", "success")
        return redirect(url_for("director.event_edit", event_id=event.id))
    if form.is_submitted():
        return _invalid("director/event_form.html", form=form, event=event)
    return render_template("director/event_form.html", form=form, event=event)


# --------------------------------------------------------------------------- tables

@bp.route("/events/<int:event_id>/tables/new", methods=["GET", "POST"])
def table_new(event_id: int) -> Any:
    """Set up a table of an event: house rules, stakes, button, seats and stacks."""
    event = db.get_or_404(CardRoomEvent, event_id)
    form = _table_form(None, event)
    if form.validate_on_submit():
        setup = _checked_setup(form)
        if setup is not None:
            table = tables.create_table(form.name.data, setup, event.id, current_user)
            flash(f"{table.name} is set up.", "success")
            return redirect(url_for("director.table_edit", table_id=table.id))
    if form.is_submitted():
        return _invalid("director/table_form.html", form=form, event=event, table=None, locked=False)
    return render_template("director/table_form.html", form=form, event=event, table=None, locked=False)


@bp.route("/tables/<int:table_id>", methods=["GET", "POST"])
def table_edit(table_id: int) -> Any:
    """A table: its house rules, and its setup (editable only while its log is empty)."""
    table = db.get_or_404(Table, table_id)
    locked = table.version > 0
    profile = _table_profile(table)
    context: dict[str, Any] = {"table": table, "event": table.event, "locked": locked, "profile": profile,
                               "lock_message": SETUP_LOCKED}
    if locked:
        name_form = TableNameForm(obj=table)
        if name_form.validate_on_submit():
            table.name = name_form.name.data.strip()
            db.session.commit()
            flash("Table renamed.", "success")
            return redirect(url_for("director.table_edit", table_id=table.id))
        if name_form.is_submitted():
            return _invalid("director/table_form.html", form=name_form, **context)
        return render_template("director/table_form.html", form=name_form, **context)

    form = _table_form(table, table.event)
    if form.validate_on_submit():
        setup = _checked_setup(form)
        if setup is not None:
            # Only while the log is still empty: a dealer may have logged since the page was read.
            changed = rows_changed(
                db.update(Table).where(Table.id == table.id, Table.version == 0)
                # sealed with the new setup in the same statement (a bulk UPDATE is not re-sealed by
                # the session's hook; an empty log's head is version 0, "")
                .values(name=form.name.data.strip(), setup=setup,
                        head_seal=table.compute_head_seal(version=0, head="", setup=setup))
            )
            db.session.commit()
            if not changed:
                flash(SETUP_LOCKED, "error")
                return redirect(url_for("director.table_edit", table_id=table.id))
            flash("Table setup saved.", "success")
            return redirect(url_for("director.table_edit", table_id=table.id))
    if form.is_submitted():
        return _invalid("director/table_form.html", form=form, **context)
    return render_template("director/table_form.html", form=form, **context)


def _table_profile(table: Table) -> profiles.Profile | None:
    """The profile stored in a table's setup (a house profile is stored as a snapshot)."""
    try:
        return profiles.get_profile(table.setup.get("profile", "cardroom"))
    except (RulesError, ValueError, TypeError):
        return None


# --------------------------------------------------------------------------- house profiles

STARTER_TOML = """\
# A card room's own rules: start from a named profile and change only what differs.
base = "cardroom"
title = "Main room, Friday game"
ante_deals = 2
postdraw_first = "left_of_button"
"""


@bp.get("/profiles/")
def profile_list() -> Any:
    """Every profile a table can play: the named ones and the house's own."""
    house = db.session.scalars(db.select(HouseProfile).order_by(HouseProfile.name)).all()
    return render_template("director/profiles.html", choices=profile_choices(), house=house,
                           named=profiles.PROFILES)


@bp.route("/profiles/new", methods=["GET", "POST"])
def profile_new() -> Any:
    """Write a house profile in TOML; the rules check it before it is stored."""
    form = HouseProfileForm()
    if request.method == "GET":
        form.toml.data = STARTER_TOML
        form.fill_variants(profiles.from_toml(STARTER_TOML))
    if form.validate_on_submit():
        name = form.name.data.strip()
        if db.session.scalars(db.select(HouseProfile).where(HouseProfile.name == name)).first() is not None:
            form.name.errors.append(f"There is already a house profile called {name}.")
        else:
            db.session.add(HouseProfile(name=name, toml=form.toml.data))
            db.session.commit()
            flash(f"House profile {name} saved.", "success")
            return redirect(url_for("director.profile_show", name=name))
    if form.is_submitted():
        return _invalid("director/profile_form.html", form=form, house=None)
    return render_template("director/profile_form.html", form=form, house=None)


@bp.route("/profiles/<int:profile_id>/edit", methods=["GET", "POST"])
def profile_edit(profile_id: int) -> Any:
    """Edit a house profile's TOML (tables already set up keep the rules they were set up with)."""
    house = db.get_or_404(HouseProfile, profile_id)
    form = HouseProfileEditForm(obj=house)
    form.name.data = house.name  # fixed: events and tables name it
    if request.method == "GET":
        try:
            form.fill_variants(profiles.from_toml(house.toml))
        except (RulesError, ValueError, TypeError):
            form.variants_shown.data = ""  # a text the rules cannot read: the fields would only guess
    if form.validate_on_submit():
        house.toml = form.toml.data
        db.session.commit()
        flash(f"House profile {house.name} saved.", "success")
        return redirect(url_for("director.profile_show", name=house.name))
    if form.is_submitted():
        return _invalid("director/profile_form.html", form=form, house=house)
    return render_template("director/profile_form.html", form=form, house=house)


@bp.get("/profiles/<name>")
def profile_show(name: str) -> Any:
    """One profile's options: each value, the rule ids it decides and what it means."""
    try:
        found = find_profile(name)
    except ProfileNotFound as exc:
        abort(404, description=str(exc))
    return render_template("director/profile.html", found=found)


# --------------------------------------------------------------------------- users

@bp.get("/users/")
def user_list() -> Any:
    """Every account with its role; accounts are deactivated, never deleted."""
    users = db.session.scalars(db.select(User).order_by(User.role_name, User.username)).all()
    return render_template("director/users.html", users=users)


@bp.route("/users/new", methods=["GET", "POST"])
def user_new() -> Any:
    """Add an account with a role and a password."""
    form = NewUserForm()
    if form.validate_on_submit():
        try:
            user, _token = create_user(form.username.data, Role[form.role.data], form.password.data)
        except ValueError as exc:
            form.username.errors.append(str(exc))
        else:
            # No API token until a director issues one on purpose and sees it.
            user.token_digest = None
            db.session.commit()
            flash(f"{user.username} can now log in as a {user.role.name}.", "success")
            return redirect(url_for("director.user_edit", user_id=user.id))
    if form.is_submitted():
        return _invalid("director/user_new.html", form=form)
    return render_template("director/user_new.html", form=form)


def _user_data(user: User) -> dict[str, Any]:
    """The account's form as it stands. Read from the object (``obj=user``) the role field held the
    Role itself, which matches none of the choices' names: every account's page showed "dealer"
    selected, and a director who saved it (to deactivate a floor person, say) demoted them."""
    return {"role": user.role.name, "active": user.active}


@bp.route("/users/<int:user_id>", methods=["GET", "POST"])
def user_edit(user_id: int) -> Any:
    """Change an account's role, or deactivate it (logs and rulings keep naming it)."""
    user = db.get_or_404(User, user_id)
    form = UserForm(data=_user_data(user))
    if form.validate_on_submit():
        role = Role[form.role.data]
        if user.id == current_user.id and (role != user.role or not form.active.data):
            form.form_errors.append("You cannot demote or deactivate yourself: ask another director.")
        else:
            user.role = role
            user.active = form.active.data
            db.session.commit()
            flash(f"{user.username}: {user.role.name}, {'active' if user.active else 'deactivated'}.", "success")
            return redirect(url_for("director.user_edit", user_id=user.id))
    context = {"user": user, "form": form, "token_form": ActionForm(), "token": None}
    if form.is_submitted():
        return _invalid("director/user.html", **context)
    return render_template("director/user.html", **context)


@bp.post("/users/<int:user_id>/token")
def user_token(user_id: int) -> Any:
    """Issue a new API token for an account and show it once (the old one stops working)."""
    user = db.get_or_404(User, user_id)
    token_form = ActionForm()
    form = UserForm(formdata=None, data=_user_data(user))
    if not token_form.validate_on_submit():
        return _invalid("director/user.html", user=user, form=form, token_form=token_form, token=None)
    if not user.active:
        flash("Reactivate the account before issuing it a token.", "error")
        return redirect(url_for("director.user_edit", user_id=user.id))
    token = user.new_api_token()
    db.session.commit()
    response = make_response(render_template("director/user.html", user=user, form=form,
                                             token_form=ActionForm(formdata=None), token=token))
    response.headers["Cache-Control"] = "no-store"
    return response
