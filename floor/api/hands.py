"""``POST /api/hands/evaluate``: five cards, what they are and whether they open.

The hand is read as a table reads it. With ``profile`` (a profile's name, a house profile's name,
or a table of options as a table setup gives them) the profile decides everything the evaluator
needs: the wild mode and wild rank, the southern hands and where they rank, the stripped deck, the
opening minimum. In wild widow the ``widow`` card names the wild rank; ``low: true`` reads the hand
for ace-to-five low, as jacks back plays it once nobody opened (D10, H8). Without a profile the
older fields still work: ``wild`` (a wild mode) and ``minimum``. Giving both ``profile`` and
``wild`` is refused (which of the two would count?).
"""

from __future__ import annotations

from typing import Any

from flask import jsonify

from floor.api.common import bp
from floor.house_profiles import resolve_profile
from floor.jsonapi import api_role, error, json_body
from floor.models import Role
from rules import CardError, RulesError, cards, hands, openers, profiles


def _rules_of(data: dict[str, Any]) -> tuple[Any, str, str, Any]:
    """The hand rules, the wild mode's name, the opening minimum and the profile (or None)."""
    if data.get("profile") is None:
        wild = data.get("wild", "bug")
        return wild, str(wild), data.get("minimum", "J"), None
    if "wild" in data:
        raise RulesError("give either a profile or a wild mode, not both: the profile says which cards are wild")
    profile = profiles.get_profile(resolve_profile(data["profile"]))
    rules = profile.hand_rules
    if profile.wild == "widow":
        widow = data.get("widow")
        if not widow:
            raise RulesError("wild widow: give the widow card turned up (widow), whose rank is wild (H4)")
        rules = rules.with_widow(cards.to_text(cards.parse_cards(widow, count=1)))
    elif data.get("widow"):
        raise RulesError(f"widow: the profile {profile.name!r} plays no wild widow")
    minimum = data.get("minimum", profile.opening_minimum)
    return rules, profile.wild, minimum, profile


@bp.post("/hands/evaluate")
@api_role(Role.dealer)
def evaluate_hand() -> Any:
    """Evaluate five cards: category, description, and whether they open (or their low value)."""
    data = json_body()
    low = data.get("low", False)
    try:
        if not isinstance(low, bool):
            raise RulesError(f"low is true or false, not {low!r}")
        rules, wild, minimum, profile = _rules_of(data)
        hand = cards.parse_cards(data.get("cards", ""), count=5)
        if low:
            if profile is not None and not profile.jacks_back:
                raise RulesError(f"low: the profile {profile.name!r} plays no low hands (only jacks back turns to "
                                 "ace-to-five low, D10)")
            value: Any = hands.evaluate_low(hand, rules)
            opens = None  # in the low round anyone may open (D10)
        else:
            value = hands.evaluate(hand, rules)
            opens = True if minimum == "none" else openers.qualifies(hand, wild=rules, minimum=minimum)
    except (CardError, RulesError, ValueError, TypeError) as exc:
        return error(422, "Unprocessable hand", str(exc))
    body: dict[str, Any] = dict(
        cards=[str(c) for c in hand], wild=wild, category=value.category, description=value.describe(),
        qualifies=opens, minimum=minimum,
    )
    if profile is not None:
        body.update(profile=profile.name, deck_size=profile.deck_size, low=low)
    return jsonify(body)
