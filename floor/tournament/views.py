"""The tournament's pages (``/tournament/``): the director's event page (structure with presets,
entries, tables, the draw, clock controls), the printable seating list, the wall clock for a big
screen, the floor's balancing page (one tap per move), results with a PDF and a CSV.

Roles per action: any role may read the wall and the results; the floor's pages need the floor;
the floor also enters players, draws, runs the clock, busts players out, records recounts and
settles deals; writing the structure and adding tables need the director. A POST checks
its role itself (403 with the reason), not only the page that shows the button.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from floor import tables
from floor.auth.access import role_required
from floor.extensions import db
from floor.inputs import select_choices, whole
from floor.localtime import local_iso
from floor.models import FloorCall, Role, Table, Tournament
from floor.pdf import pdf_response
from floor.seals import SealBroken
from floor.sealed import check_tournament
from floor.tournament import desk, disqualification, floorwork, service
from floor.tournament import models as desk_models
from rules import IllegalAction, RulesError
from rules.jackpot.seating import MOST_SEATS
from rules.jackpot.table import TableState
from rules.tournament import PRESETS, Break
from rules.tournament.structure import StructureError

bp = Blueprint("tournament", __name__, url_prefix="/tournament")


def levels_text(levels: list[dict[str, Any]]) -> str:
    """Levels as the form writes them: ``minutes ante small-bet big-bet`` a line, ``break minutes``."""
    lines = []
    for x in levels:
        if "break" in x:
            lines.append(f"break {x['break']}")
        else:
            lines.append(f"{x['minutes']} {x['ante']} {x['small_bet']} {x['big_bet']}")
    return "\n".join(lines)


def read_levels(text: str) -> list[dict[str, Any]]:
    """The form's levels text as structure data (the rules check it); a line it cannot read is an error."""
    out: list[dict[str, Any]] = []
    for n, line in enumerate(text.splitlines(), start=1):
        words = line.replace(",", " ").replace("/", " ").split()
        if not words:
            continue
        if words[0].lower() == "break" and len(words) == 2:
            out.append({"break": words[1]})
        elif len(words) in (3, 4) and words[0].lower() != "break":
            level = {"minutes": words[0], "ante": words[1], "small_bet": words[2]}
            if len(words) == 4:
                level["big_bet"] = words[3]
            out.append(level)
        else:
            raise StructureError(f"levels, line {n}: write the minutes, the ante, the small bet and the big bet "
                                 f"(such as '15 5 10 20'), or 'break' and its minutes, not {line.strip()!r}")
    return out


# What the form's rebuy and add-on fields hold, in order, said as a director would.
_LISTED = {"rebuy": "the price, the chips, the last level they are sold and the most per player (such as '20 500 4 2')",
           "add_on": "the price, the chips and the level it is sold at (such as '20 1000 4')"}

# rules/tournament/structure.py names a structure's parts as its JSON does (the API's words: ``until_level``,
# ``color_up[1]``); the director's form says them as its labels do. A closed list: each key a message of
# that module names.
_FORM_WORDS = (("late_registration_levels", "late registration"), ("starting_chips", "starting chips"),
               ("until_level", "last level"), ("at_level", "level"), ("small_bet", "small bet"),
               ("big_bet", "big bet"), ("buy_in", "buy-in"), ("color_up", "chip races"), ("add_on", "add-on"),
               ("rebuy:", "rebuys:"))


def in_form_words(message: str) -> str:
    """A structure's error in the form's words, not the JSON's.

    >>> in_form_words("rebuy: until_level 9, but the structure has 8 levels")
    'rebuys: last level 9, but the structure has 8 levels'
    >>> in_form_words("payouts[0]: a percentage of at most 100, not 120")
    'payouts, first place: a percentage of at most 100, not 120'
    """
    places = ("first", "second", "third")
    words = re.sub(r"payouts\[(\d+)\]", lambda m: "payouts, " + (
        f"{places[int(m[1])]} place" if int(m[1]) < len(places) else f"place {int(m[1]) + 1}"), message)
    words = re.sub(r"color_up\[(\d+)\]", lambda m: f"chip race {int(m[1]) + 1}", words)
    for key, said in _FORM_WORDS:
        words = words.replace(key, said)
    return words


class StructureForm(FlaskForm):
    """The structure, as a director writes it."""

    levels = TextAreaField("Levels, one a line: minutes, ante, small bet, big bet (such as '15 5 10 20'); "
                           "or a break: 'break 10'",
                           validators=[DataRequired()])
    starting_chips = IntegerField("Starting chips", validators=[InputRequired(), NumberRange(min=1)])
    buy_in = IntegerField("Buy-in (to the prize pool)", validators=[InputRequired(), NumberRange(min=0)])
    fee = IntegerField("Fee (the house's)", default=0, validators=[InputRequired(), NumberRange(min=0)])
    payouts = StringField("Payouts: percentages, first place first (or 'standard')", default="standard")
    rebuy = StringField("Rebuys: price, chips, the last level they are sold, most per player (0: no limit) "
                        "(such as '20 500 4 2'; empty: none)", default="")
    add_on = StringField("Add-on: price, chips, the level it is sold at (such as '20 1000 4'; empty: none)",
                         default="")
    late_registration_levels = IntegerField("Late registration through level (empty: until the final table)",
                                            validators=[Optional(), NumberRange(min=1)])
    reentry = IntegerField("Re-entries per player", default=0, validators=[Optional(), NumberRange(min=0)])
    bounty = IntegerField("Bounty (part of the buy-in)", default=0, validators=[Optional(), NumberRange(min=0)])
    color_up = StringField("Chip races: the level and the chip raced off, a comma between races "
                           "(such as '5 5, 9 25'; empty: none)", default="")

    def data_for_rules(self) -> dict[str, Any]:
        data: dict[str, Any] = {"levels": read_levels(self.levels.data or ""), "starting_chips": self.starting_chips.data,
                                "buy_in": self.buy_in.data, "fee": self.fee.data,
                                "payouts": (self.payouts.data or "standard").strip() or "standard"}
        for key, fields in (("rebuy", ("price", "chips", "until_level", "max")), ("add_on", ("price", "chips", "at_level"))):
            words = (getattr(self, key).data or "").replace(",", " ").split()
            if words:
                if len(words) not in (len(fields), len(fields) - (key == "rebuy")):
                    raise StructureError(f"{key}: write {_LISTED[key]}")
                data[key] = dict(zip(fields, words))
        if self.late_registration_levels.data:
            data["late_registration_levels"] = self.late_registration_levels.data
        data["reentry"], data["bounty"] = self.reentry.data or 0, self.bounty.data or 0
        races = []
        for n, part in enumerate(p for p in (self.color_up.data or "").split(",") if p.strip()):
            words = part.split()
            if len(words) != 2:
                raise StructureError(f"chip race {n + 1}: write the level and the chip raced off (such as '5 5'), "
                                     f"not {part.strip()!r}")
            races.append({"level": words[0], "chip": words[1]})
        if races:
            data["color_up"] = races
        return data

    def fill(self, data: dict[str, Any]) -> None:
        self.levels.data = levels_text(data["levels"])
        self.starting_chips.data, self.buy_in.data = data["starting_chips"], data["buy_in"]
        self.fee.data = data.get("fee", 0)
        payouts = data.get("payouts", "standard")
        self.payouts.data = payouts if isinstance(payouts, str) else " ".join(map(str, payouts))
        r, a = data.get("rebuy"), data.get("add_on")
        self.rebuy.data = f"{r['price']} {r['chips']} {r['until_level']} {r.get('max', 0)}" if r else ""
        self.add_on.data = f"{a['price']} {a['chips']} {a['at_level']}" if a else ""
        self.late_registration_levels.data = data.get("late_registration_levels")
        self.reentry.data, self.bounty.data = data.get("reentry", 0), data.get("bounty", 0)
        self.color_up.data = ", ".join(f"{c['level']} {c['chip']}" for c in data.get("color_up", []))


def _preset_choices() -> list[Any]:
    """The presets as SelectField choices."""
    return select_choices((k, v[0]) for k, v in PRESETS.items())


class NewTournamentForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(), Length(max=120)])
    profile = StringField("House rules (profile)", default="cardroom", validators=[DataRequired()])
    preset = SelectField("Structure to start from", choices=_preset_choices())


def _back(t: Tournament, message: str, category: str = "success") -> Any:
    flash(message, category)
    return redirect(url_for("tournament.show", event_id=t.event_id))


@bp.get("/")
@login_required
def index() -> Any:
    """The tournaments, newest first, and (for a director) a form for a new one."""
    rows = list(db.session.scalars(db.select(Tournament).order_by(Tournament.id.desc())))
    return render_template("tournament/index.html", tournaments=rows, form=NewTournamentForm(), broken=_broken(rows),
                           ended=_ended(rows))


def _broken(rows: list[Tournament]) -> dict[int, str]:
    """Each listed tournament whose record does not match its seals, and why: its counts are withheld."""
    out = {}
    for t in rows:
        try:
            check_tournament(t)
        except SealBroken as exc:
            out[t.id] = str(exc)
    return out


def _ended(rows: list[Tournament]) -> set[int]:
    """The events a deal has ended (their lists say so, not how many are 'left')."""
    return {t.id for t in rows if t.id not in _broken([t]) and service.the_deal(t) is not None}


@bp.post("/")
@role_required(Role.director)
def create() -> Any:
    """Create a tournament from a preset (the director edits the structure next)."""
    form = NewTournamentForm()
    if not form.validate_on_submit():
        rows = list(db.session.scalars(db.select(Tournament).order_by(Tournament.id.desc())))
        return render_template("tournament/index.html", tournaments=rows, form=form, broken=_broken(rows),
                               ended=_ended(rows)), 400
    try:
        t = service.create(form.name.data or "", PRESETS[form.preset.data or "regular"][1], form.profile.data or "cardroom")
    except RulesError as exc:
        form.profile.errors = [str(exc)]
        rows = list(db.session.scalars(db.select(Tournament).order_by(Tournament.id.desc())))
        return render_template("tournament/index.html", tournaments=rows, form=form, broken=_broken(rows),
                               ended=_ended(rows)), 400
    return _back(t, f"{t.event.name} created from the {form.preset.data} preset; edit its structure below.")


@bp.get("/<int:event_id>/")
@role_required(Role.floor)
def show(event_id: int) -> Any:
    """The event's page: clock controls, structure, entries, tables, the draw."""
    t = service.get(event_id)
    form = StructureForm()
    form.fill(t.structure)
    return render_template("tournament/show.html", t=t, s=service.structure(t), info=service.summary(t),
                           tables=service.event_tables(t), results=service.results(t), form=form,
                           presets=PRESETS, Break=Break)


@bp.post("/<int:event_id>/structure")
@role_required(Role.director)
def structure(event_id: int) -> Any:
    """Write the structure (from the form, or a preset when ``preset`` is posted)."""
    t = service.get(event_id)
    preset = request.form.get("preset")
    form = StructureForm()
    try:
        if preset:
            if preset not in PRESETS:
                abort(400, description=f"no preset {preset!r}")
            service.set_structure(t, PRESETS[preset][1])
            return _back(t, f"Structure set from the {preset} preset.")
        if not form.validate_on_submit():
            raise StructureError("; ".join(f"{getattr(form, k).label.text}: {', '.join(v)}" for k, v in form.errors.items()))
        service.set_structure(t, form.data_for_rules())
    except StructureError as exc:
        flash(f"Structure not saved: {in_form_words(str(exc))}", "error")
        return render_template("tournament/show.html", t=t, s=service.structure(t), info=service.summary(t),
                               tables=service.event_tables(t), results=service.results(t), form=form,
                               presets=PRESETS, Break=Break), 400
    return _back(t, "Structure saved.")


@bp.post("/<int:event_id>/entries")
@role_required(Role.floor)
def add_entry(event_id: int) -> Any:
    """Enter players: one name, or several, one a line; or the player the picker found (player_id)."""
    t = service.get(event_id)
    names: list[Any] = [n for n in (request.form.get("players") or "").splitlines() if n.strip()]
    picked = request.form.get("player_id", "").strip()
    if picked.isascii() and picked.isdigit():
        names.append({"id": int(picked)})
    elif (request.form.get("player") or "").strip():
        names.append(request.form["player"])
    if not names:
        return _back(t, "Write a player's name.", "error")
    said, refused = [], False
    for name in names:
        try:
            entry, seated = desk.add_entry(t, name, current_user)
        except (RulesError, tables.StaleVersion) as exc:
            db.session.rollback()
            said.append(f"{name.strip() if isinstance(name, str) else 'player #' + str(name['id'])}: {exc}")
            refused = True
            continue
        said.append(f"{entry.player} entered" + (f", seated at {seated[0].name} seat {seated[1]}" if seated else ""))
    return _back(t, "; ".join(said), "error" if refused else "success")  # a refusal is not shown as done


@bp.post("/<int:event_id>/tables")
@role_required(Role.director)
def add_table(event_id: int) -> Any:
    """Add a table to the event."""
    t = service.get(event_id)
    try:
        seats = whole(request.form.get("seats") or "8", "seats", 2, MOST_SEATS)
        table = service.add_table(t, request.form.get("name") or "", seats)
    except (RulesError, ValueError) as exc:
        return _back(t, f"Table not added: {exc}", "error")
    return _back(t, f"{table.name} added ({seats} seats).")


@bp.post("/<int:event_id>/draw")
@role_required(Role.floor)
def draw(event_id: int) -> Any:
    """The random draw for seats; then the printable seating list."""
    t = service.get(event_id)
    try:
        service.draw_seats(t)
    except RulesError as exc:
        return _back(t, f"No draw: {exc}", "error")
    flash("Seats drawn. Print the seating list.", "success")
    return redirect(url_for("tournament.seating", event_id=event_id))


@bp.post("/<int:event_id>/clock")
@role_required(Role.floor)
def clock(event_id: int) -> Any:
    """A move of the clock: start, pause, resume, advance, back."""
    t = service.get(event_id)
    action = request.form.get("action", "")
    try:
        service.move_clock(t, action, current_user)
    except RulesError as exc:
        return _back(t, str(exc), "error")
    return _back(t, f"Clock: {action}.")


def _seating_rows(t: Tournament) -> list[dict[str, Any]]:
    people, _ = service.seated(t)
    return [{"player": p.player, "table": p.table.name, "seat": p.seat, "stack": p.stack}
            for p in sorted(people, key=lambda p: p.player.casefold())]


def _by_table(t: Tournament) -> list[tuple[Table, TableState]]:
    """Each table of the event with its engine state, typed (issue 23): the page reads the button
    and each seat's player and stack as attributes; no plain-data copy of a table is made for it."""
    return [(x, tables.table_state(x)) for x in service.event_tables(t)]


@bp.get("/<int:event_id>/seating")
@role_required(Role.floor)
def seating(event_id: int) -> Any:
    """The seating list, by player's name, printable (and by table)."""
    t = service.get(event_id)
    return render_template("tournament/seating.html", t=t, rows=_seating_rows(t), pdf=False,
                           by_table=_by_table(t))


@bp.get("/<int:event_id>/seating.pdf")
@role_required(Role.floor)
def seating_pdf(event_id: int) -> Any:
    """The seating list as a PDF."""
    t = service.get(event_id)
    html = render_template("tournament/seating.html", t=t, rows=_seating_rows(t), pdf=True,
                           by_table=_by_table(t))
    return pdf_response(html, f"seating-{event_id}.pdf")


@bp.get("/<int:event_id>/wall")
@login_required
def wall(event_id: int) -> Any:
    """The wall clock for a big screen: it polls the clock's JSON and counts down in between."""
    t = service.get(event_id)
    return render_template("tournament/wall.html", t=t, info=service.summary(t))


def _floor_context(t: Tournament) -> dict[str, Any]:
    table_list = service.event_tables(t)
    calls = list(db.session.scalars(db.select(FloorCall).where(
        FloorCall.table_id.in_([x.id for x in table_list]), FloorCall.closed_at.is_(None))))
    return {"t": t, "plan": floorwork.plan(t), "chips": service.chip_counts(t), "info": service.summary(t),
            "names": {x.id: x.name for x in table_list}, "calls": calls, "races": desk.races_due(t)}


def _desk_context(t: Tournament) -> dict[str, Any]:
    """The desk's forms below the bust-out, on the full page only (the panel the page polls shows
    none of them, so it does not read them every few seconds): the undo of the latest manual
    bust-out (not offered while a disqualification made after it stands:
    :func:`floor.tournament.desk.reinstate` refuses it), who is out and may still be disqualified
    (the last out first), and the desk actions of the disqualifications that stand (each with a
    button to lift it)."""
    standing = desk_models.disqualifications(t)
    undo = desk.last_manual_bust(t)
    later = standing.get(undo[0].player.casefold()) if undo is not None else None
    if undo is not None and later is not None and later.id != undo[1].id:
        undo = None
    out = sorted((e for e in t.entries if e.is_out), key=lambda e: e.out_order or 0, reverse=True)
    return {"undo_bust": undo, "out_to_disqualify": [e.player for e in out if e.player.casefold() not in standing],
            "disqualified": sorted(standing.values(), key=lambda action: action.id)}


@bp.get("/<int:event_id>/floor")
@role_required(Role.floor)
def floor_page(event_id: int) -> Any:
    """The floor's page: balancing suggestions (one tap each), chip counts, calls; it refreshes itself."""
    t = service.get(event_id)
    return render_template("tournament/floor.html", **_floor_context(t), **_desk_context(t))


@bp.get("/<int:event_id>/floor/panel")
@role_required(Role.floor)
def floor_panel(event_id: int) -> Any:
    """The floor page's changing part, polled by the page."""
    return render_template("tournament/_floor.html", **_floor_context(service.get(event_id)))


@bp.post("/<int:event_id>/moves")
@role_required(Role.floor)
def move(event_id: int) -> Any:
    """Carry out one suggested move (one tap)."""
    t = service.get(event_id)
    try:
        move = json.loads(request.form.get("move") or "{}")
        said = floorwork.carry_out(t, move, current_user)
    except (RulesError, tables.StaleVersion, ValueError) as exc:
        flash(f"Not moved: {exc}", "error")
    else:
        flash(said + ".", "success")
    return redirect(url_for("tournament.floor_page", event_id=event_id))


@bp.post("/<int:event_id>/buys")
@role_required(Role.floor)
def buy(event_id: int) -> Any:
    """A rebuy or an add-on for a player."""
    t = service.get(event_id)
    entry = service.entry_named(t, request.form.get("player") or "")
    if entry is None:
        flash("No such entry.", "error")
    else:
        try:
            flash(floorwork.buy(t, entry, request.form.get("kind") or "", current_user) + ".", "success")
        except (RulesError, tables.StaleVersion) as exc:
            flash(str(exc), "error")
    return redirect(url_for("tournament.floor_page", event_id=event_id))


@bp.get("/<int:event_id>/results")
@login_required
def results(event_id: int) -> Any:
    """Places and prizes so far."""
    t = service.get(event_id)
    return render_template("tournament/results.html", pdf=False, **_results_context(t))


def _results_context(t: Tournament) -> dict[str, Any]:
    rows = service.results(t)
    paid = {"prizes": sum(r["prize"] or 0 for r in rows), "bounties": sum(r["bounties"] for r in rows)}
    return {"t": t, "rows": rows, "info": service.summary(t), "deal": service.the_deal(t),
            "bounty_rows": service.bounty_rows(t), "paid": paid}


@bp.get("/<int:event_id>/results.pdf")
@login_required
def results_pdf(event_id: int) -> Any:
    """The results as a PDF (WeasyPrint; nothing loaded from outside the document)."""
    t = service.get(event_id)
    html = render_template("tournament/results.html", pdf=True, **_results_context(t))
    return pdf_response(html, f"results-{event_id}.pdf")


@bp.get("/<int:event_id>/results.csv")
@login_required
def results_csv(event_id: int) -> Any:
    """The results as CSV: place, player, prize, bounties, out at, table, hand, rebuys, add-ons,
    re-entries, deal, disqualified ("DQ"). Times in the card room's zone, with their offset, as the pages show them."""
    t = service.get(event_id)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", "player", "prize", "bounties", "out_at", "table", "hand", "rebuys", "add_ons",
                     "reentries", "deal", "disqualified"])
    for r in service.results(t):
        writer.writerow([r["place"] or "", r["player"], "" if r["prize"] is None else r["prize"], r["bounties"],
                         local_iso(r["out_at"]), r["table"] or "", r["hand"] or "", r["rebuys"], r["add_ons"],
                         r["reentries"], "yes" if r["deal"] else "", "DQ" if r["disqualified"] else ""])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="results-{event_id}.csv"'})


@bp.post("/<int:event_id>/desk")
@role_required(Role.floor)
def desk_action(event_id: int) -> Any:
    """The floor's desk: a manual bust-out, a recount, hand for hand on or off, the chip race."""
    t = service.get(event_id)
    action = request.form.get("action", "")
    player, reason = request.form.get("player") or "", request.form.get("reason") or ""
    try:
        if action == "eliminate" and request.form.get("confirmed") != "yes":
            # a bust-out gives a place and takes the chips off the table: the floor confirms it
            # first, on a page that says who, where, how many chips and which place
            return render_template("tournament/confirm_bust.html", t=t, bust=desk.bust_preview(t, player),
                                   reason=reason)
        if action == "eliminate":
            disqualified = request.form.get("disqualified") == "yes"
            entry = desk.eliminate(t, player, reason, current_user, disqualified=disqualified)
            said = f"{entry.player} is out"
            if disqualified:  # a room's ban is the director's own act (docs/tournament.md, "Disqualification")
                said += (", disqualified: no rebuy, add-on or entry in this event; to bar them from the room too, "
                         "a director bans their player record")
        elif action == "reinstate":
            entry = desk.reinstate(t, player, reason, current_user)
            said = f"The bust-out of {entry.player} is undone: back in the seat with the chips"
        elif action == "disqualify":
            entry = disqualification.disqualify(t, player, reason, current_user)
            said = (f"{entry.player} is disqualified: no rebuy, add-on or entry in this event; their place stands; "
                    "to bar them from the room too, a director bans their player record")
        elif action == "lift_disqualification":
            entry = disqualification.lift_disqualification(t, player, reason, current_user)
            said = f"The disqualification of {entry.player} is lifted: they may buy in again as anyone"
        elif action == "count":
            done = desk.recount(t, player, request.form.get("stack"), reason, current_user)
            said = f"{done['player']}: {done['stack']} counted ({done['change']:+d})"
        elif action in ("hand_for_hand_on", "hand_for_hand_off"):
            desk.set_hand_for_hand(t, action.endswith("_on"), current_user)
            said = "Hand for hand " + ("on: the clock is paused" if action.endswith("_on") else "off")
        elif action == "color_up":
            said = f"Chip race run at {len(desk.color_up(t, current_user))} table(s)"
        else:
            raise IllegalAction("desk: eliminate, reinstate, disqualify, lift_disqualification, count, "
                                "hand_for_hand_on, hand_for_hand_off or color_up")
    except (RulesError, tables.StaleVersion) as exc:
        flash(str(exc), "error")
    else:
        flash(said + ".", "success")
    return redirect(url_for("tournament.floor_page", event_id=event_id))
