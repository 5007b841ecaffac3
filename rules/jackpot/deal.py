"""The deal: who is dealt in, the button, the antes or the blinds (O3, O4, D1, D11, F9), and the
wild widow's card turned up during it (H4). Events ``deal`` and ``widow``.

Decisions where the sources are silent:

* Seats that are dealt in: every seat with chips or a claim on the pot (what it put in), except a
  seat barred from this pot (F7), a player sitting out, and a newcomer waiting for a carried pot to
  be won (``newcomers_wait``). A seat with neither chips nor claim is ``out``.
* A newcomer (or anyone who has put nothing into a carried pot) is not dealt in once that pot's
  antes have stopped (O4's cap or pot limit): nobody plays a pot free. If that would leave fewer
  than two players, the antes start again for that deal and everyone plays (:func:`deal_plan`).
* The F9 penalty ante (``ante_for_all``) is taken on the next deal whatever the ante cap; each ante
  it pays buys the claim of the player it was paid for.

>>> from rules.jackpot import start
>>> t = start({"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": 1, "player": "Ann", "stack": 100}, {"seat": 2, "player": "Bob", "stack": 0}]})
>>> t.legal()
(SitMove(seats=(3, 4, 5, 6, 7, 8)), AddChipsMove(seats=(1, 2)), LeaveMove(seats=(1, 2)), SitOutMove(seats=(1, 2)), MoveSeatMove(seats=(1, 2), to=(3, 4, 5, 6, 7, 8)))
>>> t.apply({"type": "deal"})
Traceback (most recent call last):
...
rules.IllegalAction: cannot deal: a deal needs at least two players with chips or a claim on the pot (in play: 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import parse
from rules.cards import parse_rank, rank_plural
from rules.jackpot.betting import post_blind
from rules.jackpot.collection import owes_time, read_minute
from rules.jackpot.house import start_kill
from rules.jackpot.event_base import Event, NotNow, Who, handles, may, one_card
from rules.jackpot.flow import after_action
from rules.jackpot.moves import Move
from rules.jackpot.state import IN_DEAL, DealEnd, Phase, SeatStatus, WorkingTable, reset_deal

__all__ = ["Deal", "Widow", "DealMove", "WidowMove", "may_deal", "deal", "may_widow", "widow", "antes_due",
           "deal_plan", "deal_refusal"]


@dataclass(frozen=True)
class Deal(Event):
    """A new deal: the button moves, antes go in, five cards each (O3, O4, D1). The stakes may
    change from this deal on (a tournament's level): ``ante``, ``small_bet``, ``big_bet``.

    >>> from rules.jackpot.events import parse_event
    >>> e = parse_event({"type": "deal", "ante": "10", "small_bet": 20})
    >>> e.to_dict(), e.words()
    ({'type': 'deal', 'ante': 10, 'small_bet': 20}, 'deal (from now on: ante 10, small bet 20)')
    """

    kind = "deal"
    by = Who.DEALER
    ante: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    minute: int | None = None  # minutes since the table opened, for time collection (rules.jackpot.collection)

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Event:
        return cls(**{k: parse.chips(event[k], f"deal: {k}", positive=(k != "ante"))
                      for k in ("ante", "small_bet", "big_bet") if event.get(k) is not None},
                   **read_minute(event, "deal"))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        out.update((k, v) for k, v in self.__dict__.items() if v is not None)
        return out

    def words(self, names: Mapping[int, str] | None = None) -> str:
        stakes = [f"{k.replace('_', ' ')} {v}" for k, v in self.__dict__.items() if v is not None and k != "minute"]
        return "deal" + (f" (from now on: {', '.join(stakes)})" if stakes else "")


@dataclass(frozen=True)
class DealMove(Move):
    """The dealer may deal (the stakes in force, or new ones from this deal on: a tournament's level)."""

    event_type = Deal
    place = 0

    def event(self, ante: int | None = None, small_bet: int | None = None, big_bet: int | None = None) -> Deal:
        return Deal(ante, small_bet, big_bet)

    def words(self) -> str:
        return "deal"


@dataclass(frozen=True)
class Widow(Event):
    """Wild widow (H4): the card the dealer turns up during the deal; its rank is wild this deal."""

    kind = "widow"
    by = Who.DEALER
    said = "the widow card is {card}"
    card: str = ""

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Event:
        return cls(card=one_card("widow", event, "turned up"))


@dataclass(frozen=True)
class WidowMove(Move):
    """The dealer turns up the widow card (H4): any natural card of the deck."""

    event_type = Widow
    place = 20

    def event(self, card: str) -> Widow:
        return Widow(card)

    def words(self) -> str:
        return "turn up the widow card"


# ------------------------------------------------------------------ who the next deal deals in


def antes_due(t: WorkingTable) -> bool:
    """Whether the next deal of this pot takes antes (O4): the ante cap counts consecutive deals
    of one pot, and a pot limit stops antes too. A fresh pot always antes."""
    if t.new_pot or t.force_ante:
        return True
    p = t.profile
    if p.ante_deals is not None and t.ante_deals >= p.ante_deals:
        return False
    return p.pot_limit is None or t.pot < p.pot_limit


def deal_plan(t: WorkingTable) -> tuple[dict[int, SeatStatus], bool]:
    """Each seat's status in the next deal, and whether that deal must take antes so that
    players who have put nothing into a capped pot may play. A seat barred from the pot (F7)
    stays barred; one without chips or claim, sitting out or waiting for a carried pot is out;
    those shut out of a D9 play-off that lost its partner (a claimant left) play again (issue
    24). A player who has put nothing into a carried pot whose antes have stopped (O4) is not
    dealt in: a card room lets nobody play for a pot free; if that leaves fewer than two
    players, the antes start again and everyone is dealt in (the decision of issue 22)."""
    fresh = t.new_pot
    statuses: dict[int, SeatStatus] = {}
    for s in t.order:
        x = t.seats[s]
        if x.status == SeatStatus.BARRED and not fresh:
            statuses[s] = SeatStatus.BARRED
        elif (x.stack == 0 and x.put == 0) or x.sitting_out or (x.waiting and not fresh) or owes_time(t, x):
            statuses[s] = SeatStatus.OUT  # owes_time: dealt out until it pays for the period (time_charge)
        else:
            statuses[s] = SeatStatus.ACTIVE
    if not fresh and sum(st == SeatStatus.ACTIVE for st in statuses.values()) < 2:  # D9: no partner left
        f7 = t.barred_by_ruling()
        statuses.update({s: SeatStatus.ACTIVE for s, x in t.seats.items() if statuses.get(s) == SeatStatus.BARRED
                         and s not in f7 and not x.sitting_out and not owes_time(t, x) and (x.stack or x.put)})
    blind_deal = t.profile.age and not t.jack_pot
    if fresh or blind_deal or antes_due(t) or t.ante == 0:
        return statuses, False
    free = [s for s, st in statuses.items() if st == SeatStatus.ACTIVE and t.seats[s].put == 0]
    if not free:
        return statuses, False
    if sum(1 for st in statuses.values() if st == SeatStatus.ACTIVE) - len(free) >= 2:
        return {s: (SeatStatus.OUT if s in free else st) for s, st in statuses.items()}, False
    return statuses, True


def deal_refusal(t: WorkingTable, statuses: Mapping[int, SeatStatus]) -> str | None:
    """Why the next deal cannot be dealt with these statuses, or None when it can."""
    dealt = [s for s in t.order if statuses.get(s) == SeatStatus.ACTIVE]
    if len(dealt) < 2:
        owing = [s for s in t.order if owes_time(t, t.seats[s])]
        time = (f"; seat{'s' if len(owing) > 1 else ''} {', '.join(map(str, owing))} owe{'' if len(owing) > 1 else 's'} "
                "time for this period (the house's time_charge): log it first") if owing else ""
        return ("cannot deal: a deal needs at least two players with chips or a claim on the pot "
                f"(in play: {', '.join(map(str, dealt)) or 'none'}){time}")
    deck, each = t.profile.deck_size, t.profile.hand_size
    if each * len(dealt) > deck:
        return f"cannot deal: {len(dealt)} players need {each * len(dealt)} cards and the deck has {deck}"
    return None


# ------------------------------------------------------------------ the deal


@may(Deal, (Phase.BETWEEN_DEALS,))
def may_deal(t: WorkingTable, seat: int | None = None) -> DealMove:
    """Between deals, with two players to deal in and cards enough for them (a tablet never shows a
    dead button)."""
    if t.phase != Phase.BETWEEN_DEALS:
        raise NotNow("cannot deal: the current deal is not finished")
    why = deal_refusal(t, deal_plan(t)[0])
    if why is not None:
        raise NotNow(why, "alone")
    return DealMove()


@handles(Deal)
def deal(t: WorkingTable, e: Deal, move: DealMove) -> None:
    """A new deal (O3, O4, D1): move the button, deal in the players, take antes unless capped.

    The deal may set the stakes from this deal on (a tournament's level); seats sitting out, and
    newcomers waiting for a carried pot to be won, are not dealt in (rules.jackpot.seating)."""
    stakes = _new_stakes(t, e)
    if t.new_pot:
        _start_pot(t)
    statuses, forced = deal_plan(t)
    moves = t.deal_no > 0 and (t.last_end != DealEnd.THROW_IN or t.profile.button_moves_on_throw_in)
    if moves or t.button not in t.seats or statuses[t.button] == SeatStatus.OUT:
        # the button moves one seat (O3), and never rests on an empty seat or one not in play
        t.button = next((s for s in t.clockwise(t.button) if statuses[s] != SeatStatus.OUT), t.button)
    dealt = tuple(s for s in t.clockwise(t.button) if statuses[s] == SeatStatus.ACTIVE)
    why = deal_refusal(t, statuses)  # the stakes this deal brings may deal in other seats
    if why is not None:
        raise NotNow(why, "alone")
    if forced:
        t.force_ante = True  # too few players with a stake in the capped pot: everyone antes (O4)
    antes = antes_due(t)
    t.finished, t.finished_end = None, ()  # the deal before is closed: rulings on it are corrections now
    for s in t.order:
        t.set(s, status=statuses[s], committed=0, bets=0, acted=False, drawn=None, shown=None, drew_four=False,
              declared=None)
    reset_deal(t)
    t.phase, t.dealt = Phase.PREDRAW, dealt
    t.stub = t.profile.deck_size - t.profile.hand_size * len(dealt)
    if t.profile.age and not t.jack_pot:
        _blind_deal(t, dealt)
        return
    words = _take_antes(t, dealt, antes)
    if t.new_pot:
        words += start_kill(t, dealt)  # kill pots (the house's kill), after the antes
    t.ante_for_all = None
    t.force_ante = False
    t.new_pot = False
    t.deals += 1
    t.deal_no += 1
    t.to_act = dealt[0]
    t.message = f"deal {t.deal_no}, button on seat {t.button}: " + "; ".join(stakes + words)
    owing = [s for s in t.order if owes_time(t, t.seats[s])]
    if owing:
        t.message += (f"; dealt out until they pay time for this period (time_charge): "
                      f"{', '.join(f'seat {s}' for s in owing)}")
    if t.profile.blinds is not None:
        # the basic game's blinds: they open the pot; nothing to prove (O2, opening_minimum none)
        small, big = t.profile.blinds
        post_blind(t, dealt[0], small, "small blind")
        post_blind(t, dealt[1], big, "big blind")
        after_action(t, dealt[1])


def _new_stakes(t: WorkingTable, e: Deal) -> list[str]:
    """The stakes the deal brings, from this deal on (a tournament's level), in words."""
    stakes = []
    if e.small_bet is not None or e.big_bet is not None:
        small = e.small_bet if e.small_bet is not None else t.small_bet
        big = e.big_bet if e.big_bet is not None else (2 * small if e.small_bet is not None else t.big_bet)
        if big < small:
            raise NotNow(f"cannot deal: the big bet ({big}) may not be below the small bet ({small})")
        t.small_bet, t.big_bet = small, big
        stakes.append(f"bets {small}/{big}")
    if e.ante is not None:
        t.ante = e.ante
        stakes.append(f"ante {e.ante}")
    return stakes


def _start_pot(t: WorkingTable) -> None:
    """The pot was won: the next deal starts a new one, its count of deals and its openers afresh;
    the players barred from the last pot (F7) and the newcomers who waited for it play."""
    t.rulings = ()  # a state keeps the rulings of the pot in play, not the day's (they are logged)
    t.barred_people = ()  # F7's bar lasts until someone else has won the pot
    t.deals = t.ante_deals = 0
    t.requirement, t.rising, t.force_ante = t.profile.opening_minimum, True, False
    for s in t.order:
        if t.seats[s].status == SeatStatus.BARRED:
            t.set(s, status=SeatStatus.ACTIVE)
        if t.seats[s].waiting:
            t.set(s, waiting=False)


def _take_antes(t: WorkingTable, dealt: tuple[int, ...], antes: bool) -> list[str]:
    """The antes of the deal (O4): the F9 false opener's for everyone, everyone's, or none once the
    pot's ante cap is reached; in words."""
    payer = t.ante_for_all if t.ante_for_all in dealt else None
    if payer is not None and t.ante > 0:
        # F9: the false opener antes for every player of this deal
        paid = min(t.seats[payer].stack, t.ante * len(dealt))
        t.put_chips(payer, paid, bet=False)
        share, rest = divmod(paid, len(dealt))
        # the claim each ante buys belongs to the player it was paid for
        for s in dealt:
            t.set(payer, put=t.seats[payer].put - share)
            t.set(s, put=t.seats[s].put + share)
        t.ante_deals += 1
        return [f"seat {payer} antes {paid} for everyone (F9)"]
    if antes and t.ante > 0:
        for s in dealt:
            t.put_chips(s, min(t.ante, t.seats[s].stack), bet=False)
        t.ante_deals += 1
        return [f"antes of {t.ante} taken"]
    return ["no antes (the pot's ante cap is reached)"]


def _blind_deal(t: WorkingTable, dealt: tuple[int, ...]) -> None:
    """D11: a blind deal: no antes; the age (first after the button) puts up a blind of one small
    bet, and anyone may come in against it with any cards."""
    t.new_pot = False
    t.deals += 1
    t.deal_no += 1
    t.requirement = "none"
    t.age_seat = dealt[0]
    t.message = f"deal {t.deal_no}, button on seat {t.button}: a blind deal, seat {dealt[0]} is the age (D11)"
    post_blind(t, dealt[0], t.small_bet, "age's blind")
    after_action(t, dealt[0])


# ------------------------------------------------------------------ the widow card (H4)


@may(Widow, IN_DEAL)
def may_widow(t: WorkingTable, seat: int | None = None) -> WidowMove:
    """While a deal of wild widow waits for its card."""
    if not t.widow_due:
        why = ("this game plays no wild widow" if t.profile.wild != "widow" else
               "the widow card is turned up once, at the start of a deal")
        raise NotNow(f"widow: {why}")
    return WidowMove()


@handles(Widow)
def widow(t: WorkingTable, e: Widow, move: WidowMove) -> None:
    """Wild widow (H4): the card turned up during the deal; its rank is wild for this deal, and
    it is in no hand."""
    if e.card == "Jk" or e.card not in {str(c) for c in t.profile.hand_rules.deck()}:
        raise NotNow(f"widow: {e.card} cannot be the widow card (a natural card of this game's deck)")
    t.widow = e.card
    t.stub -= 1
    t.message = f"the widow card is {e.card}: {rank_plural(parse_rank(e.card[0]))} are wild this deal (H4)"
