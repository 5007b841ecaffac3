"""Players come and go between deals: a seat taken with a buy-in, a rebuy, a player sitting out and
back in, a change of seat, a player leaving (docs/contract.md, "Players come and go").

Every chip that comes in or goes out is on the ledger, so the conservation law holds after every
event: the stacks and the pot are always the starting stacks plus the chips brought in, less the
chips taken away. What the engine decides where the sources are silent:

* All of these happen between deals only; during a deal a seat's line-up is fixed.
* A player who leaves takes the stack; what they put into a pot that is carried over stays in it
  (it is no longer anyone's claim, and goes to whoever wins the pot). A player barred by F7 who
  leaves and sits down again, at any seat, with any buy-in, stays barred until someone else has won
  the pot ("even if you buy in again"; the profile's ``f7_follows_player``, the default): the bar
  is the person's (``Seat.person``: the player's record, else the name).
* A newcomer sitting into a carried pot antes from the next deal and plays for the whole pot, or,
  where the profile's ``newcomers_wait`` says so, is dealt in only once that pot is won.
* A rebuy or top-up never lifts an F7 bar ("even after buying more chips").
* A player sitting out is not dealt in and posts no ante; their claim on a carried pot stays in it.
* The table's ``max_buy_in`` (setup), when set, caps a buy-in and what a stack may reach by a rebuy.

Events ``sit``, ``add_chips``, ``leave``, ``sit_out``, ``sit_in`` and ``move_seat``; each check
gives the menu of seats its event may name (``legal`` lists them between deals).

>>> from rules.jackpot import replay
>>> setup = {"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": 1, "player": "Ann", "stack": 100}, {"seat": 2, "player": "Bob", "stack": 100}]}
>>> state = replay(setup, [{"type": "sit", "seat": 4, "player": "Cleo", "chips": 300},
...                        {"type": "add_chips", "seat": 1, "amount": 50}, {"type": "leave", "seat": 2}])
>>> sorted(state["seats"]), state["ledger"]
([1, 4], {'chips_in': 350, 'chips_out': 100})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import IllegalAction, parse
from rules.parse import NAME_MAX
from rules.jackpot.event_base import NotNow, SeatEvent, Who, handles, may
from rules.jackpot.moves import MenuMove, in_menu
from rules.jackpot.state import Phase, Seat, SeatStatus, WorkingTable

__all__ = ["Sit", "AddChips", "Leave", "SitOut", "SitIn", "MoveSeat", "SitMove", "AddChipsMove", "LeaveMove",
           "SitOutMove", "SitInMove", "MoveSeatMove", "sit", "add_chips", "leave", "sit_out", "sit_in", "move_seat",
           "last_claimant_takes_the_pot", "NAME_MAX", "MOST_SEATS", "check_capacity"]


@dataclass(frozen=True)
class Sit(SeatEvent):
    """A player takes an empty seat between deals with chips (a buy-in, or a move from another table).

    >>> from rules.jackpot.events import parse_event
    >>> parse_event({"type": "sit", "seat": 5, "player": "Gus", "chips": 500}).words()
    'seat 5: Gus sits down with 500'
    """

    kind = "sit"
    by = Who.DEALER
    said = "seat {seat}: {player} sits down with {chips}"
    floor_act = True
    player: str = ""
    chips: int = 0
    player_id: int | None = None  # the card room's record of the player (issue 31), when named

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        player, player_id = parse.player(event.get("player"), event.get("player_id"), "sit")
        if event.get("chips") is None:
            raise IllegalAction("sit: give the chips the player brings (chips)")
        return {"player": player, "chips": parse.chips(event["chips"], "sit: chips", positive=True),
                "player_id": player_id}

    def to_dict(self) -> dict[str, Any]:
        """As the log stores it; a sit naming no player record stores no ``player_id`` (as before
        records existed, so older logs read back to the same events).

        >>> from rules.jackpot.events import parse_event
        >>> parse_event({"type": "sit", "seat": 5, "player": {"id": 9, "name": "Gus"}, "chips": 500}).to_dict()
        {'type': 'sit', 'seat': 5, 'player': 'Gus', 'chips': 500, 'player_id': 9}
        """
        out = super().to_dict()
        if out.get("player_id") is None:
            out.pop("player_id", None)
        return out


@dataclass(frozen=True)
class AddChips(SeatEvent):
    """A rebuy or top-up between deals; it never lifts an F7 bar."""

    kind = "add_chips"
    by = Who.DEALER
    said = "{who}adds {amount} chips"
    floor_act = True
    amount: int = 0

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        if event.get("amount") is None:
            raise IllegalAction("add_chips: give the chips added (amount)")
        return {"amount": parse.chips(event["amount"], "add_chips: amount", positive=True)}


@dataclass(frozen=True)
class Leave(SeatEvent):
    """The player leaves between deals with the stack; what they put into a carried pot stays there."""

    kind = "leave"
    by = Who.DEALER
    said = "{who}leaves with the stack"
    floor_act = True


@dataclass(frozen=True)
class SitOut(SeatEvent):
    """Not dealt in (and no ante) until back."""

    kind = "sit_out"
    by = Who.DEALER
    said = "{who}sits out"
    floor_act = True


@dataclass(frozen=True)
class SitIn(SeatEvent):
    """Back in from the next deal."""

    kind = "sit_in"
    by = Who.DEALER
    said = "{who}is back in"
    floor_act = True


@dataclass(frozen=True)
class MoveSeat(SeatEvent):
    """The player changes seats at this table between deals."""

    kind = "move_seat"
    by = Who.DEALER
    said = "{who}moves to seat {to}"
    floor_act = True
    to: int = 0

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        if event.get("to") is None:
            raise IllegalAction("move_seat: give the seat moved to (to)")
        return {"to": parse.seat(event["to"], "move_seat: to")}


@dataclass(frozen=True)
class SitMove(MenuMove):
    """A player may sit down in one of the empty ``seats`` with a buy-in."""

    event_type = Sit
    place = 10

    def event(self, seat: int, player: str, chips: int, player_id: int | None = None) -> Sit:
        sat = Sit.read({"seat": self.chosen(seat), "player": player, "chips": chips, "player_id": player_id})
        assert isinstance(sat, Sit)
        return sat


@dataclass(frozen=True)
class AddChipsMove(MenuMove):
    event_type = AddChips
    place = 11

    def event(self, seat: int, amount: int) -> AddChips:
        return AddChips(self.chosen(seat), parse.chips(amount, "add_chips: amount", positive=True))


@dataclass(frozen=True)
class LeaveMove(MenuMove):
    event_type = Leave
    place = 12

    def event(self, seat: int) -> Leave:
        return Leave(self.chosen(seat))


@dataclass(frozen=True)
class SitOutMove(MenuMove):
    event_type = SitOut
    place = 13

    def event(self, seat: int) -> SitOut:
        return SitOut(self.chosen(seat))


@dataclass(frozen=True)
class SitInMove(MenuMove):
    event_type = SitIn
    place = 14

    def event(self, seat: int) -> SitIn:
        return SitIn(self.chosen(seat))


@dataclass(frozen=True)
class MoveSeatMove(MenuMove):
    """A seated player (``seats``) may move to one of the empty seats (``to``)."""

    event_type = MoveSeat
    place = 15
    to: tuple[int, ...]

    def event(self, seat: int, to: int) -> MoveSeat:
        if to not in self.to:
            raise NotNow(f"move_seat: seat {to} is not one of the empty seats, {', '.join(map(str, self.to))}")
        return MoveSeat(self.chosen(seat), to)


def _between_deals(t: WorkingTable, what: str) -> None:
    if t.phase != Phase.BETWEEN_DEALS:
        raise NotNow(f"{what}: only between deals; the deal in progress must finish first")


def _seated(t: WorkingTable, s: int | None, what: str) -> Seat | None:
    """Between deals, the player in seat ``s`` (None when the menu of every seat is asked for)."""
    _between_deals(t, what)
    if s is None:
        return None
    if s not in t.seats:
        taken = ", ".join(map(str, t.order)) or "none"
        raise NotNow(f"{what}: nobody sits in seat {s} (seats taken: {taken})")
    return t.seats[s]


def _free(t: WorkingTable, s: int, what: str) -> None:
    if s > t.capacity:
        raise NotNow(f"{what}: this table has seats 1 to {t.capacity}, not {s}")
    if s in t.seats:
        raise NotNow(f"{what}: seat {s} is taken by {t.seats[s].player}")


def _empty(t: WorkingTable) -> list[int]:
    return [s for s in range(1, t.capacity + 1) if s not in t.seats]


def _status(seat: Seat) -> SeatStatus:
    """A seat's status between deals: barred stays barred (F7); no chips and no claim is out."""
    if seat.status == SeatStatus.BARRED:
        return SeatStatus.BARRED
    return SeatStatus.OUT if seat.stack == 0 and seat.put == 0 else SeatStatus.ACTIVE


@may(Sit, (Phase.BETWEEN_DEALS,))
def may_sit(t: WorkingTable, seat: int | None) -> SitMove:
    """Between deals, in an empty seat of the table."""
    _between_deals(t, "sit")
    if seat is not None:
        _free(t, seat, "sit")
    return SitMove(in_menu(seat, _empty(t), "sit: every seat is taken"))


@handles(Sit)
def sit(t: WorkingTable, e: Sit, move: SitMove) -> None:
    """A player takes an empty seat with a buy-in."""
    s = e.seat
    name = e.player.casefold()
    for x in t.seats.values():
        if x.player.casefold() == name or (e.player_id is not None and x.player_id == e.player_id):
            raise NotNow(f"sit: {e.player} already sits in seat {x.seat} at this table")
    if t.max_buy_in is not None and e.chips > t.max_buy_in:
        raise NotNow(f"sit: {e.chips} chips is over this table's maximum buy-in of {t.max_buy_in}")
    waits = t.profile.newcomers_wait and not t.new_pot
    seat = Seat(s, e.player, e.chips, SeatStatus.ACTIVE, waiting=waits, player_id=e.player_id)
    barred = not t.new_pot and t.barred_person(seat)
    t.seats[s] = Seat(**{**seat.__dict__, "status": SeatStatus.BARRED}) if barred else seat
    t.reorder()
    t.chips_in += e.chips
    t.message = f"{e.player} sits in seat {s} with {e.chips}"
    if barred:
        t.message += ("; still dealt out of this pot until someone else has won it, even after buying in "
                      "again (F7)")
    elif waits:
        t.message += "; dealt in once the pot in play is won (house rule)"


@may(AddChips, (Phase.BETWEEN_DEALS,))
def may_add_chips(t: WorkingTable, seat: int | None) -> AddChipsMove:
    """Between deals, for a seated player."""
    _seated(t, seat, "add_chips")
    return AddChipsMove(in_menu(seat, t.order, "add_chips: nobody sits at this table"))


@handles(AddChips)
def add_chips(t: WorkingTable, e: AddChips, move: AddChipsMove) -> None:
    """A rebuy or a top-up; a bar from the pot in play stays (F7, or shut out by D9)."""
    seat = t.seats[e.seat]
    if t.max_buy_in is not None and seat.stack + e.amount > t.max_buy_in:
        raise NotNow(f"add_chips: seat {e.seat} would have {seat.stack + e.amount} chips, over this table's "
                       f"maximum of {t.max_buy_in} (at most {max(0, t.max_buy_in - seat.stack)} more)")
    t.set(e.seat, stack=seat.stack + e.amount)
    t.set(e.seat, status=_status(t.seats[e.seat]))
    t.chips_in += e.amount
    t.message = f"seat {e.seat} adds {e.amount}"
    if seat.status == SeatStatus.BARRED:
        t.message += ("; still dealt out of this pot until it is won (F7)" if e.seat in t.barred_by_ruling()
                      else "; still out of this pot, having folded in a deal without trips, until it is won (D9)")


@may(Leave, (Phase.BETWEEN_DEALS,))
def may_leave(t: WorkingTable, seat: int | None) -> LeaveMove:
    """Between deals, a seated player."""
    _seated(t, seat, "leave")
    return LeaveMove(in_menu(seat, t.order, "leave: nobody sits at this table"))


@handles(Leave)
def leave(t: WorkingTable, e: Leave, move: LeaveMove) -> None:
    """The player leaves with the stack; a claim on a carried pot stays in the pot."""
    seat = t.seats[e.seat]
    del t.seats[e.seat]
    t.reorder()
    t.chips_out += seat.stack
    if seat.put:
        t.forfeited = t.forfeited + (seat.put,)
    t.message = f"{seat.player} leaves seat {e.seat} with {seat.stack}"
    if seat.put:
        t.message += f"; the {seat.put} put into this pot stays in it"
    last_claimant_takes_the_pot(t)


def last_claimant_takes_the_pot(t: WorkingTable) -> None:
    """A carried pot whose other claimants have all left the table goes to the one player left at
    it, when that player has a claim on it (the project's decision, written down here: the full
    night of issue 24 found a tournament table left with one player and a carried pot, which could
    neither be dealt nor broken, as a player may not leave a pot holding a claim). Nobody is left
    to contest the pot, as when everyone else folds (D7); a table of one cannot deal. A player
    barred from the pot (F7) takes nothing, and a pot with no claimant left at the table waits for
    players to sit down and play for it."""
    if t.phase != Phase.BETWEEN_DEALS or t.new_pot or t.pot == 0 or len(t.seats) != 1:
        return
    ((w, x),) = t.seats.items()
    if x.put == 0 or x.status == SeatStatus.BARRED:
        return
    amount = t.pot
    t.set(w, stack=x.stack + amount, put=0)
    t.forfeited = ()  # the claims of players who left went into the pot just paid
    if t.age_seat is None:
        t.jack_pot = False  # D11: as any pot won
    t.new_pot, t.awards = True, ((w, amount),)
    t.message += (f"; {x.player} in seat {w}, the only player left at the table with a claim on the "
                  f"carried pot, takes it: {amount} (nobody is left to contest it, D7)")


@may(SitOut, (Phase.BETWEEN_DEALS,))
def may_sit_out(t: WorkingTable, seat: int | None) -> SitOutMove:
    """Between deals, a seated player who is not sitting out."""
    x = _seated(t, seat, "sit_out")
    if x is not None and x.sitting_out:
        raise NotNow(f"sit_out: seat {x.seat} is already sitting out")
    return SitOutMove(in_menu(seat, [s for s in t.order if not t.seats[s].sitting_out],
                              "sit_out: everyone is sitting out"))


@handles(SitOut)
def sit_out(t: WorkingTable, e: SitOut, move: SitOutMove) -> None:
    """Not dealt in, no ante, until back."""
    t.set(e.seat, sitting_out=True)
    t.message = f"seat {e.seat} sits out"


@may(SitIn, (Phase.BETWEEN_DEALS,))
def may_sit_in(t: WorkingTable, seat: int | None) -> SitInMove:
    """Between deals, a player sitting out."""
    x = _seated(t, seat, "sit_in")
    if x is not None and not x.sitting_out:
        raise NotNow(f"sit_in: seat {x.seat} is not sitting out")
    return SitInMove(in_menu(seat, [s for s in t.order if t.seats[s].sitting_out], "sit_in: nobody is sitting out"))


@handles(SitIn)
def sit_in(t: WorkingTable, e: SitIn, move: SitInMove) -> None:
    """Back in from the next deal."""
    t.set(e.seat, sitting_out=False)
    t.message = f"seat {e.seat} is back in"


@may(MoveSeat, (Phase.BETWEEN_DEALS,))
def may_move_seat(t: WorkingTable, seat: int | None) -> MoveSeatMove:
    """Between deals, a seated player, to an empty seat (the seat moved to is the event's: the
    handler checks it)."""
    _seated(t, seat, "move_seat")
    empty = tuple(_empty(t))
    if seat is None and not empty:
        raise NotNow("move_seat: every seat is taken")
    return MoveSeatMove(in_menu(seat, t.order, "move_seat: nobody sits at this table"), empty)


@handles(MoveSeat)
def move_seat(t: WorkingTable, e: MoveSeat, move: MoveSeatMove) -> None:
    """Changes seats at this table; the player's chips and claim go along."""
    seat = t.seats[e.seat]
    _free(t, e.to, "move_seat")
    del t.seats[e.seat]
    t.seats[e.to] = Seat(**{**seat.__dict__, "seat": e.to})
    t.reorder()
    t.message = f"{seat.player} moves from seat {e.seat} to seat {e.to}"


#: The most seats a table has (a full ring; the deal itself refuses more players than the deck feeds).
MOST_SEATS = 10


def check_capacity(capacity: int) -> None:
    """A table has 2 to 10 seats."""
    if not 2 <= capacity <= MOST_SEATS:
        raise IllegalAction(f"setup: capacity is the number of seats, 2 to {MOST_SEATS}, not {capacity}")
