"""The rulings routes of the JSON API: ``POST /api/rulings`` and ``GET /api/rulings/<id>``.

``POST`` (floor role) takes ``{facts, profile?, table_id?, apply?, supersedes?, note?}``. With a
``table_id`` the table's profile is used and the facts the log holds fill what ``facts`` leaves
out (the client's facts win). With ``apply`` the stored ruling is logged at the table as a
``ruling`` event carrying its id. Answers: 201 with the stored ruling; 422 with ``missing`` and
``question`` when the tree needs a fact; 422 when the rules refuse the facts or the table refuses
the ruling; 400 for a malformed body; 404 for an unknown table or ruling; 409 for a stale
``expected_version``. Nothing is written unless the answer is 201.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask_login import current_user

from floor import tables
from floor.api.common import bp
from floor.extensions import db
from floor.jsonapi import api_role, body_whole, error, json_body, unknown_fields
from floor.models import IssuedRuling, Role, Table
from floor.rulings import issuing, stored
from rules import MissingFact, RulesError

_KEYS = {"facts", "profile", "table_id", "apply", "supersedes", "note", "expected_version"}


@bp.post("/rulings")
@api_role(Role.floor)
def create_ruling() -> Any:
    """Resolve the facts, store the ruling sealed, and optionally apply it to a table."""
    data = json_body()
    refused = unknown_fields(data, _KEYS)
    if refused is not None:
        return refused
    facts = data.get("facts")
    if not isinstance(facts, dict):
        return error(400, "Bad request", "'facts' must be a JSON object of the decision tree's facts.")
    try:
        table_id = body_whole(data, "table_id")
        supersedes = body_whole(data, "supersedes")
        expected = body_whole(data, "expected_version")
    except ValueError as exc:
        return error(400, "Bad request", str(exc))
    apply = data.get("apply", False)
    if not isinstance(apply, bool):
        return error(400, "Bad request", "'apply' must be true or false.")
    note = data.get("note", "")
    if not isinstance(note, str) or len(note) > 2000:
        return error(400, "Bad request", "'note' must be text of at most 2000 characters.")
    profile = data.get("profile")
    if profile is not None and not isinstance(profile, str):
        return error(400, "Bad request", "'profile' must be the name of a profile.")
    table = None
    if table_id is not None:
        table = db.session.get(Table, table_id)
        if table is None:
            return error(404, "Not Found", f"There is no table {table_id}.")
        if profile is not None:
            return error(400, "Bad request", "a table's ruling follows the table's profile; leave 'profile' out.")
    if supersedes is not None and db.session.get(IssuedRuling, supersedes) is None:
        return error(404, "Not Found", f"There is no ruling #{supersedes} to correct.")
    try:
        if table is not None and isinstance(facts.get("issue"), str):
            seat = facts.get("seat")
            facts = {**issuing.jsonable(issuing.table_facts(table, facts["issue"], seat)), **facts}
        row = issuing.issue(facts, current_user, table=table, profile=profile, apply=apply,
                            supersedes=supersedes, note=note, expected_version=expected)
    except MissingFact as exc:
        return error(422, "Missing fact", f"the decision tree needs '{exc.fact}': {exc.question}",
                     missing=exc.fact, question=exc.question)
    except tables.StaleVersion as exc:
        return error(409, "Conflict", str(exc), version=exc.current)
    except issuing.IssueError as exc:
        return error(400, "Bad request", str(exc))
    except (RulesError, ValueError) as exc:
        return error(422, "Refused by the rules", str(exc))
    return jsonify(stored.to_json(row)), 201


@bp.get("/rulings/<int:ruling_id>")
@api_role(Role.dealer)
def get_ruling(ruling_id: int) -> Any:
    """One stored ruling, as issued, with its digest and whether it still matches."""
    row = db.session.get(IssuedRuling, ruling_id)
    if row is None:
        return error(404, "Not Found", f"There is no ruling #{ruling_id}.")
    return jsonify(stored.to_json(row))
