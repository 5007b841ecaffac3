"""The pot's awards of a ruling: what a leaf's moves (:class:`rules.rulings.outcomes.Move`) do at
the table once they are read against the facts. The hands that are dead, the chips handed back from
the pot, the players free to reopen and the one who did, the opener barred (F7) or anteing for all
(F9), and the best other live hand that takes the pot (H5, H6, D7).

A leaf says *what* happens in the closed vocabulary of moves; :func:`awards` says *to whom* and *how
much*, and :func:`rules.rulings.resolve` words it and records it as a :class:`rules.rulings.Ruling`.

>>> from rules.profiles import get_profile
>>> from rules.rulings import build_tree
>>> walk = build_tree("cardroom").walk({"issue": "false_openers", "found": "before_draw", "opener": 3,
...     "opener_all_in": False, "action_complete_before_draw": False, "raise_before_draw": False,
...     "callers": 2, "opener_bets": [10, 20, 20]})
>>> a = awards(walk.leaf, walk.facts, get_profile("cardroom"))
>>> a.dead, a.returns, a.pot_plays
((3,), {3: 40}, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rules import RulesError
from rules.profiles import Profile
from rules.rulings.facts import eligible_reopeners
from rules.rulings.outcomes import Move
from rules.rulings.proving import showdown_value, worth_makes_trips
from rules.rulings.tree import Facts, Leaf

__all__ = ["Awards", "awards"]


@dataclass(frozen=True)
class Awards:
    """A leaf's moves read against the facts: who is named, who is dead, what goes back to whom,
    whether the pot plays on, and who wins it when the best other hand does (``winners``, more than
    one on an exact tie; ``best_hand`` in words, "" when the one live hand left takes it unshown;
    ``foul``, the hands passed over for not holding five cards)."""

    opener: int | None = None
    seat: int | None = None
    dead: tuple[int, ...] = ()
    returns: dict[int, int] = field(default_factory=dict)
    pot_plays: bool = False
    may_reopen: tuple[int, ...] = ()
    reopener: int | None = None
    barred: tuple[int, ...] = ()
    ante_for_all: int | None = None
    proved: int | None = None
    ante_again: bool = False
    showdown_only: bool = False
    winners: tuple[int, ...] = ()
    best_hand: str = ""
    foul: tuple[int, ...] = ()


def awards(leaf: Leaf, f: Facts, prof: Profile) -> Awards:
    """What ``leaf``'s moves do at the table, given the facts of the walk that reached it (read in
    the order the moves need them, so a missing fact is named as the walk would name it).

    Raises :class:`rules.RulesError` where the facts cannot be so: the opener's bets listed among
    the others' with another amount, no hand shown but the opener's, every other hand foul.
    """
    moves = set(leaf.moves)
    opener: int | None = f["opener"] if "opener" in leaf.needs else None
    seat: int | None = f["seat"] if "seat" in leaf.needs else None
    dead: list[int] = []
    returns: dict[int, int] = {}

    def give(s: int, chips: int) -> None:
        if chips > 0:
            returns[s] = returns.get(s, 0) + chips

    if Move.OPENER_DEAD in moves and opener is not None:
        dead.append(opener)
    if Move.SEAT_DEAD in moves and seat is not None:
        dead.append(seat)
    if Move.RETURN_OPENER_LATER_BETS in moves and opener is not None:
        give(opener, sum(f["opener_bets"][1:]))
    if Move.RETURN_OTHER_BETS in moves and opener is not None:
        for s, chips in sorted(_other_bets(f, opener).items()):
            give(s, chips)
    may_reopen = eligible_reopeners(f) if Move.OFFER_REOPEN in moves else ()
    reopener: int | None = f["reopener"] if Move.REOPEN in moves else None
    barred = (opener,) if Move.BAR_OPENER in moves and opener is not None else ()
    best_other_wins = Move.BEST_OTHER_WINS in moves and opener is not None
    winners: tuple[int, ...] = ()
    foul: tuple[int, ...] = ()
    best_hand = ""
    if best_other_wins and opener is not None:
        winners, best_hand, foul = _best_other(f, opener, prof)
    return Awards(
        opener=opener, seat=seat, dead=tuple(dead), returns=returns,
        pot_plays=Move.POT_PLAYS in moves or Move.REOPEN in moves or best_other_wins,
        may_reopen=may_reopen, reopener=reopener, barred=barred,
        ante_for_all=opener if Move.OPENER_ANTES_FOR_ALL in moves else None,
        proved=opener if Move.OPENER_STANDS in moves else None,
        ante_again=Move.EVERYONE_ANTES_AGAIN in moves or Move.SHOWDOWN_PLAYS_ON in moves,
        showdown_only=Move.SHOWDOWN_PLAYS_ON in moves,
        winners=winners, best_hand=best_hand, foul=foul,
    )


def _other_bets(f: Facts, opener: int) -> dict[int, int]:
    """The other players' bets of the deal, which go back when the pot does not play (F2, F4)."""
    bets = dict(f["bets"])
    if opener in bets:
        # Tolerated only when it repeats what opener_bets says (an engine may list every seat).
        expected = sum(f["opener_bets"]) if "opener_bets" in f else 0
        if bets[opener] != expected:
            raise RulesError("bets: list the other players' bets only; the opener's bets go in opener_bets")
        del bets[opener]
    return bets


def _hand_size(cards: Any) -> int:
    """How many cards a shown hand holds (a foul hand is not five, H6)."""
    if isinstance(cards, str):
        return len([t for t in re.split(r"[\s,]+", cards) if t])
    return len(list(cards))


def _best_other(f: Facts, opener: int, prof: Profile) -> tuple[tuple[int, ...], str, tuple[int, ...]]:
    """Seats holding the best live hand other than the opener's (more than one on an exact tie),
    that hand described in words, and the foul hands passed over (H6). Where cards do not speak
    (H9) a hand is worth what its holder declared (:func:`rules.rulings.proving.showdown_value`)."""
    others = {s: c for s, c in f["hands"].items() if s != opener}
    unshown = [s for s, c in others.items() if c is None or _hand_size(c) == 0]
    if len(others) == 1 and unshown and not prof.trips_to_win:
        # the one live hand left was never asked to show: it takes the pot uncontested (D7)
        return (unshown[0],), "", ()
    others = {s: c for s, c in others.items() if s not in unshown}
    if not others:
        raise RulesError("hands: no hand other than the opener's was shown; if everyone else folded, "
                         "answer everyone_folded: yes")
    foul = tuple(sorted(s for s, c in others.items() if _hand_size(c) != 5))
    live = {s: showdown_value(prof, f, s, c) for s, c in others.items() if s not in foul}
    if prof.trips_to_win:  # D9: only three of a kind or better may win (as declared, H9)
        live = {s: v for s, v in live.items() if worth_makes_trips(prof, f, v)}
    if not live:
        raise RulesError("hands: every other hand shown is foul (not five cards); nobody can take the "
                         "pot at this showdown")
    best = max(live.values())
    return tuple(sorted(s for s, v in live.items() if v == best)), best.describe(), foul
