"""The house-rules file refuses values no card room plays, naming the bound (issue 25; rules/bounds.py)."""

from __future__ import annotations

import pytest

from floor.extensions import db
from floor.models import HouseProfile
from rules import ProfileError
from rules.bounds import BOUNDS
from rules.profiles import from_toml, get_profile


@pytest.mark.parametrize("toml,message", [
    ("raise_cap = 1000000", "raise_cap: 1000000 is more than any card room plays; at most 10 raises"),
    ("ante_deals = 500", "ante_deals: 500 is more than any card room plays; at most 10 deals"),
    ("pot_limit = 10000000000", "pot_limit: 10000000000 is more than any card room plays; at most 1000000 chips"),
    ("opening_minimum = 'none'\nblinds = [5, 5000000]", "blinds: 5000000 is more than any card room plays; at most 1000000"),
    ("max_draw = 9", "max_draw: must be a whole number from 0 to 5, not 9"),
    ("raise_cap = -3", 'raise_cap: must be at least 1 or "none" (no cap), not -3'),
    ("draw_rounds = 4", "draw_rounds: must be 1, 2 or 3, not 4"),
])
def test_a_value_no_card_room_plays_is_refused_naming_the_bound(toml, message):
    with pytest.raises(ProfileError) as refused:
        from_toml(toml)
    assert message in str(refused.value)


def test_the_bounds_themselves_are_played():
    """The edges are accepted: a room may play any value from the low to the high bound (D5, O4, D2, D13)."""
    for name, bound in BOUNDS.items():
        if name == "blinds":
            for big in (bound.low, bound.high):
                assert get_profile({"opening_minimum": "none", "blinds": [bound.low, big]}).blinds == (bound.low, big)
            continue
        if name == "spread":
            for high in (bound.low, bound.high):
                assert get_profile({"betting": "spread", "spread": [bound.low, high]}).spread == (bound.low, high)
            continue
        for value in (bound.low, bound.high):
            assert getattr(get_profile({name: value}), name) == value
    assert get_profile({"raise_cap": None}).raise_cap is None  # no cap is not a number to bound


def test_the_directors_profile_form_shows_the_bound_in_place(app, as_role):
    response = as_role("director").post("/director/profiles/new", data={"name": "wild-night", "toml": "raise_cap = 1000000"})
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert "at most 10 raises in a betting round" in text and 'class="field-error"' in text
    with app.app_context():
        assert db.session.scalars(db.select(HouseProfile)).first() is None


def test_a_spread_of_a_million_chips_is_refused_naming_the_bound():
    """D17: the tablet offers every amount of the spread; a spread no room plays (a million chips a
    bet, a million choices on every tap) is refused before any table plays it."""
    with pytest.raises(ProfileError, match="spread: 1000000 is more than any card room plays; at most 1000"):
        get_profile({"betting": "spread", "spread": [1, 1_000_000]})
