"""Pot limit and no limit for the draw games (issue 32): the house's ``betting = "pot"`` and
``betting = "no_limit"`` bound each bet and raise by the pot or the stack, the least being a full bet
or raise (D5); openers, antes and the draw are those of the jackpot. Refusals name the numbers.
Through the engine, and through the API as the tablet logs them."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.jackpot import start
from rules.jackpot.betting import BetMove, RaiseMove
from rules.jackpot.moves import parse_move
from rules.jackpot.opening import OpenMove
from tests.conftest import SETUP, bearer
from tests.test_dealer_seed_games import amount_form, log, make_table, panel, post

POT = {"betting": "pot"}  # the option under test: betting = "pot"
NO_LIMIT = {"betting": "no_limit"}  # betting = "no_limit"


def table(profile, stacks=(500, 500, 500), ante=5):
    return start({"profile": profile, "ante": ante, "small_bet": 10, "big_bet": 20, "button": 1,
                  "seats": [{"seat": i + 1, "player": n, "stack": s}
                            for i, (n, s) in enumerate(zip(("Ann", "Bob", "Cy", "Dee"), stacks))]})


def move(state, cls):
    return next(m for m in state.legal() if isinstance(m, cls))


def test_betting_pot_the_opening_is_a_bet_up_to_the_pot_of_antes() -> None:
    """betting = "pot": the opener bets from the small bet up to the pot (the antes, 15)."""
    t = table(POT).apply({"type": "deal"})
    opening = move(t, OpenMove)
    assert (opening.amount, opening.most) == (10, 15)
    with pytest.raises(IllegalAction, match=r"cannot open for 16: .*pot limit a bet here is 10 to 15.*at most 15 "
                                            r"\(the pot\).*\(O2, D5\)"):
        t.apply({"type": "open", "seat": 2, "amount": 16})
    with pytest.raises(IllegalAction, match=r"cannot open for 9: .*at least 10 \(the small bet\)"):
        t.apply({"type": "open", "seat": 2, "amount": 9})
    t = t.apply({"type": "open", "seat": 2, "amount": 15})
    assert t.to_dict()["pot"] == 30 and t.to_dict()["jackpot"]["opener"] == 2


def test_betting_pot_a_raise_is_at_most_the_pot_after_the_call_and_at_least_the_last_raise() -> None:
    """betting = "pot": pot 30 after the opening of 15; the call is 15, the pot after it 45, so a
    raise puts in 30 (15 + the last bet 15) to 60 (15 + 45); the next raise is at least that raise."""
    t = table(POT).apply({"type": "deal"}).apply({"type": "open", "seat": 2, "amount": 15})
    r = move(t, RaiseMove)
    assert (r.amount, r.most) == (30, 60)
    with pytest.raises(IllegalAction) as refused:
        t.apply({"type": "raise", "seat": 3, "amount": 61})
    assert ("cannot raise 61: in pot limit a raise here puts in 30 to 60: the call of 15, then a raise of at "
            "least 15 (the last bet or raise) and at most 45 (the pot after the call) (D5)") in str(refused.value)
    with pytest.raises(IllegalAction, match="cannot raise 29"):
        t.apply({"type": "raise", "seat": 3, "amount": 29})
    t = t.apply({"type": "raise", "seat": 3, "amount": 60})  # to 60: a raise of 45
    assert t.to_dict()["pot"] == 90
    r = move(t, RaiseMove)  # seat 1: the call of 60, then at least 45, at most 90 + 60 = 150
    assert (r.amount, r.most) == (60 + 45, 60 + 150)
    with pytest.raises(IllegalAction, match=r"at least 45 \(the last bet or raise\) and at most 150"):
        t.apply({"type": "raise", "seat": 1, "amount": 104})


def test_betting_pot_after_the_draw_the_least_bet_is_the_big_bet() -> None:
    """betting = "pot": the bet after the draw is at least the big bet (20), at most the pot."""
    t = table(POT).apply({"type": "deal"}).apply({"type": "open", "seat": 2})
    t = t.apply({"type": "call", "seat": 3}).apply({"type": "fold", "seat": 1})
    for s in (2, 3):
        t = t.apply({"type": "draw", "seat": s, "count": 0 if s == 2 else 2})
    bet = move(t, BetMove)
    assert (bet.amount, bet.most) == (20, 35)
    with pytest.raises(IllegalAction, match=r"pot limit a bet here is 20 to 35: at least 20 \(the big bet\), "
                                            r"at most 35 \(the pot\)"):
        t.apply({"type": "bet", "seat": 2, "amount": 36})
    t = t.apply({"type": "bet", "seat": 2, "amount": 35})
    assert t.to_dict()["pot"] == 70


def test_betting_no_limit_a_raise_is_up_to_the_stack() -> None:
    """betting = "no_limit": any raise from a full raise to all in; more than the stack is refused
    naming the stack."""
    t = table(NO_LIMIT, stacks=(500, 300, 200)).apply({"type": "deal"})
    assert (move(t, OpenMove).amount, move(t, OpenMove).most) == (10, 295)
    t = t.apply({"type": "open", "seat": 2, "amount": 40})
    r = move(t, RaiseMove)
    assert (r.amount, r.most) == (80, 195)  # the call of 40, a raise of at least 40; seat 3 has 195
    with pytest.raises(IllegalAction, match=r"cannot raise 196: in no limit a raise here puts in 80 to 195: the "
                                            r"call of 40, then a raise of at least 40 \(the last bet or raise\) and "
                                            r"at most 155 \(the stack\)"):
        t.apply({"type": "raise", "seat": 3, "amount": 196})
    t = t.apply({"type": "raise", "seat": 3, "amount": 195})
    assert t.seats[3].all_in and t.seats[3].stack == 0


def test_betting_no_limit_a_short_stack_goes_all_in_for_less_than_a_raise() -> None:
    """betting = "no_limit": a stack smaller than a full raise may still go all in for what it has."""
    t = table(NO_LIMIT, stacks=(500, 500, 80)).apply({"type": "deal"}).apply({"type": "open", "seat": 2,
                                                                               "amount": 50})
    r = move(t, RaiseMove)
    assert (r.amount, r.most) == (75, 75)  # less than the 100 of a full raise: all in
    t = t.apply({"type": "raise", "seat": 3, "amount": 75})
    r = move(t, RaiseMove)  # a short all-in raise is no full raise: the least raise is still 50
    assert r.amount == 75 + 50


def test_openers_antes_and_the_draw_are_the_jackpots_in_pot_limit() -> None:
    """betting = "pot": nobody opens, the pot carries (O3) and the next deal antes again; a false
    opener is ruled as in limit (the tree is the same)."""
    t = table(POT).apply({"type": "deal"})
    for s in (2, 3, 1):
        t = t.apply({"type": "pass", "seat": s})
    d = t.to_dict()
    assert d["phase"] == "between_deals" and d["pot"] == 15
    t = t.apply({"type": "deal"})
    assert t.to_dict()["pot"] == 30
    opening = move(t, OpenMove)
    assert opening.most == 30  # the pot of both deals' antes


def test_legal_moves_in_pot_limit_read_back_from_their_json() -> None:
    """The state's legal list carries the bounds (most, bounds) and parse_move reads them back."""
    t = table(POT).apply({"type": "deal"}).apply({"type": "open", "seat": 2, "amount": 15})
    legal = t.to_dict()["legal"]
    raise_ = next(m for m in legal if m["type"] == "raise")
    assert raise_["amount"] == 30 and raise_["most"] == 60 and "pot after the call" in raise_["bounds"]
    assert [parse_move(m) for m in legal] == list(t.legal())


def test_fixed_limit_moves_are_as_before() -> None:
    """betting = "fixed" (the default): no most, no bounds in the moves."""
    t = table({}).apply({"type": "deal"}).apply({"type": "open", "seat": 2})
    r = move(t, RaiseMove)
    assert (r.amount, r.most, r.bounds) == (20, None, None)
    assert "most" not in next(m for m in t.to_dict()["legal"] if m["type"] == "raise")


def test_a_pot_limit_table_through_the_api(client, tokens) -> None:
    """betting = "pot" through HTTP: the state's legal raise carries its bounds, a raise over the pot
    is 422 with the numbers and nothing logged, a raise within is logged."""
    created = client.post("/api/tables", json={"name": "PL", **SETUP, "profile": {"base": "cardroom", **POT}},
                          headers=bearer(tokens["director"]))
    assert created.status_code == 201, created.json
    tid, headers = created.json["id"], bearer(tokens["dealer"])
    version = 0
    for event in ({"type": "deal"}, {"type": "open", "seat": 2, "amount": 20}):
        r = client.post(f"/api/tables/{tid}/events", json={**event, "expected_version": version}, headers=headers)
        assert r.status_code in (200, 201), r.json
        version += 1
    state = client.get(f"/api/tables/{tid}", headers=headers).json["state"]
    raise_ = next(m for m in state["legal"] if m["type"] == "raise")
    # pot 20 (antes) + 20; the call 20, the pot after it 60: 40 to 80
    assert (raise_["amount"], raise_["most"]) == (40, 80)
    r = client.post(f"/api/tables/{tid}/events",
                    json={"type": "raise", "seat": 3, "amount": 81, "expected_version": version}, headers=headers)
    assert r.status_code == 422
    assert "at most 60 (the pot after the call)" in r.json["message"]
    assert client.get(f"/api/tables/{tid}", headers=headers).json["version"] == version
    r = client.post(f"/api/tables/{tid}/events",
                    json={"type": "raise", "seat": 3, "amount": 80, "expected_version": version}, headers=headers)
    assert r.status_code in (200, 201), r.json
    assert client.get(f"/api/tables/{tid}", headers=headers).json["state"]["pot"] == 120


def test_the_tablet_offers_the_pot_limit_bounds_as_an_amount_field(app, dealer) -> None:
    """betting = "pot" on the dealer's tablet: the opening and the raise are an amount field from the
    engine's least to its most (D5), the stakes line says pot limit; an amount over the pot is sent
    and the engine's refusal names the pot after the call."""
    table_id = make_table(app, {"base": "cardroom", **POT})
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2})
    html = panel(dealer, table_id)
    opening = amount_form(html, "open")
    assert (opening["min"], opening["max"]) == ("10", "20")  # the antes: 20
    assert "(10 to 20, D5)" in html and "pot limit, bets from 10/20" in html
    log(dealer, table_id, {"type": "open", "seat": 3, "amount": 20})
    raising = amount_form(panel(dealer, table_id), "raise")  # the call 20, the pot after it 60
    assert (raising["min"], raising["max"]) == ("40", "80")
    refused = post(dealer, table_id, {"type": "raise", "seat": 4, "amount": 90})
    assert refused.status_code == 422 and "at most 60 (the pot after the call)" in refused.json["message"]
