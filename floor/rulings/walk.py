"""The dispute walk of the decision tree: reading each answer, and the page of the next question.

The walk is stateless: every answer so far travels in the form as a hidden ``fact-<name>`` field
holding JSON, and each POST asks the rules for the next question (``rules.rulings.questions_for``)
until the tree can rule; the ruling is then shown before it is issued (:func:`render_walk`). For
false openers on a logged hand the page offers the engine's own ``false_openers`` event instead
(:func:`render_engine`). The routes are in :mod:`floor.rulings.views`.
"""

from __future__ import annotations

import json
import re
from functools import cached_property
from typing import Any

from flask import abort, render_template, request
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, TextAreaField
from wtforms.validators import Length

from floor import tables
from floor.card_picker import picker_cards
from floor.extensions import db
from floor.house_profiles import profile_names
from floor.inputs import is_whole
from floor.models import IssuedRuling, Table
from floor.rulings import issuing, stored
from floor.rulings.stored import cited
from rules import CardError, RulesError
from rules.cards import parse_cards
from rules.profiles import get_profile
from rules.rulings import FACTS, questions_for

__all__ = [
    "WalkForm", "IssueForm", "EngineForm", "BadAnswer", "read_answer", "posted_facts", "show_value", "fact_rows",
    "DisputeWalk", "render_walk", "render_engine",
]


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
    if not is_whole(text):  # ASCII digits within 64 bits: re's \d took "١" and numbers no column holds
        raise BadAnswer(f"{what}: write a whole number, not {text[:40]!r}" if text else f"{what}: a number is needed")
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


def _per_seat(form: Any, value: str, seats: list[int], what: str) -> list[tuple[str, str]]:
    """A seat's answer each (a hand's cards, a declared hand): one field per seat when the walk
    knows the seats (those left empty showed nothing), else ``seat: value`` lines."""
    if not seats:
        return _pairs(value, what)
    given = [(str(s), (form.get(f"answer-{s}") or "").strip()) for s in seats]
    return [(s, v) for s, v in given if v]


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
        pairs = _per_seat(form, value, seats, "hands")
        if not pairs:
            raise BadAnswer("Write the cards of at least one hand.")
        return {str(_int(s, "seat")): _cards(v, f"seat {s}") for s, v in pairs}
    if kind == "declarations":  # H9: a hand's class per seat, in words ("two pair"); the rules check it
        pairs = _per_seat(form, value, seats, "declared")
        if not pairs:
            raise BadAnswer("Write the hand declared by at least one seat, for example 'two pair'.")
        return {str(_int(s, "seat")): v for s, v in pairs}
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
        declared = spec is not None and spec.kind == "declarations"  # a hand's class: 'two_pair' as 'two pair'
        return "; ".join(f"seat {k}: {str(v).replace('_', ' ') if declared else show_value('', v)}"
                         for k, v in sorted(value.items(), key=lambda kv: int(kv[0])))
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


# --------------------------------------------------------------------------- the walk


class DisputeWalk:
    """The context of one dispute walk, read from the query string (GET) or the form (POST)."""

    def __init__(self, source: Any) -> None:
        self.table: Table | None = None
        self.supersedes: IssuedRuling | None = None
        table_id = (source.get("table") or "").strip()
        if table_id:
            if not is_whole(table_id, 1):
                abort(404, description=f"There is no table {table_id!r}.")
            self.table = db.get_or_404(Table, int(table_id), description=f"There is no table {table_id}.")
        old = (source.get("supersedes") or "").strip()
        if old:
            if not is_whole(old, 1):
                abort(404, description=f"There is no ruling {old!r} to correct.")
            self.supersedes = db.get_or_404(IssuedRuling, int(old), description=f"There is no ruling #{old} to correct.")
            if self.table is None:
                self.table = self.supersedes.table
        self.profile_name = (source.get("profile") or "").strip() or (
            self.supersedes.profile if self.supersedes is not None and self.table is None else "")
        try:
            self.profile = issuing.profile_of(self.table, self.profile_name or None)
        except issuing.IssueError as exc:
            abort(400, description=f"{exc}. Pick one of: {', '.join(profile_names())}.")
        self.logged = {n for n in (source.get("logged") or "").split(",") if n}

    @property
    def profile_label(self) -> str:
        return self.table.profile_name if self.table is not None else (self.profile_name or "cardroom")

    def hidden(self) -> dict[str, str]:
        return {"table": str(self.table.id) if self.table else "", "profile": self.profile_name,
                "supersedes": str(self.supersedes.id) if self.supersedes else "", "logged": ",".join(sorted(self.logged))}

    def seats(self) -> list[int]:
        return sorted(self.players())

    @cached_property
    def _players(self) -> dict[int, str]:
        if self.table is None:
            return {}
        names = {int(s["seat"]): str(s.get("player", "")) for s in self.table.setup.get("seats", [])}
        try:
            now = tables.table_state(self.table).seats
        except (RulesError, ValueError):  # a log that does not replay: the setup's seats still
            now = {}
        names.update({int(s): x.player for s, x in now.items()})
        return names

    def players(self) -> dict[int, str]:
        """Seat -> player: those seated at the start and those seated now (a newcomer who sat down
        during the night can be the player concerned; found by the night, issue 24). Read once a
        walk: the page asks for it for every seat."""
        return self._players


def _form(cls: type[WalkForm], walk: DisputeWalk) -> WalkForm:
    form = cls(formdata=None, data=walk.hidden())
    return form


def render_walk(walk: DisputeWalk, facts: dict[str, Any], error: str = "", status: int = 200) -> Any:
    """The next question, or the preview of the ruling when the tree has all it needs."""
    common = {"walk": walk, "facts": facts, "rows": fact_rows(facts, walk.logged),
              "facts_json": {k: json.dumps(v) for k, v in facts.items()}}
    try:
        prompt = questions_for(facts, walk.profile)
    except RulesError as exc:
        return render_template("rulings/new.html", prompt=None, form=_form(WalkForm, walk), error="",
                               broken=str(exc), **common), 400
    if prompt is not None:
        # the cards a question asks for are tapped in a picker of the table's deck (or typed)
        profile = get_profile(walk.profile)
        return render_template("rulings/new.html", prompt=prompt, form=_form(WalkForm, walk), error=error,
                               broken="", choices=_choices(prompt, walk), deck=picker_cards(profile),
                               hand_size=profile.hand_size, pick_label=FACTS[prompt.fact].title.lower(),
                               seen_cards=_kept_apart(facts, prompt.fact), **common), status
    try:
        ruling = issuing.preview(facts, walk.profile)
    except RulesError as exc:
        return render_template("rulings/new.html", prompt=None, form=_form(WalkForm, walk), error="",
                               broken=str(exc), **common), 400
    record = ruling.to_dict()
    form = _form(IssueForm, walk)
    return render_template("rulings/preview.html", ruling=record, form=form, error=error,
                           moves=stored.movements(record, walk.players()), rules=cited(record["citations"]),
                           **common), status


def _kept_apart(facts: dict[str, Any], asked: str) -> dict[str, str]:
    """The cards the picker greys out for the fact ``asked``: the escrowed discards are under a chip,
    so no other hand the walk asks for holds them."""
    if asked == "discards":
        return {}
    return {str(card): "in escrow, apart from the hand" for card in facts.get("discards") or ()}


def _choices(prompt: Any, walk: DisputeWalk) -> list[tuple[str, str]]:
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

def render_engine(walk: DisputeWalk, found: issuing.EnginePreview) -> Any:
    """What logging false openers would do at this table, before it is logged."""
    record = found.ruling
    return render_template(
        "rulings/engine.html", walk=walk, found=found, form=_form(EngineForm, walk), ruling=record,
        moves=stored.movements(record, walk.players()) if record else [],
        rules=cited(record["citations"]) if record else [], players=walk.players())
