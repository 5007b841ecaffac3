"""POST /api/hands/evaluate: the evaluator of rules.hands over HTTP (issue 3)."""

from __future__ import annotations

import pytest

from tests.conftest import bearer


@pytest.mark.parametrize("body,category,description,opens", [
    # H2: the bug is an ace here, not a wild card (9-9-7-7-bug is two pair with an ace kicker).
    # O1: any hand that beats a pair of tens opens, two small pairs included.
    ({"cards": "9h 9c 7d 7s Jk"}, "two_pair", "two pair, nines and sevens, ace kicker", True),
    # O1: the bug with an ace is a pair of aces; T-T-A-K-Q does not open.
    ({"cards": "5h 5c 3d 3s 6h"}, "two_pair", None, True),
    ({"cards": ["As", "Jk", "Kd", "7c", "2h"]}, "one_pair", None, True),
    ({"cards": "Th,Tc,Ad,Ks,Qh"}, "one_pair", None, False),
    ({"cards": "As Ah Ad Ac Jk"}, "five_of_a_kind", None, True),
    ({"cards": "2s 2h Kd Kc 7h", "wild": "deuces"}, "four_of_a_kind", None, True),
    ({"cards": "Qs Qh 4d 5c 9h", "minimum": "K"}, "one_pair", None, False),
])
def test_evaluate_names_the_hand_and_whether_it_opens(client, tokens, body, category, description, opens):
    response = client.post("/api/hands/evaluate", json=body, headers=bearer(tokens["dealer"]))
    assert response.status_code == 200, response.json
    assert response.json["category"] == category
    assert response.json["qualifies"] is opens
    if description:
        assert response.json["description"] == description


def test_evaluate_prints_cards_canonically(client, tokens):
    response = client.post("/api/hands/evaluate", json={"cards": "10h jk AS kd 7C"}, headers=bearer(tokens["dealer"]))
    assert response.json["cards"] == ["Th", "Jk", "As", "Kd", "7c"]


@pytest.mark.parametrize("cards,named", [
    ("As As Ks Qs Js", "As"),  # duplicates are never scored
    ("As Ks Qs Js Zz", "Zz"),
    ("As Ks Qs Js", "4"),
])
def test_bad_hands_get_422_naming_the_card(client, tokens, cards, named):
    response = client.post("/api/hands/evaluate", json={"cards": cards}, headers=bearer(tokens["dealer"]))
    assert response.status_code == 422
    assert named in response.json["message"]


def test_unknown_wild_mode_is_422(client, tokens):
    response = client.post("/api/hands/evaluate", json={"cards": "As Ks Qs Js Ts", "wild": "tens"},
                           headers=bearer(tokens["dealer"]))
    assert response.status_code == 422 and "tens" in response.json["message"]


def test_evaluate_needs_a_login(client):
    assert client.post("/api/hands/evaluate", json={"cards": "As Ks Qs Js Ts"}).status_code == 401


# --------------------------------------------------------------------------- the profile decides (issue 22)


def _evaluate(client, tokens, body):
    return client.post("/api/hands/evaluate", json=body, headers=bearer(tokens["dealer"]))


@pytest.mark.parametrize("profile,hand,category,opens", [
    # H4: deuces wild: four kings with a deuce; no joker in the deck
    ({"base": "cardroom", "wild": "deuces"}, "2s 2h Kd Kc 7h", "four_of_a_kind", True),
    # H4: fives wild (a wild rank)
    ({"base": "cardroom", "wild": "rank", "wild_rank": "5"}, "5h 5c Ks Kd 9h", "four_of_a_kind", True),
    # H1, H5: the stripped deck ranks a flush above a full house, and A-7-8-9-T is a straight
    ({"base": "cardroom", "wild": "none", "stripped_deck": True}, "Ah 7d 8c 9s Td", "straight", True),
    # H7: the blaze, where FOSTER says the South played it (between two pair and trips)
    ({"base": "cardroom", "southern_hands": ["blaze"], "southern_placement": "as_played"},
     "Kh Kd Qs Qc Jh", "blaze", True),
    # O1: the profile's opening minimum: queens do not open where kings are needed
    ({"base": "cardroom", "opening_minimum": "K"}, "Qs Qh 4d 5c 9h", "one_pair", False),
    ("foster", "As Ah 4d 5c 9h", "one_pair", True),
])
def test_evaluate_reads_the_hand_as_the_profile_plays(client, tokens, profile, hand, category, opens):
    """The evaluator honours the profile as rules.hands does: wild mode, southern hands, stripped deck,
    opening minimum."""
    response = _evaluate(client, tokens, {"cards": hand, "profile": profile})
    assert response.status_code == 200, response.json
    assert response.json["category"] == category and response.json["qualifies"] is opens


def test_evaluate_the_stripped_deck_refuses_a_six_and_the_plain_deck_the_joker(client, tokens):
    """H1: the 32-card deck has no six; Foster's deck has no joker."""
    stripped = _evaluate(client, tokens, {"cards": "Ah 6d 8c 9s Td",
                                          "profile": {"base": "cardroom", "stripped_deck": True}})
    assert stripped.status_code == 422 and "6d" in stripped.json["message"]
    foster = _evaluate(client, tokens, {"cards": "As Jk Kd 7c 2h", "profile": "foster"})
    assert foster.status_code == 422 and "Jk" in foster.json["message"]
    assert _evaluate(client, tokens, {"cards": "As Jk Kd 7c 2h"}).json["category"] == "one_pair"


def test_evaluate_the_stripped_deck_is_32_cards_without_the_joker(client, tokens):
    """H1: the stripped deck the profile plays, without the joker when wild is none: 32 cards."""
    profile = {"base": "cardroom", "wild": "none", "stripped_deck": True}
    flush = _evaluate(client, tokens, {"cards": "Ah Kh 9h 8h 7h", "profile": profile}).json
    assert flush["category"] == "flush" and flush["deck_size"] == 32


def test_evaluate_wild_widow_needs_the_widow_card(client, tokens):
    """H4: in wild widow the rank of the card turned up is wild."""
    profile = {"base": "cardroom", "wild": "widow"}
    missing = _evaluate(client, tokens, {"cards": "9s 9h Kd Kc 7h", "profile": profile})
    assert missing.status_code == 422 and "widow" in missing.json["message"]
    nines = _evaluate(client, tokens, {"cards": "9s 9h Kd Kc 7h", "profile": profile, "widow": "9d"})
    assert nines.json["category"] == "four_of_a_kind"


def test_evaluate_low_in_jacks_back(client, tokens):
    """D10, H8: jacks back plays ace-to-five low once nobody opens; the joker is the fitter."""
    body = {"cards": "Jk 2c 3d 4h 5s", "profile": {"base": "cardroom", "jacks_back": True}, "low": True}
    response = _evaluate(client, tokens, body)
    assert response.status_code == 200 and response.json["description"] == "five-four-three-deuce-ace"
    refused = _evaluate(client, tokens, {**body, "profile": "cardroom"})
    assert refused.status_code == 422 and "D10" in refused.json["message"]


def test_evaluate_profile_and_wild_together_or_an_unknown_profile_is_422(client, tokens):
    both = _evaluate(client, tokens, {"cards": "As Ks Qs Js Ts", "profile": "cardroom", "wild": "none"})
    assert both.status_code == 422 and "not both" in both.json["message"]
    unknown = _evaluate(client, tokens, {"cards": "As Ks Qs Js Ts", "profile": "casino royale"})
    assert unknown.status_code == 422 and "casino royale" in unknown.json["message"]
