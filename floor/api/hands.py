"""``POST /api/hands/evaluate``: five cards, what they are and whether they open."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from floor.api.common import api_role, bp, error, json_body
from floor.models import Role
from rules import CardError, RulesError, cards, hands, openers


@bp.post("/hands/evaluate")
@api_role(Role.dealer)
def evaluate_hand() -> Any:
    """Evaluate five cards: category, description, and whether they open."""
    data = json_body()
    wild = data.get("wild", "bug")
    minimum = data.get("minimum", "J")
    try:
        hand = cards.parse_cards(data.get("cards", ""), count=5)
        value = hands.evaluate(hand, wild=wild)
        opens = openers.qualifies(hand, wild=wild, minimum=minimum)
    except (CardError, RulesError, ValueError, TypeError) as exc:
        return error(422, "Unprocessable hand", str(exc))
    return jsonify(
        cards=[str(c) for c in hand], wild=wild, category=value.category, description=value.describe(),
        qualifies=opens, minimum=minimum,
    )
