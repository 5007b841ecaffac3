"""What a table state shows, as typed values: the pot over its deals, the pots, the turn's
neighbours (requests, undo), the last award, and the variants' facts.

:class:`Readings` is a part of :class:`rules.jackpot.table.TableState` (its base): the app reads a
state through these (the dealer's panel renders from them), and ``TableState.to_dict()`` makes the
contract's plain data from the same readings, for JSON answers and storage only. Each says which
field of ``to_dict()`` it is.

>>> from rules.jackpot.table import TableState
>>> t = TableState.from_setup({"ante": 5, "small_bet": 10, "button": 1,
...     "seats": [{"seat": 1, "player": "Ann", "stack": 50}, {"seat": 2, "player": "Bob", "stack": 50}]})
>>> t = t.apply({"type": "deal"})
>>> t.jackpot.deals, t.jackpot.opened, [p.amount for p in t.pots], t.undo
(1, False, [10], Undo(event=0, type='deal'))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from rules.jackpot.deal import antes_due
from rules.jackpot.opening import PassMove
from rules.jackpot.pots import Pot, side_pots
from rules.jackpot.settlement import shown_value
from rules.jackpot.state import DealEnd, Phase, ReopenOffer, SeatStatus, WorkingTable

__all__ = ["Jackpot", "Undo", "Winner", "Readings"]


@dataclass(frozen=True)
class Jackpot:
    """The pot over its deals (``to_dict()["jackpot"]``): how many deals it has lasted and how many
    took antes (O4), whether this deal is opened, by whom and on what (O1), whether the openers were
    proved, whether the next deal starts a new pot and takes antes (None during a deal), and the
    F9 penalty ante owed by everyone on the next deal."""

    deals: int
    ante_deals: int
    opened: bool
    opener: int | None
    requirement: str
    proven: bool
    new_pot: bool
    antes_next_deal: bool | None
    ante_for_all: int | None


class Undo(NamedTuple):
    """What a dealer's undo would withdraw now: the log index of the latest live event and its type."""

    event: int
    type: str


class Winner(NamedTuple):
    """One share of the last award: the seat, the player who won it (named as the deal ended: they
    may have left or changed seats since), the chips, and the hand it won with in words (None when
    it won without showing five cards: everyone else folded)."""

    seat: int
    player: str | None
    amount: int
    hand: str | None = None


def _hand_words(finished: WorkingTable | None, seat: int) -> str | None:
    """The hand a seat showed at the end of the finished deal, in words, or None (not five cards)."""
    if finished is None or seat not in finished.seats:
        return None
    shown = finished.seats[seat].shown
    if shown is None or len(shown) != 5:
        return None
    try:
        return str(shown_value(finished, seat).describe())
    except (ValueError, AttributeError):  # a hand the deal's rules do not read as one value
        return None


class Readings:
    """The typed readings of a table state (mixed into :class:`rules.jackpot.table.TableState`,
    which holds the working table ``_t`` and the undo step ``_undo``)."""

    _t: WorkingTable
    _undo: tuple[int, str, Any] | None

    @property
    def jackpot(self) -> Jackpot:
        """The pot over its deals (``to_dict()["jackpot"]``)."""
        t = self._t
        return Jackpot(t.deals, t.ante_deals, t.opened, t.opener, t.requirement, t.proven, t.new_pot,
                       antes_due(t) if t.phase == Phase.BETWEEN_DEALS else None, t.ante_for_all)

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The main pot and the side pots with the seats that may win each (``to_dict()["pots"]``);
        between deals, those of a carried pot among the seats that play on.

        The pots read only the phase, the seats (their claims, statuses, stacks) and what players
        who left forfeited: worked out once a state, and taken from the state before (the undo step's)
        when those are the very same values there, as they are after a pass (a seat is an immutable
        value, replaced when it changes; issue 34, session 43: every answer carries the pots)."""
        t = self._t
        kept: tuple[Any, ...] | None = self.__dict__.get("_pots")
        if kept is not None:
            pots: tuple[Pot, ...] = kept[-1]
            return pots
        seats = tuple(t.seats.items())
        before = self._undo[2].__dict__.get("_pots") if self._undo is not None else None
        if (before is not None and before[0] == t.phase and before[1] == t.forfeited
                and len(before[2]) == len(seats)
                and all(s == b and x is y for (s, x), (b, y) in zip(seats, before[2]))):
            pots = before[-1]
        else:
            contenders = t.live() if t.phase != Phase.BETWEEN_DEALS else [
                s for s in t.order if t.seats[s].status == SeatStatus.ACTIVE]
            pots = tuple(side_pots(t.claims(), contenders, [s for s in contenders if t.seats[s].all_in]))
        self.__dict__["_pots"] = (t.phase, t.forfeited, seats, pots)
        return pots

    @property
    def undo(self) -> Undo | None:
        """What a dealer's undo would withdraw now, or None (``to_dict()["undo"]``)."""
        return None if self._undo is None else Undo(self._undo[0], self._undo[1])

    @property
    def winners(self) -> tuple[Winner, ...]:
        """The last award (:attr:`awards`) with each winner's name as the finished deal had it, else as
        the seat has it now (a carried pot taken by the only player left, rules.jackpot.seating).

        >>> from rules.jackpot.table import TableState
        >>> t = TableState.from_setup({"ante": 5, "small_bet": 10, "button": 1,
        ...     "seats": [{"seat": 1, "player": "Ann", "stack": 50}, {"seat": 2, "player": "Bob", "stack": 50}]})
        >>> t = t.apply({"type": "deal"}).apply({"type": "open", "seat": 2}).apply({"type": "fold", "seat": 1})
        >>> t = t.apply({"type": "show", "seat": 2, "cards": ["Js", "Jd", "2c", "3h", "4s"]})
        >>> t.apply({"type": "leave", "seat": 2}).apply({"type": "sit", "seat": 2, "player": "Cy", "chips": 20}).winners
        (Winner(seat=2, player='Bob', amount=20, hand='pair of jacks, four-three-deuce'),)
        """
        t = self._t
        before = t.finished.seats if t.finished is not None else {}
        return tuple(Winner(s, x.player if (x := before.get(s) or t.seats.get(s)) else None, amount,
                            _hand_words(t.finished, s))
                     for s, amount in t.awards)

    @property
    def throw_in(self) -> tuple[dict[str, Any], ...] | None:
        """The passes that throw the deal in, when nobody has opened and the rules let every seat
        still to speak pass and so throw the deal in, the pot staying for the next (O3): the
        tablet logs them with one tap instead of one per seat. None otherwise (a seat must open,
        or the passes do not end the deal as a throw-in: jacks back turns it into a deal for low).

        >>> from rules.jackpot.table import TableState
        >>> t = TableState.from_setup({"ante": 5, "small_bet": 10, "button": 1, "seats": [
        ...     {"seat": s, "player": p, "stack": 50} for s, p in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]})
        >>> t = t.apply({"type": "deal"}).apply({"type": "pass", "seat": 2})
        >>> t.throw_in
        ({'type': 'pass', 'seat': 3}, {'type': 'pass', 'seat': 1})
        >>> t.apply({"type": "open", "seat": 3}).throw_in is None
        True
        """
        state: Any = self
        events: list[dict[str, Any]] = []
        while state.phase == Phase.PREDRAW and not state._t.opened and state.to_act is not None:
            if not any(isinstance(move, PassMove) for move in state.legal()) or len(events) > len(state._t.seats):
                return None
            events.append({"type": "pass", "seat": state.to_act})
            state = state.apply(events[-1])
        thrown = events and state.phase == Phase.BETWEEN_DEALS and state.last_end == DealEnd.THROW_IN
        return tuple(events) if thrown else None

    @property
    def escrow(self) -> Mapping[int, tuple[str, ...]]:
        """Split openers: the discards each opener keeps apart, by seat (S1; ``to_dict()["escrow"]``)."""
        return MappingProxyType(dict(self._t.escrow))

    @property
    def exposed(self) -> tuple[tuple[int, str], ...]:
        """The cards faced in the draw, dead (D12): (seat it was dealt to, card)."""
        return self._t.exposed

    @property
    def reopen(self) -> ReopenOffer | None:
        """The offer to reopen after false openers found before the draw (F3), or None."""
        return self._t.reopen

    @property
    def passed(self) -> tuple[int, ...]:
        """The seats that passed on opening this deal (O2)."""
        return self._t.passed

    @property
    def last_end(self) -> DealEnd:
        """How the last deal ended: won, thrown in or carried (``start`` before the first)."""
        return self._t.last_end

    @property
    def stub(self) -> int:
        """The cards left in the stub for the draw (D3)."""
        return self._t.stub

    @property
    def low(self) -> bool:
        """This deal (or the last, between deals) is played for low (D10)."""
        return self._t.low

    @property
    def draw_round(self) -> int:
        """Which draw of the hand this is (D13): 0 before the first."""
        return self._t.draw_round

    @property
    def age(self) -> int | None:
        """The seat holding the age of a blind deal (D11), if any."""
        return self._t.age_seat

    @property
    def jack_pot(self) -> bool:
        """The next deal (of a blind game, D11) is a jack pot: antes and openers."""
        return self._t.jack_pot

    @property
    def widow(self) -> str | None:
        """The widow card turned up this deal, whose rank is wild (H4)."""
        return self._t.widow

    @property
    def keep_openers(self) -> int | None:
        """The seat that asked the opener to keep the opening hand (F12), if any."""
        return self._t.keep_asked

    @property
    def max_buy_in(self) -> int | None:
        """The most a player may bring to the table, if the house has a limit."""
        return self._t.max_buy_in

    @property
    def house(self) -> dict[str, int]:
        """What the house has taken at this table so far (issue 32): rake, time and drop."""
        return {"rake": self._t.house_rake, "time": self._t.house_time, "drop": self._t.house_drop}

    @property
    def chips_in(self) -> int:
        """The chips brought to the table since it opened (buy-ins, rebuys; ``ledger``)."""
        return self._t.chips_in

    @property
    def chips_out(self) -> int:
        """The chips taken away from the table by players who left (``ledger``)."""
        return self._t.chips_out

    @property
    def barred_by_ruling(self) -> frozenset[int]:
        """The seats a ruling barred from the pot in play (F7); any other barred seat was shut out
        of a trips-to-win play-off (D9)."""
        return self._t.barred_by_ruling()
