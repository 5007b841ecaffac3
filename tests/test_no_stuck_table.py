"""No table is ever left stuck (issue 22): every move ``legal`` lists is accepted by ``apply``, no
reachable state has an empty ``legal`` list, in every profile and option combination; and the
three faults found from the seeds, each decided as a card room would.

`make test` walks a corpus of 57 seeds and 400 fresh ones; `make test-deep` all 5,000 seeds. The
5,000 reach 4,350 arcs of ``rules/`` after 1,000 walks and 4,379 after 5,000 (247 situations:
tests/walk_corpus.py), and the 57 reach all of them; why that is enough, measured:
docs/testing.md, "Issue 34, session 39: a corpus of walks, measured".
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import IllegalAction, ProfileError
from rules.cards import deck, to_text
from rules.hands import evaluate
from rules.jackpot import replay, start
from rules.profiles import get_profile
from tests.notation import log, stacks, statuses, table
from tests.walk_corpus import DEEP_SEEDS, WALK_SEEDS
from tests.walks import best_five, walk, walks

TRIPS = {"base": "cardroom", "trips_to_win": True}


def test_every_legal_move_is_accepted_over_many_random_walks() -> None:
    """100 random walks of up to 80 events, each in a random profile the schema allows, with real
    shuffled cards: every listed move is accepted and some move is always listed (the long walks
    below are the slow run)."""
    assert sum(walk(seed) for seed in range(100)) > 5_000


#: How many fresh seeds each run of `make test` walks beside the corpus (new ones every run, above
#: the deep run's seeds, named by any failure: ``walk(seed, steps=150)`` replays it).
FRESH_WALKS = 400


@pytest.mark.slow
@pytest.mark.parametrize("part", [1, 2])
def test_every_legal_move_is_accepted_over_the_corpus_and_fresh_walks(part: int) -> None:
    """The same over walks of up to 150 events: the corpus that reaches every arc of ``rules/`` and
    every situation the 5,000 walks of `make test-deep` reach (tests/walk_corpus.py, measured:
    docs/testing.md, "Issue 34, session 39: a corpus of walks, measured"), and fresh seeds drawn for this
    run, in two parts that xdist spreads over its workers."""
    fresh = random.SystemRandom().sample(range(DEEP_SEEDS.stop, 2**31), FRESH_WALKS // 2)
    seeds = [*WALK_SEEDS[part - 1::2], *fresh]
    assert walks(seeds, steps=150) == 150 * len(seeds)


#: `make test-deep`'s 5,000 walks (seeds 1000 to 5999) in parts of 500 seeds: one test of them all
#: took minutes of one core (about 0.1 s of CPU a walk), and as ten tests xdist spreads them over
#: the workers (docs/testing.md, "What the suite's time goes to", issue 34).
WALK_PARTS = [range(first, first + 500) for first in range(DEEP_SEEDS.start, DEEP_SEEDS.stop, 500)]


@pytest.mark.slow
@pytest.mark.deep
@pytest.mark.parametrize("seeds", WALK_PARTS, ids=lambda seeds: f"seeds{seeds.start}-{seeds.stop - 1}")
def test_every_legal_move_is_accepted_over_thousands_of_random_walks(seeds: range) -> None:
    """The same over 5000 walks of up to 150 events (seeds 1000 to 5999, 500 a part)."""
    assert walks(seeds, steps=150) == 150 * len(seeds)


# --------------------------------------------------------------------------- D9: the stuck table


def test_D9_trips_to_win_a_sole_survivor_without_trips_takes_the_pot() -> None:
    """D9 (PAGAT): "If no one has a hand as good as three of a kind after the draw, the pot remains,
    but the players who folded before the draw are out of the game. The players who did not fold
    ante again and there is a new deal involving just these players."

    That procedure needs two players who did not fold. When everyone folds to the opener, who shows
    openers but no trips, only one is left: the table used to bar everyone else and refuse the next
    deal while ``legal`` offered it. The decision: the one player left in the pot takes it."""
    text = "deal; 2 pass; 3 open; 4 fold; 1 fold; 2 fold"
    at_show = replay(table(4, profile=TRIPS), log(text))
    assert at_show["phase"] == "showdown" and at_show["to_act"] == 3
    state = replay(table(4, profile=TRIPS), log(text + "; 3 show Qc Qd 9h 5s 2c"))
    assert state["awards"] == {3: 30} and state["pot"] == 0
    assert set(statuses(state).values()) == {"active"}  # nobody barred: a new pot
    assert stacks(state) == {1: 495, 2: 495, 3: 515, 4: 495}
    assert {"type": "deal"} in state["legal"]
    nxt = replay(table(4, profile=TRIPS), log(text + "; 3 show Qc Qd 9h 5s 2c; deal"))
    assert nxt["dealt"] == [3, 4, 1, 2] and nxt["pot"] == 20


def test_D9_two_survivors_still_play_the_pot_off() -> None:
    """D9: with two players left who did not fold, the seed's procedure holds: the pot stays and
    the player who folded is out of it."""
    text = ("deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 3; 4 draw 1; 3 check; 4 check; "
            "3 show Jc Jd 5h 5s 2c; 4 show Ac Ad Kc Kd 9h")
    state = replay(table(4, profile=TRIPS), log(text))
    assert state["awards"] == {} and state["pot"] == 40
    assert statuses(state)[1] == statuses(state)[2] == "barred"
    assert replay(table(4, profile=TRIPS), log(text + "; deal"))["dealt"] == [3, 4]


def test_the_deal_is_offered_only_when_it_can_be_dealt() -> None:
    """A table where only one player has chips lists no deal (it would be refused), but seating."""
    state = replay(table(3, stacks={1: 0, 2: 0}), [])
    kinds = [m["type"] for m in state["legal"]]
    assert "deal" not in kinds and {"sit", "add_chips", "leave"} <= set(kinds)
    with pytest.raises(IllegalAction, match="at least two players"):
        replay(table(3, stacks={1: 0, 2: 0}), log("deal"))


# --------------------------------------------------------------------------- D7: the uncontested hand


def test_D7_the_one_live_hand_left_after_a_false_opener_wins_without_showing() -> None:
    """D7 (FOSTER): "If the last raise is not called, the player takes the pool without showing his
    hand". The opener shows first and cannot prove openers: the hand is dead (F1), and the caller's
    is the only live hand: it takes the pot as an uncontested pot, without being asked to show."""
    text = ("deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 1; 4 draw 2; 3 check; 4 check; "
            "3 show 7c 8d 9h Ts Jc")
    state = replay(table(4), log(text))
    assert state["phase"] == "between_deals" and state["awards"] == {4: 40}
    assert state["seats"][4]["shown"] is None
    r = state["rulings"][-1]
    assert r["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS" and r["winner"] == 4
    assert "uncontested, without showing (D7)" in r["summary"]


def test_D7_S2_a_failed_split_leaves_the_other_hand_uncontested() -> None:
    """S2 (CARDROOM): "If you declare that you are splitting openers, but it is determined that you
    could not possibly have had openers when your final hand is compared with your discards, you
    lose the pot." The other live hand takes it without showing."""
    text = ("deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 1 split Td; 4 draw 1; 3 check; 4 check; "
            "3 show Js 8h 7h 6h 2h")
    state = replay(table(4), log(text))
    assert state["rulings"][-1]["outcome"] == "SPLIT_FAILED" and state["awards"] == {4: 40}


def test_D7_D9_with_trips_to_win_the_last_hand_still_shows_trips() -> None:
    """D9 (PAGAT): "If the pot is won without a showdown, the winner must expose enough cards to
    prove that the hand is at least as good as three of a kind." So with trips to win the last
    live hand is asked to show."""
    text = ("deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 1; 4 draw 2; 3 check; 4 check; "
            "3 show 7c 8d 9h Ts Jc")
    state = replay(table(4, profile=TRIPS), log(text))
    assert state["phase"] == "showdown" and state["to_act"] == 4
    won = replay(table(4, profile=TRIPS), log(text + "; 4 show 9s 9d 9c 3c 4h"))
    assert won["awards"] == {4: 40}


# --------------------------------------------------------------------------- O4: a newcomer at a capped pot


def _thrown_in(setup: dict[str, Any], deals: int) -> list[dict[str, Any]]:
    """``deals`` deals that nobody opens: everyone passes in turn (each event applied to the table
    as it goes, not the log replayed from the start after each)."""
    events: list[dict[str, Any]] = []
    played = start(setup)
    for _ in range(deals):
        event: dict[str, Any] = {"type": "deal"}
        while True:
            events.append(event)
            played = played.apply(event)
            state = played.to_dict()
            if state["phase"] == "between_deals":
                break
            event = {"type": "pass", "seat": state["to_act"]}
    return events


DEV = {"type": "sit", "seat": 5, "player": "Dev", "chips": 300}


def test_O4_a_newcomer_does_not_play_a_capped_pot_free() -> None:
    """O4 (CARDROOM): antes stop "unless the limit of antes has been reached for that particular
    game". A newcomer who sits down then would put nothing in and play for the whole pot: card rooms
    do not allow it, so the newcomer is dealt in from the next pot."""
    setup = table(4)
    capped = _thrown_in(setup, 3) + [DEV]
    before = replay(setup, capped)
    assert before["pot"] == 60 and before["jackpot"]["antes_next_deal"] is False
    state = replay(setup, capped + [{"type": "deal"}])
    assert 5 not in state["dealt"] and state["seats"][5]["status"] == "out" and state["pot"] == 60
    opener = state["to_act"]
    events = capped + [{"type": "deal"}, {"type": "open", "seat": opener}]
    events += [{"type": "fold", "seat": s} for s in state["dealt"] if s != opener]
    events += [{"type": "show", "seat": opener, "cards": "Qs Qd 7c 5h 2s"}]
    won = replay(setup, events)
    assert won["awards"] == {opener: 70}
    assert 5 in replay(setup, events + [{"type": "deal"}])["dealt"]  # a new pot: Dev antes and plays


def test_O4_a_newcomer_at_a_pot_still_taking_antes_antes_and_plays() -> None:
    """O4: while the pot still takes antes, a newcomer antes like everyone and plays for it."""
    setup = table(4)
    state = replay(setup, _thrown_in(setup, 1) + [DEV, {"type": "deal"}])
    assert 5 in state["dealt"] and state["seats"][5]["put"] == 5


def test_O4_with_too_few_stakes_left_the_antes_start_again() -> None:
    """O4: when leaving the newcomers out would leave fewer than two players, the antes start again
    for that deal, so that nobody plays the pot free and the table is not stuck."""
    setup = table(3)
    # seat 1 leaves, seat 2 sits out (its claim stays): seat 3 is the one stake left in play
    events = _thrown_in(setup, 3) + [{"type": "leave", "seat": 1}, {"type": "sit_out", "seat": 2}, DEV]
    assert {"type": "deal"} in replay(setup, events)["legal"]
    state = replay(setup, events + [{"type": "deal"}])
    assert sorted(state["dealt"]) == [3, 5] and state["seats"][5]["put"] == 5 and state["seats"][3]["put"] == 20


def test_D9_a_side_pot_nobody_in_it_wins_with_trips_is_shared_never_won_by_the_all_in_player() -> None:
    """D9 (PAGAT, trips to win) with a side pot, the project's decision: seat 1, all in for 15, wins
    the main pot with trips; seats 2 and 3 bet on into a side pot and show no trips. Seat 1 never wins
    chips it did not match, so the side pot's claimants share it."""
    setup = table(3, stacks={1: 15}, profile=TRIPS)
    events = log("deal; 2 open; 3 call; 1 call; 2 draw 0; 3 draw 1; 1 draw 1; 2 bet; 3 call")
    assert replay(setup, events)["pots"] == [{"amount": 45, "eligible": [1, 2, 3]}, {"amount": 40, "eligible": [2, 3]}]
    won = replay(setup, events + log("2 show Jh Jd 9c 7s 2c; 3 show Ah Kd 9h 7d 3s; 1 show Qh Qd Qs 3c 3h"))
    assert won["awards"] == {1: 45, 2: 20, 3: 20}
    assert "seat 2, seat 3 share it (D9" in won["message"]
    assert sum(x["stack"] for x in won["seats"].values()) == 15 + 500 + 500
    # a claimant of the side pot with trips wins both pots' worth it can: the side pot is his
    trips = replay(setup, events + log("2 show Jh Jd Jc 7s 2c; 3 show Ah Kd 9h 7d 3s; 1 show Qh Qd Qs 3c 3h"))
    assert trips["awards"] == {1: 45, 2: 40}


def test_D7_the_last_claimant_left_at_the_table_takes_the_carried_pot() -> None:
    """The project's decision (the full night of issue 24: a tournament table left with one player
    and a carried pot could neither deal nor break): when every other claimant of a carried pot has
    left the table, the one player left takes it, as an uncontested pot (D7). No chip is lost, the
    next pot is new, and a newcomer then plays a fresh pot."""
    setup = table(3)
    carried = _thrown_in(setup, 3)
    assert replay(setup, carried)["pot"] == 45
    one_left = replay(setup, carried + [{"type": "leave", "seat": 1}])
    assert one_left["pot"] == 45 and one_left["awards"] == {}  # two players left: the pot waits for them
    alone = replay(setup, carried + [{"type": "leave", "seat": s} for s in (1, 2)])
    assert alone["awards"] == {3: 45} and alone["pot"] == 0 and alone["seats"][3]["stack"] == 485 + 45
    assert "takes it: 45" in alone["message"] and "D7" in alone["message"]
    assert sum(x["stack"] for x in alone["seats"].values()) + alone["pot"] + alone["ledger"]["chips_out"] == 1500
    fresh = replay(setup, carried + [{"type": "leave", "seat": s} for s in (1, 2)] + [DEV, {"type": "deal"}])
    assert sorted(fresh["dealt"]) == [3, 5] and fresh["pot"] == 10  # a new pot: both ante


def test_D7_F7_a_barred_last_player_takes_nothing_and_the_pot_waits() -> None:
    """F7: a player barred from the pot is not its claimant; left alone, the pot waits for players."""
    setup = table(3)
    carried = _thrown_in(setup, 3)
    alone = replay(setup, carried + [{"type": "sit_out", "seat": 3}, {"type": "leave", "seat": 1}])
    assert alone["awards"] == {}  # two seated (one sitting out): nothing to award yet
    left = replay(setup, carried + [{"type": "leave", "seat": 1}, {"type": "leave", "seat": 2}])
    assert left["awards"] == {3: 45}


# --------------------------------------------------------------------------- O7 re-straddles, D14 no check-raise

RESTRADDLE = {"base": "cardroom", "opening_minimum": "none", "blinds": [5, 10], "straddle": 2, "ante_deals": None}


def test_O7_re_straddles_each_double_the_last_up_to_the_house_number() -> None:
    """O7 (PAGAT, P11): "The next player to the left may be permitted to straddle by placing a blind
    bet of twice this amount, the next player to re-straddle and so on. Then the betting round begins
    with the player to the left of the player who placed the largest blind bet." With two
    re-straddles: 20, 40, 80; then nobody else may straddle, and the betting starts after the last."""
    setup = table(6, profile=RESTRADDLE, ante=0)
    state = replay(setup, log("deal"))  # button 1: blinds 2 and 3; seat 4 may straddle
    assert {"type": "straddle", "seat": state["to_act"], "amount": 20} in state["legal"]
    events = log("deal") + [{"type": "straddle", "seat": s} for s in (4, 5, 6)]
    state = replay(setup, events)
    assert [state["seats"][s]["committed"] for s in (4, 5, 6)] == [20, 40, 80]
    assert state["to_act"] == 1 and "straddle" not in [m["type"] for m in state["legal"]]
    assert "re-straddles to 80" in state["message"]
    with pytest.raises(IllegalAction, match="O7"):
        replay(table(6, profile={**RESTRADDLE, "straddle": True}, ante=0),
               log("deal") + [{"type": "straddle", "seat": 4}, {"type": "straddle", "seat": 5}])
    # everyone calls round to the last straddler, who keeps the option to raise
    calls = events + [{"type": "call", "seat": s} for s in (1, 2, 3, 4, 5)]
    assert replay(setup, calls)["to_act"] == 6


def test_D14_jacks_back_no_check_raise_in_the_low_round() -> None:
    """D14 (PAGAT, P23): "Some play that check-raising is not allowed in the Lowball part of this
    game". Nobody opens for high; for low seat 2 checks (passes), seat 3 bets: seat 2 may call or
    fold, not raise. Without the option a check-raise stays open."""
    profile = {"base": "cardroom", "jacks_back": True, "jacks_back_no_check_raise": True}
    low = "deal; 2 pass; 3 pass; 4 pass; 1 pass; 2 pass; 3 open; 4 fold; 1 fold"
    state = replay(table(4, profile=profile), log(low))
    assert state["low"] and state["to_act"] == 2
    assert [m["type"] for m in state["legal"]] == ["call", "fold"]
    with pytest.raises(IllegalAction, match="D14"):
        replay(table(4, profile=profile), log(low + "; 2 raise"))
    plain = replay(table(4, profile={"base": "cardroom", "jacks_back": True}), log(low))
    assert "raise" in [m["type"] for m in plain["legal"]]


# --------------------------------------------------------------------------- D15 seven-card draw

SEVEN = {"base": "cardroom", "opening_minimum": "none", "blinds": [5, 10], "seven_card_draw": True, "max_draw": 4,
         "wild": "none", "ante_deals": None}


def test_D15_seven_card_draw_deals_seven_draws_four_shows_five() -> None:
    """D15 (PAGAT, P27): "The dealer then deals seven cards to each player and there is a first round
    of betting beginning to the left of the big blind." ... "beginning to the left of the player who
    placed the big blind, has one opportunity to discard from zero to four cards" ... "In the
    showdown, each surviving player discards two cards and keeps five." Checked with a real deck:
    the seven cards each and the best five of them decide the pot."""
    rng = random.Random(27)
    cards = [to_text([c]) for c in deck()]
    rng.shuffle(cards)
    setup = table(4, profile=SEVEN, ante=0)
    state = replay(setup, log("deal"))
    assert state["stub"] == 52 - 28 and state["to_act"] == 4  # blinds 2 and 3, then seat 4
    hands = {s: cards[7 * (s - 1):7 * s] for s in (1, 2, 3, 4)}
    best = {s: best_five(h, get_profile(SEVEN)) for s, h in hands.items()}
    events = log("deal; 4 call; 1 fold; 2 call; 3 check")
    state = replay(setup, events)
    assert state["phase"] == "draw" and state["to_act"] == 4  # the draw begins after the big blind
    assert [m for m in state["legal"] if m["type"] == "draw"][0]["max"] == 4
    with pytest.raises(IllegalAction, match="at most 4"):
        replay(setup, events + log("4 draw 5"))
    events += log("4 draw 0; 2 draw 0; 3 draw 0; 2 check; 3 check; 4 check")
    state = replay(setup, events)
    assert state["phase"] == "showdown"
    for s in state["show_order"]:
        events.append({"type": "show", "seat": s, "cards": best[s]})
    state = replay(setup, events)
    values = {s: evaluate(best[s], get_profile(SEVEN).hand_rules) for s in (2, 3, 4)}
    top = max(values.values())
    assert set(state["awards"]) == {s for s, v in values.items() if v == top}
    assert sum(x["stack"] for x in state["seats"].values()) == 2000


def test_D15_seven_card_draw_needs_blinds_and_a_draw_of_four_at_most() -> None:
    with pytest.raises(ProfileError, match="seven_card_draw: played with blinds"):
        get_profile({"seven_card_draw": True})
    with pytest.raises(ProfileError, match="0 to 4"):
        get_profile({**SEVEN, "max_draw": 5})
    assert get_profile(SEVEN).hand_size == 7
    # eight players need 56 cards: the deal is not offered and is refused
    state = replay(table(8, profile=SEVEN, ante=0), [])
    assert "deal" not in [m["type"] for m in state["legal"]]


# --------------------------------------------------------------------------- D17 spread limit

SPREAD = {"base": "cardroom", "betting": "spread", "spread": [5, 20]}


def test_D17_spread_limit_bets_any_amount_in_the_spread_doubled_after_the_draw() -> None:
    """D17 (PAGAT, P4): "In fixed or spread limit games, the number of raises after the initial
    opening bet is usually limited to four." ... "The minimum and maximum bets allowed in the second
    betting round are normally set higher than in the first betting round - typically double.\""""
    setup = table(4, profile=SPREAD)
    state = replay(setup, log("deal; 2 pass"))
    opening = [m for m in state["legal"] if m["type"] == "open"][0]
    assert opening["amounts"] == list(range(5, 21)) and opening["amount"] == 5
    events = log("deal; 2 pass") + [{"type": "open", "seat": 3, "amount": 15}]
    state = replay(setup, events)
    assert state["seats"][3]["committed"] == 15 and state["raises"] == 0  # an opening, not a raise
    raise_ = [m for m in state["legal"] if m["type"] == "raise"][0]
    assert raise_["amounts"] == list(range(20, 36))  # the call of 15 and a rise of 5 to 20
    with pytest.raises(IllegalAction, match="D17"):
        replay(setup, events + [{"type": "raise", "seat": 4, "amount": 40}])
    events += [{"type": "raise", "seat": 4, "amount": 35}] + log("1 fold; 2 fold; 3 call; 3 draw 1; 4 draw 1")
    after = replay(setup, events)
    bet = [m for m in after["legal"] if m["type"] == "bet"][0]
    assert bet["amounts"] == list(range(10, 41))  # doubled after the draw
    done = replay(setup, events + [{"type": "bet", "seat": 3, "amount": 40}, {"type": "call", "seat": 4}])
    assert done["pot"] == 20 + 35 + 35 + 80 and done["phase"] == "showdown"
    with pytest.raises(ProfileError, match="spread"):
        get_profile({"betting": "spread"})


# --------------------------------------------------------------------------- D13 all for one

ALL_FOR_ONE = {"base": "cardroom", "all_for_one": True, "wild": "none"}


def test_D13_all_for_one_draws_one_or_five_until_the_pack_runs_low() -> None:
    """D13 (PAGAT, P24): "Each active player, beginning to dealer's left, can either: stand pat, or
    discard one card face down and receive a replacement, or discard all five cards face down and
    receive a new five-card hand." ... "each begun by the player to the left of the one who began
    the previous drawing round" ... "A player is not allowed to exchange all five cards if this
    would not leave enough cards for all remaining active players in the current drawing round to
    exchange one." ... "If after a betting round there are fewer cards remaining in the deck than
    there are active players, there is no more drawing, but a showdown\""""
    setup = table(4, profile=ALL_FOR_ONE, ante=5)
    events = log("deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold")  # stub 52 - 20 = 32, seats 3 and 4
    state = replay(setup, events)
    move = state["legal"][0]
    assert (move["type"], move["cards"], state["to_act"]) == ("draw", [0, 1, 5], 3)
    with pytest.raises(IllegalAction, match="D13"):
        replay(setup, events + log("3 draw 3"))
    leaders = []
    for _ in range(5):  # five draws of five each take 25 cards: 7 left
        state = replay(setup, events)
        leaders.append(state["to_act"])
        first = state["to_act"]
        second = 4 if first == 3 else 3
        events += log(f"{first} draw 5; {second} draw 0; 3 check; 4 check")
    assert leaders == [3, 4, 3, 4, 3]  # each draw begins one seat further round
    state = replay(setup, events)
    assert state["stub"] == 7 and state["phase"] == "draw"
    # 7 left: the first may change five only if the second can still have one (7 >= 5 + 1)
    assert state["legal"][0]["cards"] == [0, 1, 5]
    events += log(f"{state['to_act']} draw 5")
    assert replay(setup, events)["legal"][0]["cards"] == [0, 1]  # 2 left: one card, not five
    events += log(f"{replay(setup, events)['to_act']} draw 1; 3 check; 4 check")
    final = replay(setup, events)
    assert final["stub"] == 1 and final["phase"] == "showdown"  # fewer cards than players: the show
    assert "too few cards for another draw (D13)" in final["message"]


# --------------------------------------------------------------------------- H9 declared hands

DECLARED = {"base": "cardroom", "wild": "deuces", "declared_hands": True}
SHOWDOWN = "deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 1; 4 draw 1; 3 check; 4 check"


def test_H9_deuces_wild_with_declared_hands_cards_do_not_speak() -> None:
    """H9 (PAGAT, P20): "This variant is found mostly in home poker games and is usually played with
    the rule that players must declare their own hands (the cards do not "speak for themselves")".
    Seat 3's K-K-K-2-9 is four kings with the deuce wild but is declared as three of a kind; seat 4's
    full house, declared as one, wins. A declaration above the cards is refused; a show without one too."""
    setup = table(4, profile=DECLARED)
    events = log(SHOWDOWN)
    state = replay(setup, events)
    assert state["legal"][0]["declare"][-1] == "five_of_a_kind"
    with pytest.raises(IllegalAction, match="H9"):
        replay(setup, events + [{"type": "show", "seat": 3, "cards": "Kc Kd Kh 2s 9h"}])
    with pytest.raises(IllegalAction, match="cannot make"):
        replay(setup, events + [{"type": "show", "seat": 3, "cards": "Kc Kd Kh 2s 9h", "declare": "five_of_a_kind"}])
    events += [{"type": "show", "seat": 3, "cards": "Kc Kd Kh 2s 9h", "declare": "three_of_a_kind"},
               {"type": "show", "seat": 4, "cards": "Qc Qd 7h 7s 2h", "declare": "full_house"}]
    state = replay(setup, events)
    assert state["awards"] == {4: 40}
    # the cards speak where the house does not play declared hands: four kings win
    plain = replay(table(4, profile={"base": "cardroom", "wild": "deuces"}),
                   log(SHOWDOWN + "; 3 show Kc Kd Kh 2s 9h; 4 show Qc Qd 7h 7s 2h"))
    assert plain["awards"] == {3: 40}


def test_H4_the_widow_card_is_asked_even_when_the_blinds_put_everyone_all_in() -> None:
    """H4: both players all in on their blinds: the deal moves on at once, but no hand can be read
    without the widow's rank, so the widow card is still asked first (found by the long walks)."""
    profile = {"base": "cardroom", "wild": "widow", "opening_minimum": "none", "blinds": [5, 10], "ante_deals": None}
    setup = table(2, profile=profile, ante=0, stacks={1: 5, 2: 10})
    state = replay(setup, log("deal"))
    assert state["legal"] == [{"type": "widow"}]
    state = replay(setup, log("deal") + [{"type": "widow", "card": "9d"}])
    assert state["legal"] and state["widow"] == "9d"


def test_D14_jacks_back_sevens_rule() -> None:
    """D14 (PAGAT, P23): "Some play that check-raising is not allowed in the Lowball part of this
    game, and also apply the betting sevens rule as for California Lowball." Read as California
    lowball's rule: seat 2 checks a seven-low after the draw, seat 3 bets, seat 2 calls and wins: the
    bet made after the check goes back to seat 3. Without the option seat 2 wins it all."""
    text = ("deal; 2 pass; 3 pass; 4 pass; 1 pass; 2 open; 3 call; 4 fold; 1 fold; 2 draw 1; 3 draw 1; "
            "2 check; 3 bet; 2 call; 3 show Kc Qd 9h 5s 2h; 2 show 7c 5d 4h 3s 2c")
    sevens = replay(table(4, profile={"base": "cardroom", "jacks_back": True, "jacks_back_sevens": True,
                                      "wild": "none"}), log(text))
    assert sevens["awards"] == {2: 60, 3: 20} and stacks(sevens)[2] == 525 and stacks(sevens)[3] == 485
    assert "bets made after the check go back (D14)" in sevens["message"]
    plain = replay(table(4, profile={"base": "cardroom", "jacks_back": True, "wild": "none"}), log(text))
    assert plain["awards"] == {2: 80}
    # an eight-low checked is not held to it
    eight = replay(table(4, profile={"base": "cardroom", "jacks_back": True, "jacks_back_sevens": True,
                                     "wild": "none"}), log(text.replace("7c 5d 4h 3s 2c", "8c 5d 4h 3s 2c")))
    assert eight["awards"] == {2: 80}


def test_D9_F7_a_barred_false_opener_is_no_partner_for_the_play_off() -> None:
    """D9 and F7 (found by the night, issue 24): an all-in false opener is barred, the others fold to
    one bettor who shows no trips. The pot stays, but the barred seat plays no more deals of it, so
    the folders are not shut out: the next deal is dealt to everyone but the barred seat."""
    setup = {"profile": {"name": "pagat", "trips_to_win": True}, "ante": 5, "small_bet": 10, "big_bet": 20,
             "button": 4, "seats": [{"seat": s, "player": f"P{s}", "stack": 3 if s == 5 else 500} for s in range(1, 6)]}
    events = [{"type": "deal"}, {"type": "open", "seat": 5}, {"type": "bet", "seat": 1}, {"type": "fold", "seat": 2},
              {"type": "fold", "seat": 3}, {"type": "fold", "seat": 4}, {"type": "false_openers", "seat": 5},
              {"type": "show", "seat": 1, "cards": "Qd Qc 4d 6h Ad"}]
    state = replay(setup, events)
    assert state["rulings"][0]["outcome"] == "ALL_IN_OPENER_BARRED" and state["last_end"] == "carried"
    assert state["seats"][5]["status"] == "barred" and state["seats"][2]["status"] != "barred"
    state = replay(setup, events + [{"type": "deal"}])
    assert sorted(state["dealt"]) == [1, 2, 3, 4]


def test_D9_a_play_off_whose_partner_left_is_played_by_those_shut_out() -> None:
    """D9 (found by the night, issue 24): two players show down without trips, the third folded and
    is shut out of the pot; one of the two leaves the table. The play-off has no partner, so the
    player shut out plays the pot again rather than the table being left with one player in."""
    setup = {"profile": {"name": "pagat", "trips_to_win": True}, "ante": 5, "small_bet": 10, "big_bet": 20,
             "button": 3, "seats": [{"seat": s, "player": f"P{s}", "stack": 500} for s in range(1, 4)]}
    events = [{"type": "deal"}, {"type": "open", "seat": 1}, {"type": "call", "seat": 2}, {"type": "fold", "seat": 3},
              {"type": "draw", "seat": 1, "count": 3}, {"type": "draw", "seat": 2, "count": 3},
              {"type": "check", "seat": 1}, {"type": "check", "seat": 2},
              {"type": "show", "seat": 1, "cards": "Qd Qc 4d 6h Ad"}, {"type": "show", "seat": 2, "cards": "Kd Kc 4s 7h 9d"}]
    state = replay(setup, events)
    assert state["last_end"] == "carried" and state["seats"][3]["status"] == "barred"
    state = replay(setup, events + [{"type": "leave", "seat": 2}, {"type": "deal"}])
    assert sorted(state["dealt"]) == [1, 3]
