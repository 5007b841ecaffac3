"""The night's referee: who should win each pot, judged from the real cards, apart from ``rules/``.

It imports nothing of the project (no ``rules``, no ``floor``): a small evaluator of its own, written
from the rule catalogue (H2 bug, H4 wild ranks, H5 ranking, O1 openers, D9 trips to win), so a
defect of the engine is not repeated by the judge. ``tests/test_night.py`` checks this evaluator
against brute force (every card a wild card could stand for) and against the engine on many hands.

A value is a tuple ``(category, ranks...)``: larger is stronger; categories as the contract names
them, in order.

>>> value("As Ad Kc Kh 2s") > value("Ks Kd Qc Qh As")
True
>>> category_name(value("9h 9d 7c 7s Jk", "bug"))   # H2: the bug is an ace here, not a nine
'two_pair'
>>> value("Ah Kh Jh 4h 2h", "bug") > value("Ah Th 9h 8h Jk", "bug")   # H2: the bug is the queen
True
>>> category_name(value("As Ac Ad Ah Jk", "bug"))
'five_of_a_kind'
>>> qualifies("Jk As 7d 4c 2h", "bug"), qualifies("Ts Td Ac Kh Qd", "bug")
(True, False)
"""

from __future__ import annotations

from itertools import combinations_with_replacement

CATEGORIES = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
              "four_of_a_kind", "straight_flush", "five_of_a_kind")
RANKS = {r: n for n, r in enumerate("23456789TJQKA", start=2)}
RANK_TEXT = {n: r for r, n in RANKS.items()}
SUITS = "cdhs"
JOKER = "Jk"
STRAIGHT, FLUSH, STRAIGHT_FLUSH = 4, 5, 8


def deck(joker: bool) -> list[str]:
    """The 52 cards, and the joker when the game has one (bug).

    >>> len(deck(True)), deck(False)[:3]
    (53, ['2c', '2d', '2h'])
    """
    cards = [r + s for r in "23456789TJQKA" for s in SUITS]
    return cards + [JOKER] if joker else cards


def cards_of(hand: str | list[str]) -> list[str]:
    """Cards from text or a list, in the canonical form (``As``, ``Td``, ``Jk``)."""
    items = hand.replace(",", " ").split() if isinstance(hand, str) else list(hand)
    out = []
    for c in items:
        if c.lower() in ("jk", "joker"):
            out.append(JOKER)
        else:
            rank = "T" if c[:-1] == "10" else c[:-1].upper()
            out.append(rank + c[-1].lower())
    return out


def _plain(ranks: list[int], flush: bool) -> tuple:
    """The value of five ranks (repeats allowed: five of a kind), ``flush`` when one suit."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # Ranks by (count, rank), the larger first: the tie-break order of H5.
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    distinct = sorted(set(ranks), reverse=True)
    straight_high = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            straight_high = 5   # the wheel, A-2-3-4-5, the lowest straight (H5)
    if shape[0] == 5:
        return (9, order[0])
    if straight_high and flush:
        return (STRAIGHT_FLUSH, straight_high)
    if shape[0] == 4:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (FLUSH, *distinct)
    if straight_high:
        return (STRAIGHT, straight_high)
    if shape[0] == 3:
        return (3, *order)
    if shape == [2, 2, 1]:
        return (2, *order)
    if shape[0] == 2:
        return (1, *order)
    return (0, *distinct)


def is_wild(card: str, wild: str, wild_rank: str | None = None) -> bool:
    if card == JOKER:
        return True
    if wild == "deuces":
        return card[0] == "2"
    if wild == "rank" and wild_rank:
        return card[0] == wild_rank
    return False


def value(hand: str | list[str], wild: str = "none", wild_rank: str | None = None) -> tuple:
    """The value of a five-card hand under a wild mode: ``none``, ``bug``, ``deuces``, ``rank``, or
    ``joker_any`` (the joker fully wild: enough to say whether a banked dealer qualifies, B4).

    Wild cards are tried as every rank (the order of repeats does not matter); a flush needs the
    natural cards of one suit and the wild cards standing for cards of that suit not already in
    the hand (H2, H4). The bug may be an ace, or any card only where it makes a straight or flush.
    """
    cards = cards_of(hand)
    if len(cards) != 5:
        raise ValueError(f"a hand is five cards, not {len(cards)}")
    wilds = [c for c in cards if is_wild(c, wild, wild_rank)]
    naturals = [c for c in cards if c not in wilds]
    ranks = [RANKS[c[0]] for c in naturals]
    suits = {c[1] for c in naturals}
    one_suit = len(suits) <= 1
    if not wilds:
        return _plain(ranks, one_suit)
    best: tuple = ()
    for fills in combinations_with_replacement(range(2, 15), len(wilds)):
        flush = one_suit and len(set(fills)) == len(fills) and not set(fills) & set(ranks)
        v = _plain(ranks + list(fills), flush)
        if wild == "bug" and fills != (14,) and v[0] not in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
            continue   # H2: the bug is an ace unless it fills a straight or a flush
        best = max(best, v)
    return best


def category_name(v: tuple) -> str:
    return CATEGORIES[v[0]]


def qualifies(hand: str | list[str], wild: str = "bug", minimum: str = "J", wild_rank: str | None = None) -> bool:
    """O1: a pair of ``minimum`` or better (two small pairs qualify); ``none``: anything opens."""
    if minimum in (None, "none"):
        return True
    v = value(hand, wild, wild_rank)
    return v[0] >= 2 or (v[0] == 1 and v[1] >= RANKS[minimum])


def trips_or_better(v: tuple) -> bool:
    """D9: three of a kind or better."""
    return v[0] >= 3


def split_pot(amount: int, winners: list[int]) -> dict[int, tuple[int, int]]:
    """Each winner's share of a pot as (least, most): an exact tie splits, the odd chips to some."""
    if not winners:
        return {}
    share, odd = divmod(amount, len(winners))
    return {w: (share, share + (1 if odd else 0)) for w in winners}


def expected_awards(pots: list[dict], shown: dict[int, tuple], uncontested: int | None = None,
                    trips_to_win: bool = False) -> dict[int, tuple[int, int]] | None:
    """What each seat should take from ``pots`` ([{amount, eligible}]) given the shown hands' values.

    ``uncontested``: the one seat left when everyone else folded. None means the pot should not be
    won at all (D9: no hand of three of a kind or better). Returns seat -> (least, most).
    """
    contenders = {uncontested: shown.get(uncontested)} if uncontested is not None else shown
    if trips_to_win:
        if not any(v is not None and trips_or_better(v) for v in contenders.values()):
            return None
    out: dict[int, list[int]] = {}
    for pot in pots:
        # A pot none of whose claimants is still in (they folded, or left the table with a claim on a
        # carried pot) goes to the best hand still in: the chips cannot stay with nobody.
        eligible = [int(s) for s in pot["eligible"] if int(s) in contenders] or list(contenders)
        shared = False
        if trips_to_win and uncontested is None:
            # D9: only trips or better win; a side pot none of whose claimants has them is shared by
            # its claimants (the project's decision, see SIDE_POT_TRIPS)
            holding = [s for s in eligible if trips_or_better(contenders[s])]
            shared, eligible = not holding, holding or eligible
        if uncontested is not None or shared:
            winners = eligible
        else:
            if not eligible:
                continue
            top = max(contenders[s] for s in eligible)
            winners = [s for s in eligible if contenders[s] == top]
        for seat, (lo, hi) in split_pot(pot["amount"], winners).items():
            acc = out.setdefault(seat, [0, 0])
            acc[0] += lo
            acc[1] += hi
    return {s: (lo, hi) for s, (lo, hi) in out.items()}


def house_cut(pots: list[dict], rake: dict | None, drop: dict | None) -> tuple[list[dict], int, int]:
    """The pots once the house has taken its rake and drop from a pot won, and those two amounts
    (contract part four, the project's decisions in docs/house.md): the rake is ``percent`` of the
    whole pot in whole chips rounded down, at most ``cap``, nothing under ``min_pot``; the drop is
    its ``amount`` after the rake, from a pot the rake's ``min_pot`` admits; both come off the main
    pot first, then the side pots in order, before any pot is divided.

    >>> house_cut([{"amount": 60, "eligible": [1, 2]}, {"amount": 60, "eligible": [2]}],
    ...           {"percent": 10, "cap": 8, "min_pot": 20}, {"amount": 2, "pool": "high_hand"})
    ([{'amount': 50, 'eligible': [1, 2]}, {'amount': 60, 'eligible': [2]}], 8, 2)
    >>> house_cut([{"amount": 15, "eligible": [1, 2]}], {"percent": 10, "cap": 8, "min_pot": 20}, None)
    ([{'amount': 15, 'eligible': [1, 2]}], 0, 0)
    """
    total = sum(int(p["amount"]) for p in pots)
    small = rake is not None and total < int(rake.get("min_pot", 0))
    raked = 0 if rake is None or small or total <= 0 else min(int(rake["cap"]), total * int(rake["percent"]) // 100)
    dropped = 0 if drop is None or small else max(0, min(int(drop["amount"]), total - raked))
    due, out = raked + dropped, []
    for pot in pots:
        take = min(int(pot["amount"]), due)
        due -= take
        out.append({**pot, "amount": int(pot["amount"]) - take})
    return out, raked, dropped


def awards_match(expected: dict[int, tuple[int, int]] | None, actual: dict[int, int], total: int) -> bool:
    """Whether the engine's awards agree with the referee's: the same winners, each share in range,
    and all of the pot given out."""
    if expected is None:
        return not actual
    # a winner whose share is nothing (a main pot the house's rake took whole) takes no chips
    if {s for s, (_, hi) in expected.items() if hi} != {s for s, a in actual.items() if a}:
        return False
    if any(not (lo <= actual.get(s, 0) <= hi) for s, (lo, hi) in expected.items()):
        return False
    return sum(actual.values()) == total


SIDE_POT_TRIPS = """D9 with side pots: the seeds say only three of a kind or better wins, and are silent on a side
pot whose claimants (the all-in player is not one) show no trips while a hand at the table does. A
player all in for less never wins chips they did not match, so the project decided
(rules.jackpot.settlement.settle) that such a side pot is shared by its claimants, none of them
winning it by their hand, rather than split off and carried to the next deal apart from the main
pot. The referee holds the engine to that decision (a card room might rather carry that side pot)."""


LONE_CLAIMANT = """D9 with everyone but one folded: the seeds say the pot stays and the players who did not
fold play a fresh deal among themselves, and are silent when only one did not fold. The project
decided (issue 22) that the lone claimant takes it all, as a floor would rather than stop the table;
the referee holds the engine to that. A lone hand left because the others are dead (a false
opener, a hand of the wrong size ruled dead, H6/D8) must still show three of a kind."""


def kept_could_open(final: list[str], drawn: int, wild: str = "bug", minimum: str = "J",
                    wild_rank: str | None = None) -> bool:
    """Whether some ``5 - drawn`` cards of the final hand hold openers: all a dealer can check of an
    opener who did not split (F1). A false opener whose final hand passes this is not caught by
    anyone who did not see the discards, so the referee does not count it against the engine.

    >>> kept_could_open(cards_of("Qh Qs 6c 6s 6d"), 2, "none"), kept_could_open(cards_of("Qh 9s 6c 6s 5d"), 2, "none")
    (True, False)
    """
    return could_open_split(final, [], drawn, wild, minimum, wild_rank)  # a split with nothing in escrow


def could_open_split(final: list[str], escrow: list[str], drawn: int, wild: str = "bug", minimum: str = "J",
                     wild_rank: str | None = None) -> bool:
    """S2: could the cards kept (some ``5 - drawn`` of the final hand) with the escrowed discards
    have held openers? If not, the opener who split loses the pot.

    >>> could_open_split(cards_of("Jh 9h 7h 5h 2h"), ["Jd"], 1, "none")
    True
    >>> could_open_split(cards_of("Qh 9h 7h 5h 2h"), ["Jd"], 1, "none")
    False
    """
    from itertools import combinations

    return any(holds_openers(list(kept) + list(escrow), wild, minimum, wild_rank)
               for kept in combinations(final, 5 - drawn))


def holds_openers(cards: list[str], wild: str = "bug", minimum: str = "J", wild_rank: str | None = None) -> bool:
    """Whether these cards (five or fewer) hold openers: a pair of ``minimum`` or better, two pairs,
    trips; with wild cards what they make with the rest (O1; the bug pairs only aces, H2)."""
    if len(cards) == 5:
        return qualifies(cards, wild, minimum, wild_rank)
    need = RANKS[minimum] if minimum not in (None, "none") else 0
    if not need:
        return True
    w = sum(is_wild(c, wild, wild_rank) for c in cards)
    counts: dict[int, int] = {}
    for c in cards:
        if not is_wild(c, wild, wild_rank):
            counts[RANKS[c[0]]] = counts.get(RANKS[c[0]], 0) + 1
    pairs = [r for r, n in counts.items() if n >= 2]
    if any(n >= 3 for n in counts.values()) or len(pairs) >= 2 or any(r >= need for r in pairs):
        return True
    if w and wild == "bug":
        # the bug pairs only an ace (H2): with an ace, aces; with a small pair it is the ace kicker,
        # still one small pair (Jk 4c 4d is fours, not two pair nor trips)
        return bool(counts.get(14))
    if w:
        return w >= 2 or bool(pairs) or any(r >= need for r in counts)
    return False
