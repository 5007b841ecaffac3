"""Whether a hand of the log wins a promotion (issue 32): a high hand, a bad beat.

A promotion is paid for a hand the log holds, never for a hand someone remembers: the hand must
have been shown at the showdown of a finished deal (its ``show`` event stands), and read under the
table's own game it must be of at least the pool's qualifying category (``Drop.qualifier``). A bad
beat also needs the hand to have lost: the pot was won at the showdown by other hands, none of it
by this one. :func:`check_award` says yes with the hand's value, or no with the reason.

>>> from rules.reports.hand_history import hands
>>> setup = {"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": 1, "player": "Ann", "stack": 100}, {"seat": 2, "player": "Bob", "stack": 100}]}
>>> log = [{"type": "deal"}, {"type": "open", "seat": 2, "amount": 10}, {"type": "call", "seat": 1},
...        {"type": "draw", "seat": 2, "count": 0}, {"type": "draw", "seat": 1, "count": 0},
...        {"type": "check", "seat": 2}, {"type": "check", "seat": 1},
...        {"type": "show", "seat": 2, "cards": "Ah Ad As Ac 2d"}, {"type": "show", "seat": 1, "cards": "Kh Kd Ks Qc Qd"}]
>>> hand = hands(setup, log)[0]
>>> check_award("high_hand", "four_of_a_kind", hand, 2, HandRules()).describe()
'four aces, deuce kicker'
>>> check_award("high_hand", "four_of_a_kind", hand, 1, HandRules())
Traceback (most recent call last):
...
rules.reports.promotions.AwardRefused: seat 1 (Ann) showed K♥ K♦ K♠ Q♣ Q♦, a full house, kings full of queens: the high hand promotion pays four of a kind or better
>>> check_award("bad_beat", "full_house", hand, 1, HandRules()).describe()
'full house, kings full of queens'
>>> check_award("bad_beat", "full_house", hand, 2, HandRules())
Traceback (most recent call last):
...
rules.reports.promotions.AwardRefused: seat 2 (Bob) won the pot of deal 1: a bad beat is a hand that lost
"""

from __future__ import annotations

from rules import RulesError
from rules.hands import ALL_CATEGORIES, HandRules, HandValue, evaluate
from rules.reports.hand_history import Hand
from rules.words import faces_in_text

__all__ = ["AwardRefused", "check_award", "qualifier_words", "pool_words"]


class AwardRefused(RulesError):
    """A promotion the log does not support, with the reason."""


def pool_words(pool: str) -> str:
    """The pool in words.

    >>> pool_words("bad_beat")
    'bad beat'
    """
    return pool.replace("_", " ")


def qualifier_words(category: str) -> str:
    """The qualifying hand in words.

    >>> qualifier_words("four_of_a_kind"), qualifier_words("full_house")
    ('four of a kind or better', 'a full house or better')
    """
    words = category.replace("_", " ")
    plain = words.startswith(("four", "three", "five", "two", "one"))
    return f"{words if plain else 'a ' + words} or better"


def _least_position(qualifier: str, rules: HandRules) -> int:
    """The position a hand must reach under ``rules``: the qualifier's, or, for a southern hand the
    game does not play, that of the next category above it that the game plays."""
    position = rules.ranking.position
    if qualifier in position:
        return position[qualifier]
    above = ALL_CATEGORIES[ALL_CATEGORIES.index(qualifier) + 1:]
    return min(position[c] for c in above if c in position)


def check_award(pool: str, qualifier: str, hand: Hand, seat: int, rules: HandRules) -> HandValue:
    """The value of the hand ``seat`` showed in ``hand`` when it wins the ``pool`` promotion, whose
    least hand is the category ``qualifier``; else :class:`AwardRefused` naming why."""
    who = f"seat {seat} ({hand.names[seat]})" if seat in hand.names else f"seat {seat}"
    if not hand.complete:
        raise AwardRefused(f"deal {hand.deal} is still in play: a promotion is paid for a finished deal")
    cards = hand.shown.get(seat)
    if not cards:
        raise AwardRefused(f"{who} showed no hand at the showdown of deal {hand.deal}: the log holds no hand to pay")
    try:
        value = evaluate(" ".join(cards), rules)
    except RulesError as exc:
        raise AwardRefused(f"the hand {who} showed in deal {hand.deal} does not read: {exc}") from exc
    shown = faces_in_text(" ".join(cards))
    if value.position < _least_position(qualifier, rules):
        article = "" if value.category.startswith(("four", "three", "five", "two", "one")) else "a "
        raise AwardRefused(f"{who} showed {shown}, {article}{value.describe()}: the {pool_words(pool)} promotion "
                           f"pays {qualifier_words(qualifier)}")
    if pool == "bad_beat":
        if hand.end != "won" or not hand.awards:
            raise AwardRefused(f"deal {hand.deal} was not won at a showdown: a bad beat is a hand beaten")
        if hand.awards.get(seat, 0) > 0:
            raise AwardRefused(f"{who} won the pot of deal {hand.deal}: a bad beat is a hand that lost")
    return value
