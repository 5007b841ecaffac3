"""Players come and go between deals: a seat taken with a buy-in, a rebuy, a player sitting out and
back in, a change of seat, a player leaving (docs/contract.md, "Players come and go").

Every chip that comes in or goes out is on the ledger, so the conservation law holds after every
event: the stacks and the pot are always the starting stacks plus the chips brought in, less the
chips taken away. What the engine decides where the sources are silent:

* All of these happen between deals only; during a deal a seat's line-up is fixed.
* A player who leaves takes the stack; what they put into a pot that is carried over stays in it
  (it is no longer anyone's claim, and goes to whoever wins the pot). A barred player (F7) who
  leaves and sits down again is a newcomer.
* A newcomer sitting into a carried pot antes from the next deal and plays for the whole pot, or,
  where the profile's ``newcomers_wait`` says so, is dealt in only once that pot is won.
* A rebuy or top-up never lifts an F7 bar ("even after buying more chips").
* A player sitting out is not dealt in and posts no ante; their claim on a carried pot stays in it.
* The table's ``max_buy_in`` (setup), when set, caps a buy-in and what a stack may reach by a rebuy.

>>> from rules.jackpot import replay
>>> setup = {"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": 1, "player": "Ann", "stack": 100}, {"seat": 2, "player": "Bob", "stack": 100}]}
>>> state = replay(setup, [{"type": "sit", "seat": 4, "player": "Cleo", "chips": 300},
...                        {"type": "add_chips", "seat": 1, "amount": 50}, {"type": "leave", "seat": 2}])
>>> sorted(state["seats"]), state["ledger"]
([1, 4], {'chips_in': 350, 'chips_out': 100})
"""

from __future__ import annotations

from rules import IllegalAction
import rules.jackpot.events as ev
from rules.jackpot.state import Phase, Seat, SeatStatus, WorkingTable

__all__ = ["sit", "add_chips", "leave", "sit_out", "sit_in", "move_seat", "last_claimant_takes_the_pot"]


def _between_deals(t: WorkingTable, what: str) -> None:
    if t.phase != Phase.BETWEEN_DEALS:
        raise t.refuse(f"{what}: only between deals; the deal in progress must finish first")


def _seated(t: WorkingTable, s: int, what: str) -> Seat:
    _between_deals(t, what)
    if s not in t.seats:
        taken = ", ".join(map(str, t.order)) or "none"
        raise t.refuse(f"{what}: nobody sits in seat {s} (seats taken: {taken})")
    return t.seats[s]


def _free(t: WorkingTable, s: int, what: str) -> None:
    if s > t.capacity:
        raise t.refuse(f"{what}: this table has seats 1 to {t.capacity}, not {s}")
    if s in t.seats:
        raise t.refuse(f"{what}: seat {s} is taken by {t.seats[s].player}")


def _status(seat: Seat) -> SeatStatus:
    """A seat's status between deals: barred stays barred (F7); no chips and no claim is out."""
    if seat.status == SeatStatus.BARRED:
        return SeatStatus.BARRED
    return SeatStatus.OUT if seat.stack == 0 and seat.put == 0 else SeatStatus.ACTIVE


@ev.handles(ev.Sit)
def sit(t: WorkingTable, e: ev.Sit) -> None:
    """A player takes an empty seat with a buy-in."""
    s = e.seat
    _between_deals(t, "sit")
    _free(t, s, "sit")
    name = e.player.casefold()
    for x in t.seats.values():
        if x.player.casefold() == name:
            raise t.refuse(f"sit: {e.player} already sits in seat {x.seat} at this table")
    if t.max_buy_in is not None and e.chips > t.max_buy_in:
        raise t.refuse(f"sit: {e.chips} chips is over this table's maximum buy-in of {t.max_buy_in}")
    waits = t.profile.newcomers_wait and not t.new_pot
    t.seats[s] = Seat(s, e.player, e.chips, SeatStatus.ACTIVE, waiting=waits)
    t.reorder()
    t.chips_in += e.chips
    t.message = f"{e.player} sits in seat {s} with {e.chips}"
    if waits:
        t.message += "; dealt in once the pot in play is won (house rule)"


@ev.handles(ev.AddChips)
def add_chips(t: WorkingTable, e: ev.AddChips) -> None:
    """A rebuy or a top-up; a bar from the pot in play stays (F7, or shut out by D9)."""
    seat = _seated(t, e.seat, "add_chips")
    if t.max_buy_in is not None and seat.stack + e.amount > t.max_buy_in:
        raise t.refuse(f"add_chips: seat {e.seat} would have {seat.stack + e.amount} chips, over this table's "
                       f"maximum of {t.max_buy_in} (at most {max(0, t.max_buy_in - seat.stack)} more)")
    t.set(e.seat, stack=seat.stack + e.amount)
    t.set(e.seat, status=_status(t.seats[e.seat]))
    t.chips_in += e.amount
    t.message = f"seat {e.seat} adds {e.amount}"
    if seat.status == SeatStatus.BARRED:
        t.message += ("; still dealt out of this pot until it is won (F7)" if e.seat in t.barred_by_ruling()
                      else "; still out of this pot, having folded in a deal without trips, until it is won (D9)")


@ev.handles(ev.Leave)
def leave(t: WorkingTable, e: ev.Leave) -> None:
    """The player leaves with the stack; a claim on a carried pot stays in the pot."""
    seat = _seated(t, e.seat, "leave")
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


@ev.handles(ev.SitOut)
def sit_out(t: WorkingTable, e: ev.SitOut) -> None:
    """Not dealt in, no ante, until back."""
    seat = _seated(t, e.seat, "sit_out")
    if seat.sitting_out:
        raise t.refuse(f"sit_out: seat {e.seat} is already sitting out")
    t.set(e.seat, sitting_out=True)
    t.message = f"seat {e.seat} sits out"


@ev.handles(ev.SitIn)
def sit_in(t: WorkingTable, e: ev.SitIn) -> None:
    """Back in from the next deal."""
    seat = _seated(t, e.seat, "sit_in")
    if not seat.sitting_out:
        raise t.refuse(f"sit_in: seat {e.seat} is not sitting out")
    t.set(e.seat, sitting_out=False)
    t.message = f"seat {e.seat} is back in"


@ev.handles(ev.MoveSeat)
def move_seat(t: WorkingTable, e: ev.MoveSeat) -> None:
    """Changes seats at this table; the player's chips and claim go along."""
    seat = _seated(t, e.seat, "move_seat")
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
