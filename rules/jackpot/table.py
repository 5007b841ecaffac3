"""The table: an immutable state of one jackpot table, and ``apply(event)`` that returns the next one.

The dealer's log is a list of events (:mod:`rules.jackpot.events`); the state after it is the fold of
:meth:`TableState.apply` over the log, starting from :meth:`TableState.from_setup`. A state is never
changed: ``apply`` returns a new state or raises :class:`rules.IllegalAction` and leaves the old one
as it was.

The engine is split by concern; each module says which rules it holds and the decisions it makes
where the sources are silent:

- :mod:`rules.jackpot.state`           the working table and its vocabularies (the state, no rule)
- :mod:`rules.jackpot.event_base`      what an event type declares: its check (may it happen now) and handler
- :mod:`rules.jackpot.moves`           the moves allowed now, as values (``legal``, ``requests``)
- :mod:`rules.jackpot.deal` ``opening`` ``betting`` ``draw`` ``showdown``   the play, event by event
- :mod:`rules.jackpot.flow`            the turn moving on, and the deal going on after a ruling
- :mod:`rules.jackpot.settlement`      the pot over its deals: paying out, ending a deal (O3-O5, H5)
- :mod:`rules.jackpot.irregularities`  the rulings at the table (F1-F9, S2, F3's reopen offer)
- :mod:`rules.jackpot.floor_word`      the floor's ruling and corrections of chips
- :mod:`rules.jackpot.seating` ``requests``   players coming and going; what happens beside the turn
- :mod:`rules.jackpot.readings`        what the state shows, typed (the app reads these; to_dict uses them)
- :mod:`rules.jackpot.frozen`          the rulings as recorded: read-only plain data, shared, never copied
- :mod:`rules.jackpot.table`           this module: the immutable state, dispatch, void, the plain-data view

:meth:`TableState.apply` reads the event, asks its type's check whether it may happen now (the
move allowed, or :class:`rules.jackpot.event_base.NotNow` saying why not), then its handler; a
refusal names what is allowed instead, as the state before the event allows it.

>>> setup = {"ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
...          "seats": [{"seat": 1, "player": "Ann", "stack": 100},
...                    {"seat": 2, "player": "Bob", "stack": 100},
...                    {"seat": 3, "player": "Cy", "stack": 100}]}
>>> t = TableState.from_setup(setup).apply({"type": "deal"})
>>> t.phase, t.to_act, t.pot
(<Phase.PREDRAW: 'predraw'>, 2, 15)
>>> t = t.apply({"type": "pass", "seat": 2}).apply({"type": "open", "seat": 3})
>>> [move.kind for move in t.legal()], t.to_act
(['call', 'raise', 'fold'], 1)
>>> t.apply({"type": "check", "seat": 1})
Traceback (most recent call last):
...
rules.IllegalAction: seat 1 cannot check: there is a bet of 10 to call; seat 1 may call 10, raise 20 or fold

The table's own decisions:

* ``void`` withdraws only the latest live event (one that nothing else depends on yet); voiding
  it gives exactly the state the log would have without it. A void cannot be voided. Successive
  voids peel the current hand back as far as its deal; a hand before the latest deal is closed
  (the floor corrects it with a ruling), which also keeps a table's history in memory to one hand.
* A ruling is the floor's word: no void withdraws it or anything logged before it.
* The conservation law is checked after every event: the stacks and the pot are the starting
  stacks, plus the chips brought in, less the chips taken away.
"""


from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from rules import IllegalAction, parse
from rules.jackpot.event_base import HANDLERS, MAY, Event, NotNow, Who, parse_event
from rules.jackpot.collection import advance_clock, owes_time
from rules.jackpot.flow import resume
from rules.jackpot.irregularities import finish_rulings, read_facts, rule_unproven
from rules.jackpot.moves import Move, MenuMove, legal, refusal, requests
from rules.profiles import Profile, get_profile
from rules.jackpot.seating import NAME_MAX, check_capacity
from rules.jackpot.readings import Jackpot, Readings, Undo, Winner
from rules.jackpot.state import PHASES, STATUSES, DealEnd, Phase, Seat, SeatStatus, WorkingTable, reset_deal
from rules.words import entry_number, entry_words

__all__ = ["Seat", "TableState", "Jackpot", "Undo", "Winner", "PHASES", "STATUSES", "Phase", "SeatStatus", "Void"]


@dataclass(frozen=True)
class Void(Event):
    """Withdraws the logged event at index ``event`` (0-based position in the log); the table
    itself withdraws it (:meth:`TableState.apply`).

    The words name the entry withdrawn by the number people read (:func:`rules.words.entry_number`:
    the log counted from 1), not by the index the event carries.

    >>> parse_event({"type": "void", "event": 7}).words()
    'undo: entry 8 withdrawn'
    """

    kind = "void"
    by = Who.DEALER
    own = True
    event: int = 0

    def words(self, names: Mapping[int, str] | None = None) -> str:
        return f"undo: {entry_words(entry_number(self.event))} withdrawn"

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Event:
        if "event" not in event:
            raise IllegalAction("void: give the index of the logged event to withdraw (event)")
        return cls(event=parse.whole(event["event"], "void: event"))


@dataclass(frozen=True, eq=False)
class TableState(Readings):
    """An immutable table state. Build the first with :meth:`from_setup`, then :meth:`apply` events.

    >>> t = TableState.from_setup({"ante": 1, "small_bet": 2, "big_bet": 4, "button": 2,
    ...                            "seats": [{"seat": 1, "player": "A", "stack": 10},
    ...                                      {"seat": 2, "player": "B", "stack": 10}]})
    >>> t.phase, t.version, t.legal()[:2]
    (<Phase.BETWEEN_DEALS: 'between_deals'>, 0, (DealMove(), SitMove(seats=(3, 4, 5, 6, 7, 8))))
    """

    _t: WorkingTable = field(repr=False, compare=False)
    _undo: tuple[int, str, "TableState"] | None = field(default=None, repr=False, compare=False)
    _voided: frozenset[int] = frozenset()
    _voids: frozenset[int] = frozenset()
    version: int = 0
    #: The rulings the latest event produced (the engine's own, or the floor's ruling event).
    added: tuple[Mapping[str, Any], ...] = field(default=(), repr=False, compare=False)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_setup(cls, setup: Mapping[str, Any]) -> "TableState":
        """The table before its first deal. Bad setups raise :class:`rules.IllegalAction`."""
        if not isinstance(setup, Mapping):
            raise IllegalAction("setup: a JSON object with profile, ante, small_bet, big_bet, button and seats")
        profile = get_profile(setup.get("profile"))
        t = object.__new__(WorkingTable)
        t.profile = profile
        t.ante = parse.chips(setup.get("ante", 0), "setup: ante")
        t.small_bet = parse.chips(setup.get("small_bet"), "setup: small_bet", positive=True)
        t.big_bet = parse.chips(setup.get("big_bet", 2 * t.small_bet), "setup: big_bet", positive=True)
        raw = setup.get("seats")
        # A table may open empty (a tournament's table before its draw) if it names its capacity.
        if not isinstance(raw, (list, tuple)) or (not raw and setup.get("capacity") is None):
            raise IllegalAction("setup: seats is a list of {seat, player, stack} "
                                "(a table that opens empty names its capacity)")
        seats: dict[int, Seat] = {}
        for item in raw:
            if not isinstance(item, Mapping) or "seat" not in item:
                raise IllegalAction("setup: each seat is {seat, player, stack}")
            s = parse.seat(item["seat"], "setup: seat")
            if s in seats:
                raise IllegalAction(f"setup: seat {s} is listed twice")
            stack = parse.chips(item.get("stack", 0), f"setup: stack of seat {s}")
            named = item.get("player")
            if not isinstance(named, Mapping):  # a name: any text, cut to NAME_MAX, as setups always took it
                named = str(named or "").strip()[:NAME_MAX] or f"seat {s}"
            player, player_id = parse.player(named, item.get("player_id"), f"setup: player of seat {s}")
            seats[s] = Seat(s, player, stack, SeatStatus.ACTIVE if stack > 0 else SeatStatus.OUT, player_id=player_id)
        t.order = tuple(sorted(seats))
        t.seats = {s: seats[s] for s in t.order}
        # the seats the table has (empty ones may be taken later): by default the line-up's last
        # seat or eight, whichever is more
        t.capacity = parse.chips(setup["capacity"], "setup: capacity", positive=True) \
            if setup.get("capacity") is not None else max(8, t.order[-1])
        check_capacity(t.capacity)
        if t.order and t.order[-1] > t.capacity:
            raise IllegalAction(f"setup: seat {t.order[-1]} is beyond the table's {t.capacity} seats")
        t.max_buy_in = None if setup.get("max_buy_in") is None else parse.chips(
            setup["max_buy_in"], "setup: max_buy_in", positive=True)
        t.chips_in = t.chips_out = 0
        t.house_rake = t.house_time = t.house_drop = t.last_rake = t.last_drop = t.clock = t.streak = 0
        t.streak_seat = t.kill = t.kill_base = None
        t.forfeited = ()
        button = parse.seat(setup.get("button", t.order[0] if t.order else 1), "setup: button")
        if t.order and button not in seats:
            raise IllegalAction(f"setup: the button must be on a seat ({', '.join(map(str, t.order))}), not {button}")
        t.button = button
        t.phase, t.to_act, t.deal_no = Phase.BETWEEN_DEALS, None, 0
        t.deals = t.ante_deals = 0
        t.requirement, t.rising, t.new_pot, t.force_ante = profile.opening_minimum, True, True, False
        t.ante_for_all, t.last_end = None, DealEnd.START
        reset_deal(t)
        t.rulings, t.added, t.awards = (), (), ()
        t.finished, t.finished_end = None, ()
        t.next_step, t.resume_after, t.hand_start = None, None, 0
        t.jack_pot = False
        t.message, t.last_event = "waiting for the first deal", None
        t.total = sum(s.stack for s in seats.values())
        return cls(t)

    def __eq__(self, other: object) -> bool:
        """Two states are equal when they show the same table (the same ``to_dict()``)."""
        if not isinstance(other, TableState):
            return NotImplemented
        # to_dict() shows this deal's rulings only: the pot's earlier ones are compared here
        return self is other or (self.to_dict() == other.to_dict() and self._t.rulings == other._t.rulings)

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ reading
    @property
    def phase(self) -> Phase:
        return self._t.phase

    @property
    def to_act(self) -> int | None:
        return self._t.to_act

    @property
    def button(self) -> int:
        return self._t.button

    @property
    def pot(self) -> int:
        return self._t.pot

    @property
    def profile(self) -> Profile:
        return self._t.profile

    def seat(self, s: int) -> Seat:
        return self._t.seats[s]

    @property
    def seats(self) -> Mapping[int, Seat]:
        """The seats by number, typed and read-only (``to_dict()["seats"]`` without the copy): the
        app reads a player, a stack or a claim (``put``) here rather than through the plain data."""
        return MappingProxyType(self._t.seats)

    @property
    def awards(self) -> dict[int, int]:
        """The last award, seat -> chips (``to_dict()["awards"]``)."""
        return dict(self._t.awards)

    @property
    def capacity(self) -> int:
        """The seats the table has (``to_dict()["capacity"]``), empty ones included."""
        return self._t.capacity

    @property
    def opener(self) -> int | None:
        """The opener of the deal in play (``to_dict()["jackpot"]["opener"]``)."""
        return self._t.opener

    @property
    def stakes(self) -> dict[str, int]:
        """The stakes in force: ``ante``, ``small_bet``, ``big_bet`` (as ``to_dict()`` gives them).

        >>> TableState.from_setup({"ante": 1, "small_bet": 2, "button": 1,
        ...     "seats": [{"seat": 1, "player": "A", "stack": 9}]}).stakes
        {'ante': 1, 'small_bet': 2, 'big_bet': 4}
        """
        return {"ante": self._t.ante, "small_bet": self._t.small_bet, "big_bet": self._t.big_bet}

    @property
    def message(self) -> str:
        """What the latest event did, in the engine's words (``to_dict()["message"]``, cheaply)."""
        return self._t.message

    @property
    def deal_no(self) -> int:
        """The table's deal number (``to_dict()["deal"]``): 0 before the first deal."""
        return self._t.deal_no

    @property
    def pot_rulings(self) -> tuple[Mapping[str, Any], ...]:
        """Every ruling of the pot in play, oldest first (read-only records, :mod:`rules.jackpot.frozen`, shared
        with the state: ``to_dict()["rulings"]`` gives this deal's only, so that a pot carried over a
        thousand deals with a ruling each does not make every answer carry all of them)."""
        return self._t.rulings

    def deal_rulings(self) -> list[Mapping[str, Any]]:
        """The rulings of the deal in play (between deals, of the deal just finished), oldest first:
        the tail of :attr:`pot_rulings` with this deal's number. Costs what this deal holds, not
        what the pot holds."""
        rulings, deal = self._t.rulings, self._t.deal_no
        start = len(rulings)
        while start and rulings[start - 1].get("deal") == deal:
            start -= 1
        return list(rulings[start:])

    @property
    def voided(self) -> frozenset[int]:
        """The log indexes withdrawn so far (``to_dict()["voided"]``)."""
        return self._voided

    # legal() and requests() are worked out once a state, on first asking, and kept on it: a state
    # never changes (apply works on a copy of the working table and wraps it in a new state; nothing
    # changes a working table once a state holds it) and the moves are frozen values, so the answer
    # kept is the answer every later call would compute. Every caller asks (to_dict, the tablet, the
    # walks): each used to compute them again, a quarter of a walk's CPU (issue 34). They are kept
    # in the state's __dict__ by hand: functools.cached_property took a lock for each (Python 3.11).
    def legal(self) -> tuple[Move, ...]:
        """The moves allowed now (:mod:`rules.jackpot.moves`): the seat to act's, with the chips each
        puts in, or the dealer's (the deal, the seating menus between deals, the widow card)."""
        kept: tuple[Move, ...] | None = self.__dict__.get("_legal")
        if kept is None:
            kept = self.__dict__["_legal"] = legal(self._t)
        return kept

    def requests(self) -> tuple[MenuMove, ...]:
        """The moves beside the turn to act (F12, D12, D8; ``to_dict()["requests"]``), none between
        deals: the event types that declare how the tablet asks for them (:mod:`rules.jackpot.requests`:
        F12 keep the opening hand, D12 a card faced, D8 a hand of the wrong size), each with the seats
        it may concern now, and accepted for them as ``legal``'s moves are."""
        kept: tuple[MenuMove, ...] | None = self.__dict__.get("_requests")
        if kept is None:
            kept = self.__dict__["_requests"] = requests(self._t)
        return kept

    def facts(self, issue: str) -> dict[str, Any]:
        """The decision tree's facts about ``issue`` as the table stands (the same reading the engine
        gives the tree for its own rulings; :func:`rules.jackpot.disputes.known_facts` trims it for a
        floor person's dispute). Between deals they are read from the last finished deal, as it
        stood when it ended: a dispute raised at the award is about that deal."""
        t = self._t
        if t.phase == Phase.BETWEEN_DEALS and t.finished is not None:
            return read_facts(t.finished, issue, {})
        return read_facts(t, issue, {})

    @property
    def new_pot(self) -> bool:
        """Between deals after a pot was won (or before the first deal): the next deal starts a pot."""
        return self._t.phase == Phase.BETWEEN_DEALS and self._t.new_pot

    @property
    def ruled_deal(self) -> str | None:
        """Which deal a ruling now applies to: ``current`` (a deal in progress), ``last`` (between
        deals, the deal just finished) or None (no deal has finished since the last one began)."""
        if self._t.phase != Phase.BETWEEN_DEALS:
            return "current"
        return "last" if self._t.finished is not None else None

    # ------------------------------------------------------------------ applying
    def apply(self, event: Mapping[str, Any] | Event) -> "TableState":
        """The state after ``event``; raises :class:`rules.IllegalAction` (nothing changes) if refused."""
        e = parse_event(event)
        if isinstance(e, Void):
            return self._void(e.event)
        t = self._t.copy()
        t.added = ()
        try:
            _run(t, e)
        except NotNow as exc:
            raise refusal(self._t, exc) from None
        t.last_event = e
        # the conservation law: stacks, the pot and the house's take are the starting stacks, plus what
        # came in, less what went out; checked after every event and every ruling
        if t.chips + t.house_take != t.total + t.chips_in - t.chips_out:  # pragma: no cover - an engine bug
            raise AssertionError(f"chips not conserved after {e}: {t.chips} + {t.house_take} != "
                                 f"{t.total} + {t.chips_in} - {t.chips_out}")
        added, t.added = t.added, ()
        if added:
            added = finish_rulings(t, added, self._t)
        raked, dropped = t.house_rake - self._t.house_rake, t.house_drop - self._t.house_drop
        if raked:
            t.message += f"; the house rakes {raked}" if raked > 0 else f"; the rake of {-raked} is given back"
        if dropped and t.profile.drop is not None:
            pool = t.profile.drop.pool.replace("_", " ")
            t.message += (f"; {dropped} set aside for the {pool} promotion" if dropped > 0
                          else f"; the drop of {-dropped} for the {pool} promotion is given back")
        if added or e.by is Who.FLOOR:
            # A ruling is the floor's word: no void withdraws it, nor anything logged before it
            # (the floor corrects it with a ruling that supersedes it, or a correction of chips).
            return TableState(t, None, self._voided, self._voids, self.version + 1, added)
        voided, voids = self._voided, self._voids
        before = self
        if e.kind == "deal":
            # A new deal closes the hands before it: its undo step keeps the state it was dealt from
            # but not that state's own history, so a table holds one hand of history, not the whole
            # day's; the voids it remembers are those of this hand and the one before (for the log).
            before = TableState(self._t, None, voided, voids, self.version)
            voided = frozenset(i for i in voided if i >= self._t.hand_start)
            voids = frozenset(i for i in voids if i >= self._t.hand_start)
            t.hand_start = self.version
        return TableState(t, (self.version, e.kind, before), voided, voids, self.version + 1)

    def _void(self, index: int) -> "TableState":
        """Withdraw the logged event ``index`` if it is the latest live one (nothing depends on it)."""
        said = entry_words(entry_number(index))  # the entry as people number it (from 1)
        if index in self._voids:
            raise IllegalAction(f"{said} is itself an undo and cannot be withdrawn; "
                                f"log the withdrawn event again instead")
        if self._undo is None:
            raise IllegalAction(f"cannot withdraw {said}: nothing is left to withdraw; a ruling, and "
                                "everything logged before it, stands until the floor corrects it, and an "
                                "earlier hand is closed once the next deal is logged (the floor corrects it "
                                "with a ruling)")
        latest, kind, before = self._undo
        if index != latest:
            raise IllegalAction(f"cannot withdraw {said}: only the latest live event, "
                                f"{entry_words(entry_number(latest))} ({kind}), can be withdrawn while nothing depends on it")
        t = before._t.copy()
        t.message = f"{said} ({kind}) withdrawn"
        t.last_event = Void(index)
        return TableState(t, before._undo, self._voided | {index}, self._voids | {self.version}, self.version + 1)

    # ------------------------------------------------------------------ output
    def to_dict(self) -> dict[str, Any]:
        """The state as plain data (JSON-able except that seat keys are ints)."""
        t = self._t
        offer = t.reopen
        return {
            "version": self.version,
            "profile": t.profile.name,
            "ante": t.ante, "small_bet": t.small_bet, "big_bet": t.big_bet,
            "deal": t.deal_no,
            "button": t.button,
            "phase": str(t.phase),
            "to_act": t.to_act,
            "legal": [m.to_dict() for m in self.legal()],
            # what a seat other than the one to act may log now (F12 keep_openers, D12 expose, D8 wrong_count)
            "requests": [m.to_dict() for m in self.requests()],
            "pot": t.pot,
            "pots": [p.to_dict() for p in self.pots],
            "jackpot": dict(vars(self.jackpot)),  # its fields, in order (asdict would deep-copy them, slowly)
            "seats": {s: _seat_data(t, x) for s, x in t.seats.items()},
            "widow": t.widow,
            # D12: the cards faced in the draw (dead), the seats still owed a card for one;
            # F12: the seat that asked the opener to keep the opening hand
            "exposed": [{"seat": x, "card": c} for x, c in t.exposed], "owed": list(t.owed),
            "keep_openers": t.keep_asked,
            # the variants' facts the tablet shows: the deal turned to low (D10), which draw of the
            # hand (D13), the age of a blind deal (D11) and whether the next deal is a jack pot
            "low": t.low, "draw_round": t.draw_round, "age": t.age_seat, "jack_pot": t.jack_pot,
            "capacity": t.capacity,
            "max_buy_in": t.max_buy_in,
            "ledger": {"chips_in": t.chips_in, "chips_out": t.chips_out},
            # the house's take (issue 32): chips in = chips out + on the table + rake + time + drop
            "house": {"rake": t.house_rake, "time": t.house_time, "drop": t.house_drop, "last_rake": t.last_rake,
                      "last_drop": t.last_drop, "pool": None if t.profile.drop is None else t.profile.drop.pool},
            "clock": t.clock,  # the latest minute since the table opened that the log carries
            # kill pots: the killer of the pot in play, and who has won the last pots alone
            "kill": {"seat": t.kill, "streak": {"seat": t.streak_seat, "pots": t.streak}},
            "forfeited": sum(t.forfeited),
            "bet_level": t.bet_level,
            "raises": t.raises,
            "passed": list(t.passed),
            "dealt": list(t.dealt),
            "stub": t.stub,
            "discards": t.muck,
            "escrow": {s: list(c) for s, c in t.escrow},
            "split": t.split,
            "show_order": list(t.show_order),
            "reopen": None if offer is None else offer.to_dict(),
            # this deal's rulings, and how many the pot in play has had in all (the app pages them)
            # (the records themselves: read-only, rules.jackpot.frozen, so no reader can change the state's)
            "rulings": self.deal_rulings(),
            "rulings_in_pot": len(t.rulings),
            "awards": dict(t.awards),
            "last_end": str(t.last_end),
            "message": t.message,
            "last_event": None if t.last_event is None else t.last_event.to_dict(),
            "voided": sorted(self._voided),
            # what a dealer's undo would withdraw now (the latest live event of this hand), or None
            "undo": None if self._undo is None else {"event": self._undo[0], "type": self._undo[1]},
        }


def _seat_data(t: WorkingTable, x: Seat) -> dict[str, Any]:
    """A seat as plain data: who sits there, the chips (stack, in this round, in the pot), the hand's
    status and cards, whether the player sits out, waits, or owes time."""
    return {
        "player": x.player, "player_id": x.player_id, "stack": x.stack, "status": str(x.status), "all_in": x.all_in,
        "committed": x.committed, "put": x.put, "bets": x.bets, "drawn": x.drawn,
        "shown": list(x.shown) if x.shown is not None else None,
        "declared": x.declared,  # H9: the class declared at the show where cards do not speak
        "sitting_out": x.sitting_out, "waiting": x.waiting,
        "owes_time": owes_time(t, x),  # time collection: dealt out until it pays (issue 32)
    }


def _run(t: WorkingTable, e: Event) -> None:
    """Apply one event: its type's check (may it happen now: the move allowed, or :class:`NotNow`),
    its handler, then the play and the rulings in turn until the event has settled what it settles
    (a showdown waiting on a ruling, a deal going on after one)."""
    t.next_step, t.resume_after = None, None
    cls = type(e)
    # an event logged with the minute (a deal, a time: rules.jackpot.collection) moves the table's
    # clock first: the period of time collection it belongs to is the one its check reads
    advance_clock(t, getattr(e, "minute", None))
    move = MAY[cls](t, getattr(e, "seat", None))
    HANDLERS[cls](t, e, move)
    for _ in range(8):  # each turn settles a ruling or resumes the deal; a few always suffice
        step, t.next_step = t.next_step, None
        if step is None:
            return
        if step == "rule_unproven":
            rule_unproven(t)
        else:
            resume(t)
    raise AssertionError("the engine did not settle the event")  # pragma: no cover - an engine bug
