"""The floor's decision tree where cards do not speak (H9): "the best other hand" is the best hand
as declared, at the table (the engine's own ruling) and on the floor page (the walk asks for the
declarations).

H9 (PAGAT, P20): "This variant is found mostly in home poker games and is usually played with the
rule that players must declare their own hands (the cards do not "speak for themselves")".
"""

from __future__ import annotations

import random

import pytest

from rules import IllegalAction, MissingFact, RulesError
from rules.cards import deck
from rules.hands import categories, evaluate
from rules.jackpot import replay, replay_state
from rules.jackpot.disputes import known_facts
from rules.profiles import get_profile
from rules.rulings import questions_for, resolve
from tests.notation import log, table

DECLARED = {"base": "cardroom", "wild": "deuces", "declared_hands": True}
FOUR_KINGS = "Kc Kd Kh 2s 9h"  # four kings with the deuce wild
FULL_HOUSE = "Qc Qd 7h 7s 2h"  # queens full with the deuce wild
# seat 3 opens, seats 4 and 1 call; all draw one and check; seat 3 cannot show openers at the show
TO_SHOW = ("deal; 2 pass; 3 open; 4 call; 1 call; 2 fold; 3 draw 1; 4 draw 1; 1 draw 1; "
           "3 check; 4 check; 1 check")
OPENER = (3, "9c 8d 6h 4s 3c", "high_card")  # no openers kept: the opener's hand is dead (F1)


def shows(*hands: tuple[int, str, str]) -> list[dict]:
    return [{"type": "show", "seat": s, "cards": c, "declare": d} for s, c, d in hands]


def walk_facts(declared: dict | None = None, hands: dict | None = None) -> dict:
    facts = {"issue": "opener_cannot_show", "opener": 3, "opening_hand": None, "final_hand": "9c 8d 6h 4s 3c",
             "drawn": 1, "discards": None, "everyone_folded": False, "opener_all_in": False,
             "hands": hands or {3: "9c 8d 6h 4s 3c", 4: FOUR_KINGS, 1: FULL_HOUSE}}
    if declared is not None:
        facts["declared"] = declared
    return facts


def test_H9_the_engine_ruling_gives_the_pot_to_the_best_hand_declared_not_the_best_cards() -> None:
    """H9: the opener's hand is dead (F1, F8) and the tree names the best other hand: four kings
    declared as three of a kind lose to a full house declared as one."""
    state = replay(table(4, profile=DECLARED), log(TO_SHOW) + shows(OPENER, (4, FOUR_KINGS, "three_of_a_kind"),
                                                                    (1, FULL_HOUSE, "full_house")))
    ruling = state["rulings"][-1]
    assert ruling["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS" and ruling["winner"] == 1
    assert "seat 1's, full house, queens full of sevens (declared)" in ruling["summary"]
    assert state["awards"] == {1: 50}
    # declared for what they hold, four kings win: the declarations, not the seat order, decide
    honest = replay(table(4, profile=DECLARED), log(TO_SHOW) + shows(OPENER, (4, FOUR_KINGS, "four_of_a_kind"),
                                                                     (1, FULL_HOUSE, "full_house")))
    assert honest["rulings"][-1]["winner"] == 4 and honest["awards"] == {4: 50}


def test_H9_a_floor_dispute_reads_the_declarations_from_the_log() -> None:
    """H9: the floor page's facts of a logged showdown carry each declaration, so the ruling
    the floor person previews is the table's."""
    events = log(TO_SHOW) + shows(OPENER, (4, FOUR_KINGS, "three_of_a_kind"))
    facts = known_facts(replay_state(table(4, profile=DECLARED), events), "opener_cannot_show")
    assert facts["declared"] == {3: "high_card", 4: "three_of_a_kind"}
    # where the cards speak the fact is never asked nor carried
    plain = known_facts(replay_state(table(4, profile={"base": "cardroom", "wild": "deuces"}),
                                     log(TO_SHOW + "; 3 show 9c 8d 6h 4s 3c")), "opener_cannot_show")
    assert "declared" not in plain


def test_H9_the_walk_asks_the_declarations_and_rules_by_them() -> None:
    """H9: on the floor page the tree asks what each player declared before naming the best other
    hand; a class above the cards is refused naming H9; cards speak where the house says so."""
    with pytest.raises(MissingFact) as missing:
        resolve(walk_facts(), DECLARED)
    assert missing.value.fact == "declared"
    assert questions_for(walk_facts(), DECLARED).fact == "declared"
    ruling = resolve(walk_facts({"4": "three of a kind", "1": "full house"}), DECLARED)
    assert ruling.winner == 1 and "three of a kind as declared" not in ruling.summary
    assert resolve(walk_facts({"4": "four of a kind", "1": "full house"}), DECLARED).winner == 4
    with pytest.raises(RulesError, match="H9"):
        resolve(walk_facts({"4": "five of a kind", "1": "full house"}), DECLARED)
    with pytest.raises(RulesError, match="H9"):
        resolve(walk_facts({"1": "full house"}), DECLARED)  # seat 4 showed without declaring
    plain = {"base": "cardroom", "wild": "deuces"}
    assert resolve(walk_facts(), plain).winner == 4  # the cards speak: four kings


def test_H9_with_trips_to_win_a_hand_declared_below_trips_cannot_win() -> None:
    """H9 with D9 (trips to win): four kings declared as one pair do not make trips, so the pot
    stays when no other hand is declared three of a kind or better."""
    profile = {**DECLARED, "trips_to_win": True}
    stays = resolve(walk_facts({"4": "one pair", "1": "two pair"}), profile)
    assert stays.outcome.value == "OPENER_DEAD_POT_STAYS" and "D9" in stays.citations
    wins = resolve(walk_facts({"4": "one pair", "1": "three of a kind"}), profile)
    assert wins.winner == 1


# An independent reading of a declared hand (H9), card by card, apart from rules.hands.declared:
# every reading of the deuces as ranks; for the classes of one rank, every choice of the cards that
# form the group(s), the cards left over as kickers.
RANK_OF = {r: n for n, r in enumerate("23456789TJQKA", start=2)}
GROUPS = {"one_pair": (2,), "two_pair": (2, 2), "three_of_a_kind": (3,), "four_of_a_kind": (4,),
          "full_house": (3, 2), "five_of_a_kind": (5,)}


def by_hand(cards: list[str], declared: str) -> tuple[int, ...] | None:
    """The best hand of class ``declared`` the five cards make with deuces wild, as tie-break ranks."""
    from itertools import combinations, product

    wild = [i for i, c in enumerate(cards) if c[0] == "2"]
    suits = {c[1] for i, c in enumerate(cards) if i not in wild}
    found: list[tuple[int, ...]] = []
    for subs in product(range(2, 15), repeat=len(wild)):
        ranks = [RANK_OF[c[0]] for c in cards]
        for i, r in zip(wild, subs):
            ranks[i] = r
        distinct = sorted(set(ranks), reverse=True)
        straight = len(distinct) == 5 and (distinct[0] - distinct[4] == 4 or distinct == [14, 5, 4, 3, 2])
        top = (5 if distinct[0] == 14 and distinct[1] == 5 else distinct[0]) if straight else 0
        flush = len(suits) <= 1 and len(distinct) == 5  # a wild card copies no card in a flush (H4)
        if declared == "high_card":
            found.append(tuple(sorted(ranks, reverse=True)))
        elif declared == "straight" and straight:
            found.append((top,))
        elif declared == "flush" and flush:
            found.append(tuple(sorted(ranks, reverse=True)))
        elif declared == "straight_flush" and straight and flush:
            found.append((top,))
        elif declared in GROUPS:
            sizes = GROUPS[declared]
            for first in combinations(range(5), sizes[0]):
                seconds = combinations([i for i in range(5) if i not in first], sizes[1]) if len(sizes) > 1 else [()]
                for second in seconds:
                    a, b = {ranks[i] for i in first}, {ranks[i] for i in second}
                    if len(a) != 1 or len(b) > 1 or a == b:
                        continue
                    heads = sorted(a | b, reverse=True) if declared == "two_pair" else [*a, *b]
                    rest = sorted((ranks[i] for i in range(5) if i not in first + second), reverse=True)
                    found.append((*heads, *rest) if declared != "full_house" else tuple(heads))
    return max(found) if found else None


def test_H9_four_nines_declared_as_trips_lose_to_three_kings_declared_the_same() -> None:
    """H9 (PAGAT's deuces wild, cards do not speak): a declared hand is the best hand of the declared
    class its cards make. Four nines declared as three of a kind are three nines and lose to three
    kings declared alike, at the table and on the floor page; four nines are no straight."""
    nines, kings, opener = "9c 9d 9h 9s 4h", "Kc Kd Kh 5s 7h", (3, "Tc 8d 6h 4s 3c", "high_card")
    state = replay(table(4, profile=DECLARED), log(TO_SHOW) + shows(opener, (4, nines, "three_of_a_kind"),
                                                                    (1, kings, "three_of_a_kind")))
    assert state["rulings"][-1]["winner"] == 1 and state["awards"] == {1: 50}
    said = {"4": "three of a kind", "1": "three of a kind"}
    facts = {**walk_facts(said, {3: opener[1], 4: nines, 1: kings}), "final_hand": opener[1]}
    assert resolve(facts, DECLARED).winner == 1
    wild = {**walk_facts(said, {3: opener[1], 4: "9c 9d 9h 2s 4h", 1: kings}), "final_hand": opener[1]}
    assert resolve(wild, DECLARED).winner == 1  # the deuce makes the fourth nine or a kicker, never a king
    with pytest.raises(IllegalAction, match="cannot make straight"):
        replay(table(4, profile=DECLARED), log(TO_SHOW) + shows(opener, (4, nines, "straight")))


def test_H9_best_other_hand_against_declarations_on_real_shuffled_deals() -> None:
    """H9 on 300 real shuffled deals: three other hands, each declared at random as a class its cards
    make (read here card by card, apart from rules.hands); the tree's winners are the hands ranked
    first by the class declared, then by the best hand of that class the cards make; a class the
    cards cannot make is refused."""
    rng = random.Random(22)
    profile = get_profile(DECLARED)
    order = categories(profile.hand_rules)
    opener = "9c 8d 6h 4s 3c".split()
    pack = [str(c) for c in deck(wild=profile.wild, stripped=profile.stripped_deck) if str(c) not in opener]
    upsets = refused = played_down = 0
    for _ in range(300):
        rng.shuffle(pack)
        hands = {s: pack[5 * i:5 * i + 5] for i, s in enumerate((1, 2, 4))}
        declared, key = {}, {}
        for s, cards in hands.items():
            makes = {c: v for c in order if (v := by_hand(cards, c)) is not None}
            top = max(makes, key=order.index)
            declared[s] = rng.choice([top, top, rng.choice(list(makes))])
            key[s] = (order.index(declared[s]), makes[declared[s]])
            played_down += declared[s] != top
            cannot = [c for c in order if c not in makes]
            if cannot and rng.random() < 0.1:
                wrong = rng.choice(cannot)
                with pytest.raises(RulesError, match="cannot make"):
                    resolve(walk_facts({**{str(x): "high card" for x in hands}, str(s): wrong},
                                       {3: " ".join(opener), **{x: " ".join(c) for x, c in hands.items()}}), profile)
                refused += 1
        facts = walk_facts({str(s): d.replace("_", " ") for s, d in declared.items()},
                           {3: "9c 8d 6h 4s 3c", **{s: " ".join(c) for s, c in hands.items()}})
        ruling = resolve(facts, profile)
        best = max(key.values())
        assert ruling.winners == tuple(sorted(s for s in hands if key[s] == best)), (hands, declared)
        by_cards = max(hands, key=lambda s: evaluate(hands[s], profile.hand_rules))
        upsets += ruling.winners != (by_cards,)
    assert upsets > 10 and refused > 10 and played_down > 50  # the declarations are read, and checked


def test_H9_the_floor_page_asks_each_seat_for_the_hand_declared(app, as_role):
    """H9 on the floor page (a house profile of deuces wild with declared hands): the walk asks the
    declarations after the hands, one field per seat, and the preview gives the pot to the full
    house declared; the facts list shows them in words."""
    from floor.extensions import db
    from floor.models import HouseProfile
    from tests.test_rulings_app import walk

    with app.app_context():
        db.session.add(HouseProfile(name="home-game", toml='base = "cardroom"\nwild = "deuces"\n'
                                                          'declared_hands = true\n'))
        db.session.commit()
    questions, page = walk(as_role("floor"), "/rulings/new?profile=home-game", {
        "issue": "opener_cannot_show", "opener": "3", "opening_hand": "", "final_hand": "9c 8d 6h 4s 3c",
        "drawn": "1", "discards": "", "everyone_folded": "no", "opener_all_in": "no",
        "hands": f"3: 9c 8d 6h 4s 3c\n4: {FOUR_KINGS}\n1: {FULL_HOUSE}",
        "declared": "4: three of a kind\n1: full house",
    })
    assert questions[-1] == "declared" and questions.index("hands") < questions.index("declared")
    html = page.get_data(as_text=True)
    assert "OPENER_DEAD_BEST_OTHER_WINS" in html and "seat 1&#39;s, full house" in html
    assert "seat 1: full house; seat 4: three of a kind" in html
