"""The tournament floor's rules: pure values and procedures, no Flask, no database, no I/O.

* :mod:`~rules.tournament.structure`: levels, breaks, chips, buy-in, rebuys, add-ons, payouts; presets.
* :mod:`~rules.tournament.clock`: the clock read from recorded moves and "now".
* :mod:`~rules.tournament.seating`: the seating draw, late entries, the final table's redraw.
* :mod:`~rules.tournament.balance`: balancing and breaking tables, as suggested moves.
* :mod:`~rules.tournament.results`: places, the prize pool and the prizes.
* :mod:`~rules.tournament.chop`: deals among the players left (chip chop, ICM).
* :mod:`~rules.tournament.colorup`: the chip race when the smallest chip leaves.

>>> from rules.tournament import parse_structure, read_clock
>>> callable(parse_structure) and callable(read_clock)
True
"""

from rules.tournament.balance import Plan, suggest
from rules.tournament.chop import BountyRule, ChopMethod, chop, deal_bounties, icm_equities
from rules.tournament.clock import (Clock, ClockAction, Move, check_move, late_registration_open,
                                    next_break_seconds, read_clock)
from rules.tournament.colorup import Race, next_chip, race
from rules.tournament.results import Bust, pay, places, prize_pool, prizes
from rules.tournament.seating import SeatMove, TableSeats, draw, draw_final, late_seat, redraw_moves
from rules.tournament.structure import PRESETS, Break, Level, Structure, StructureError, parse_structure, preset

__all__ = ["Plan", "suggest", "BountyRule", "ChopMethod", "chop", "deal_bounties", "icm_equities", "late_registration_open", "next_break_seconds",
           "Race", "next_chip", "race", "Clock", "ClockAction", "Move", "check_move", "read_clock", "Bust", "pay",
           "places", "prize_pool", "prizes", "SeatMove", "TableSeats", "draw", "draw_final", "late_seat",
           "redraw_moves", "PRESETS", "Break", "Level", "Structure", "StructureError", "parse_structure", "preset"]
