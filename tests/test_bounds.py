"""The house-rules file refuses values no card room plays, naming the bound (issue 25; rules/bounds.py)."""

from __future__ import annotations

import re

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
    ("max_draw = 9", "max_draw: 9 is more than any card room plays; at most 5 cards drawn (a hand has five)"),
    ("max_draw = -1", "max_draw: -1 is less than any card room plays; at least 0 cards drawn"),
    ('max_draw = "all"', "max_draw: must be a whole number (0 to 5), not 'all'"),
    ("raise_cap = -3", 'raise_cap: must be at least 1 or "none" (no cap), not -3'),
    ("draw_rounds = 4", "draw_rounds: 4 is more than any card room plays; at most 3 draws in one hand"),
    ("opening_minimum = 'none'\nblinds = [5, 10]\nstraddle = 9",
     "straddle: 9 is more than any card room plays; at most 8 re-straddles"),
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
        if name == "straddle":  # O2: a straddle raises the big blind, so only with blinds
            for value in (bound.low, bound.high):
                assert get_profile({"opening_minimum": "none", "blinds": [5, 10], name: value}).straddle == value
            continue
        if name == "spread":
            for high in (bound.low, bound.high):
                assert get_profile({"betting": "spread", "spread": [bound.low, high]}).spread == (bound.low, high)
            continue
        if "." in name:  # issue 32: a field of an option's table, the other fields at values a room plays
            head, part = name.split(".")
            table = {"rake": {"percent": 5, "cap": 5, "min_pot": 0}, "time_charge": {"amount": 5, "minutes": 30},
                     "drop": {"amount": 1, "pool": "high_hand"}, "kill": {"after": 2, "times": 2}}[head]
            for value in (bound.low, bound.high):
                assert getattr(getattr(get_profile({head: {**table, part: value}}), head), part) == value
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


def test_the_directors_profile_form_offers_the_bounds_of_the_rules(as_role):
    """The house-profile form's menus and number fields hold the bounds of rules/bounds.py, one place:
    the draws of a hand (D13) and the re-straddles (O7) it offers, and a blind above the bound is
    refused at the blind's field (not let through up to a table's stake limit)."""
    director = as_role("director")
    page = director.get("/director/profiles/new").get_data(as_text=True)
    draws = re.search(r'<select[^>]*name="draw_rounds".*?</select>', page, re.S).group(0)
    assert re.findall(r'<option[^>]*value="(\d+)"', draws) == [str(n) for n in range(1, BOUNDS["draw_rounds"].high + 1)]
    straddles = re.search(r'<select[^>]*name="straddle".*?</select>', page, re.S).group(0)
    assert f"up to {BOUNDS['straddle'].high} re-straddles" in straddles
    assert f"up to {BOUNDS['straddle'].high + 1} re-straddles" not in straddles
    response = director.post("/director/profiles/new", data={
        "name": "high-blinds", "toml": 'base = "cardroom"', "variants_shown": "1", "opening_minimum": "none",
        "draw_rounds": "1", "wild": "bug", "southern_placement": "odds", "straddle": "off",
        "blinds_small": "5", "blinds_big": "20000000"})
    assert response.status_code == 400
    assert f"between 1 and {BOUNDS['blinds'].high}" in response.get_data(as_text=True)
