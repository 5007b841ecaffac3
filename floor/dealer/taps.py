"""The tablet's tap: ``POST /dealer/tables/<id>/taps``, one request per tap, answered with the panel.

The body is the API's: ``{"event": {...}, "expected_version": n}``. The event is logged by the one
implementation the JSON API uses too (:func:`floor.posting.log_event`): who may log it is
checked per event type, a dealer's false openers is a report for the floor (202), a stale version
409, the floor's word from a dealer 403, the rules' refusal 422 with their message, naming the
rule; a tap sent again (its ``tap_id`` seen before, :mod:`floor.tapids`) 200 with what it did the
first time. The answer carries the same fields as the API's (entry, version, message, call...) and,
for 200, 201, 202 and 409, ``panel``: the dealer's panel as HTML, rendered from the engine's typed state of
the table as it is after the answer, which the page swaps in.

The checks are the API's, in the API's order (:func:`floor.jsonapi.api_role`): a login ended
is a 401 in JSON that the tablet reads as "NOT logged, log in again" (never the redirect to the
login page a page gets), then the dealer role, then the CSRF token in ``X-CSRFToken`` for a
session; so the blueprint's page check leaves this view to its own (:data:`JSON_VIEWS`). A bearer
token is accepted as by the API (no other site can forge its header), though a client of its own
has no use for the HTML and should post to the API.
"""

from __future__ import annotations

from typing import Any

from flask_login import current_user

from floor import rotation
from floor.dealer.panel import render_panel, rule_words
from floor.extensions import csrf
from floor.jsonapi import answer, api_role, json_body
from floor.models import Role
from floor.posting import log_event

#: The answers that carry the panel: logged, a tap sent again (logged or reported the first time:
#: :mod:`floor.tapids`), reported to the floor, another device first.
WITH_PANEL = frozenset({200, 201, 202, 409})


@csrf.exempt  # checked by api_role after the login and the role, as the API checks it
@api_role(Role.dealer)
def tap(table_id: int) -> Any:
    """Log one tap of the tablet; the answer carries the panel as the table is now."""
    # read with the rotation check's question, in one statement: floor.rotation.table_to_tap
    table = rotation.table_to_tap(table_id, current_user._get_current_object())
    body, status = log_event(table, json_body())
    if status == 422 and isinstance(body.get("message"), str):  # the rules' refusal, rule ids in words
        body["message"] = rule_words(body["message"])
    if status in WITH_PANEL:
        body["panel"] = render_panel(table)
    return answer(body, status)


#: The dealer views that check the login and the role themselves and answer in JSON.
JSON_VIEWS = frozenset({"dealer.tap"})


def register(bp: Any) -> None:
    bp.add_url_rule("/tables/<int:table_id>/taps", view_func=tap, methods=["POST"])
