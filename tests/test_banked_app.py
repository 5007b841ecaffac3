"""Banked tables in the app (issue 15, floor/banked): set-up by a director only, the dealer's tablet
logging a round of three boxes down to the payouts, refusals naming the rule (422), a stale
version (409), JSON for token clients, and the rule summary PDF with the paytable."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.conftest import bearer

ROUND = [
    {"type": "deal", "antes": {"1": 3, "2": 6, "3": 3},
     "cards": {"1": "Ah Ad 9c 6s 2h", "2": "Ks Qd 8h 5c 3c", "3": "7h 7d 7c Js 2d"}},
    {"type": "exchange", "box": 1, "discards": "9c 6s 2h", "drawn": "As Kd Qh"},
    {"type": "bet", "box": 1}, {"type": "fold", "box": 2}, {"type": "bet", "box": 3},
    {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"},
]


@pytest.fixture
def table_id(as_role):
    director = as_role("director")
    response = director.post("/banked/tables", data={"name": "Banked 1", "boxes": "3", "options": ""})
    assert response.status_code == 302
    return int(response.location.rsplit("/", 1)[1])


def test_only_a_director_sets_up_a_banked_table(as_role):
    for role in ("dealer", "floor"):
        response = as_role(role).post("/banked/tables", data={"name": "X", "boxes": "3"})
        assert response.status_code == 403 and b"director" in response.data
    bad = as_role("director").post("/banked/tables", data={"name": "X", "boxes": "12"})
    assert bad.status_code == 422 and b"B1: a banked table has 1 to 9 boxes, not 12" in bad.data
    bad = as_role("director").post("/banked/tables", data={"name": "X", "boxes": "3",
                                                           "options": '{"no_game_pays": "2:3"}'})
    assert bad.status_code == 422 and b"no_game_pays: a ratio" in bad.data


def test_a_new_table_has_dealt_no_round_yet(as_role, table_id):
    """Before its first deal the tablet and the floor's dispute page said "round 0", a round nobody dealt."""
    for role, path in (("dealer", ""), ("floor", "/dispute")):
        page = as_role(role).get(f"/banked/tables/{table_id}{path}").get_data(as_text=True)
        assert "· banked · no round dealt yet</span>" in page and "round 0" not in page


def test_strangers_are_sent_to_log_in(client, table_id):
    assert client.get(f"/banked/tables/{table_id}").status_code in (302, 401)


def test_a_round_of_three_boxes_down_to_the_payouts(as_role, table_id):
    """B1-B5 through the tablet's forms: the page shows the dealer's cards to change and every payout."""
    dealer = as_role("dealer")
    url = f"/banked/tables/{table_id}"
    form = {"type": "deal", "version": "0", "ante_1": "0.3", "cards_1": "Ah Ad 9c 6s 2h",
            "ante_2": "0.6", "cards_2": "Ks Qd 8h 5c 3c", "ante_3": "0.3", "cards_3": "7h 7d 7c Js 2d"}
    assert dealer.post(url + "/events", data=form).status_code == 302
    for version, event in enumerate(ROUND[1:], start=1):
        data = {k: str(v) for k, v in event.items()}
        assert dealer.post(url + "/events", data={**data, "version": str(version)}).status_code == 302, event
    page = dealer.get(url).get_data(as_text=True)
    assert "a pair: change the other three cards" in page and "change <strong>7s 5d 4h</strong>" in page
    assert dealer.post(url + "/events", data={"type": "dealer_draw", "drawn": "Td 3s 2s", "version": "6"}).status_code == 302
    state = dealer.get(url + ".json").get_json()["state"]
    assert [(p["box"], p["outcome"], p["player_net"]) for p in state["payouts"]] == [
        (1, "player_wins", 42), (2, "folded", -6), (3, "player_wins", 21)]
    assert state["house_net"] == -57
    page = dealer.get(url).get_data(as_text=True)
    assert "player wins: +4.2" in page and "folded: -0.6" in page and "House this round: -5.7" in page


def test_refusals_are_422_with_the_rule_and_nothing_is_logged(as_role, table_id):
    dealer = as_role("dealer")
    url = f"/banked/tables/{table_id}"
    response = dealer.post(url + "/events", data={"type": "deal", "version": "0", "ante_1": "0.4",
                                                  "cards_1": "Ah Ad 9c 6s 2h"})
    assert response.status_code == 422 and b"B1: the ante must be a multiple of 0.3, not 0.4" in response.data
    assert dealer.get(url + ".json").get_json()["version"] == 0
    dealer.post(url + "/events", json=ROUND[0])
    response = dealer.post(url + "/events", json={"type": "bet", "box": 3})
    assert response.status_code == 422 and response.get_json()["error"].startswith("B2: box 1 acts now")
    response = dealer.post(url + "/events", json={"type": "exchange", "box": 1, "discards": "9c", "drawn": "7h"})
    assert response.status_code == 422 and "duplicate card: 7h" in response.get_json()["error"]
    assert dealer.get(url + ".json").get_json()["version"] == 1


def test_a_stale_page_gets_409(as_role, table_id):
    dealer = as_role("dealer")
    url = f"/banked/tables/{table_id}"
    dealer.post(url + "/events", json=ROUND[0])
    response = dealer.post(url + "/events", data={"type": "bet", "box": "1", "version": "0"})
    assert response.status_code == 409 and b"another device logged first" in response.data
    response = dealer.post(url + "/events", json={"type": "bet", "box": 1, "expected_version": 0})
    assert response.status_code == 409


def test_token_clients_log_as_json(app, client, tokens, table_id):
    url = f"/banked/tables/{table_id}"
    response = client.post(url + "/events", json=ROUND[0], headers=bearer(tokens["dealer"]))
    assert response.status_code == 201 and response.get_json()["state"]["to_act"] == 1


def test_rule_summary_pdf_has_the_paytable_and_the_dealers_list(as_role, table_id):
    response = as_role("dealer").get(f"/banked/tables/{table_id}/rules.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages).split())
    for words in ("Paytable", "royal flush", "100 to 1", "four of a kind", "20 to 1", "Three of a kind?",
                  "A pair?", "change all five cards", "2 to 3", "B4", "Caribbean Stud"):
        assert words in text, words


def test_boxes_show_their_players_names_kept_from_round_to_round(as_role, table_id):
    """Issue 33: a box is named by its player. The deal names them (optional, per box); the next
    round's deal form comes filled with the same names; a name is never dealt to a box not played."""
    dealer = as_role("dealer")
    url = f"/banked/tables/{table_id}"
    form = {"type": "deal", "version": "0", "player_1": "Ann", "ante_1": "0.3", "cards_1": "Ah Ad 9c 6s 2h",
            "player_2": "  ", "ante_2": "0.6", "cards_2": "Ks Qd 8h 5c 3c", "player_3": "Cy"}
    assert dealer.post(url + "/events", data=form).status_code == 302
    state = dealer.get(url + ".json").get_json()["state"]
    assert [(b["box"], b["player"]) for b in state["boxes"]] == [(1, "Ann"), (2, None)]  # box 3 not dealt
    page = dealer.get(url).get_data(as_text=True)
    assert 'Box 1 · <span class="player">Ann</span>' in page and "deal: box 1 (Ann) ante 0.3" in page
    for version, event in enumerate([{"type": "fold", "box": 1}, {"type": "fold", "box": 2},
                                     {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"},
                                     {"type": "dealer_draw", "drawn": "Td 3s 2s"}], start=1):
        assert dealer.post(url + "/events", data={**event, "version": str(version)}).status_code == 302
    page = dealer.get(url).get_data(as_text=True)
    assert 'name="player_1" id="player-1" size="12" maxlength="80" value="Ann"' in page
    refused = dealer.post(url + "/events", json={"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"},
                                                  "players": {"2": "Bo"}, "expected_version": 5})
    assert refused.status_code == 422 and "box 2 is not dealt this round" in refused.get_json()["error"]


def test_the_banked_rule_summary_is_made_once_and_kept(as_role, table_id, monkeypatch):
    """Issue 33: kept in the database once made (as a ruling's print): a process that did not make
    it serves it without laying it out again; other options print afresh."""
    from floor.prints import stored
    from floor.rulings import printed

    renders = []
    real = printed.pdf_bytes
    monkeypatch.setattr(printed, "pdf_bytes", lambda *a, **k: renders.append(1) or real(*a, **k))
    stored.recent.clear()
    dealer = as_role("dealer")
    first = dealer.get(f"/banked/tables/{table_id}/rules.pdf")
    stored.recent.clear()  # another server process
    second = dealer.get(f"/banked/tables/{table_id}/rules.pdf")
    assert first.status_code == second.status_code == 200 and first.data == second.data and len(renders) == 1
    other = as_role("director").post("/banked/tables", data={"name": "Banked 2", "boxes": "2",
                                                              "options": '{"no_game_pays": [1, 1]}'})
    other_id = int(other.location.rsplit("/", 1)[1])
    assert dealer.get(f"/banked/tables/{other_id}/rules.pdf").data != first.data and len(renders) == 2


def test_each_round_is_named_by_its_number_on_the_tablet_in_the_json_and_in_a_ruling(as_role, table_id):
    """The round in play is the table's nth (B1: a round is a deal), though the app reads the log from
    that round's deal only: the tablet, the JSON state, the dispute page and a ruling's stored record
    (sealed) name round 3 in the third round, and round 2 again once the third deal is withdrawn.
    Before, each said "round 1" in every round (the count began at the round's own deal)."""
    dealer, floor = as_role("dealer"), as_role("floor")
    url = f"/banked/tables/{table_id}"
    rounds = [
        [{"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"}}, {"type": "bet", "box": 1},
         {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"}, {"type": "dealer_draw", "drawn": "Td 3s 2s"}],
        [{"type": "deal", "antes": {"1": 3}, "cards": {"1": "2h 3h 4h 5h 7d"}}, {"type": "fold", "box": 1},
         {"type": "reveal", "dealer": "Qh Qc 8s 6d 4c"}, {"type": "dealer_draw", "drawn": "Jd 9s 2s"}],
    ]
    for event in rounds[0] + rounds[1]:
        assert dealer.post(url + "/events", json=event).status_code == 201, event
    third = {"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ks Kd 9h 6c 2d"}}
    assert dealer.post(url + "/events", json=third).status_code == 201
    assert dealer.get(url + ".json").get_json()["state"]["round"] == 3
    from floor.banked import log

    log.rounds.clear()  # another server process, or a restart: the rounds are counted by the database
    assert dealer.get(url + ".json").get_json()["state"]["round"] == 3
    assert "· banked · round 3</span>" in dealer.get(url).get_data(as_text=True)
    assert "· banked · round 3</span>" in floor.get(url + "/dispute").get_data(as_text=True)
    assert dealer.post(url + "/events", json={"type": "void", "event": 9}).status_code == 201
    assert dealer.get(url + ".json").get_json()["state"]["round"] == 2
    log.rounds.clear()
    assert dealer.get(url + ".json").get_json()["state"]["round"] == 2
    facts = {"f_issue": "wrong_payout", "f_box": "1", "f_paid": "0", "f_box_cards": "Ah Ad 9c 6s 2h",
             "f_dealer_final": "Kh Kc Td 3s 2s", "f_ante_box": "0.3", "f_bet": "0.6"}
    assert floor.post(url + "/disputes", data={**facts, "f_box_cards": "2h 3h 4h 5h 7d"}).status_code == 422  # folded
    assert dealer.post(url + "/events", json=third).status_code == 201
    assert dealer.post(url + "/events", json={"type": "bet", "box": 1}).status_code == 201
    assert dealer.post(url + "/events", json={"type": "reveal", "dealer": "Ah Ac 4s 5d 6h"}).status_code == 201
    assert dealer.post(url + "/events", json={"type": "dealer_draw", "drawn": "Jh Tc 8c"}).status_code == 201
    issued = floor.post(url + "/disputes", data={**facts, "f_box_cards": "Ks Kd 9h 6c 2d",
                                                 "f_dealer_final": "Ah Ac Jh Tc 8c"})
    assert issued.status_code == 201 and "· round 3</span>" in issued.get_data(as_text=True)
    log.rounds.clear()  # the withdrawn deal is not counted: round 3 is the deal logged again
    assert dealer.get(url + ".json").get_json()["state"]["round"] == 3
