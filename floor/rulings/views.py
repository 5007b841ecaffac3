"""Issued rulings: the dispute walk's routes, the stored record, its PDF and its check.

Blueprint ``rulings`` (``/rulings``): any role may read a ruling; settling a dispute, confirming
and correcting are for the floor. The walk itself (reading answers, the next question, the
preview) is :mod:`floor.rulings.walk`; issuing and applying is :mod:`floor.rulings.issuing`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm

from floor import tables, witness
from floor.auth.access import require_role, role_required
from floor.extensions import db
from floor.house_profiles import profile_names
from floor.inputs import BadNumber, whole_or_none
from floor.localtime import local
from floor.models import IssuedRuling, Role, Table
from floor.rulings import issuing, search, stored
from floor.rulings.printed import send_ruling_pdf
from floor.rulings.stored import cited
from floor.seals import SealBroken
from floor.verify import ruling_problems
from floor.rulings.walk import (
    DisputeWalk,
    EngineForm,
    IssueForm,
    WalkForm,
    BadAnswer,
    fact_rows,
    posted_facts,
    read_answer,
    render_engine,
    render_walk,
    show_value,
)
from rules import MissingFact, RulesError, jackpot
from rules.rulings import FACTS, questions_for
from rules.words import ruling_headline

bp = Blueprint("rulings", __name__, url_prefix="/rulings")
bp.before_request(require_role(Role.dealer))  # viewing: any role; issuing: floor (below)


@bp.route("/new", methods=["GET", "POST"])
@role_required(Role.floor)
def new() -> Any:
    """Settle a dispute: answer the tree's questions one at a time, preview the ruling, issue it."""
    if request.method == "GET":
        return start(DisputeWalk(request.args))
    walk = DisputeWalk(request.form)
    step = request.form.get("step", "answer")
    form: WalkForm = IssueForm() if step == "issue" else EngineForm() if step == "engine" else WalkForm()
    if not form.validate_on_submit():
        abort(400, description="; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
              or "The form could not be read. Start the dispute again.")
    facts = posted_facts()
    if request.form.get("drop"):
        name = request.form["drop"]
        facts.pop(name, None)
        walk.logged.discard(name)
        return render_walk(walk, facts)
    if step == "engine":
        return issue_by_engine(walk)
    if step == "issue":
        return issue_ruling(walk, facts, form)
    fact = request.form.get("fact", "")
    spec = FACTS.get(fact)
    if spec is None:
        abort(400, description="The form does not say which question it answers. Start the dispute again.")
    try:
        value = read_answer(spec.kind, request.form, walk.seats())
        trial = dict(facts, **{fact: value})
        questions_for(trial, walk.profile)  # the rules may refuse the answer (a reopener who passed)
    except (BadAnswer, RulesError) as exc:
        return render_walk(walk, facts, error=str(exc), status=400)
    if fact == "issue" and walk.table is not None:
        # The issue is known now: the log answers what it can (the floor's answers stay).
        known = issuing.jsonable(issuing.table_facts(walk.table, value))
        walk.logged |= set(known) - set(trial) - {"issue", "seat"}
        trial = {**known, **trial}
        found = issuing.engine_preview(walk.table, value)
        if found is not None and walk.supersedes is None:
            return render_engine(walk, found)
    return render_walk(walk, trial)


def start(walk: DisputeWalk) -> Any:
    """The first page of a walk: facts from the table's log, the old ruling's facts, or a blank."""
    issue = (request.args.get("issue") or "").strip()
    seat = (request.args.get("seat") or "").strip()
    if walk.supersedes is not None:
        return render_walk(walk, dict(walk.supersedes.facts))
    if walk.table is None and not walk.profile_name and not issue:
        return render_template("rulings/start.html", profiles=profile_names(),
                               tables=db.session.scalars(db.select(Table).order_by(Table.name)).all())
    facts: dict[str, Any] = {}
    if issue:
        try:
            if walk.table is not None:
                facts = issuing.jsonable(issuing.table_facts(walk.table, issue, seat or None))
                walk.logged = set(facts) - {"issue", "seat"}
            else:
                facts = {"issue": FACTS["issue"].parse(issue)}
                if seat:
                    facts["seat"] = FACTS["seat"].parse(seat)
        except RulesError as exc:
            abort(400, description=str(exc))
        if walk.table is not None and request.args.get("by_hand") != "1":
            found = issuing.engine_preview(walk.table, issue)
            if found is not None:
                return render_engine(walk, found)
    return render_walk(walk, facts)

def issue_by_engine(walk: DisputeWalk) -> Any:
    """Log the engine's own false_openers event and go to the ruling it stored."""
    if walk.table is None:
        abort(400, description="False openers can be logged only for a table.")
    try:
        expected = whole_or_none(request.form.get("version"), "version")
    except BadNumber as exc:
        abort(400, description=str(exc))
    try:
        row, state = issuing.log_false_openers(walk.table, current_user, expected)
    except tables.StaleVersion as exc:
        flash(f"Not logged: {exc}", "error")
        return redirect(url_for("rulings.new", table=walk.table.id, issue="false_openers"))
    except (RulesError, ValueError) as exc:
        db.session.rollback()
        abort(409, description=f"The table refused it: {exc}")
    flash(issuing.false_openers_logged(walk.table, row, state), "success")
    if row is None:
        return redirect(url_for("floorpages.index"))
    return redirect(url_for("rulings.detail", ruling_id=row.id))


def issue_ruling(walk: DisputeWalk, facts: dict[str, Any], form: IssueForm) -> Any:
    """Store the previewed ruling (and apply it to the table), then show it."""
    apply = bool(form.apply.data) and walk.table is not None
    try:
        row = issuing.issue(facts, current_user, table=walk.table, profile=walk.profile_name or None, apply=apply,
                            supersedes=walk.supersedes.id if walk.supersedes else None, note=form.note.data or "")
    except MissingFact:
        return render_walk(walk, facts)
    except tables.StaleVersion as exc:
        return render_walk(walk, facts, error=f"Not issued: {exc}", status=409)
    except (issuing.IssueError, RulesError, ValueError) as exc:
        return render_walk(walk, facts, error=f"Not issued: {exc}", status=400)
    flash(f"Ruling #{row.id} issued" + (f" and applied to {walk.table.label}." if apply and walk.table else "."),
          "success")
    return redirect(url_for("rulings.detail", ruling_id=row.id))


# --------------------------------------------------------------------------- a stored ruling


def seated_then(row: IssuedRuling) -> dict[int, str]:
    """Seat -> player as the table sat when the ruling was logged (the log up to its entry): a
    newcomer who sat down during the night is named (the starting line-up printed "7 · —" for the
    reopener), and a seat that changed hands since names who sat there then. The line-up's names
    for a ruling not logged at a table, or a log that does not replay."""
    names = stored.players(row)
    if row.table is None or not row.log_seq:
        return names
    try:  # one replay, for the one ruling shown (the lists name seats by the record's headline)
        then = jackpot.replay_state(row.table.setup, tables.events_of(row.table)[:row.log_seq]).seats
    except (RulesError, ValueError, SealBroken, witness.RolledBack):
        return names
    return {**names, **{int(s): x.player for s, x in then.items()}}


def ruling_context(row: IssuedRuling) -> dict[str, Any]:
    """Everything the page and the print show of a stored ruling."""
    rec = row.record
    names = seated_then(row)
    game, house = stored.house_rules_line(row)
    # the pot's line and the note are worded as true now: the table may have played on since, a
    # floor person may have confirmed a ruling of the rules (so a print depends on those too)
    now = tables.table_state(row.table) if row.table is not None else None  # typed (issue 23)
    return {
        "pot_line": stored.pot_words(row, names, now),
        "note_line": stored.note_words(row, local(row.confirmed_at) if row.confirmed_at else ""),
        "r": row, "rec": rec, "rows": fact_rows(dict(row.facts), only=stored.path_facts(row)),
        "headline": stored.headline_words(rec.get("headline") or ruling_headline(rec, names), row, now),
        "game": game, "house": house,
        "moves": stored.movements(rec, names), "rules": cited(rec.get("citations", [])),
        "people": [(s, names.get(s, "")) for s in stored.concerned_seats(row)],
        "newer": row.superseded_by, "intact": row.intact and not witness.ruling_problems(row),
        "verify_url": public_url("rulings.verify", ruling_id=row.id),
        "show_value": show_value, "confirm_form": ConfirmForm(),
        "room": witness.room_record(row),
    }


def public_url(endpoint: str, **values: Any) -> str:
    """``endpoint``'s address under the configured public address (``FLOOR_PUBLIC_URL``), or "" when
    none is configured: a print never names the host that happened to serve it (a tablet's LAN
    address, a proxy's inside name), which a reader elsewhere cannot reach."""
    base = current_app.config.get("FLOOR_PUBLIC_URL")
    return f"{str(base).rstrip('/')}{url_for(endpoint, **values)}" if base else ""


@bp.get("/")
def index() -> Any:
    """The issued rulings, newest first; searched by rule id, table, player and date
    (:mod:`floor.rulings.search`)."""
    try:
        criteria = search.Search.read(request.args)
    except search.SearchError as exc:
        return render_template("rulings/index.html", rulings=[], criteria=search.Search(), error=str(exc),
                               args=request.args, full=False), 400
    rows, full = search.find(criteria)
    return render_template("rulings/index.html", rulings=rows, criteria=criteria, error="", args=request.args,
                           full=full)


@bp.get("/<int:ruling_id>")
def detail(ruling_id: int) -> Any:
    """One issued ruling, as stored."""
    row = db.get_or_404(IssuedRuling, ruling_id, description=f"There is no ruling #{ruling_id}.")
    return render_template("rulings/detail.html", **ruling_context(row))


@bp.get("/<int:ruling_id>.pdf")
def pdf(ruling_id: int) -> Any:
    """The ruling on one A4 page, to hand over at the table."""
    row = db.get_or_404(IssuedRuling, ruling_id, description=f"There is no ruling #{ruling_id}.")
    html = render_template("rulings/print.html", **ruling_context(row))
    # rendered once, then served from storage while the seal and the printed page are the same
    return send_ruling_pdf("jackpot", row.id, row.digest, html, download_name=f"ruling-{row.id}.pdf")


@bp.get("/<int:ruling_id>/verify")
def verify(ruling_id: int) -> Any:
    """Recompute the ruling's seal and check its table's log (floor.verify: the same checks as
    ``flask --app floor verify``); say whether all of it matches, and name what does not."""
    row = db.get_or_404(IssuedRuling, ruling_id, description=f"There is no ruling #{ruling_id}.")
    problems = ruling_problems(row)
    return render_template("rulings/verify.html", r=row, recomputed=row.compute_digest(), intact=not problems,
                           problems=problems)


class ConfirmForm(FlaskForm):
    """A floor person's signature on a ruling the rules made (the CSRF token is all it carries)."""


@bp.post("/<int:ruling_id>/confirm")
@role_required(Role.floor)
def confirm(ruling_id: int) -> Any:
    """Confirm (sign) a ruling the rules made on a dealer's tap: it becomes this floor person's."""
    row = db.get_or_404(IssuedRuling, ruling_id, description=f"There is no ruling #{ruling_id}.")
    if not ConfirmForm().validate_on_submit():
        abort(400, description="The form expired; reload the page and try again.")
    try:
        issuing.confirm_ruling(row, current_user)
    except issuing.IssueError as exc:
        flash(str(exc), "error")
        return redirect(url_for("rulings.detail", ruling_id=row.id))
    flash(f"Ruling #{row.id} confirmed: it is signed by {current_user.username}.", "success")
    return redirect(url_for("rulings.detail", ruling_id=row.id))


@bp.get("/<int:ruling_id>/correct")
@role_required(Role.floor)
def correct(ruling_id: int) -> Any:
    """Start a correction: the dispute walk with the old ruling's facts filled in."""
    row = db.get_or_404(IssuedRuling, ruling_id, description=f"There is no ruling #{ruling_id}.")
    if row.superseded_by is not None:
        flash(f"Ruling #{row.id} was already corrected by ruling #{row.superseded_by.id}; correct that one.", "error")
        return redirect(url_for("rulings.detail", ruling_id=row.superseded_by.id))
    return redirect(url_for("rulings.new", supersedes=row.id))


__all__ = ["bp", "ruling_context"]
