"""The floor's word at the table: a floor person's ruling, on the deal in progress or on the last
finished deal, and a correction of chips. Events ``ruling`` and ``correction``, which only the floor
logs; no void withdraws them or anything logged before them (the floor corrects a ruling with a
ruling that supersedes it, or a correction of chips).

* Between deals a ruling re-settles the last finished deal (:func:`rule_last_deal`).

>>> from rules.jackpot import start
>>> t = start({"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": 1, "player": "Ann", "stack": 100}, {"seat": 2, "player": "Bob", "stack": 100}]})
>>> t.apply({"type": "correction", "moves": [{"seat": 1, "amount": -5}, {"seat": 2, "amount": 5}],
...          "reason": "a miscount"}).message
'Ruling: Chips corrected: seat 1, Ann, gives 5; seat 2, Bob, gets 5'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import IllegalAction, RulesError, parse
from rules.jackpot.event_base import Event, NotNow, Who, handles, may
from rules.jackpot.irregularities import apply_ruling
from rules.jackpot.moves import Move
from rules.jackpot.settlement import finish_showdown
from rules.jackpot.state import SETTLED_FIELDS, Phase, SeatStatus, WorkingTable
from rules.rulings import Ruling as FloorRuling
from rules.words import correction_headline

__all__ = ["Ruling", "Correction", "RulingMove", "CorrectionMove", "CORRECTED", "REASON_MAX", "log_ruling",
           "rule_last_deal", "correction"]

#: The outcome code of a correction of chips (not an outcome of the decision tree).
CORRECTED = "CHIPS_CORRECTED"
#: The longest reason a correction may carry.
REASON_MAX = 500


@dataclass(frozen=True)
class Ruling(Event):
    """A floor ruling applied to the table through the log, typed once here at the edge
    (:meth:`rules.rulings.Ruling.from_dict`); ``id`` is the stored ruling's number, if any."""

    kind = "ruling"
    said = "ruling"
    by = Who.FLOOR
    ruling: FloorRuling
    id: int | None = None

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Event:
        """A ruling's fields typed once (seats, chips, the outcome code), or refused saying which."""
        raw = event.get("ruling")
        if not isinstance(raw, Mapping) or "outcome" not in raw:
            raise IllegalAction("ruling: give the ruling's fields (outcome, dead, returns, pot_plays, ...) under 'ruling'")
        try:
            ruling = FloorRuling.from_dict(raw)
        except RulesError as exc:
            raise IllegalAction(f"ruling: {exc}") from None
        rid = event.get("id")
        return cls(ruling=ruling, id=None if rid is None else parse.whole(rid, "ruling: id"))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "ruling": self.ruling.to_dict(), "id": self.id}


@dataclass(frozen=True)
class Correction(Event):
    """The floor moves chips between seats, with a reason (an award put right): the amounts sum
    to nothing, so no chip is made or lost.

    >>> from rules.jackpot.events import parse_event
    >>> parse_event({"type": "correction", "moves": [{"seat": 5, "amount": -50},
    ...              {"seat": "3", "amount": 50}], "reason": "pot went to the wrong seat"})
    Correction(moves=((5, -50), (3, 50)), reason='pot went to the wrong seat', house=0)
    """

    kind = "correction"
    by = Who.FLOOR
    moves: tuple[tuple[int, int], ...] = ()
    reason: str = ""
    #: The house's side (a tournament's staff recount or chip race, issue 21): chips the house
    #: puts on the table (positive) or takes off it (negative); the moves sum to it, and the
    #: table's ledger counts it as chips in or out, so the conservation law still holds.
    house: int = 0

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Event:
        """A list of ``{seat, amount}`` summing to nothing (or to the house's part), and a reason."""
        raw = event.get("moves")
        if not isinstance(raw, (list, tuple)) or not raw:
            raise IllegalAction("correction: give the moves, a list of {seat, amount} that sum to 0")
        moves: list[tuple[int, int]] = []
        for item in raw:
            if not isinstance(item, Mapping) or "seat" not in item or "amount" not in item:
                raise IllegalAction("correction: each move is {seat, amount} (a negative amount gives chips)")
            seat = parse.seat(item["seat"], "correction: seat")
            amount = parse.signed(item["amount"], f"correction: the amount of seat {seat}")
            if any(seat == s for s, _ in moves):
                raise IllegalAction(f"correction: seat {seat} is listed twice; give one amount per seat")
            moves.append((seat, amount))
        house = parse.signed(event.get("house", 0), "correction: house")
        total = sum(a for _, a in moves)
        if total != house:
            raise IllegalAction(f"correction: the amounts must sum to 0 so that no chip is made or lost, "
                                f"not {total}" if not house else
                                f"correction: the amounts must sum to the house's {house}, not {total}")
        if not any(a for _, a in moves):
            raise IllegalAction("correction: nothing moves; give at least one seat that gives and one that gets")
        reason = event.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise IllegalAction("correction: say why the chips move (reason)")
        if len(reason) > REASON_MAX:
            raise IllegalAction(f"correction: the reason is at most {REASON_MAX} characters")
        return cls(moves=tuple(moves), reason=reason.strip(), house=house)

    def to_dict(self) -> dict[str, Any]:
        """As every event, without ``house`` when the house takes no part (the log's old form).

        >>> from rules.jackpot.events import parse_event
        >>> parse_event({"type": "correction", "moves": [{"seat": 3, "amount": -150}], "house": -150,
        ...              "reason": "recount"}).to_dict()
        {'type': 'correction', 'moves': [{'seat': 3, 'amount': -150}], 'reason': 'recount', 'house': -150}
        """
        out = super().to_dict()
        if not self.house:
            out.pop("house")
        return out

    def words(self, names: Mapping[int, str] | None = None) -> str:
        return correction_headline(list(self.moves), names) + (f" ({self.reason})" if self.reason else "")


@dataclass(frozen=True)
class RulingMove(Move):
    """The floor may apply a ruling: to the deal in progress, or between deals to the last finished one."""

    event_type = Ruling
    place = 91

    def event(self, ruling: FloorRuling, id: int | None = None) -> Ruling:
        return Ruling(ruling, id)


@dataclass(frozen=True)
class CorrectionMove(Move):
    """The floor may move chips between seats (between deals)."""

    event_type = Correction
    place = 92

    def event(self, moves: list[dict[str, int]], reason: str, house: int = 0) -> Correction:
        corrected = Correction.read({"moves": moves, "reason": reason, "house": house})
        assert isinstance(corrected, Correction)
        return corrected


# ------------------------------------------------------------------ a ruling


@may(Ruling)
def may_ruling(t: WorkingTable, seat: int | None = None) -> RulingMove:
    """During a deal; between deals, while the last finished deal is still open to one (the next
    deal closes it) and its players sit where they sat."""
    if t.phase != Phase.BETWEEN_DEALS:
        return RulingMove()
    base = t.finished
    if base is None:
        raise NotNow("a ruling between deals applies to the last finished deal, and there is none to "
                     "rule on (the next deal closed it; move chips with a correction instead)")
    if t.forfeited != base.forfeited or any(s not in t.seats or t.seats[s].player != base.seats[s].player
                                            for s in base.order):
        raise NotNow("a player of the last deal has left or changed seats since; the floor moves the "
                     "chips with a correction instead")
    return RulingMove()


@handles(Ruling)
def log_ruling(t: WorkingTable, e: Ruling, move: RulingMove) -> None:
    """A floor person's ruling applied through the same path as the engine's own: to the deal in
    progress, or between deals to the last finished deal (a pot already awarded or carried)."""
    if t.phase == Phase.BETWEEN_DEALS:
        rule_last_deal(t, e.ruling, e.id)
        return
    t.reopen = None
    apply_ruling(t, e.ruling, e.id)


def rule_last_deal(t: WorkingTable, r: FloorRuling, rid: int | None) -> None:
    """A ruling between deals re-settles the last finished deal (the dispute raised at the award).

    The deal is taken as it stood when it ended, before any award; the ruling is applied there
    and the deal settled again (a showdown whose hands are all in is settled, a pot nobody can take
    stays). Each seat then gets the difference between the new settlement and the one the table
    had, so what happened since (a correction, a rebuy) is kept. A later ruling on the same deal
    replaces this one: a correction starts again from how the deal ended. A ruling that would let
    the deal go on, or take back chips a seat no longer has, is refused: the floor then moves the
    chips with a ``correction``.
    """
    base = t.finished
    assert base is not None  # the check (may_ruling) saw to it
    work = base.copy()
    work.finished, work.finished_end, work.added, work.rulings = None, (), (), t.rulings
    apply_ruling(work, r, rid)
    if work.phase == Phase.SHOWDOWN:
        finish_showdown(work)  # every hand was in when the deal ended: settle it again
    if work.phase != Phase.BETWEEN_DEALS:
        raise NotNow("the last deal is over and this ruling would let it go on; the floor moves the "
                     "chips with a correction instead")
    end = {s: (stack, put) for s, stack, put in t.finished_end}
    moves: dict[int, tuple[int, int]] = {}
    for s, x in work.seats.items():
        old_stack, old_put = end.get(s, (x.stack, x.put))
        moves[s] = (x.stack - old_stack, x.put - old_put)
    for s, (d_stack, d_put) in moves.items():
        if not d_stack and not d_put:
            continue
        if s not in t.seats:
            raise NotNow(f"the ruling moves chips of seat {s}, who has left the table; the floor moves the "
                         "chips with a correction instead")
        if t.seats[s].stack + d_stack < 0:
            raise NotNow(f"the ruling takes {-d_stack} back from seat {s}, who has {t.seats[s].stack} left; "
                         "the floor moves the chips with a correction instead")
    for s, (d_stack, d_put) in moves.items():
        if s in t.seats and (d_stack or d_put):
            x = t.seats[s]
            t.set(s, stack=x.stack + d_stack, put=x.put + d_put)
    for name in SETTLED_FIELDS:  # the fields the deal's settlement decides (state.Settled)
        setattr(t, name, getattr(work, name))
    for s in t.order:
        x = t.seats[s]
        barred = s in work.seats and work.seats[s].status == SeatStatus.BARRED
        status = SeatStatus.BARRED if barred else SeatStatus.OUT if x.stack == 0 and x.put == 0 else SeatStatus.ACTIVE
        if status != x.status:
            t.set(s, status=status)
    t.rulings, t.added = work.rulings, t.added + work.added
    t.finished_end = tuple((s, x.stack, x.put) for s, x in work.seats.items())
    t.message = work.message + " (a ruling on the last finished deal)"


# ------------------------------------------------------------------ a correction of chips


@may(Correction)
def may_correction(t: WorkingTable, seat: int | None = None) -> CorrectionMove:
    """Between deals; during a deal the floor rules instead."""
    if t.phase != Phase.BETWEEN_DEALS:
        raise NotNow("a correction moves chips between deals; during a deal the floor rules instead")
    return CorrectionMove()


@handles(Correction)
def correction(t: WorkingTable, e: Correction, move: CorrectionMove) -> None:
    """The floor moves chips between seats between deals (an award put right, a miscount): the
    amounts sum to nothing, so chips are conserved, and no stack goes below nothing."""
    for s, amount in e.moves:
        if s not in t.seats:
            raise NotNow(f"correction: there is no seat {s} at this table")
        if t.seats[s].stack + amount < 0:
            raise NotNow(f"correction: seat {s} has {t.seats[s].stack} chips and cannot give {-amount}")
    t.chips_in += max(e.house, 0)  # a recount or a chip race by the house (0 between seats)
    t.chips_out += max(-e.house, 0)
    for s, amount in e.moves:
        x = t.seats[s]
        stack = x.stack + amount
        status = x.status if x.status == SeatStatus.BARRED else SeatStatus.OUT if stack == 0 and x.put == 0 else SeatStatus.ACTIVE
        t.set(s, stack=stack, status=status)
    names = {s: t.seats[s].player for s, _ in e.moves}
    record: dict[str, Any] = {
        "outcome": CORRECTED, "kind": "correction", "citations": [], "path": [],
        "moves": [{"seat": s, "amount": a} for s, a in e.moves], "reason": e.reason,
        "summary": e.reason, "headline": correction_headline(e.moves, names), "deal": t.deal_no,
        "chips": {s: a for s, a in e.moves if a}, "pot_plays": False, "dead": [], "returns": {},
        "barred": [], "winners": [], "winner": None, "house": e.house,
    }
    t.rulings = t.rulings + (record,)
    t.added = t.added + (record,)
    t.message = record["headline"]
