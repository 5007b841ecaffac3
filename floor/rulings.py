"""Issued rulings: the dispute walk of the decision tree, the stored record, its PDF and its check.

The walk is stateless: every answer so far travels in the form as a hidden ``fact-<name>`` field
holding JSON, and each POST asks the rules for the next question (``rules.rulings.questions_for``)
until the tree can rule. The ruling is shown before it is issued; issuing is a separate POST.
For false openers on a logged hand the page offers the engine's own ``false_openers`` event
instead (see :mod:`floor.issuing`); "settle it by hand" falls back to the walk.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user
from flask_weasyprint import HTML, render_pdf
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, TextAreaField
from wtforms.validators import Length

from floor import issuing, tables
from floor.auth import require_role, role_required
from floor.extensions import db
from floor.models import HouseProfile, Role, Ruling, Table
from rules import CardError, MissingFact, RulesError, catalogue, profiles
from rules.cards import parse_cards
from rules.rulings import FACTS, questions_for
from rules.words import ruling_headline

bp = Blueprint("rulings", __name__, url_prefix="/rulings")
bp.before_request(require_role(Role.dealer))  # viewing: any role; issuing: floor (below)


class WalkForm(FlaskForm):
    """One step of the walk; the facts so far ride along as ``fact-<name>`` hidden fields."""

    table = HiddenField()
    profile = HiddenField()
    supersedes = HiddenField()
    logged = HiddenField()  # the facts that came from the table's log, comma separated


class IssueForm(WalkForm):
    """The confirmation of a previewed ruling."""

    apply = BooleanField("Apply the ruling to the table's log now", default=True)
    note = TextAreaField("Note for the record (optional)", validators=[Length(max=2000)])


class EngineForm(WalkForm):
    """The confirmation of false openers logged as the engine's own event."""


# --------------------------------------------------------------------------- reading the walk


class BadAnswer(ValueError):
    """An answer that cannot be read; the message is shown beside the question."""


def _int(text: str, what: str) -> int:
    text = text.strip()
    if not re.fullmatch(r"\d+", text):
        raise BadAnswer(f"{what}: write a whole number, not {text!r}" if text else f"{what}: a number is needed")
    return int(text)


def _pairs(text: str, what: str) -> list[tuple[str, str]]:
    """``"2: 10, 4: 20"`` or one ``seat: value`` per line."""
    out = []
    for part in re.split(r"[\n;]+|,(?=\s*\d+\s*:)", text):
        if not part.strip():
            continue
        seat, sep, value = part.partition(":")
        if not sep:
            raise BadAnswer(f"{what}: write 'seat: value', for example '3: 10'; could not read {part.strip()!r}")
        out.append((seat.strip(), value.strip()))
    return out


def _cards(text: str, what: str) -> list[str]:
    try:
        return [str(c) for c in parse_cards(text)]
    except CardError as exc:
        raise BadAnswer(f"{what}: {exc}") from None


def read_answer(kind: str, form: Any, seats: list[int]) -> Any:
    """The answer of one question, read from the posted form by the kind of fact it asks."""
    value = (form.get("answer") or "").strip()
    if kind in ("choice", "bool", "seat", "seat_or_none") and not value:
        raise BadAnswer("Pick one of the answers.")
    if kind == "choice":
        return value
    if kind == "bool":
        if value not in ("yes", "no"):
            raise BadAnswer("Answer yes or no.")
        return value == "yes"
    if kind == "seat":
        return _int(value, "seat")
    if kind == "seat_or_none":
        return None if value == "none" else _int(value, "seat")
    if kind == "seats":
        picked = form.getlist("answer") if seats else re.split(r"[\s,]+", value)
        return sorted({_int(v, "seat") for v in picked if v.strip()})
    if kind == "count":
        return _int(value, "number")
    if kind == "count_or_none":
        return _int(value, "number") if value else None
    if kind == "chips":
        amounts = [v for v in re.split(r"[\s,]+", value) if v]
        if not amounts:
            raise BadAnswer("Write the amounts in order, for example '10 20'.")
        return [_int(v, "chips") for v in amounts]
    if kind == "bets":
        if seats:
            return {str(s): _int(form.get(f"answer-{s}") or "0", f"seat {s}") for s in seats}
        return {str(_int(s, "seat")): _int(v, "chips") for s, v in _pairs(value, "bets")}
    if kind == "cards":
        if not value:
            raise BadAnswer("Write the cards, for example 'Js Jh 7c 4d Jk'.")
        return _cards(value, "cards")
    if kind == "cards_or_none":
        return _cards(value, "cards") if value else None
    if kind == "hands":
        if seats:
            given = {s: (form.get(f"answer-{s}") or "").strip() for s in seats}
            pairs = [(str(s), v) for s, v in given.items() if v]
        else:
            pairs = _pairs(value, "hands")
        if not pairs:
            raise BadAnswer("Write the cards of at least one hand.")
        return {str(_int(s, "seat")): _cards(v, f"seat {s}") for s, v in pairs}
    raise BadAnswer(f"this page cannot ask a fact of kind {kind!r}")  # pragma: no cover


def posted_facts() -> dict[str, Any]:
    """The facts carried by the posted form."""
    facts: dict[str, Any] = {}
    for key, raw in request.form.items():
        if key.startswith("fact-"):
            name = key[5:]
            if name not in FACTS:
                abort(400, description=f"The form carries an unknown fact {name!r}. Start the dispute again.")
            try:
                facts[name] = json.loads(raw)
            except ValueError:
                abort(400, description="The form was damaged on the way. Start the dispute again.")
    return facts


def show_value(name: str, value: Any) -> str:
    """A fact's value in plain words."""
    spec = FACTS.get(name)
    if value is None:
        return "nobody" if spec is not None and spec.kind == "seat_or_none" else "not known"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if spec is not None and spec.kind == "choice" and value in spec.choices and spec.labels:
        return str(spec.labels[spec.choices.index(value)])
    if isinstance(value, dict):
        if not value:
            return "none"
        return "; ".join(f"seat {k}: {show_value('', v)}" for k, v in sorted(value.items(), key=lambda kv: int(kv[0])))
    if isinstance(value, (list, tuple)):
        if spec is not None and spec.kind in ("cards", "cards_or_none") or (value and isinstance(value[0], str)):
            return " ".join(str(v) for v in value) or "none"
        if spec is not None and spec.kind == "seats":
            return ("seat " if len(value) == 1 else "seats ") + ", ".join(str(v) for v in value) if value else "none"
        return ", ".join(str(v) for v in value) or "none"
    if spec is not None and spec.kind in ("seat", "seat_or_none"):
        return f"seat {value}"
    return str(value)


def fact_rows(facts: dict[str, Any], logged: set[str] | frozenset[str] = frozenset(),
              only: set[str] | None = None) -> list[dict[str, Any]]:
    """The facts in the tree's order, each with its question, its title and value in words and its
    source; ``only`` keeps those a ruling's path read (a printed ruling shows no others)."""
    order = list(FACTS)
    rows = []
    for name in sorted(facts, key=lambda n: order.index(n) if n in order else len(order)):
        if only is not None and name not in only:
            continue
        spec = FACTS.get(name)
        rows.append({"name": name, "question": spec.question if spec else name,
                     "title": spec.title if spec else name.replace("_", " "),
                     "value": show_value(name, facts[name]), "logged": name in logged})
    return rows


def cited(ids: list[str]) -> list[Any]:
    """The catalogue's rules for the cited ids (an id the catalogue lacks is shown bare)."""
    out = []
    for rid in ids:
        try:
            out.append(catalogue.rule(rid))
        except RulesError:
            out.append(catalogue.Rule(rid, "(not in the catalogue)", "", ()))
    return out


def profile_choices() -> list[str]:
    house = db.session.scalars(db.select(HouseProfile.name).order_by(HouseProfile.name)).all()
    return list(profiles.PROFILES) + [h for h in house if h not in profiles.PROFILES]


# --------------------------------------------------------------------------- the walk


class Walk:
    """The context of one dispute walk, read from the query string (GET) or the form (POST)."""

    def __init__(self, source: Any) -> None:
        self.table: Table | None = None
        self.supersedes: Ruling | None = None
        table_id = (source.get("table") or "").strip()
        if table_id:
            if not table_id.isdigit():
                abort(404, description=f"There is no table {table_id!r}.")
            self.table = db.get_or_404(Table, int(table_id), description=f"There is no table {table_id}.")
        old = (source.get("supersedes") or "").strip()
        if old:
            if not old.isdigit():
                abort(404, description=f"There is no ruling {old!r} to correct.")
            self.supersedes = db.get_or_404(Ruling, int(old), description=f"There is no ruling #{old} to correct.")
            if self.table is None:
                self.table = self.supersedes.table
        self.profile_name = (source.get("profile") or "").strip() or (
            self.supersedes.profile if self.supersedes is not None and self.table is None else "")
        try:
            self.profile = issuing.profile_of(self.table, self.profile_name or None)
        except issuing.IssueError as exc:
            abort(400, description=f"{exc}. Pick one of: {', '.join(profile_choices())}.")
        self.logged = {n for n in (source.get("logged") or "").split(",") if n}

    @property
    def profile_label(self) -> str:
        return self.table.profile_name if self.table is not None else (self.profile_name or "cardroom")

    def hidden(self) -> dict[str, str]:
        return {"table": str(self.table.id) if self.table else "", "profile": self.profile_name,
                "supersedes": str(self.supersedes.id) if self.supersedes else "", "logged": ",".join(sorted(self.logged))}

    def seats(self) -> list[int]:
        if self.table is None:
            return []
        return sorted(int(s["seat"]) for s in self.table.setup.get("seats", []))

    def players(self) -> dict[int, str]:
        if self.table is None:
            return {}
        return {int(s["seat"]): str(s.get("player", "")) for s in self.table.setup.get("seats", [])}


def _form(cls: type[WalkForm], walk: Walk) -> WalkForm:
    form = cls(formdata=None, data=walk.hidden())
    return form


def render_walk(walk: Walk, facts: dict[str, Any], error: str = "", status: int = 200) -> Any:
    """The next question, or the preview of the ruling when the tree has all it needs."""
    common = {"walk": walk, "facts": facts, "rows": fact_rows(facts, walk.logged),
              "facts_json": {k: json.dumps(v) for k, v in facts.items()}}
    try:
        prompt = questions_for(facts, walk.profile)
    except RulesError as exc:
        return render_template("rulings/new.html", prompt=None, form=_form(WalkForm, walk), error="",
                               broken=str(exc), **common), 400
    if prompt is not None:
        return render_template("rulings/new.html", prompt=prompt, form=_form(WalkForm, walk), error=error,
                               broken="", choices=_choices(prompt, walk), **common), status
    try:
        ruling = issuing.preview(facts, walk.profile)
    except RulesError as exc:
        return render_template("rulings/new.html", prompt=None, form=_form(WalkForm, walk), error="",
                               broken=str(exc), **common), 400
    record = ruling.to_dict()
    form = _form(IssueForm, walk)
    return render_template("rulings/preview.html", ruling=record, form=form, error=error,
                           moves=issuing.movements(record, walk.players()), rules=cited(record["citations"]),
                           **common), status


def _choices(prompt: Any, walk: Walk) -> list[tuple[str, str]]:
    """(value, label) pairs for the questions answered by picking."""
    names = walk.players()

    def seat_label(s: int) -> str:
        return f"Seat {s}" + (f" · {names[s]}" if names.get(s) else "")

    if prompt.kind == "choice":
        labels = prompt.labels or prompt.choices
        return [(str(c), str(label)) for c, label in zip(prompt.choices, labels)]
    if prompt.kind == "bool":
        return [("yes", "Yes"), ("no", "No")]
    if prompt.kind in ("seat", "seat_or_none", "seats"):
        if prompt.choices:
            return [("none", "Nobody") if c is None else (str(c), seat_label(int(c))) for c in prompt.choices]
        out = [(str(s), seat_label(s)) for s in walk.seats()]
        if prompt.kind == "seat_or_none" and out:
            out.append(("none", "Nobody"))
        return out
    return []


@bp.route("/new", methods=["GET", "POST"])
@role_required(Role.floor)
def new() -> Any:
    """Settle a dispute: answer the tree's questions one at a time, preview the ruling, issue it."""
    if request.method == "GET":
        return start(Walk(request.args))
    walk = Walk(request.form)
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
        return issue_ruling(walk, facts, form)  # type: ignore[arg-type]
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


def start(walk: Walk) -> Any:
    """The first page of a walk: facts from the table's log, the old ruling's facts, or a blank."""
    issue = (request.args.get("issue") or "").strip()
    seat = (request.args.get("seat") or "").strip()
    if walk.supersedes is not None:
        return render_walk(walk, dict(walk.supersedes.facts))
    if walk.table is None and not walk.profile_name and not issue:
        return render_template("rulings/start.html", profiles=profile_choices(),
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


def render_engine(walk: Walk, found: issuing.EnginePreview) -> Any:
    """What logging false openers would do at this table, before it is logged."""
    record = found.ruling
    return render_template(
        "rulings/engine.html", walk=walk, found=found, form=_form(EngineForm, walk), ruling=record,
        moves=issuing.movements(record, walk.players()) if record else [],
        rules=cited(record["citations"]) if record else [], players=walk.players())


def issue_by_engine(walk: Walk) -> Any:
    """Log the engine's own false_openers event and go to the ruling it stored."""
    if walk.table is None:
        abort(400, description="False openers can be logged only for a table.")
    expected = request.form.get("version", "")
    try:
        row, state = issuing.log_false_openers(walk.table, current_user, int(expected) if expected.isdigit() else None)
    except tables.StaleVersion as exc:
        flash(f"Not logged: {exc}", "error")
        return redirect(url_for("rulings.new", table=walk.table.id, issue="false_openers"))
    except (RulesError, ValueError) as exc:
        db.session.rollback()
        abort(409, description=f"The table refused it: {exc}")
    if row is None:
        offer = state.get("reopen") or {}
        seats = ", ".join(str(s) for s in offer.get("eligible", []))
        flash(f"False openers logged at {walk.table.name}. Seats {seats} may now reopen the pot in turn; "
              "the ruling is stored when the last of them has answered.", "success")
        return redirect(url_for("disputes.index"))
    flash(f"Ruling #{row.id} issued and applied to {walk.table.name}.", "success")
    return redirect(url_for("rulings.detail", ruling_id=row.id))


def issue_ruling(walk: Walk, facts: dict[str, Any], form: IssueForm) -> Any:
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
    flash(f"Ruling #{row.id} issued" + (f" and applied to {walk.table.name}." if apply and walk.table else "."),
          "success")
    return redirect(url_for("rulings.detail", ruling_id=row.id))


# --------------------------------------------------------------------------- a stored ruling


def ruling_context(row: Ruling) -> dict[str, Any]:
    """Everything the page and the print show of a stored ruling."""
    rec = row.record
    names = issuing.players(row)
    game, house = issuing.house_rules_line(row)
    return {
        "r": row, "rec": rec, "rows": fact_rows(dict(row.facts), only=issuing.path_facts(row)),
        "headline": rec.get("headline") or ruling_headline(rec, names), "game": game, "house": house,
        "moves": issuing.movements(rec, names), "rules": cited(rec.get("citations", [])),
        "people": [(s, names.get(s, "")) for s in issuing.concerned_seats(row)],
        "newer": row.superseded_by, "intact": row.intact,
        "verify_url": url_for("rulings.verify", ruling_id=row.id, _external=True),
        "show_value": show_value, "confirm_form": ConfirmForm(),
    }


@bp.get("/")
def index() -> Any:
    """Every issued ruling, newest first."""
    rows = db.session.scalars(db.select(Ruling).order_by(Ruling.id.desc()).limit(200)).all()
    return render_template("rulings/index.html", rulings=rows)


@bp.get("/<int:ruling_id>")
def detail(ruling_id: int) -> Any:
    """One issued ruling, as stored."""
    row = db.get_or_404(Ruling, ruling_id, description=f"There is no ruling #{ruling_id}.")
    return render_template("rulings/detail.html", **ruling_context(row))


@bp.get("/<int:ruling_id>.pdf")
def pdf(ruling_id: int) -> Any:
    """The ruling on one A4 page, to hand over at the table."""
    row = db.get_or_404(Ruling, ruling_id, description=f"There is no ruling #{ruling_id}.")
    html = render_template("rulings/print.html", **ruling_context(row))
    return render_pdf(HTML(string=html), download_filename=f"ruling-{row.id}.pdf")


@bp.get("/<int:ruling_id>/verify")
def verify(ruling_id: int) -> Any:
    """Recompute the digest of the stored ruling and say whether it matches the sealed one."""
    row = db.get_or_404(Ruling, ruling_id, description=f"There is no ruling #{ruling_id}.")
    return render_template("rulings/verify.html", r=row, recomputed=row.compute_digest(), intact=row.intact)


class ConfirmForm(FlaskForm):
    """A floor person's signature on a ruling the rules made (the CSRF token is all it carries)."""


@bp.post("/<int:ruling_id>/confirm")
@role_required(Role.floor)
def confirm(ruling_id: int) -> Any:
    """Confirm (sign) a ruling the rules made on a dealer's tap: it becomes this floor person's."""
    row = db.get_or_404(Ruling, ruling_id, description=f"There is no ruling #{ruling_id}.")
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
    row = db.get_or_404(Ruling, ruling_id, description=f"There is no ruling #{ruling_id}.")
    if row.superseded_by is not None:
        flash(f"Ruling #{row.id} was already corrected by ruling #{row.superseded_by.id}; correct that one.", "error")
        return redirect(url_for("rulings.detail", ruling_id=row.superseded_by.id))
    return redirect(url_for("rulings.new", supersedes=row.id))


__all__ = ["bp", "read_answer", "show_value", "fact_rows"]
