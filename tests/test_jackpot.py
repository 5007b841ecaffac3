"""The table engine on whole logged hands: opening (O1-O6), deal, draw, betting, showdown (D1-D8),
void and the refusals. Irregularities (F, S) are in test_jackpot_irregularities.py.

Logs are written in a compact notation: ``"deal; 2 pass; 3 open; 4 call; 2 draw 3; 3 show As Ad Kc 7h 2s"``.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import IllegalAction
from rules.jackpot import apply, replay, replay_state, start
from tests.notation import log, play, stacks, statuses, table


def chips(state: dict[str, Any]) -> int:
    return sum(stacks(state).values()) + int(state["pot"])


def refused(setup: dict[str, Any], text: str, event: str) -> str:
    with pytest.raises(IllegalAction) as info:
        play(setup, text + ";" + event)
    return str(info.value)


PREDRAW = "deal; 2 pass; 3 open; 4 call; 1 call"  # pot: 20 in antes + 30; seat 2 (who passed) still to act
HANDS = {"aces": "As Ad Kc 7h 2s", "kings": "Ks Kd Qc 7d 3s", "jacks": "Js Jd 9c 6h 4s",
         "tens": "Ts Td Ah Kh Qc", "two_small_pairs": "5c 5d 3h 3s 6c", "flush": "2h 5h 9h Jh Kh"}


# --------------------------------------------------------------------------- D1, O3, O4: the deal


def test_D1_first_round_starts_left_of_the_button() -> None:
    """D1: the first seat to act is the first seat after the button; the button comes from the setup."""
    state = play(table(button=3), "deal")
    assert (state["button"], state["to_act"], state["phase"]) == (3, 4, "predraw")
    assert state["legal"] == [{"type": "pass"}, {"type": "open", "amount": 10, "amounts": [10, 20]}]
    assert state["pot"] == 20 and stacks(state) == {1: 495, 2: 495, 3: 495, 4: 495}
    assert state["jackpot"] == {**state["jackpot"], "deals": 1, "ante_deals": 1, "opened": False,
                                "opener": None, "requirement": "J"}
    assert state["stub"] == 53 - 20


def test_O3_nobody_opens_pot_carries_and_button_moves() -> None:
    """O3: all pass -> throw-in; the pot stays, the button moves one seat, everyone antes again."""
    state = play(table(), "deal; 2 pass; 3 pass; 4 pass; 1 pass")
    assert state["phase"] == "between_deals" and state["pot"] == 20 and state["last_end"] == "throw_in"
    state = play(table(), "deal; 2 pass; 3 pass; 4 pass; 1 pass; deal")
    assert state["button"] == 2 and state["to_act"] == 3 and state["pot"] == 40
    assert state["jackpot"]["deals"] == 2 and state["jackpot"]["ante_deals"] == 2


def test_O3_button_stays_when_the_profile_says_so() -> None:
    """O3 option button_moves_on_throw_in: false keeps the same dealer after a throw-in."""
    setup = table(profile={"button_moves_on_throw_in": False})
    state = play(setup, "deal; 2 pass; 3 pass; 4 pass; 1 pass; deal")
    assert state["button"] == 1 and state["to_act"] == 2


def test_button_moves_after_a_won_pot_always() -> None:
    """O3/D1: after a win the button moves one seat clockwise, skipping seats that are out."""
    setup = table(profile={"button_moves_on_throw_in": False}, stacks={2: 5})
    # seat 2 antes its last 5 chips and loses; it is out at the next deal, so the button skips it
    text = ("deal; 2 pass; 3 open; 4 fold; 1 fold; 2 draw 0; 3 draw 0; 3 show " + HANDS["aces"]
            + "; 2 show " + HANDS["kings"] + "; deal")
    state = play(setup, text)
    assert state["seats"][2]["status"] == "out"
    assert state["button"] == 3 and state["dealt"] == [4, 1, 3]


THROW = "2 pass; 3 pass; 4 pass; 1 pass"


def test_O4_ante_cap_three_consecutive_deals() -> None:
    """O4: cardroom's cap: only the first three deals of one pot take antes."""
    text = "; ".join(["deal; 2 pass; 3 pass; 4 pass; 1 pass",
                      "deal; 3 pass; 4 pass; 1 pass; 2 pass",
                      "deal; 4 pass; 1 pass; 2 pass; 3 pass", "deal"])
    state = play(table(), text)
    assert state["pot"] == 60 and state["jackpot"]["deals"] == 4 and state["jackpot"]["ante_deals"] == 3
    assert stacks(state) == {1: 485, 2: 485, 3: 485, 4: 485}


def test_O4_no_cap_antes_every_deal() -> None:
    """O4 option ante_deals null (pagat): every deal of the pot antes."""
    text = "deal; 2 pass; 3 pass; 4 pass; 1 pass; deal; 3 pass; 4 pass; 1 pass; 2 pass; " \
           "deal; 4 pass; 1 pass; 2 pass; 3 pass; deal"
    assert play(table(profile="pagat"), text)["pot"] == 80


def test_O4_pot_limit_stops_antes() -> None:
    """O4 option pot_limit: once the pot holds the limit, deals take no more antes."""
    setup = table(profile={"ante_deals": None, "pot_limit": 40})
    state = play(setup, "deal; 2 pass; 3 pass; 4 pass; 1 pass; deal; 3 pass; 4 pass; 1 pass; 2 pass; deal")
    assert state["pot"] == 40 and state["jackpot"]["ante_deals"] == 2 and state["jackpot"]["deals"] == 3


def test_O4_a_won_pot_resets_the_ante_count() -> None:
    """O4: the cap counts deals of one pot; the next pot antes again from its first deal."""
    text = "deal; 2 pass; 3 pass; 4 pass; 1 pass; deal; 3 open; 4 fold; 1 fold; 2 fold; 3 show " \
           + HANDS["aces"] + "; deal"
    state = play(table(), text)
    assert state["jackpot"]["deals"] == 1 and state["jackpot"]["ante_deals"] == 1 and state["pot"] == 20
    assert state["awards"] == {3: 50}  # the last award stays on show until the next one


def test_a_deal_needs_two_players() -> None:
    """A deal needs at least two players with chips or a claim on the pot."""
    setup = table(n=2, stacks={2: 0})
    message = refused(setup, "", "deal")
    assert "at least two players" in message


# --------------------------------------------------------------------------- O1, O2, O5, O6: opening


def test_O2_passing_only_declines_to_open() -> None:
    """O2: a player who passed may still call or raise once the pot is open; pass is refused then."""
    state = play(table(), "deal; 2 pass; 3 open; 4 call; 1 call")
    assert state["to_act"] == 2 and state["legal"][0] == {"type": "call", "amount": 10}
    state = play(table(), "deal; 2 pass; 3 open; 4 call; 1 call; 2 raise")
    assert state["to_act"] == 3 and state["seats"][2]["committed"] == 20
    message = refused(table(), "deal; 2 pass; 3 open", "4 pass")
    assert "pot is open" in message and "seat 4 may call 10, raise 20 or fold" in message


def test_O2_before_the_opening_only_pass_or_open() -> None:
    """O2: before the pot is opened a player passes or opens; betting words are refused."""
    message = refused(table(), "deal", "2 bet")
    assert message == "seat 2 cannot bet: the pot is not open yet; seat 2 may pass or open for 10 or 20"
    message = refused(table(), "deal", "3 open")
    assert message == "seat 3 cannot open: it is seat 2's turn (pass or open for 10 or 20)"
    message = refused(table(), "deal", "2 open 15")
    assert "the opening bet here is 10 or 20 (O2)" in message


def test_O2_cardroom_opens_for_the_minimum_or_with_a_raise() -> None:
    """O2 (CARDROOM): open for the minimum, or open with a raise (two small bets). The raise counts
    toward the raise cap; the others call 20 or raise to 30."""
    state = play(table(), "deal; 2 open 20")
    assert state["bet_level"] == 20 and state["raises"] == 1 and stacks(state)[2] == 475
    assert state["legal"] == [{"type": "call", "amount": 20}, {"type": "raise", "amount": 30}, {"type": "fold"}]
    assert "opens with a raise to 20" in state["message"]
    # pagat and foster open for the minimum only
    assert refused(table(profile="pagat"), "deal", "2 open 20").endswith(
        "the opening bet here is 10 (O2); seat 2 may pass or open for 10")


def test_O2_guide_declares_openers_while_checking() -> None:
    """O2 (GUIDE, option check_open): a player with openers may declare the pot open by checking;
    the others are then free to bet. Off in the cardroom profile."""
    setup = table(profile={"base": "cardroom", "check_open": True})
    state = play(setup, "deal")
    assert state["legal"][1] == {"type": "open", "amount": 10, "amounts": [0, 10, 20]}
    state = play(setup, "deal; 2 open 0")
    assert state["jackpot"]["opened"] and state["jackpot"]["opener"] == 2 and state["bet_level"] == 0
    assert "declares openers and checks" in state["message"]
    assert [a["type"] for a in state["legal"]] == ["check", "bet", "fold"]
    state = play(setup, "deal; 2 open 0; 3 check; 4 check; 1 check")
    assert state["phase"] == "draw"
    assert refused(table(), "deal", "2 open 0").startswith(
        "seat 2 cannot open for 0: the opening bet here is 10 or 20 (O2)")


def test_O1_two_small_pairs_open_but_tens_do_not() -> None:
    """O1: the opener proves with any hand that beats a pair of tens (two small pairs do; T-T-A-K-Q does not)."""
    base = "deal; 2 pass; 3 open; 4 fold; 1 fold; 2 fold; 3 show "
    won = play(table(), base + HANDS["two_small_pairs"])
    assert won["awards"] == {3: 30} and won["phase"] == "between_deals"
    kept = play(table(), base + HANDS["tens"])
    assert kept["awards"] == {} and kept["pot"] == 30 and kept["rulings"][-1]["outcome"] == "OPENER_DEAD_POT_STAYS"


def test_O1_bug_with_an_ace_is_a_pair_of_aces() -> None:
    """O1/H2: with the bug, bug + ace is a pair of aces and proves openers."""
    state = play(table(), "deal; 2 pass; 3 open; 4 fold; 1 fold; 2 fold; 3 show As Jk 9c 6d 2s")
    assert state["awards"] == {3: 30}


def test_O5_progressive_openers_climb_and_come_back() -> None:
    """O5: after each throw-in the requirement goes J, Q, K, A, K, Q, J, Q ..."""
    setup = table(profile={"progressive_openers": True, "ante_deals": None})
    seen = []
    text = "deal"
    order = [[2, 3, 4, 1], [3, 4, 1, 2], [4, 1, 2, 3], [1, 2, 3, 4]]
    for i in range(7):
        text += "; " + "; ".join(f"{s} pass" for s in order[i % 4])
        seen.append(play(setup, text)["jackpot"]["requirement"])
        text += "; deal"
    assert seen == ["Q", "K", "A", "K", "Q", "J", "Q"]


def test_O5_progressive_requirement_applies_to_the_proof() -> None:
    """O5: with queens required, a pair of jacks does not prove openers."""
    setup = table(profile={"progressive_openers": True})
    text = "deal; " + THROW + "; deal; 3 open; 4 fold; 1 fold; 2 fold; 3 show " + HANDS["jacks"]
    state = play(setup, text)
    assert state["rulings"][-1]["outcome"] == "OPENER_DEAD_POT_STAYS" and state["pot"] == 50


def test_O6_all_in_for_the_ante_may_open_for_nothing() -> None:
    """O6: a player all in for (part of) the ante may still open, for what is left: nothing."""
    setup = table(stacks={2: 3})
    state = play(setup, "deal")
    assert state["seats"][2]["all_in"] and state["pot"] == 18
    assert state["legal"] == [{"type": "pass"}, {"type": "open", "amount": 0, "amounts": [0]}]
    state = play(setup, "deal; 2 open")
    assert state["jackpot"]["opener"] == 2 and state["to_act"] == 3
    assert {a["type"] for a in state["legal"]} == {"check", "bet", "fold"}
    # the others bet among themselves; seat 2 keeps its claim on the main pot only
    state = play(setup, "deal; 2 open; 3 bet; 4 call; 1 fold; 2 draw 0; 3 draw 1; 4 draw 2")
    assert state["phase"] == "postdraw" and state["pots"] == [
        {"amount": 12, "eligible": [2, 3, 4]}, {"amount": 26, "eligible": [3, 4]}]


def test_O6_side_pots_across_deals() -> None:
    """O6/O3: a short stack keeps its claim on what it put in over several deals of one pot."""
    setup = table(stacks={2: 7})
    state = play(setup, "deal; " + THROW + "; deal; 3 pass; 4 open; 1 call; 3 call; "
                 "3 draw 1; 4 draw 1; 1 draw 1; 2 draw 0; 4 bet; 1 call; 3 fold; "
                 f"4 show {HANDS['kings']}; 1 show {HANDS['jacks']}; 2 show {HANDS['aces']}")
    # seat 2 put 7 (two antes, all in), passes nothing: all in, it is never asked to bet;
    # main pot: 7 from each of 4 seats = 28 to seat 2 (aces); the rest, 79, to seat 4's kings
    assert state["awards"] == {2: 28, 4: 79}
    assert chips(state) == 1507


# --------------------------------------------------------------------------- D2-D8: draw, betting, showdown


def test_D2_draw_order_and_maximum() -> None:
    """D2: the draw goes from the first live seat after the button; pagat allows three cards at most."""
    state = play(table(), PREDRAW + "; 2 fold")
    assert state["phase"] == "draw" and state["to_act"] == 3
    message = refused(table(profile="pagat"), PREDRAW + "; 2 fold", "3 draw 4")
    assert "at most 3 cards" in message
    state = play(table(), PREDRAW + "; 2 fold; 3 draw 5; 4 draw 0; 1 draw 2")
    assert state["phase"] == "postdraw" and state["stub"] == 33 - 7
    assert [state["seats"][s]["drawn"] for s in (3, 4, 1)] == [5, 0, 2]


def test_D3_stub_runs_out_discards_are_reshuffled() -> None:
    """D3: 10 players leave 3 cards; the last one is never dealt off the stub; the discards of those
    who drew (not the escrow) are reshuffled with it; a draw even that cannot cover is refused, and
    with no discard to shuffle the last card with, it is not dealt at all."""
    setup = table(n=10)
    pre = "deal; 2 open; " + "; ".join(f"{s} call" for s in (3, 4, 5, 6, 7, 8, 9, 10, 1))
    state = play(setup, pre)
    assert state["stub"] == 3 and state["to_act"] == 2
    state = play(setup, pre + "; 2 draw 2 split Jh 4c")
    # seat 2 takes 2 of the 3 left (the stub's last card is kept back); its discards stay in escrow (S1)
    assert state["stub"] == 1 and state["discards"] == 0 and state["escrow"] == {2: ["Jh", "4c"]}
    # the escrow is never reshuffled, so nothing can go with the last card: seat 3 may only stand pat
    message = refused(setup, pre + "; 2 draw 2 split Jh 4c", "3 draw 1")
    assert "only 0 cards can be dealt" in message and "the escrow never is" in message
    state = play(setup, pre + "; 2 draw 1; 3 draw 1")
    assert state["stub"] == 1 and state["discards"] == 2  # from the stub, its last card kept back
    state = play(setup, pre + "; 2 draw 1; 3 draw 1; 4 draw 1")
    # the last card and the two discards are shuffled: 3 cards, one dealt, seat 4's discard after
    assert state["stub"] == 2 and state["discards"] == 1 and "reshuffled" in state["message"]
    message = refused(setup, pre + "; 2 draw 1; 3 draw 1; 4 draw 1", "5 draw 4")
    assert "only 3 cards can be dealt" in message
    state = play(setup, pre + "; 2 draw 1; 3 draw 1; 4 draw 1; 5 draw 3")
    assert state["stub"] == 0 and state["discards"] == 3


def test_D4_second_round_starts_with_the_opener() -> None:
    """D4: after the draw the opener acts first; if the opener folded, the next live seat after it."""
    text = PREDRAW + "; 2 fold; 3 draw 1; 4 draw 2; 1 draw 3"
    assert play(table(), text)["to_act"] == 3
    # 3 folded to the raise: only seat 4 is left, it takes the pot uncalled (D7)
    assert play(table(), "deal; 2 pass; 3 open; 4 raise; 1 fold; 2 fold; 3 fold")["awards"] == {4: 50}
    text3 = "deal; 2 pass; 3 open; 4 call; 1 call; 2 call; 2 draw 1; 3 draw 1; 4 draw 1; 1 draw 1; " \
            "3 check; 4 bet; 1 call; 2 call; 3 fold; 4 show " + HANDS["kings"] + "; 1 muck; 2 muck"
    assert play(table(), text3)["awards"] == {4: 120}


def test_D4_left_of_button_option() -> None:
    """D4 option postdraw_first = left_of_button (the players' guide)."""
    setup = table(profile={"postdraw_first": "left_of_button"})
    state = play(setup, PREDRAW + "; 2 call; 2 draw 1; 3 draw 1; 4 draw 1; 1 draw 1")
    assert state["to_act"] == 2


def test_D5_limits_and_raise_cap() -> None:
    """D5: the small bet before the draw, the big bet after; a bet and four raises a round."""
    text = "deal; 2 open; 3 raise; 4 raise; 1 raise; 2 raise"
    state = play(table(), text)
    assert state["raises"] == 4 and state["bet_level"] == 50
    assert [a["type"] for a in state["legal"]] == ["call", "fold"]
    assert "raise cap of 4" in refused(table(), text, "3 raise")
    state = play(table(), text + "; 3 call; 4 call; 1 call; 2 draw 1; 3 draw 1; 4 draw 1; 1 draw 1; 2 bet")
    assert state["bet_level"] == 20 and state["legal"][1] == {"type": "raise", "amount": 40}


def test_D5_no_raise_cap() -> None:
    """D5 option raise_cap null: no cap (foster)."""
    text = "deal; 2 open; 3 raise; 4 raise; 1 raise; 2 raise; 3 raise"
    assert play(table(profile="foster"), text)["raises"] == 5


def test_D6_showdown_order_last_aggressor_then_clockwise() -> None:
    """D6: the last to bet or raise shows first; if all checked, the opener shows first."""
    text = PREDRAW + "; 2 call; 2 draw 1; 3 draw 1; 4 draw 1; 1 draw 1; 3 check; 4 check; 1 bet; 2 call; 3 call; 4 call"
    state = play(table(), text)
    assert state["phase"] == "showdown" and state["show_order"] == [1, 2, 3, 4] and state["to_act"] == 1
    text = PREDRAW + "; 2 call; 2 draw 1; 3 draw 1; 4 draw 1; 1 draw 1; 3 check; 4 check; 1 check; 2 check"
    state = play(table(), text)
    assert state["show_order"] == [3, 4, 1, 2]
    assert "cannot show" in refused(table(), text, "4 show " + HANDS["kings"])


def test_D7_uncalled_bet_takes_the_pot_without_a_show() -> None:
    """D7: a non-opener whose bet is not called takes the pot without showing."""
    text = PREDRAW + "; 2 call; 2 draw 1; 3 draw 1; 4 draw 1; 1 draw 1; 3 check; 4 bet; 1 fold; 2 fold; 3 fold"
    state = play(table(), text)
    assert state["awards"] == {4: 80} and state["phase"] == "between_deals"
    assert stacks(state) == {1: 485, 2: 485, 3: 485, 4: 545}


def test_D8_H6_a_hand_of_the_wrong_size_is_dead() -> None:
    """D8/H6: a hand of more or fewer than five cards at the showdown is foul and cannot win."""
    text = PREDRAW + "; 2 fold; 3 draw 1; 4 draw 1; 1 draw 1; 3 check; 4 check; 1 check"
    state = play(table(), text + f"; 3 show {HANDS['jacks']}; 4 show As Ad Ac Qd; 1 show {HANDS['kings']}")
    assert state["awards"] == {1: 50} and state["seats"][4]["status"] == "active"  # statuses reset after the deal
    mid = play(table(), text + f"; 3 show {HANDS['jacks']}; 4 show As Ad Ac Qd")
    assert mid["seats"][4]["status"] == "dead"


def test_split_pot_odd_chip_goes_left_of_the_button() -> None:
    """H5: an exact tie splits the pot; the odd chip goes to the winner nearest the button's left."""
    setup = table(n=3, ante=5)  # pot 15 + 3x10 = 45 with 3 players
    text = ("deal; 2 open; 3 call; 1 call; 2 draw 1; 3 draw 1; 1 draw 1; 2 check; 3 check; 1 bet; 2 call; 3 fold; "
            "1 show As Ad Kc 7h 2s; 2 show Ac Ah Kd 7s 2c")
    state = play(setup, text)
    assert state["awards"] == {2: 43, 1: 42}


def test_opener_who_is_raised_out_need_not_prove() -> None:
    """F1: only a player who wants the pot must prove openers; a folded opener proves nothing."""
    state = play(table(), "deal; 2 pass; 3 open; 4 raise; 1 fold; 2 fold; 3 fold")
    assert state["awards"] == {4: 50} and state["rulings"] == []


def test_everyone_folds_to_the_opener_who_must_show() -> None:
    """F1 (PAGAT): even when everyone folds, the opener shows openers before taking the pot."""
    state = play(table(), "deal; 2 pass; 3 open; 4 fold; 1 fold; 2 fold")
    assert state["phase"] == "showdown" and state["to_act"] == 3 and state["show_order"] == [3]
    assert state["legal"] == [{"type": "show"}, {"type": "muck"}]
    state = play(table(), "deal; 2 pass; 3 open; 4 fold; 1 fold; 2 fold; 3 muck")
    assert state["pot"] == 30 and state["rulings"][-1]["outcome"] == "OPENER_DEAD_POT_STAYS"


# --------------------------------------------------------------------------- void and refusals


def test_void_withdraws_only_the_latest_live_event() -> None:
    """void: the latest live event may be withdrawn (the state is as if it was never logged)."""
    events = log(PREDRAW)
    with_void = replay(table(), events + [{"type": "call", "seat": 2}, {"type": "void", "event": 5}])
    without = replay(table(), events)
    for key in ("phase", "to_act", "pot", "seats", "pots", "legal"):
        assert with_void[key] == without[key]
    assert with_void["version"] == 7 and with_void["voided"] == [5]
    with pytest.raises(IllegalAction, match="only the latest live event, entry 5"):
        replay(table(), events + [{"type": "void", "event": 2}])
    # successive voids peel the log back
    state = replay(table(), events + [{"type": "void", "event": 4}, {"type": "void", "event": 3}])
    assert state["to_act"] == 4 and state["pot"] == 30
    with pytest.raises(IllegalAction, match="itself an undo"):
        replay(table(), events + [{"type": "void", "event": 4}, {"type": "void", "event": 5}])


def test_refusals_say_what_is_wrong_and_what_is_allowed() -> None:
    """Every refusal names the problem and the allowed actions."""
    assert refused(table(), "", "2 pass") == "seat 2 cannot pass: no deal is in progress; the dealer may deal"
    assert refused(table(), "deal", "deal") == \
        "cannot deal: the current deal is not finished; seat 2 may pass or open for 10 or 20"
    assert refused(table(), "deal", "9 pass").startswith("there is no seat 9 at this table")
    message = refused(table(), "deal; 2 open", "4 call")
    assert message == "seat 4 cannot call: it is seat 3's turn (call 10, raise 20 or fold)"
    with pytest.raises(IllegalAction, match="unknown event type"):
        replay(table(), [{"type": "deal"}, {"type": "shuffle"}])


def test_apply_never_changes_the_old_state() -> None:
    """apply returns a new state; the old one stays as it was, also when the event is refused."""
    s0 = start(table())
    s1 = apply(s0, {"type": "deal"})
    assert s0.phase == "between_deals" and s1.phase == "predraw"
    before = s1.to_dict()
    with pytest.raises(IllegalAction):
        apply(s1, {"type": "call", "seat": 2})
    assert s1.to_dict() == before


def test_seats_as_strings_from_json() -> None:
    """Seat numbers may come as strings of digits (JSON)."""
    state = replay(table(), [{"type": "deal"}, {"type": "pass", "seat": "2"}, {"type": "open", "seat": "3"}])
    assert state["jackpot"]["opener"] == 3


def test_chips_are_conserved_over_a_long_log() -> None:
    """Stacks plus pot never change over the log."""
    text = "; ".join([PREDRAW, "2 fold; 3 draw 1; 4 draw 2; 1 draw 3; 3 bet; 4 raise; 1 call; 3 call",
                      f"4 show {HANDS['flush']}; 1 muck; 3 show {HANDS['aces']}", "deal; " + "; ".join(
                          f"{s} pass" for s in (3, 4, 1, 2))])
    state = replay_state(table(), log(text))
    assert sum(state.seat(s).stack for s in range(1, 5)) + state.pot == 2000


def test_states_compare_by_what_they_show() -> None:
    """Two states reached by the same log are equal; a refused event leaves an equal state."""
    a = replay_state(table(), log(PREDRAW))
    b = replay_state(table(), log(PREDRAW))
    assert a == b and a is not b
    assert a != replay_state(table(), log(PREDRAW + "; 2 fold"))


def test_O6_an_uncalled_bet_is_no_side_pot() -> None:
    """Side pots are cut only where a contender is all in: seats 1 and 2 may still call the
    opening, so the whole pot stays one pot that all four contest."""
    state = play(table(4), "deal; 2 pass; 3 open; 4 call")
    assert state["pots"] == [{"amount": 40, "eligible": [1, 2, 3, 4]}]


def test_F4_the_false_openers_bet_left_in_a_carried_pot_is_everyones() -> None:
    """After F4 the false opener's opening bet stays in the pot: every player of the next deal
    contests all of it, not only the seat that put it in."""
    state = play(table(4), "deal; 2 pass; 3 open; 4 call; 3 false_openers; 4 pass; 1 pass")
    assert state["phase"] == "between_deals"
    assert state["pots"] == [{"amount": 30, "eligible": [1, 2, 3, 4]}]


def test_void_peels_back_the_current_hand_but_not_the_one_before_its_deal() -> None:
    """Undo reaches as far as the latest deal; an earlier hand is closed (the floor corrects it)."""
    thrown_in = "deal; 2 pass; 3 pass; 4 pass; 1 pass"
    state = play(table(4), thrown_in + "; deal; void 5")  # the second deal withdrawn
    assert state["phase"] == "between_deals" and state["jackpot"]["deals"] == 1
    with pytest.raises(IllegalAction, match="closed once the next deal is logged"):
        play(table(4), thrown_in + "; deal; void 5; void 4")
    # Within one hand every event can be peeled back in turn, down to its deal.
    state = play(table(4), "deal; 2 pass; 3 open; void 2; void 1; void 0")
    assert state["phase"] == "between_deals" and state["pot"] == 0
