"""Forms that refuse what cannot be (issue 16): a table that cannot play, "none" for no cap in a
house profile, numbers in the dispute walk that cannot be true (a hand of 99999 cards)."""

from __future__ import annotations

import pytest

from floor.extensions import db
from floor.models import HouseProfile, IssuedRuling, Table
from rules import profiles
from rules.jackpot.seating import MOST_SEATS
from rules.rulings.tree import SEATS_MOST
from tests import people_data
from tests.conftest import bearer
from tests.test_director import make_event, table_form
from tests.test_rulings_app import asked, hidden


@pytest.mark.parametrize("change,messages", [
    ({"seats": {1: ("Ann", 500)}}, ["A table needs at least two players to deal: only Ann is seated."]),
    ({"seats": {}}, ["A table needs at least two players to deal: nobody is seated."]),
    ({"small": 20, "big": 10}, ["The big bet (10) is below the small bet (20): the bet after the draw is at least "
                                "the bet before it", "The big bet is below the small bet"]),
])
def test_a_table_that_cannot_play_is_refused_with_a_form_error(app, as_role, change, messages):
    event_id = make_event(app)
    response = as_role("director").post(f"/director/events/{event_id}/tables/new", data=table_form(**change))
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    for message in messages:
        assert message in html
    with app.app_context():
        assert db.session.scalars(db.select(Table)).first() is None


def test_two_players_and_equal_bets_are_a_table(app, as_role):
    """Two players are enough, and a long or non-Latin name is seated as it is written."""
    event_id = make_event(app)
    response = as_role("director").post(f"/director/events/{event_id}/tables/new",
                                        data=table_form(small=10, big=10, seats={1: (people_data.LONG, 500),
                                                                                 4: ("王小明", 500)}))
    assert response.status_code == 302
    with app.app_context():
        seats = db.session.scalars(db.select(Table)).one().setup["seats"]
    assert [s["player"] for s in seats] == [people_data.LONG, "王小明"]


def test_the_house_profile_form_explains_none_for_no_cap(app, as_role):
    """O4, D5: "none" (in quotes: TOML has no null) is no cap; a wrong value says so in those words."""
    client = as_role("director")
    page = client.get("/director/profiles/new").get_data(as_text=True)
    assert '"none" means no cap.' in page
    for option in ('ante_deals = "none"', 'pot_limit = "none"', 'raise_cap = "none"'):
        assert option in page
    response = client.post("/director/profiles/new",
                           data={"name": "no-cap", "toml": 'base = "cardroom"\nante_deals = "none"\nraise_cap = "none"'})
    assert response.status_code == 302
    with app.app_context():
        saved = profiles.from_toml(db.session.scalars(db.select(HouseProfile)).one().toml)
    assert saved.ante_deals is None and saved.raise_cap is None
    response = client.post("/director/profiles/new", data={"name": "bad", "toml": 'raise_cap = "never"'})
    assert response.status_code == 400
    assert "raise_cap: must be at least 1 or &#34;none&#34; (no cap)" in response.get_data(as_text=True)


def walk_to_card_count(client):
    page = client.get("/rulings/new?profile=cardroom&issue=wrong_card_count")
    html = page.get_data(as_text=True)
    while (fact := asked(html)) != "card_count":
        answer = {"seat": "2", "found": "before_draw"}.get(fact)
        assert answer is not None, fact
        html = client.post("/rulings/new", data=hidden(html) | {"step": "answer", "fact": fact,
                                                                "answer": answer}).get_data(as_text=True)
    return html


def test_a_hand_of_99999_cards_is_refused_in_the_walk(app, as_role):
    """D8/H6 disputes: the card count is bounded by the deck; the question is asked again with the
    reason, and the page's field says its bounds."""
    client = as_role("floor")
    html = walk_to_card_count(client)
    assert 'max="53"' in html
    page = client.post("/rulings/new", data=hidden(html) | {"step": "answer", "fact": "card_count", "answer": "99999"})
    text = page.get_data(as_text=True)
    assert page.status_code == 400
    assert "card_count: a hand cannot hold more cards than the deck has (53 with the joker), not 99,999" in text
    assert asked(text) == "card_count"
    page = client.post("/rulings/new", data=hidden(html) | {"step": "answer", "fact": "card_count", "answer": "6"})
    assert page.status_code == 200 and asked(page.get_data(as_text=True)) != "card_count"


@pytest.mark.parametrize("facts,words", [
    ({"issue": "wrong_card_count", "seat": 2, "found": "before_draw", "card_count": 99999}, "not 99,999"),
    ({"issue": "caller_refund", "seat": 11}, "seats are numbered 1 to 10, not 11"),
    ({"issue": "false_openers", "found": "before_draw", "opener": 3, "opener_all_in": False,
      "raise_before_draw": False, "callers": 40}, "at most 9 others call at a table of 10"),
])
def test_the_api_refuses_the_same_numbers(app, tokens, facts, words):
    response = app.test_client().post("/api/rulings", json={"facts": facts}, headers=bearer(tokens["floor"]))
    assert response.status_code == 422, response.json
    assert words in response.json["message"]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(IssuedRuling.id))) == 0


def test_the_trees_seat_bound_is_the_tables():
    assert SEATS_MOST == MOST_SEATS
