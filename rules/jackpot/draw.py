"""The draw: each live hand discards and is dealt as many (D2), the opener may split openers into
escrow (S1) or keep every discard apart when asked to (F12), the deck running out (D3), more than one
draw (D13, all for one), the Bosnian exchange (D16). Event ``draw``; then the betting after the
draw (D4, D5) or the showdown.

D3: only discards are shuffled to finish a draw; the stub's last card is dealt only with them, and
dead cards and the escrow never come back (:meth:`rules.jackpot.state.WorkingTable.pack`).

>>> from rules.jackpot import start
>>> t = start({"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": s, "player": p, "stack": 100} for s, p in ((1, "Ann"), (2, "Bob"))]})
>>> t = t.apply({"type": "deal"}).apply({"type": "open", "seat": 2}).apply({"type": "call", "seat": 1})
>>> move, = t.legal()
>>> move, move.event(3, split=True, escrow="Jh 7s 2c")
(DrawMove(seat=2, min=0, max=5, cards=(), bosnian=False, split=True, keep=False), Draw(seat=2, count=3, split=True, escrow=('Jh', '7s', '2c'), up=None, take=None))
>>> move.event(4, split=True, up="Kd")
Traceback (most recent call last):
...
rules.jackpot.event_base.NotNow: seat 2: the Bosnian exchange (take, up) is for a draw of four here (D16)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import IllegalAction, parse
from rules.jackpot.event_base import NotNow, SeatEvent, Who, card_list, handles, may, without_none
from rules.jackpot.moves import TurnMove, turn_seat
from rules.jackpot.requests import deal_owed
from rules.jackpot.showdown import start_showdown
from rules.jackpot.state import Phase, SeatStatus, WorkingTable, check_cards
from rules.words import cards_face

__all__ = ["Draw", "DrawMove", "may_draw", "draw", "start_draw", "start_postdraw", "all_for_one_counts"]


@dataclass(frozen=True)
class Draw(SeatEvent):
    """Discards ``count`` cards and receives as many (D2); the opener may split openers (S1).

    >>> from rules.jackpot.events import parse_event
    >>> parse_event({"type": "draw", "seat": 1, "count": 2, "split": True, "escrow": ["Jh", "7s"]}).words()
    'seat 1 draws 2, splits openers: J♥ 7♠ in escrow'
    >>> parse_event({"type": "draw", "seat": 4, "count": 0}).words({4: "Dee"})
    'seat 4 (Dee) stands pat'
    """

    kind = "draw"
    by = Who.DEALER
    count: int = 0
    split: bool = False
    escrow: tuple[str, ...] = ()
    #: the Bosnian exchange (D16): of the last two cards of a four-card draw, the one dealt face up
    #: and which of the two the player takes ("up" or "down")
    up: str | None = None
    take: str | None = None

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        count = event.get("count")
        if count is None:
            raise IllegalAction("draw: say how many cards the player draws (count, 0 to stand pat)")
        try:
            n = parse.whole(count, "draw: count")
        except IllegalAction:
            n = -1
        if not 0 <= n <= 5:
            raise IllegalAction(f"draw: count must be a whole number from 0 to 5, not {count!r}")
        split = event.get("split", False)
        if not isinstance(split, bool):
            raise IllegalAction(f"draw: split is true or false, not {split!r}")
        take = event.get("take")
        if take not in (None, "up", "down"):
            raise IllegalAction(f"draw: take is 'up' or 'down' (the Bosnian exchange), not {take!r}")
        up = card_list(event.get("up"), "draw: up")
        if len(up) > 1:
            raise IllegalAction("draw: up is the one card dealt face up (the Bosnian exchange)")
        return {"count": n, "split": split, "escrow": card_list(event.get("escrow"), "draw: escrow"),
                "up": up[0] if up else None, "take": take}

    def to_dict(self) -> dict[str, Any]:
        return without_none(super().to_dict(), "up", "take")

    def words(self, names: Mapping[int, str] | None = None) -> str:
        text = self.who(names) + ("stands pat" if not self.count else f"draws {self.count}")
        if self.split:
            text += ", splits openers: " + cards_face(self.escrow) + " in escrow"
        return text


@dataclass(frozen=True)
class DrawMove(TurnMove):
    """A draw of ``min`` to ``max`` cards (in all for one, D13, one of ``cards``); ``bosnian``: a draw of
    four takes the Bosnian exchange (D16); ``split``: the opener may split openers (S1); ``keep``: the
    opener keeps every discard apart, as a player asked (F12)."""

    event_type = Draw
    place = 40
    min: int = 0
    max: int = 5
    cards: tuple[int, ...] = ()
    bosnian: bool = False
    split: bool = False
    keep: bool = False

    def event(self, count: int, *, split: bool = False, escrow: str | list[str] | tuple[str, ...] = (),
              up: str | None = None, take: str | None = None) -> Draw:
        allowed = self.cards or range(self.min, self.max + 1)
        if count not in allowed:
            what = ", ".join(map(str, self.cards)) if self.cards else f"{self.min} to {self.max}"
            raise NotNow(f"seat {self.seat} cannot draw {count}: the draw here is {what} cards")
        if split and not self.split:
            raise NotNow(f"seat {self.seat} cannot split openers: only the opener, in the first draw (S1)")
        if (up or take) and not (self.bosnian and count == 4):
            raise NotNow(f"seat {self.seat}: the Bosnian exchange (take, up) is for a draw of four here (D16)")
        drawn = Draw.read({"seat": self.seat, "count": count, "split": split, "escrow": escrow or None, "up": up,
                           "take": take})
        assert isinstance(drawn, Draw)
        return drawn

    def words(self) -> str:
        return f"draw 0 to {self.max} cards"


def all_for_one_counts(t: WorkingTable) -> tuple[int, ...]:
    """All for one (D13): stand pat, change one, or change five when the stub still holds a card
    for each player after this one in the draw; the discards are never reshuffled."""
    waiting = [x for x in t.live() if x not in t.drew_this_round and x != t.to_act]
    return tuple(n for n in (0, 1, 5) if not n or t.stub - len(t.owed) >= n + len(waiting))


def start_draw(t: WorkingTable) -> None:
    """The betting before the draw (or between two draws, D13) is complete: the draw starts."""
    t.phase = Phase.DRAW
    t.draw_round += 1
    for x in t.order:
        if t.seats[x].committed or t.seats[x].acted or (t.draw_round > 1 and t.seats[x].drawn is not None):
            t.set(x, committed=0, acted=False)
    t.bet_level, t.raises, t.last_aggressor, t.last_raise = 0, 0, None, 0
    # D15: in seven-card draw the draw begins after the big blind (the second seat dealt)
    start = t.dealt[1] if t.profile.seven_card_draw else t.button
    if t.profile.all_for_one and t.draw_leader is not None:
        start = t.draw_leader  # D13: each draw begins one seat further round than the last
    t.to_act = next(x for x in t.clockwise(start) if t.seats[x].status == SeatStatus.ACTIVE)
    t.draw_leader = t.to_act
    t.message += ("; betting before the draw is complete: the draw starts (D2)" if t.draw_round == 1
                  else f"; the betting is complete: draw {t.draw_round} of {t.profile.draw_rounds} (D13)")
    t.drew_this_round, t.drawn_now, t.exposed_now, t.checked = (), (), (), ()


@may(Draw, (Phase.DRAW,))
def may_draw(t: WorkingTable, seat: int | None) -> DrawMove:
    """The seat to act in the draw, no reopen offer waiting (F3): never more cards than the stub and
    the discards can give (D3)."""
    s = turn_seat(t, "draw", seat).seat
    if t.reopen is not None:
        raise NotNow(f"seat {s} cannot draw: the reopen offer must be answered first (F3)")
    if t.phase != Phase.DRAW:
        raise NotNow(f"seat {s} cannot draw: this is the {t.phase.replace('_', ' ')}")
    most = 4 if t.profile.ace_draws_four else t.profile.max_draw
    pack = t.pack()
    top = max(0, min(most, pack))
    counts: tuple[int, ...] = ()
    if t.profile.all_for_one:  # D13: 0, 1 or 5 cards, as the pack allows
        counts = all_for_one_counts(t)
        top = max(counts)
    opening = s == t.opener and t.draw_round == 1
    return DrawMove(s, 0, top, counts,
                    bosnian=t.profile.bosnian and top >= 4 and pack >= 5,  # D16: a four-card draw takes "up" or "down"
                    split=opening, keep=opening and t.keep_asked is not None)  # F12: every discard kept apart


@handles(Draw)
def draw(t: WorkingTable, e: Draw, move: DrawMove) -> None:
    """Discards and receives as many cards (D2); the opener may split openers into escrow (S1).

    When the stub cannot cover a draw without its last card, the discards of those who already
    drew (never the escrow) are shuffled with what is left (D3).
    """
    s, n = e.seat, e.count
    four = t.profile.ace_draws_four and n == 4
    _check_count(t, s, n, four)
    escrow = _kept_apart(t, e, move)
    pack = t.pack()  # D3: the stub's last card only with the discards; a card owed for one faced is kept back
    if n > pack and n:
        raise NotNow(f"seat {s} cannot draw {n}: only {pack} card{'' if pack == 1 else 's'} can be dealt, "
                     f"even with the discards of those who drew reshuffled (the escrow never is, nor a dead "
                     f"card; the stub's last card is not dealt but with them) (D3)")
    # D16: the Bosnian exchange deals a fifth card for a four-card draw, one of the last two left
    # out, when the pack has it; otherwise the four are dealt plainly
    bosnian = t.profile.bosnian and n == 4 and pack >= 5
    if (e.take or e.up) and not bosnian:
        raise NotNow(f"seat {s}: the Bosnian exchange (take, up) is for a draw of four where the house plays "
                     "it and the pack holds a fifth card (D16)")
    if e.up is not None:
        check_cards(t, (e.up,), "draw: up")
    if e.take == "down" and e.up is not None:
        t.exposed = t.exposed + ((s, e.up),)  # the face-up card left is seen by all: dead (D16)
    note = t.take_cards(n + 1 if bosnian else n)
    # D16: the face-down card left is discarded unseen; a face-up card left is dead, never reshuffled (D3)
    t.muck += n - len(escrow) + (1 if bosnian and e.take == "up" else 0)
    if escrow:
        t.escrow = t.escrow + ((s, escrow),)
        t.split = t.split or bool(e.split)
    t.drawn_now = t.drawn_now + ((s, n),)
    seat = t.seats[s]
    t.set(s, drawn=(seat.drawn or 0) + n, drew_four=seat.drew_four or four)
    t.drew_this_round = t.drew_this_round + (s,)
    t.message = (f"seat {s} draws {n}" if n else f"seat {s} stands pat") + note + _draw_words(s, e, escrow, four,
                                                                                              bosnian)
    waiting = [x for x in t.clockwise(s) if t.seats[x].status == SeatStatus.ACTIVE and x not in t.drew_this_round]
    if waiting:
        t.to_act = waiting[0]
    else:
        start_postdraw(t)


def _check_count(t: WorkingTable, s: int, n: int, four: bool) -> None:
    """The count the house allows: 0, 1 or 5 as the pack allows in all for one (D13); at most the
    house's number, or four keeping an ace (D2)."""
    if t.profile.all_for_one:
        allowed = all_for_one_counts(t)
        if n not in allowed:
            raise NotNow(f"seat {s} cannot draw {n}: in all for one a player stands pat, changes one card "
                         f"or all five, as the pack allows ({', '.join(map(str, allowed))} now) (D13)")
    elif n > t.profile.max_draw and not four:
        also = ", or 4 when keeping an ace" if t.profile.ace_draws_four else ""
        raise NotNow(f"seat {s} cannot draw {n}: at most {t.profile.max_draw} cards{also} (D2)")


def _kept_apart(t: WorkingTable, e: Draw, move: DrawMove) -> tuple[str, ...]:
    """The discards kept apart: every one when a player asked the opener to keep the opening hand
    (F12), or the opener's when splitting openers (S1, all of them); checked cards of the deck."""
    s = e.seat
    if move.keep and e.count and len(e.escrow) != e.count:
        raise NotNow(f"seat {s} was asked to keep the opening hand (F12, by seat {t.keep_asked}): every discard "
                     f"is kept apart, so the escrow lists all {e.count} discards, not {len(e.escrow)}")
    if move.keep and e.escrow and not e.split:
        check_cards(t, e.escrow, "escrow")
        return e.escrow  # kept apart at a player's request (F12), not a split
    if not (e.split or e.escrow):
        return ()
    if t.draw_round > 1:
        raise NotNow(f"seat {s} cannot split openers in draw {t.draw_round}: openers are split in the "
                     "first draw (S1)")
    if s != t.opener:
        raise NotNow(f"seat {s} cannot split openers: only the opener (seat {t.opener}) splits (S1)")
    if not e.split:
        raise NotNow("escrow cards are kept only when the opener splits openers (split: true, S1)")
    if len(e.escrow) != e.count or not e.count:
        raise NotNow(f"seat {s} splits openers: every discard goes under the chip (S1), so the escrow "
                     f"lists all {e.count} discards, not {len(e.escrow)}"
                     if e.count else f"seat {s} cannot split openers without discarding (S1)")
    check_cards(t, e.escrow, "escrow")  # read once, at the edge (rules.jackpot.events)
    return e.escrow


def _draw_words(s: int, e: Draw, escrow: tuple[str, ...], four: bool, bosnian: bool) -> str:
    """What the message adds about a draw: four to an ace (D2), the Bosnian exchange (D16), the
    escrow (S1, F12)."""
    words = ""
    if four:
        words += "; four cards, keeping an ace (checked at the show, D2)"
    if bosnian:
        faced = f" {e.up}" if e.up else ""
        words += (f"; the Bosnian exchange: seat {s} takes the face-up card{faced}" if e.take == "up" else
                  f"; the Bosnian exchange: seat {s} takes the face-down card, the face-up{faced} is dead"
                  if e.take == "down" else "; the Bosnian exchange (D16)")
    if escrow and e.split:
        words += f"; openers split, {' '.join(escrow)} in escrow (S1)"
    elif escrow:
        words += f"; the discards {' '.join(escrow)} are kept apart, as asked (F12)"
    return words


def start_postdraw(t: WorkingTable) -> None:
    """The second round (D4): from the opener, or the next live seat after the opener, or from the
    button's left when the profile says so; the big bet (D5)."""
    deal_owed(t)  # D12: every other player has drawn: a card faced is replaced now
    t.phase, t.checked = Phase.POSTDRAW, ()
    for x in t.order:
        if t.seats[x].committed or t.seats[x].acted:
            t.set(x, committed=0, acted=False)
    t.bet_level, t.raises, t.last_aggressor, t.last_raise = 0, 0, None, 0
    movers = [x for x in t.live() if t.seats[x].stack > 0]
    if len(movers) < 2:
        t.message += "; no betting after the draw (players all in)"
        start_showdown(t)
        return
    start = t.opener if t.profile.postdraw_first == "opener" and t.opener is not None else t.button
    if t.age_seat is not None:
        start = t.age_seat  # D11: in a blind deal the first bet after the draw is left of the age
    if start == t.opener and start in movers:
        t.to_act = start
    else:
        t.to_act = next(x for x in t.clockwise(start) if x in movers)
    t.message += "; the draw is over: betting after the draw"
