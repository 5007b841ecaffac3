"""``POST /api/findings`` (floor): file what a checker outside the app flagged; the shift report
lists them (:mod:`floor.findings`).

The body: ``{kind, text, table_id?, deal?, source?}``; ``kind`` one of ``discrepancy``,
``wrong_verdict``, ``other``. Answers 201 with the stored finding, 400 for a malformed body (the
message says which field), 404 for an unknown table. A finding is never changed once filed.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask_login import current_user

from floor.api.common import bp
from floor.extensions import db
from floor.findings import MAX_SOURCE, MAX_TEXT, Finding, FindingKind
from floor.jsonapi import api_role, body_whole, error, json_body, unknown_fields
from floor.localtime import utc_text
from floor.models import Role, Table

_KEYS = {"kind", "text", "table_id", "deal", "source"}


def to_json(f: Finding) -> dict[str, Any]:
    return {"id": f.id, "kind": f.kind, "text": f.text, "table_id": f.table_id,
            "table": f.table.name if f.table is not None else None, "deal": f.deal, "source": f.source,
            "filed_by": f.filed_by.username, "filed_at": utc_text(f.filed_at)}


@bp.post("/findings")
@api_role(Role.floor)
def file_finding() -> Any:
    """File one finding under the caller's name."""
    data = json_body()
    refused = unknown_fields(data, _KEYS)
    if refused is not None:
        return refused
    kinds = [k.value for k in FindingKind]
    if data.get("kind") not in kinds:
        return error(400, "Bad request", f"'kind' must be one of {', '.join(kinds)}")
    text, source = data.get("text"), data.get("source", "")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        return error(400, "Bad request", f"'text' must say what was found, at most {MAX_TEXT} characters")
    if not isinstance(source, str) or len(source) > MAX_SOURCE:
        return error(400, "Bad request", f"'source' must be text of at most {MAX_SOURCE} characters")
    try:
        table_id, deal = body_whole(data, "table_id"), body_whole(data, "deal")
    except ValueError as exc:
        return error(400, "Bad request", str(exc))
    if table_id is not None and db.session.get(Table, table_id) is None:
        return error(404, "Not Found", f"There is no table {table_id}.")
    row = Finding(table_id=table_id, deal=deal, kind=data["kind"], text=text.strip(),
                  source=source.strip() or current_user.username, filed_by_id=current_user.id)
    db.session.add(row)
    db.session.commit()
    return jsonify(to_json(row)), 201
