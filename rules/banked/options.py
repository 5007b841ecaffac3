"""The banked game's house rules: money, the paytable, and every reading where the BANKED seed is
ambiguous (B1-B5, H3), each one a documented option, never a silent pick.

Money is counted in integers of the smallest unit (``scale`` of them make one unit of the
currency: with ``scale`` 10 the seed's 0.3 is 3). Amounts are read from text with
:func:`BankedOptions.amount` and written back with :func:`BankedOptions.money`; nothing here is
ever a float.

>>> o = banked_options()
>>> o.ante_unit, o.minimum_ante, o.maximum_ante, o.money(o.maximum_ante)
(3, 3, 120, '12.0')
>>> o.check_ante(o.amount("0.9"))
9
>>> o.check_ante(o.amount("1.0"))
Traceback (most recent call last):
...
rules.IllegalAction: B1: the ante must be a multiple of 0.3, not 1.0
>>> banked_options({"no_game_pays": [1, 1]}).no_game_pays
(1, 1)
>>> banked_options({"dealer_two_pair": "keep_kicker"})
Traceback (most recent call last):
...
rules.ProfileError: dealer_two_pair: one of change_kicker, keep_higher_pair, not 'keep_kicker'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from rules import IllegalAction, ProfileError
from rules.hands import HandValue

__all__ = [
    "TwoPair",
    "MadeHand",
    "FoldLoses",
    "ExchangePayment",
    "JokerTie",
    "BonusOn",
    "DealerErrorSeen",
    "Paytable",
    "DEFAULT_PAYTABLE",
    "PAYTABLE_SOURCE",
    "BankedOptions",
    "banked_options",
]


class TwoPair(StrEnum):
    """B4: the dealer's list says "any pair → change the other three" and is silent on two pair.

    - ``change_kicker``: keep both pairs, change the fifth card (a full house is the only way up).
    - ``keep_higher_pair``: the list as written, "a pair": keep the higher pair, change three.
    """

    CHANGE_KICKER = "change_kicker"
    KEEP_HIGHER_PAIR = "keep_higher_pair"


class MadeHand(StrEnum):
    """B4: the list never names a straight, flush, full house or better, yet the seed has the
    dealer exchange once whatever the dealer holds.

    - ``stand``: a straight or better changes no card (the exchange is of none).
    - ``trips_rule``: a full house is read as holding a three of a kind (the list's first item):
      the pair is changed, the three kept. Straights, flushes and four of a kind or better still
      stand: the items that could touch them speak of cards "to make" a flush or a straight, which
      the hand already is, and "no hand" (change all five) is not a made hand.
    """

    STAND = "stand"
    TRIPS_RULE = "trips_rule"


class FoldLoses(StrEnum):
    """B2, B3: after an exchange the seed still says a fold loses "his initial Ante bet".

    - ``ante_box``: the whole ante box, exchange payments included (they were added to the ante).
    - ``initial_ante``: only the first ante; the exchange payments go back to the player.
    """

    ANTE_BOX = "ante_box"
    INITIAL_ANTE = "initial_ante"


class ExchangePayment(StrEnum):
    """B2, B3: what the ante paid for an exchange becomes. In the seed the player pays for new cards
    by adding one ante to the ante box (doubling it), and the bet is twice what the box holds.

    - ``ante_box``: the payment joins the ante box, so it is at stake like the ante (paid 1:1 or
      2 to 3, lost to a higher dealer) and the bet, twice the box, grows with it.
    - ``fee``: the payment buys the cards, as in Russian poker: the house keeps it whatever happens,
      the ante box stays the initial ante and the bet twice that.
    """

    ANTE_BOX = "ante_box"
    FEE = "fee"


class JokerTie(StrEnum):
    """H3: a hand made with the joker does not lose to the same hand made without it.

    - ``joker_wins``: the hand with the joker wins the exact tie (how :mod:`rules.hands` reads H3).
    - ``push``: "does not lose" read as a stand-off: the tie is a push like any other.
    """

    JOKER_WINS = "joker_wins"
    PUSH = "push"


class BonusOn(StrEnum):
    """B5: the seed names a bonus bet paid by a table of its own, and does not print that table.

    - ``dealt``: the bonus pays on the five cards the box is dealt.
    - ``final``: the bonus pays on the box's last five cards (after its exchanges).
    """

    DEALT = "dealt"
    FINAL = "final"


class DealerErrorSeen(StrEnum):
    """B4: the seed's list is strict, and silent on a dealer who exchanged the wrong cards. When the
    cards drawn are still unseen the floor re-makes the hand (:mod:`rules.banked.disputes`); once
    they were seen, the house decides:

    - ``as_fell``: the round is settled on the dealer's cards as they fell. Every box decided
      before the dealer's cards were shown (B2-B4), so the error gave nobody a look at anything,
      and a wrong exchange helps the house as often as it hurts it.
    - ``void``: the dealer's hand is void: every box that bet takes back its ante box and bet
      (a box that folded stays folded: it chose before the error).
    """

    AS_FELL = "as_fell"
    VOID = "void"


@dataclass(frozen=True)
class Paytable:
    """What the bet pays (to 1) by the player's hand when the dealer qualifies and loses (B5).

    A royal flush is paid as ``royal_flush``; every other hand by its category.

    >>> from rules.hands import evaluate
    >>> DEFAULT_PAYTABLE.pays(evaluate("Ts Js Qs Ks As", "joker")), DEFAULT_PAYTABLE.pays(evaluate("Jk 9s 9h 4c 2d", "joker"))
    (100, 3)
    >>> Paytable.parse({"flush": 6}).flush
    6
    >>> Paytable.parse({"flush": -1})
    Traceback (most recent call last):
    ...
    rules.ProfileError: paytable: flush must be a whole number 0 or more (pays to 1), not -1
    """

    high_card: int = 1
    one_pair: int = 1
    two_pair: int = 2
    three_of_a_kind: int = 3
    straight: int = 4
    flush: int = 5
    full_house: int = 7
    four_of_a_kind: int = 20
    straight_flush: int = 50
    royal_flush: int = 100
    five_of_a_kind: int = 100

    def pays(self, value: HandValue) -> int:
        """The multiple of the bet that ``value`` wins (to 1)."""
        if value.category == "straight_flush" and value.ranks[0] == 14:
            return self.royal_flush
        return int(getattr(self, value.category))

    def items(self) -> Iterator[tuple[str, int]]:
        """(key, pays) from the best hand down, as a printed table lists them."""
        for f in reversed(dataclasses.fields(self)):
            yield f.name, int(getattr(self, f.name))

    @classmethod
    def parse(cls, data: Mapping[str, Any] | Paytable | None) -> Paytable:
        """A paytable from a mapping of overrides (missing keys keep the default)."""
        if data is None:
            return DEFAULT_PAYTABLE
        if isinstance(data, Paytable):
            return data
        if not isinstance(data, Mapping):
            raise ProfileError(f"paytable: a mapping of hand to pays, not {data!r}")
        names = {f.name for f in dataclasses.fields(cls)}
        values: dict[str, int] = {}
        for key, pays in data.items():
            if key not in names:
                raise ProfileError(f"paytable: unknown hand {key!r}; one of {', '.join(sorted(names))}")
            if not isinstance(pays, int) or isinstance(pays, bool) or pays < 0:
                raise ProfileError(f"paytable: {key} must be a whole number 0 or more (pays to 1), not {pays!r}")
            values[key] = pays
        return cls(**values)


#: The default paytable: the seed names "the Draw Poker Payout Table below" and gives none. This is
#: the paytable casinos print for Caribbean Stud and Russian poker (the house-banked five-card games
#: this one descends from): pair and high card 1, two pair 2, three of a kind 3, straight 4, flush 5,
#: full house 7, four of a kind 20, straight flush 50, royal flush 100; five of a kind (only the
#: joker makes it) is not in that table and is paid as the royal flush it outranks.
DEFAULT_PAYTABLE = Paytable()
PAYTABLE_SOURCE = ("the Caribbean Stud / Russian poker paytable (1-1-2-3-4-5-7-20-50-100); "
                   "five of a kind paid as a royal flush. The seed gives no paytable.")


def _opt(rules: tuple[str, ...], doc: str) -> dict[str, Any]:
    return {"rules": rules, "doc": doc}


@dataclass(frozen=True)
class BankedOptions:
    """The banked profile: build one with :func:`banked_options`. Every field is a documented option
    that names the rule ids it decides (``BankedOptions.options()``)."""

    name: str = "banked"
    scale: int = field(default=10, metadata=_opt(
        ("B1",), "How many of the smallest unit make one unit of the currency (10: amounts to 0.1)."))
    ante_unit: int = field(default=3, metadata=_opt(
        ("B1",), "The ante is a multiple of this (the seed's 0.3), in the smallest unit."))
    minimum_ante: int = field(default=3, metadata=_opt(("B1",), "The smallest initial ante (the seed's 0.3)."))
    maximum_ante: int = field(default=120, metadata=_opt(("B1",), "The largest initial ante (the seed's 12)."))
    no_game_pays: tuple[int, int] = field(default=(2, 3), metadata=_opt(
        ("B5",), "When the dealer does not qualify the ante box wins this ratio [to win, staked]: the seed's "
        "'paid in the ratio of 2 to 3' read as odds of 2 to 3 (2 won for every 3 staked; the ante unit 0.3 "
        "keeps it exact). [3, 2] reads the ratio the other way round; [1, 1] is Russian poker's even money."))
    paytable: Paytable = field(default=DEFAULT_PAYTABLE, metadata=_opt(
        ("B5",), "What the bet pays (to 1) by the player's hand when the dealer qualifies and loses. The seed "
        "gives none: the default is " + PAYTABLE_SOURCE))
    qualifier: int = field(default=11, metadata=_opt(
        ("B4",), "The dealer qualifies with a pair of this rank or better (11: jacks, the seed's 'Minimal Game')."))
    dealer_two_pair: TwoPair = field(default=TwoPair.CHANGE_KICKER, metadata=_opt(
        ("B4",), "The dealer's exchange with two pair, which the list does not name: 'change_kicker' (keep both "
        "pairs) or 'keep_higher_pair' (the list's 'any pair' as written: change the other three)."))
    dealer_made_hand: MadeHand = field(default=MadeHand.STAND, metadata=_opt(
        ("B4",), "The dealer's exchange with a straight or better, which the list does not name: 'stand' "
        "(change nothing) or 'trips_rule' (a full house changes its pair, as holding a three of a kind)."))
    exchange_payment: ExchangePayment = field(default=ExchangePayment.ANTE_BOX, metadata=_opt(
        ("B2", "B3"), "What an exchange's ante becomes: 'ante_box' (the seed's words: added to the ante box, at "
        "stake, and the bet is twice the grown box) or 'fee' (Russian poker: the house keeps it; the box and the "
        "bet stay as they were)."))
    fold_loses: FoldLoses = field(default=FoldLoses.ANTE_BOX, metadata=_opt(
        ("B2", "B3"), "What a fold after an exchange loses: 'ante_box' (the exchange payments were added to the "
        "ante) or 'initial_ante' (the seed's words 'his initial Ante bet' taken literally)."))
    joker_tie: JokerTie = field(default=JokerTie.JOKER_WINS, metadata=_opt(
        ("H3", "B5"), "An exact tie where one hand holds the joker: 'joker_wins' or 'push' ('does not lose')."))
    bonus_paytable: Paytable | None = field(default=None, metadata=_opt(
        ("B5",), "The bonus bet's paytable; the seed names one and gives none, so by default there is no bonus bet."))
    bonus_on: BonusOn = field(default=BonusOn.DEALT, metadata=_opt(
        ("B5",), "Which five cards the bonus pays on: 'dealt' or 'final' (after the box's exchanges)."))
    dealer_error_seen: DealerErrorSeen = field(default=DealerErrorSeen.AS_FELL, metadata=_opt(
        ("B4",), "A wrong dealer exchange found after the cards drawn were seen (the seed is silent): 'as_fell' "
        "(the round is settled on the dealer's cards as they fell) or 'void' (every box that bet takes back "
        "its ante box and bet). Found while they are unseen, the hand is always re-made by the list."))

    @classmethod
    def options(cls) -> dict[str, dict[str, Any]]:
        """Each option's rule ids and text, for a printed rule summary.

        >>> BankedOptions.options()["dealer_two_pair"]["rules"]
        ('B4',)
        """
        return {f.name: dict(f.metadata) for f in dataclasses.fields(cls) if f.metadata}

    def amount(self, text: str | int) -> int:
        """Text money (``"0.3"``) as an int of the smallest unit; an int passes through.

        >>> banked_options().amount("1.2"), banked_options().amount(7)
        (12, 7)
        >>> banked_options().amount("0.35")
        Traceback (most recent call last):
        ...
        rules.IllegalAction: B1: 0.35 is finer than the smallest unit 0.1
        """
        if isinstance(text, int) and not isinstance(text, bool):
            return text
        try:
            value = Decimal(str(text).strip()) * self.scale
        except InvalidOperation:
            raise IllegalAction(f"B1: {text!r} is not an amount of money") from None
        if value != value.to_integral_value():
            raise IllegalAction(f"B1: {text} is finer than the smallest unit {self.money(1)}")
        return int(value)

    def money(self, amount: int) -> str:
        """An int of the smallest unit as text: ``money(12) == '1.2'`` with ``scale`` 10."""
        places = len(str(self.scale)) - 1
        return str(amount) if places == 0 else f"{Decimal(amount).scaleb(-places):.{places}f}"

    def check_ante(self, ante: int) -> int:
        """B1: an initial ante must be a multiple of the unit, between the minimum and maximum."""
        if not isinstance(ante, int) or isinstance(ante, bool):
            raise IllegalAction(f"B1: the ante is an amount in the smallest unit, not {ante!r}")
        if ante % self.ante_unit:
            raise IllegalAction(f"B1: the ante must be a multiple of {self.money(self.ante_unit)}, "
                                f"not {self.money(ante)}")
        if not self.minimum_ante <= ante <= self.maximum_ante:
            raise IllegalAction(f"B1: the ante must be between {self.money(self.minimum_ante)} and "
                                f"{self.money(self.maximum_ante)}, not {self.money(ante)}")
        return ante


def _int(name: str, value: Any, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ProfileError(f"{name}: a whole number {low} or more, not {value!r}")
    return value


def _choice(name: str, kind: type[StrEnum], value: Any) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise ProfileError(f"{name}: one of {', '.join(k.value for k in kind)}, not {value!r}") from None


def banked_options(data: Mapping[str, Any] | BankedOptions | None = None) -> BankedOptions:
    """The banked profile from overrides of the defaults (a mapping as read from JSON or TOML),
    every value checked with a message that names the option.

    >>> banked_options({"ante_unit": 2, "minimum_ante": 2, "maximum_ante": 100})
    Traceback (most recent call last):
    ...
    rules.ProfileError: ante_unit: no_game_pays 2:3 of an ante of 0.2 is not a whole number of the smallest unit
    >>> banked_options({"paytable": {"royal_flush": 250}}).paytable.royal_flush
    250
    >>> banked_options(-1)
    Traceback (most recent call last):
    ...
    rules.ProfileError: banked options: an object of named options ({"ante_unit": 5, ...}), not -1
    """
    if isinstance(data, BankedOptions):
        return data
    if data is not None and not isinstance(data, Mapping):
        raise ProfileError(f'banked options: an object of named options ({{"ante_unit": 5, ...}}), not {data!r:.40}')
    data = dict(data or {})
    known = {f.name for f in dataclasses.fields(BankedOptions)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ProfileError(f"unknown banked option {unknown[0]!r}; the options are {', '.join(sorted(known))}")
    out: dict[str, Any] = {}
    if "name" in data:
        out["name"] = str(data["name"])
    if "scale" in data and str(data["scale"]).rstrip("0") != "1":
        raise ProfileError(f"scale: a power of ten (1, 10, 100, ...), not {data['scale']!r}")
    for key, low in (("scale", 1), ("ante_unit", 1), ("minimum_ante", 1), ("maximum_ante", 1)):
        if key in data:
            out[key] = _int(key, data[key], low)
    if "qualifier" in data:
        q = _int("qualifier", data["qualifier"], 2)
        if q > 14:
            raise ProfileError(f"qualifier: a rank 2-14 (11 is jacks), not {q}")
        out["qualifier"] = q
    if "no_game_pays" in data:
        ratio = data["no_game_pays"]
        if not isinstance(ratio, (list, tuple)) or len(ratio) != 2:
            raise ProfileError(f"no_game_pays: a ratio [to win, staked] such as [2, 3], not {ratio!r}")
        out["no_game_pays"] = (_int("no_game_pays", ratio[0], 0), _int("no_game_pays", ratio[1], 1))
    if "paytable" in data:
        out["paytable"] = Paytable.parse(data["paytable"])
    if data.get("bonus_paytable") is not None:
        out["bonus_paytable"] = Paytable.parse(data["bonus_paytable"])
    for key, kind in (("dealer_two_pair", TwoPair), ("dealer_made_hand", MadeHand), ("fold_loses", FoldLoses),
                      ("exchange_payment", ExchangePayment),
                      ("joker_tie", JokerTie), ("bonus_on", BonusOn), ("dealer_error_seen", DealerErrorSeen)):
        if key in data:
            out[key] = _choice(key, kind, data[key])
    options = BankedOptions(**out)
    _check_antes(options)
    return options


def _check_antes(options: BankedOptions) -> None:
    """The antes agree (B1): the smallest at most the largest, both multiples of the ante unit, and
    a no-game win on one unit a whole number of the smallest unit (B5)."""
    if options.minimum_ante > options.maximum_ante:
        raise ProfileError("minimum_ante: more than maximum_ante")
    for key in ("minimum_ante", "maximum_ante"):
        if getattr(options, key) % options.ante_unit:
            raise ProfileError(f"{key}: must be a multiple of ante_unit {options.ante_unit}")
    win, staked = options.no_game_pays
    if options.ante_unit * win % staked:
        raise ProfileError(f"ante_unit: no_game_pays {win}:{staked} of an ante of {options.money(options.ante_unit)} "
                           "is not a whole number of the smallest unit")
