"""Plain words for what happened at a table: a ruling's headline, a correction, a seat by name.

A ruling's outcome code (``OPENER_DEAD_BEST_OTHER_WINS``) is for the data and the small print; a
player reads a sentence: who takes the pot, how much, with what, and whose hand is dead. These
functions build those sentences from plain values, so the engine, the floor's pages and the
printed ruling say the same thing.

>>> names = {3: "Cleo", 5: "Eve"}
>>> ruling_headline({"dead": [3]}, names, won={5: 270}, hands={5: "three nines, king-four"})
"Seat 5, Eve, wins the pot of 270 with three nines, king-four; seat 3's hand is dead"
>>> ruling_headline({"dead": [3], "pot_plays": False}, names, pot_left=90)
"Seat 3's hand is dead; the pot of 90 stays for the next deal"
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.cards import parse_rank, rank_plural

__all__ = ["seat_name", "seats_text", "ruling_headline", "correction_headline", "chips_text", "hand_words",
           "card_face", "cards_face", "faces_in_text", "requirement_words", "drew_words",
           "stakes_words", "entry_number", "entry_words", "deal_words", "pot_since_words", "rule_ids_in_words"]


def seat_name(seat: int, names: Mapping[int, str] | None = None, capital: bool = False) -> str:
    """A seat as the subject of a sentence: 'seat 5, Eve,' (or 'seat 5' without a name).

    >>> seat_name(5, {5: "Eve"}, capital=True), seat_name(2)
    ('Seat 5, Eve,', 'seat 2')
    """
    name = (names or {}).get(seat, "")
    text = f"seat {seat}, {name}," if name else f"seat {seat}"
    return text[:1].upper() + text[1:] if capital else text


def seats_text(seats: Sequence[int], names: Mapping[int, str] | None = None) -> str:
    """Seats as the subject of a sentence: 'seat 2 (Bob) and seat 5 (Eve)'.

    >>> seats_text([2, 5], {2: "Bob"})
    'seat 2 (Bob) and seat 5'
    """
    parts = [f"seat {s} ({(names or {})[s]})" if (names or {}).get(s) else f"seat {s}" for s in seats]
    if len(parts) <= 1:
        return "".join(parts) or "nobody"
    return ", ".join(parts[:-1]) + " and " + parts[-1]


_ARTICLE = ("pair", "straight", "flush", "full house", "royal flush", "skip straight", "tiger", "blaze",
            "round-the-corner")


def hand_words(description: str) -> str:
    """A hand's description as it reads after 'with': 'a pair of nines', 'three nines'.

    >>> hand_words("pair of nines, king-four-deuce"), hand_words("three nines, king-four")
    ('a pair of nines, king-four-deuce', 'three nines, king-four')
    """
    return f"a {description}" if description.startswith(_ARTICLE) else description


def chips_text(amount: int) -> str:
    """'gets 20 back' style amounts with a sign: '+20', '−10'.

    >>> chips_text(20), chips_text(-10), chips_text(0)
    ('+20', '−10', '0')
    """
    if amount > 0:
        return f"+{amount}"
    if amount < 0:
        return f"−{-amount}"
    return "0"


def _seats(value: Any) -> list[int]:
    return [int(s) for s in (value or ())]


def ruling_headline(
    record: Mapping[str, Any],
    names: Mapping[int, str] | None = None,
    *,
    won: Mapping[int, int] | None = None,
    pot_left: int | None = None,
    hands: Mapping[int, str] | None = None,
) -> str:
    """One sentence for a ruling: who takes the pot and with what, whose hand is dead, who is
    barred, who takes chips back, whether the pot stays or plays on.

    ``won`` is what each seat took from the pot when the ruling settled it (None when the ruling
    did not settle the pot, or it is not known, as for a hand that was not logged); ``pot_left``
    is the pot that stays for the next deal; ``hands`` describes the winners' hands in words.

    >>> ruling_headline({"winners": [2, 5], "dead": [3]}, {2: "Bob"}, won={2: 60, 5: 60})
    "Seat 2 (Bob) and seat 5 split the pot of 120; seat 3's hand is dead"
    >>> ruling_headline({"returns": {"3": 10}, "dead": [3], "pot_plays": True})
    "Seat 3's hand is dead; seat 3 takes back 10; the pot plays on"
    >>> ruling_headline({"winner": 4, "dead": [1]})
    "Seat 4 takes the pot; seat 1's hand is dead"
    """
    parts = _who_takes_the_pot(record, names, won, hands or {})
    taken = bool(parts)
    proved = record.get("proved")
    if proved is not None:
        parts.append(f"seat {int(proved)}'s openers stand")
    for s in _seats(record.get("dead")):
        parts.append(f"seat {s}'s hand is dead")
    for s in _seats(record.get("barred")):
        parts.append(f"{seat_name(s, names)} is dealt out of this pot until someone else wins it")
    reopener = record.get("reopener")
    if reopener is not None:
        parts.append(f"{seat_name(int(reopener), names)} reopens the pot")
    for s, chips in sorted((int(k), int(v)) for k, v in (record.get("returns") or {}).items()):
        if chips:
            parts.append(f"{seat_name(s, names)} takes back {chips}")
    if record.get("ante_for_all") is not None:
        parts.append(f"{seat_name(int(record['ante_for_all']), names)} antes for everyone next deal")
    if not taken:
        if pot_left is not None:
            parts.append(f"the pot of {pot_left} stays for the next deal")
        elif record.get("pot_plays"):
            parts.append("the pot plays on")
        elif "pot_plays" in record:
            parts.append("the pot stays for the next deal")
    if not parts:
        parts.append(str(record.get("summary") or "no chips move"))
    text = "; ".join(parts)
    return text[:1].upper() + text[1:]


def _who_takes_the_pot(record: Mapping[str, Any], names: Mapping[int, str] | None,
                       won: Mapping[int, int] | None, hands: Mapping[int, str]) -> list[str]:
    """Who took the pot and how much (as settled), or who takes it (as ruled); nothing when nobody does."""
    winners = _seats(record.get("winners")) or _seats([record["winner"]] if record.get("winner") is not None else [])
    takers = [s for s, a in (won or {}).items() if a > 0]
    if won and takers:
        total = sum(won.values())
        if len(takers) == 1:
            w = takers[0]
            with_hand = f" with {hand_words(hands[w])}" if hands.get(w) else ""
            return [f"{seat_name(w, names)} wins the pot of {total}{with_hand}"]
        if len(set(won[s] for s in takers)) == 1 or set(takers) == set(winners):
            return [f"{seats_text(sorted(takers), names)} split the pot of {total}"]
        return ["; ".join(f"{seat_name(s, names)} wins {won[s]}" for s in sorted(takers))]
    if winners:
        verb = "takes the pot" if len(winners) == 1 else "split the pot"
        return [f"{seats_text(winners, names)} {verb}"]
    return []


def correction_headline(moves: Iterable[tuple[int, int]], names: Mapping[int, str] | None = None) -> str:
    """A correction of chips in words.

    >>> correction_headline([(5, -50), (3, 50)], {3: "Cleo", 5: "Eve"})
    'Chips corrected: seat 5, Eve, gives 50; seat 3, Cleo, gets 50'
    """
    words = []
    for s, amount in moves:
        if amount < 0:
            words.append(f"{seat_name(s, names)} gives {-amount}")
        elif amount > 0:
            words.append(f"{seat_name(s, names)} gets {amount}")
    return "Chips corrected: " + ("; ".join(words) or "nothing moves")


# --------------------------------------------------------------------------- the tablet's words

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def card_face(card: Any) -> str:
    """A card as the picker shows it: rank and suit symbol; the joker spelled out.

    >>> card_face("As"), card_face("Td"), card_face("Jk"), card_face("10h")
    ('A♠', 'T♦', 'Joker', 'T♥')
    """
    text = str(card)
    if text.lower() == "jk":
        return "Joker"
    rank, suit = text[:-1], text[-1:].lower()
    if rank == "10":
        rank = "T"
    return rank.upper() + SUIT_SYMBOLS.get(suit, suit)


def cards_face(cards: Iterable[Any]) -> str:
    """Cards as the picker shows them, one space apart.

    >>> cards_face(["As", "Kd", "Jk"]), cards_face("Jh, 7s")
    ('A♠ K♦ Joker', 'J♥ 7♠')
    """
    if isinstance(cards, str):  # the text form: cards apart by spaces or commas
        cards = cards.replace(",", " ").split()
    return " ".join(card_face(c) for c in cards)


# a card in the engine's text: rank letter (upper case) and suit letter, standing alone
_CARD_IN_TEXT = re.compile(r"(?<![\w♠♥♦♣])([2-9TJQKA])([cdhs])(?![\w])|(?<!\w)Jk(?!\w)")


def faces_in_text(text: str) -> str:
    """The engine's sentences with their cards as the picker shows them.

    >>> faces_in_text("seat 2 shows As Kd Jk 9c 9h: a foul hand is dead (H6)")
    'seat 2 shows A♠ K♦ Joker 9♣ 9♥: a foul hand is dead (H6)'
    >>> faces_in_text("openers split, Jh in escrow (S1); seat 5 bets 20")
    'openers split, J♥ in escrow (S1); seat 5 bets 20'
    """
    return _CARD_IN_TEXT.sub(lambda m: card_face(m.group(0)), text)


def requirement_words(requirement: Any) -> str:
    """What it takes to open, as the players say it.

    >>> requirement_words("J"), requirement_words("Q"), requirement_words("none")
    ('jacks or better', 'queens or better', 'anything opens')
    """
    text = str(requirement or "none")
    if text.lower() == "none":
        return "anything opens"
    try:
        return f"{rank_plural(parse_rank(text))} or better"
    except ValueError:
        return text


def drew_words(count: int | None) -> str:
    """A seat's draw, said after it happened.

    >>> drew_words(0), drew_words(1), drew_words(3)
    ('stood pat', 'drew 1', 'drew 3')
    """
    return "stood pat" if not count else f"drew {count}"


def stakes_words(ante: int, small_bet: int, big_bet: int, anted: bool,
                 spread: tuple[int, int] | None = None, betting: str = "fixed") -> str:
    """The stakes line of a deal in play: no "Ante 5" on a deal that took no antes; with spread
    betting the spread, not the fixed bets the setup still carries (D17: any amount from the least
    to the most, doubled after the draw).

    >>> stakes_words(5, 10, 20, True), stakes_words(5, 10, 20, False), stakes_words(0, 10, 20, False)
    ('antes of 5 · bets 10/20', 'no antes this deal · bets 10/20', 'bets 10/20')
    >>> stakes_words(5, 10, 20, True, spread=(5, 50))
    'antes of 5 · spread limit 5 to 50, 10 to 100 after the draw'
    >>> stakes_words(5, 10, 20, True, betting="pot")
    'antes of 5 · pot limit, bets from 10/20'
    """
    bets = f"bets {small_bet}/{big_bet}" if spread is None else (
        f"spread limit {spread[0]} to {spread[1]}, {2 * spread[0]} to {2 * spread[1]} after the draw")
    if betting in ("pot", "no_limit"):
        bets = f"{'pot limit' if betting == 'pot' else 'no limit'}, bets from {small_bet}/{big_bet}"
    if not ante:
        return bets
    return (f"antes of {ante} · " if anted else "no antes this deal · ") + bets


#: The parts of a deal as players name them (``rules.jackpot.state.Phase`` values).
PHASE_WORDS = {"between_deals": "between deals", "predraw": "before the draw", "draw": "the draw",
               "postdraw": "after the draw", "showdown": "showdown"}


def phase_words(phase: Any, capital: bool = False) -> str:
    """A deal's part in players' words (the dealer's tablet, the floor's pages).

    >>> phase_words("predraw"), phase_words("between_deals", capital=True)
    ('before the draw', 'Between deals')
    """
    words = PHASE_WORDS.get(str(phase), str(phase).replace("_", " "))
    return words[:1].upper() + words[1:] if capital else words


# --------------------------------------------------------------------------- one numbering everywhere
#
# A table's log and its deals are numbered one way on every page and print (the tablet, the floor's
# pages, the rulings, the hand history, the shift report): see docs/pages.md.


def entry_number(index: int) -> int:
    """The number people read for the log entry at ``index``: the log is counted from 1 (entry 1 is
    the first event logged at the table; the API's ``seq``). The contract's void names the entry it
    withdraws by its 0-based position (``{"type": "void", "event": index}``): that is entry index + 1.

    >>> entry_number(0), entry_number(17)
    (1, 18)
    """
    return index + 1


def entry_words(number: int) -> str:
    """A log entry as every page names it, by its number from :func:`entry_number` (or ``seq``).

    >>> entry_words(18)
    'entry 18'
    """
    return f"entry {number}"


def deal_words(deal: int | None, capital: bool = False) -> str:
    """A deal as every page names it: its number at the table, counted from the table's first deal
    (the engine's ``deal_no``; a pot carried over several deals does not start the count again).

    >>> deal_words(6), deal_words(6, capital=True), deal_words(None)
    ('deal 6', 'Deal 6', '')
    """
    if deal is None:
        return ""
    return f"{'D' if capital else 'd'}eal {deal}"


def pot_since_words(deal: int, pot_deals: int) -> str:
    """Where the pot in play began, in the one deal numbering: the deal ``deal`` is the
    ``pot_deals``-th of its pot (the engine's ``jackpot.deals``).

    >>> pot_since_words(6, 1), pot_since_words(6, 3), pot_since_words(0, 0)
    ('a new pot', 'the pot carried since deal 4', 'a new pot')
    """
    if pot_deals <= 1:
        return "a new pot"
    return f"the pot carried since {deal_words(deal - pot_deals + 1)}"


_RULE_ID = re.compile(r"\b([HOFSDBP](?:1[0-9]|[1-9]))\b")


def rule_ids_in_words(text: str, titles: Mapping[str, str]) -> str:
    """The engine's sentences with each rule id followed by the rule's title (``titles``: id ->
    title, :data:`rules.catalogue.RULES`), for a reader who does not know the ids by heart.

    >>> rule_ids_in_words("at most 3 cards (D2)", {"D2": "The draw"})
    'at most 3 cards (rule D2, the draw)'
    >>> rule_ids_in_words("(S1, S2)", {"S1": "Declare the split", "S2": "A split that cannot add up"})
    '(rule S1, declare the split; rule S2, a split that cannot add up)'
    >>> rule_ids_in_words("the low round (jacks back, D10)", {"D10": "Jacks back"})  # said already: not twice
    'the low round (jacks back, rule D10)'
    """
    def named(match: re.Match[str]) -> str:
        title = titles.get(match.group(1))
        if not title:
            return match.group(0)
        if title.lower() in text[max(0, match.start() - 60):match.start()].lower():
            return f"rule {match.group(1)}"
        return f"rule {match.group(1)}, {title[:1].lower()}{title[1:]}"

    said = _RULE_ID.sub(named, text)
    return re.sub(r"(rule [A-Z]\d+, [^,;()]+), (?=rule )", r"\1; ", said)
