"""House-rule profiles (rules.profiles): named profiles, overrides, TOML, validation, and that each
option the engine reads changes what the table does."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from rules import ProfileError
from rules.hands import HandRules
from rules.jackpot import replay
from rules.profiles import NO_SOURCE, PROFILES, Profile, from_toml, get_profile


def test_named_profiles_and_their_readings() -> None:
    """The three named profiles differ where the sources differ (O4, D2, F9, H2)."""
    assert set(PROFILES) == {"cardroom", "pagat", "foster"}
    cardroom, pagat, foster = (get_profile(n) for n in ("cardroom", "pagat", "foster"))
    assert (cardroom.ante_deals, pagat.ante_deals, foster.ante_deals) == (3, None, None)
    assert (cardroom.max_draw, pagat.max_draw, foster.max_draw) == (5, 3, 5)
    assert (cardroom.false_openers, foster.false_openers) == ("cardroom", "foster")
    assert (cardroom.wild, foster.wild) == ("bug", "none")
    assert (cardroom.deck_size, foster.deck_size) == (53, 52)


def test_overrides_start_from_a_base() -> None:
    p = get_profile({"base": "pagat", "name": "Tuesday", "raise_cap": 2})
    assert (p.name, p.title, p.max_draw, p.raise_cap) == ("Tuesday", "Tuesday", 3, 2)
    assert get_profile({"name": "foster", "max_draw": 3}).false_openers == "foster"
    assert get_profile(p) is p and get_profile(None) == Profile()


@pytest.mark.parametrize("spec, words", [
    ({"ante_deals": 0}, "ante_deals: must be at least 1"),
    ({"max_draw": 6}, "max_draw: 6 is more than any card room plays; at most 5 cards drawn"),
    ({"wild": "jokers"}, "wild: must be one of"),
    ({"progressive_openers": "yes"}, "must be true or false"),
    ({"southern_hands": ["dog"]}, "unknown hand 'dog'"),
    ({"colour": "red"}, "unknown option 'colour'"),
    ("poker night", "unknown profile 'poker night'"),
    (42, "a profile is a name or a table of options"),
])
def test_bad_profiles_are_refused_by_name(spec: Any, words: str) -> None:
    with pytest.raises(ProfileError, match=words):
        get_profile(spec)


def test_toml_profile_round_trip() -> None:
    p = from_toml('name = "Main room"\nbase = "cardroom"\nante_deals = "none"\npot_limit = 300\n')
    assert (p.name, p.ante_deals, p.pot_limit) == ("Main room", None, 300)
    assert get_profile(p.to_dict()) == p
    with pytest.raises(ProfileError, match="not valid TOML"):
        from_toml("ante_deals = ")


def test_every_option_names_its_rules() -> None:
    """Each option says which rule ids it decides, for the printed rule summary."""
    options = {o.name: o for o in get_profile().options()}
    assert options["ante_deals"].rules == ("O4",) and options["progressive_openers"].rules == ("O5",)
    assert options["postdraw_first"].rules == ("D4",) and options["raise_cap"].rules == ("D5",)
    assert all(o.doc for o in options.values())
    # the house's money (rake, time_charge, drop) and kill pots: no source of the catalogue rules on them
    assert all(o.rules for o in options.values() if o.name not in NO_SOURCE)
    assert all(not options[name].rules for name in NO_SOURCE)


# --------------------------------------------------------------------------- the engine reads them


def setup(profile: Any) -> dict[str, Any]:
    return {"profile": profile, "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
            "seats": [{"seat": s, "player": f"P{s}", "stack": 200} for s in (1, 2, 3)]}


THROW = [{"type": "deal"}] + [{"type": "pass", "seat": s} for s in (2, 3, 1)]


def test_engine_reads_button_ante_and_progressive_options() -> None:
    """O3, O4, O5 options as the engine plays them."""
    fixed = replay(setup({"button_moves_on_throw_in": False, "ante_deals": 1,
                          "progressive_openers": True}), THROW + [{"type": "deal"}])
    assert (fixed["button"], fixed["pot"], fixed["jackpot"]["requirement"]) == (1, 15, "Q")
    moving = replay(setup("cardroom"), THROW + [{"type": "deal"}])
    assert (moving["button"], moving["pot"], moving["jackpot"]["requirement"]) == (2, 30, "J")


def test_engine_reads_draw_and_raise_options() -> None:
    """D2 max_draw and D5 raise_cap as the engine plays them."""
    state = replay(setup({"raise_cap": 1, "max_draw": 2}), [
        {"type": "deal"}, {"type": "open", "seat": 2}, {"type": "raise", "seat": 3}])
    assert [m["type"] for m in state["legal"]] == ["call", "fold"]
    state = replay(setup({"raise_cap": 1, "max_draw": 2}), [
        {"type": "deal"}, {"type": "open", "seat": 2}, {"type": "call", "seat": 3}, {"type": "call", "seat": 1}])
    assert state["legal"] == [{"type": "draw", "seat": state["to_act"], "min": 0, "max": 2, "split": True}]


def test_engine_uses_the_deck_of_the_profile() -> None:
    """H1: the stub counts the profile's deck (53 with the bug, 52 without, 32 stripped)."""
    assert replay(setup("cardroom"), [{"type": "deal"}])["stub"] == 53 - 15
    assert replay(setup("foster"), [{"type": "deal"}])["stub"] == 52 - 15
    assert replay(setup({"wild": "none", "stripped_deck": True}), [{"type": "deal"}])["stub"] == 32 - 15


# --------------------------------------------------------------------------- how hands are read


def test_H4_wild_rank_and_widow_options() -> None:
    fives = get_profile({"wild": "rank", "wild_rank": "5"})
    assert (fives.wild, fives.wild_rank, fives.deck_size) == ("rank", "5", 52)
    assert fives.hand_rules == HandRules("rank", 5)
    assert get_profile({"wild": "rank", "wild_rank": "10"}).wild_rank == "T"
    assert get_profile({"wild": "rank", "wild_rank": 9}).wild_rank == "9"
    widow = get_profile({"wild": "widow"})
    assert (widow.wild_rank, widow.deck_size, widow.hand_rules) == (None, 52, HandRules("widow"))
    assert widow.hand_rules.with_widow("Qd") == HandRules("widow", 12)
    # an override that leaves wild = 'rank' drops the base's wild rank with it
    assert get_profile({"base": "cardroom", "wild": "none"}).wild_rank is None
    assert get_profile(fives.to_dict()) == fives
    assert from_toml('wild = "rank"\nwild_rank = "q"').hand_rules == HandRules("rank", 12)


def test_H1_H7_stripped_deck_and_southern_placement_options() -> None:
    p = get_profile({"wild": "bug", "stripped_deck": True, "southern_hands": ["blaze"],
                     "southern_placement": "as_played"})
    assert p.deck_size == 33
    assert p.hand_rules == HandRules("bug", stripped=True, southern=["blaze"], placement="as_played")
    assert get_profile().southern_placement == "odds" and get_profile().hand_rules == HandRules("bug")


@pytest.mark.parametrize("spec, words", [
    ({"wild": "rank"}, "wild_rank: required when wild = 'rank'"),
    ({"wild_rank": "5"}, "wild_rank: only with wild = 'rank'"),
    ({"wild": "widow", "wild_rank": "5"}, "wild_rank: only with wild = 'rank'"),
    ({"wild": "deuces", "wild_rank": "2"}, "wild_rank: only with wild = 'rank'"),
    ({"wild": "rank", "wild_rank": "1"}, "wild_rank: unknown rank '1'"),
    ({"wild": "rank", "wild_rank": "5", "stripped_deck": True}, "wild_rank: the 32-card deck has no fives"),
    ({"wild": "deuces", "stripped_deck": True}, "stripped_deck: the 32-card deck has no deuces"),
    ({"stripped_deck": True, "southern_hands": ["tiger"]}, "southern_hands: 'tiger' needs cards below the seven"),
    ({"southern_placement": "odd"}, "southern_placement: must be one of odds, as_played"),
    ({"wild": "sevens"}, "wild: must be one of none, bug, deuces, joker, rank, widow"),
])
def test_H1_H4_H7_hand_options_are_checked_together(spec: dict[str, Any], words: str) -> None:
    with pytest.raises(ProfileError, match=words):
        get_profile(spec)


def test_H1_H4_H7_hand_options_name_their_rules() -> None:
    options = {o.name: o for o in get_profile().options()}
    assert options["wild"].rules == ("H2", "H3", "H4") and options["wild_rank"].rules == ("H4",)
    assert options["southern_placement"].rules == ("H7",) and "H1" in options["stripped_deck"].rules
    assert "flush beats a full house" in options["stripped_deck"].doc


def test_H2_H4_H7_the_closed_vocabularies_are_defined_once() -> None:
    """Wild modes and southern placements are StrEnums, each defined in one module and imported
    everywhere else (no second tuple of the same words)."""
    import pathlib
    import re

    from rules.cards import Wild
    from rules.hands import Placement, Southern

    sources = {p: p.read_text(encoding="utf-8") for p in (pathlib.Path(__file__).parent.parent / "rules").rglob("*.py")}
    for words in ([w.value for w in Wild], [p.value for p in Placement], [s.value for s in Southern]):
        literal = re.compile(r"\(\s*" + r",\s*".join(f'"{w}"' for w in words[:2]))
        assert [str(p) for p, text in sources.items() if literal.search(text)] == []
    fields = {f.name: f for f in dataclasses.fields(Profile)}
    assert fields["wild"].metadata["choices"] == tuple(w.value for w in Wild)
    assert fields["southern_placement"].metadata["choices"] == tuple(p.value for p in Placement)


def test_a_mapping_read_again_is_the_profile_read_first_and_a_refusal_is_said_again() -> None:
    """get_profile remembers the mappings it read (rules/memo.py): the same options give the same
    profile; options that are equal in Python but not the same data (``True`` for 1, a tuple for a
    list) are read afresh, so one the checks refuse is still refused after its look-alike passed."""
    options = {"ante_deals": 1, "blinds": [5, 10], "opening_minimum": "none"}
    first = get_profile(options)
    assert get_profile(dict(options)) is first and first.ante_deals == 1 and first.blinds == (5, 10)
    for look_alike in ({**options, "ante_deals": True}, {**options, "blinds": "5 10"}):
        for _ in range(2):
            with pytest.raises(ProfileError):
                get_profile(look_alike)
    assert get_profile({**options, "blinds": (5, 10)}) == first  # read afresh, the same options
    with pytest.raises(ProfileError, match="unknown option 'antes'"):
        get_profile({"antes": 1})
    with pytest.raises(ProfileError, match="unknown option 'antes'"):
        get_profile({"antes": 1})
