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
