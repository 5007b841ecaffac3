"""Settling a box against the dealer (B5, H3), the fold (B2, B3) and the bonus bet (B5).

After the dealer's exchange:

- the dealer does not qualify (no pair of jacks, B4): "no game": the ante box wins at
  ``no_game_pays`` (2 to 3 by default) and the bet is returned;
- the dealer's hand is higher: the box loses ante box and bet;
- the dealer's hand is lower: the ante box is paid 1:1 and the bet by the paytable for the box's
  hand;
- an exact tie: a push (both returned), except that a hand with the joker does not lose to an
  equal one without it (H3; ``joker_tie`` says whether it then wins or pushes).

>>> r = settle("9h 9d 9c 4s 2d", "Kh Kd 7s 5c 3h", ante=6, bet=12, paytable=None)
>>> r["outcome"], r["player_net"], r["pays"]
('player_wins', 42, 3)
>>> settle("9h 9d 9c 4s 2d", "Th Td 7s 5c 3h", 6, 12, None)["player_net"]
4
>>> settle("9h 9d 8c 4s 2d", "Kh Kd 7s 5c 3h", 6, 12, None)["player_net"]
-18
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from rules import CardError, IllegalAction
from rules.banked.box import Box, Stage
from rules.banked.dealer import dealer_qualifies
from rules.banked.options import BankedOptions, FoldLoses, JokerTie, Paytable, banked_options
from rules.cards import Card, parse_cards
from rules.hands import HandValue, evaluate

__all__ = ["Outcome", "settle", "settle_box", "fold_net", "settle_bonus", "no_game_win"]


class Outcome(StrEnum):
    """How a box that bet ends against the dealer (the contract's words)."""

    NO_GAME = "no_game"
    DEALER_WINS = "dealer_wins"
    PLAYER_WINS = "player_wins"
    PUSH = "push"


def no_game_win(ante_box: int, options: BankedOptions) -> int:
    """B5: what the ante box wins when the dealer has no game; exact or refused.

    >>> no_game_win(9, banked_options()), no_game_win(9, banked_options({"no_game_pays": [1, 1]}))
    (6, 9)
    """
    win, staked = options.no_game_pays
    if ante_box * win % staked:
        raise IllegalAction(f"B5: {win} to {staked} of an ante box of {options.money(ante_box)} is not a whole "
                            f"number of {options.money(1)}; the ante must be a multiple of "
                            f"{options.money(options.ante_unit)} (B1)")
    return ante_box * win // staked


def settle(player_cards: str | Iterable[str | Card], dealer_cards: str | Iterable[str | Card], ante: int, bet: int,
           paytable: Paytable | Mapping[str, Any] | None = None,
           options: BankedOptions | None = None) -> dict[str, Any]:
    """One box that bet, against the dealer's final five cards (after the exchange): the contract's
    function. ``ante`` is the whole ante box, ``bet`` the bet (twice the ante box, B2/B3), both
    ints of the smallest unit; ``paytable`` overrides the profile's (None: the profile's).

    Returns ``outcome`` (:class:`Outcome`), ``player_net`` (what the box wins, negative when it
    loses), ``ante_net``, ``bet_net``, ``pays`` (the paytable's multiple, when paid),
    ``dealer_qualifies``, ``player_hand`` and ``dealer_hand`` (in words), ``rules`` (the rule
    ids) and ``reason`` (a sentence for the dealer's tablet).

    >>> r = settle("Jk Ah Kh 4h 9h", "Ad Ac 7s 4c 3d", 3, 6, None)
    >>> r["outcome"], r["player_net"], r["reason"]
    ('player_wins', 33, "the dealer's pair of aces, seven-four-three is lower than flush, ace-king high (with the joker); ante 1:1, bet 5:1")
    >>> settle("As Kd 7c 5h 2h", "Ac Kh 7d 5s 2c", 3, 6, None)["outcome"]
    'no_game'
    >>> settle("As Ad 7c 5h 2h", "Ac Ah 7d 5s 2c", 3, 6, None)["outcome"]
    'push'
    >>> settle("As Ad 7c 5h 2h", "Ac Ah 7d 5s 2c", 3, 5, None)
    Traceback (most recent call last):
    ...
    rules.IllegalAction: B2: the bet is twice the ante box (0.6), not 0.5
    >>> settle("As Ad 7c 5h 2h", "Ac As 7d 5s 2c", 3, 6, None)
    Traceback (most recent call last):
    ...
    rules.CardError: duplicate card: As is in the box's hand and the dealer's
    """
    opts = options or banked_options()
    table = opts.paytable if paytable is None else Paytable.parse(paytable)
    player = parse_cards(player_cards, count=5)
    dealer = parse_cards(dealer_cards, count=5)
    _check_stakes(player, dealer, ante, bet, opts)
    pv = evaluate(player, "joker")
    dv = evaluate(dealer, "joker")
    out: dict[str, Any] = {"player_hand": pv.describe(), "dealer_hand": dv.describe(), "pays": None,
                           "dealer_qualifies": dealer_qualifies(dv, opts)}
    if not out["dealer_qualifies"]:
        win, staked = opts.no_game_pays
        ante_net, bet_net, outcome = no_game_win(ante, opts), 0, Outcome.NO_GAME
        out["reason"] = (f"no game: the dealer has {dv.describe()}, less than a pair of "
                         f"{'jacks' if opts.qualifier == 11 else 'the qualifier'}; ante paid {win} to {staked}, "
                         "bet returned")
        out["rules"] = ("B4", "B5")
    else:
        ante_net, bet_net, outcome = _against_qualifier(pv, dv, ante, bet, table, opts, out)
    out.update(outcome=outcome.value, ante_net=ante_net, bet_net=bet_net, player_net=ante_net + bet_net)
    return out


def _check_stakes(player: tuple[Card, ...], dealer: tuple[Card, ...], ante: int, bet: int,
                  opts: BankedOptions) -> None:
    """The box's hand and the dealer's share no card; the ante box and the bet are positive amounts
    (B1), the bet twice the ante box (B2)."""
    for card in player:
        if card in dealer:
            raise CardError(f"duplicate card: {card} is in the box's hand and the dealer's")
    for name, amount in (("ante", ante), ("bet", bet)):
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise IllegalAction(f"B1: the {name} is a positive amount in the smallest unit, not {amount!r}")
    if bet != 2 * ante:
        raise IllegalAction(f"B2: the bet is twice the ante box ({opts.money(2 * ante)}), not {opts.money(bet)}")


def _against_qualifier(pv: HandValue, dv: HandValue, ante: int, bet: int, table: Paytable, opts: BankedOptions,
                       out: dict[str, Any]) -> tuple[int, int, Outcome]:
    """A box against a dealer who qualifies (B5): the higher hand wins, the bet paid by the paytable;
    a tie decided by the joker alone cites H3. Writes ``rules``, ``reason`` and ``pays`` into ``out``."""
    # H3: the strength's last bit is the joker's; 'push' reads "does not lose" as a stand-off.
    p, d = (pv.strength, dv.strength) if opts.joker_tie is JokerTie.JOKER_WINS else (
        pv.strength >> 1, dv.strength >> 1)
    joker_decided = pv.strength >> 1 == dv.strength >> 1 and pv.joker != dv.joker
    out["rules"] = ("B5", "H3") if joker_decided else ("B5",)
    if d > p:
        out["reason"] = f"the dealer's {dv.describe()} beats {pv.describe()}"
        return -ante, -bet, Outcome.DEALER_WINS
    if d < p:
        pays = table.pays(pv)
        out["pays"] = pays
        out["reason"] = (f"the dealer's {dv.describe()} is lower than {pv.describe()}; "
                         f"ante 1:1, bet {pays}:1")
        return ante, bet * pays, Outcome.PLAYER_WINS
    out["reason"] = f"a tie, {pv.describe()} against {dv.describe()}: ante and bet returned"
    return 0, 0, Outcome.PUSH


def fold_net(box: Box) -> int:
    """B2, B3: what a folded box loses (negative): the ante box, or with ``fold_loses =
    'initial_ante'`` only the first ante (the exchange payments go back).

    >>> from rules.banked.box import new_box
    >>> b = new_box(1, "Ah Ad 9c 6s 2h", 3).exchange("9c 6s 2h", "Ac Kd Qh").fold()
    >>> fold_net(b), fold_net(new_box(1, "Ah Ad 9c 6s 2h", 3, banked_options({"fold_loses": "initial_ante"})).exchange("2h", "3h").fold())
    (-6, -3)
    """
    if box.stage is not Stage.FOLDED:
        raise IllegalAction(f"B2: box {box.box} has not folded")
    lost = box.ante if box.options.fold_loses is FoldLoses.INITIAL_ANTE else box.ante_box
    return -lost - box.fees


def settle_box(box: Box, dealer_cards: str | Iterable[str | Card]) -> dict[str, Any]:
    """A closed box against the dealer's final cards: :func:`settle` for a box that bet, the fold
    otherwise; ``player_net`` counts the exchange fees when the profile makes them fees.

    >>> from rules.banked.box import new_box
    >>> fee = banked_options({"exchange_payment": "fee"})
    >>> b = new_box(1, "Ah Ad 9c 6s 2h", 3, fee).exchange("9c 6s 2h", "Ac Kd Qh").bet()
    >>> r = settle_box(b, "Kh Kc 7s 5c 3h")
    >>> (b.ante_box, b.bet_amount, b.fees), (r["outcome"], r["player_net"])
    ((3, 6, 3), ('player_wins', 18))
    >>> settle_box(new_box(2, "Ah Ad 9c 6s 2h", 3).fold(), "Kh Kc 7s 5c 3h")["player_net"]
    -3
    """
    if box.stage is Stage.FOLDED:
        net = fold_net(box)
        return {"outcome": "folded", "player_net": net, "ante_net": net, "bet_net": 0, "pays": None,
                "rules": ("B2", "B3"), "reason": f"box {box.box} folded"}
    if box.stage is not Stage.BET:
        raise IllegalAction(f"B2: box {box.box} has not decided yet: it may {', '.join(box.allowed())}")
    out = settle(box.cards, dealer_cards, box.ante_box, box.bet_amount, None, box.options)
    if box.fees:
        out["player_net"] -= box.fees
        out["reason"] += f"; exchange fees {box.options.money(box.fees)}"
    return out


def settle_bonus(cards: str | Iterable[str | Card], stake: int, options: BankedOptions) -> int:
    """B5: the bonus bet on five cards (``bonus_on`` says which): ``stake`` × the bonus paytable's
    multiple, or the stake lost when it pays nothing. Refused when the profile has no bonus table.

    >>> bonus = banked_options({"bonus_paytable": {"high_card": 0, "one_pair": 0, "two_pair": 0}})
    >>> settle_bonus("Ah Ad As 6s 2h", 3, bonus), settle_bonus("Ah Ad Ks 6s 2h", 3, bonus)
    (9, -3)
    >>> settle_bonus("Ah Ad As 6s 2h", 3, banked_options())
    Traceback (most recent call last):
    ...
    rules.IllegalAction: B5: this table has no bonus bet (the seed gives no bonus paytable; set bonus_paytable)
    """
    if options.bonus_paytable is None:
        raise IllegalAction("B5: this table has no bonus bet (the seed gives no bonus paytable; set bonus_paytable)")
    pays = options.bonus_paytable.pays(evaluate(parse_cards(cards, count=5), "joker"))
    return stake * pays if pays else -stake
