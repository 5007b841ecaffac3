"""The play of a deal: the deal itself, opening, betting, the draw and the showdown, and moving the
turn on after each action (D1-D7, O1-O6, S1, H6).

The irregularities a deal can meet are ruled in :mod:`rules.irregularities`; this module only
marks when a ruling is needed (an opener who did not prove openers) and goes on from where a
ruling leaves the deal (:func:`resume`). :mod:`rules.table` runs the two in turn.
"""

from __future__ import annotations


from rules import CardError, IllegalAction
from rules import events as ev
from rules.settlement import antes_due, award, end_deal, finish_showdown, throw_in
from rules.state import DealEnd, Phase, Seat, SeatStatus, WorkingTable, check_cards, evaluate, reset_deal

__all__ = ["deal", "pass_", "open_", "call", "check", "bet", "raise_", "fold", "draw", "show", "muck",
           "after_action", "next_show", "resume"]


def deal(t: WorkingTable, e: ev.Deal) -> None:
    """A new deal (O3, O4, D1): move the button, deal in the players, take antes unless capped.

    The deal may set the stakes from this deal on (a tournament's level); seats sitting out, and
    newcomers waiting for a carried pot to be won, are not dealt in (rules.seating)."""
    if t.phase != Phase.BETWEEN_DEALS:
        raise t.refuse("cannot deal: the current deal is not finished")
    stakes = []
    if e.small_bet is not None or e.big_bet is not None:
        small = e.small_bet if e.small_bet is not None else t.small_bet
        big = e.big_bet if e.big_bet is not None else (2 * small if e.small_bet is not None else t.big_bet)
        if big < small:
            raise t.refuse(f"cannot deal: the big bet ({big}) may not be below the small bet ({small})")
        t.small_bet, t.big_bet = small, big
        stakes.append(f"bets {small}/{big}")
    if e.ante is not None:
        t.ante = e.ante
        stakes.append(f"ante {e.ante}")
    if t.new_pot:
        t.rulings = ()  # a state keeps the rulings of the pot in play, not the day's (they are logged)
        t.deals = t.ante_deals = 0
        t.requirement, t.rising, t.force_ante = t.profile.opening_minimum, True, False
        for s in t.order:  # F7: a barred player is released once the pot has been won
            if t.seats[s].status == SeatStatus.BARRED:
                t.set(s, status=SeatStatus.ACTIVE)
            if t.seats[s].waiting:  # a newcomer who waited for the pot to be won plays now
                t.set(s, waiting=False)
    statuses = {}
    for s in t.order:
        x = t.seats[s]
        if x.status == SeatStatus.BARRED:
            statuses[s] = SeatStatus.BARRED
        elif (x.stack == 0 and x.put == 0) or x.sitting_out or x.waiting:
            statuses[s] = SeatStatus.OUT
        else:
            statuses[s] = SeatStatus.ACTIVE
    moves = t.deal_no > 0 and (t.last_end != DealEnd.THROW_IN or t.profile.button_moves_on_throw_in)
    if moves or t.button not in t.seats or statuses[t.button] == SeatStatus.OUT:
        # the button moves one seat (O3), and never rests on an empty seat or one not in play
        t.button = next((s for s in t.clockwise(t.button) if statuses[s] != SeatStatus.OUT), t.button)
    dealt = tuple(s for s in t.clockwise(t.button) if statuses[s] == SeatStatus.ACTIVE)
    if len(dealt) < 2:
        raise IllegalAction("cannot deal: a deal needs at least two players with chips or a claim on the pot "
                            f"(in play: {', '.join(map(str, dealt)) or 'none'})")
    deck = t.profile.deck_size
    if 5 * len(dealt) > deck:
        raise IllegalAction(f"cannot deal: {len(dealt)} players need {5 * len(dealt)} cards and the deck has {deck}")
    antes = antes_due(t)
    t.finished, t.finished_end = None, ()  # the deal before is closed: rulings on it are corrections now
    for s in t.order:
        t.set(s, status=statuses[s], committed=0, bets=0, acted=False, drawn=None, shown=None)
    reset_deal(t)
    t.phase, t.dealt, t.stub = Phase.PREDRAW, dealt, deck - 5 * len(dealt)
    words = []
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
        words.append(f"seat {payer} antes {paid} for everyone (F9)")
        t.ante_deals += 1
    elif antes and t.ante > 0:
        for s in dealt:
            t.put_chips(s, min(t.ante, t.seats[s].stack), bet=False)
        t.ante_deals += 1
        words.append(f"antes of {t.ante} taken")
    else:
        words.append("no antes (the pot's ante cap is reached)")
    t.ante_for_all = None
    t.force_ante = False
    t.new_pot = False
    t.deals += 1
    t.deal_no += 1
    t.to_act = dealt[0]
    t.message = f"deal {t.deal_no}, button on seat {t.button}: " + "; ".join(stakes + words)


def pass_(t: WorkingTable, e: ev.Pass) -> None:
    """Declines to open (O2). (During a reopen offer a pass declines to reopen: see
    :func:`rules.irregularities.decline_reopen`.)"""
    s = e.seat
    if t.phase != Phase.PREDRAW or t.opened:
        t.check_turn("pass", s)
        raise t.refuse(f"seat {s} cannot pass: passing only declines to open, and the pot is open")
    t.check_turn("pass", s)
    t.passed = t.passed + (s,)
    live = t.live()
    following = [x for x in t.clockwise(s) if x in live and x not in t.passed]
    if not following:
        throw_in(t)
        return
    t.to_act = following[0]
    t.message = f"seat {s} passes"


def open_(t: WorkingTable, e: ev.Open) -> None:
    """Declares openers and bets the small bet, or all a short stack has, even nothing (O1, O2, O6)."""
    s = e.seat
    if t.reopen is not None:
        t.check_turn("open", s)
        raise t.refuse(f"seat {s} cannot open: false openers were found; the pot is reopened with 'reopen'")
    seat = t.check_turn("open", s)
    if t.phase != Phase.PREDRAW or t.opened:
        raise t.refuse(f"seat {s} cannot open: the pot is already open")
    amounts = t.opening_amounts(seat)
    due = min(t.small_bet, seat.stack) if e.amount is None else e.amount
    if due not in amounts:
        allowed = " or ".join(map(str, amounts))
        raise t.refuse(f"seat {s} cannot open for {e.amount}: the opening bet here is {allowed} (O2)")
    t.put_chips(s, due)
    t.opened, t.opener, t.opener_bets = True, s, (due,)
    # Opening with a raise counts toward the raise cap; it is the opener's opening bet all the same
    # (F2 leaves all of it in the pot), and not "a raise" that makes a false opener's pot play (F5),
    # which protects the players who came in against the opener.
    raised = due > t.small_bet
    t.bet_level, t.raises, t.last_aggressor = t.seats[s].committed, int(raised), s
    t.set(s, acted=True)
    if due == 0 and seat.stack > 0:
        t.message = f"seat {s} declares openers and checks: the pot is open (O2)"
    elif raised:
        t.message = f"seat {s} opens with a raise to {due}" + (" (all in)" if t.seats[s].stack == 0 else "")
    else:
        t.message = f"seat {s} opens for {due}" + (" (all in)" if t.seats[s].stack == 0 else "")
    after_action(t, s)


def _betting_seat(t: WorkingTable, kind: str, s: int) -> Seat:
    if t.reopen is not None:
        t.check_turn(kind, s)
        raise t.refuse(f"seat {s} cannot {kind}: the reopen offer must be answered first (F3)")
    seat = t.check_turn(kind, s)
    if t.phase not in (Phase.PREDRAW, Phase.POSTDRAW) or (t.phase == Phase.PREDRAW and not t.opened):
        what = "the pot is not open yet" if t.phase == Phase.PREDRAW else f"this is the {t.phase}"
        raise t.refuse(f"seat {s} cannot {kind}: {what}")
    return seat


def _record_bet(t: WorkingTable, s: int, amount: int) -> None:
    t.put_chips(s, amount)
    if s == t.opener and amount > 0:
        t.opener_bets = t.opener_bets + (amount,)


def call(t: WorkingTable, e: ev.Call) -> None:
    s = e.seat
    seat = _betting_seat(t, "call", s)
    to_call = t.bet_level - seat.committed
    if to_call <= 0:
        raise t.refuse(f"seat {s} cannot call: there is no bet to call")
    amount = min(to_call, seat.stack)
    _record_bet(t, s, amount)
    if t.phase == Phase.PREDRAW and t.raises == 0:
        t.callers += 1
    t.set(s, acted=True)
    t.message = f"seat {s} calls {amount}" + (" (all in)" if t.seats[s].stack == 0 else "")
    after_action(t, s)


def check(t: WorkingTable, e: ev.Check) -> None:
    s = e.seat
    seat = _betting_seat(t, "check", s)
    if t.bet_level > seat.committed:
        raise t.refuse(f"seat {s} cannot check: there is a bet of {t.bet_level - seat.committed} to call")
    if t.phase == Phase.PREDRAW and t.raises == 0 and s != t.opener:
        t.callers += 1  # the opening bet was nothing (an all-in opener, O6): checking calls it
    t.set(s, acted=True)
    t.message = f"seat {s} checks"
    after_action(t, s)


def bet(t: WorkingTable, e: ev.Bet) -> None:
    s = e.seat
    seat = _betting_seat(t, "bet", s)
    if t.bet_level > 0:
        raise t.refuse(f"seat {s} cannot bet: there is already a bet (call or raise it)")
    if seat.stack == 0:  # pragma: no cover - all-in seats are never asked
        raise t.refuse(f"seat {s} cannot bet: no chips left")
    amount = min(t.bet_size, seat.stack)
    _record_bet(t, s, amount)
    t.bet_level, t.last_aggressor = t.seats[s].committed, s
    _reopen_action(t, s)
    t.message = f"seat {s} bets {amount}"
    after_action(t, s)


def raise_(t: WorkingTable, e: ev.Raise) -> None:
    s = e.seat
    seat = _betting_seat(t, "raise", s)
    to_call = t.bet_level - seat.committed
    if t.bet_level == 0:
        raise t.refuse(f"seat {s} cannot raise: there is no bet yet (bet instead)")
    if not t.may_raise(seat):
        raise t.refuse(f"seat {s} cannot raise: the raise cap of {t.profile.raise_cap} is reached (D5)")
    if seat.stack <= to_call:
        raise t.refuse(f"seat {s} cannot raise: {seat.stack} chips only call the {to_call} due")
    amount = min(to_call + t.bet_size, seat.stack)
    _record_bet(t, s, amount)
    t.bet_level, t.last_aggressor = t.seats[s].committed, s
    t.raises += 1
    if t.phase == Phase.PREDRAW:
        t.raised_before_draw = True
    _reopen_action(t, s)
    t.message = f"seat {s} raises to {t.bet_level}" + (" (all in)" if t.seats[s].stack == 0 else "")
    after_action(t, s)


def fold(t: WorkingTable, e: ev.Fold) -> None:
    s = e.seat
    _betting_seat(t, "fold", s)
    t.set(s, status=SeatStatus.FOLDED, acted=True)
    t.message = f"seat {s} folds"
    after_action(t, s)


def _reopen_action(t: WorkingTable, s: int) -> None:
    """After a bet or raise everyone else still able to bet must act again."""
    for x in t.live():
        t.set(x, acted=(x == s))


def after_action(t: WorkingTable, s: int) -> None:
    """Move the turn on, or close the betting round."""
    live = t.live()
    if len(live) == 1:
        last_standing(t, live[0])
        return
    if not live:
        end_deal(t, DealEnd.CARRIED)
        t.message += "; nobody is left in the deal: the pot carries to the next deal"
        return
    movers = [x for x in live if t.seats[x].stack > 0]
    pending = [x for x in movers if not t.seats[x].acted or t.seats[x].committed < t.bet_level]
    if not pending or (len(movers) == 1 and t.seats[movers[0]].committed >= t.bet_level):
        if t.phase == Phase.PREDRAW:
            start_draw(t)
        else:
            start_showdown(t)
        return
    t.to_act = next(x for x in t.clockwise(s) if x in pending)


def last_standing(t: WorkingTable, w: int) -> None:
    """Everyone else folded. The opener must still prove openers (F1); anyone else takes the pot (D7)."""
    if w == t.opener and not t.proven:
        t.phase, t.show_order, t.to_act = Phase.SHOWDOWN, (w,), w
        t.message += f"; everyone else folded: seat {w} shows openers to take the pot (F1)"
        return
    amount = t.pot
    award(t, {w: amount})
    t.message += f"; seat {w} takes the pot of {amount} uncalled (D7)"


def start_draw(t: WorkingTable) -> None:
    t.phase = Phase.DRAW
    for x in t.order:
        if t.seats[x].committed or t.seats[x].acted:
            t.set(x, committed=0, acted=False)
    t.bet_level, t.raises, t.last_aggressor = 0, 0, None
    t.to_act = next(x for x in t.clockwise(t.button) if t.seats[x].status == SeatStatus.ACTIVE)
    t.message += "; betting before the draw is complete: the draw starts (D2)"


def draw(t: WorkingTable, e: ev.Draw) -> None:
    """Discards and receives as many cards (D2); the opener may split openers into escrow (S1).

    When the stub cannot cover a draw without its last card, the discards of those who already
    drew (never the escrow) are shuffled with what is left (D3).
    """
    s = e.seat
    if t.reopen is not None:
        t.check_turn("draw", s)
        raise t.refuse(f"seat {s} cannot draw: the reopen offer must be answered first (F3)")
    t.check_turn("draw", s)
    if t.phase != Phase.DRAW:
        raise t.refuse(f"seat {s} cannot draw: this is the {t.phase.replace('_', ' ')}")
    if e.count > t.profile.max_draw:
        raise t.refuse(f"seat {s} cannot draw {e.count}: at most {t.profile.max_draw} cards (D2)")
    escrow: tuple[str, ...] = ()
    if e.split or e.escrow:
        if s != t.opener:
            raise t.refuse(f"seat {s} cannot split openers: only the opener (seat {t.opener}) splits (S1)")
        if not e.split:
            raise t.refuse("escrow cards are kept only when the opener splits openers (split: true, S1)")
        if len(e.escrow) != e.count or not e.count:
            raise t.refuse(f"seat {s} splits openers: every discard goes under the chip (S1), so the escrow "
                           f"lists all {e.count} discards, not {len(e.escrow)}"
                           if e.count else f"seat {s} cannot split openers without discarding (S1)")
        escrow = e.escrow  # read once, at the edge (rules.events)
        check_cards(t, escrow, "escrow")
    n = e.count
    if n <= t.stub - 1 or n == 0:
        t.stub -= n
        note = ""
    else:
        pack = t.stub + t.muck
        if n > pack:
            raise t.refuse(f"seat {s} cannot draw {n}: only {pack} card{'' if pack == 1 else 's'} can be dealt, "
                           f"even with the discards of those who drew reshuffled (the escrow never is) (D3)")
        t.stub, t.muck, t.reshuffled = pack - n, 0, True
        note = "; the discards were reshuffled to finish the draw (D3)"
    t.muck += n - len(escrow)
    if escrow:
        t.escrow = t.escrow + ((s, escrow),)
        t.split = True
    t.set(s, drawn=n)
    t.message = (f"seat {s} draws {n}" if n else f"seat {s} stands pat") + note
    if escrow:
        t.message += f"; openers split, {' '.join(escrow)} in escrow (S1)"
    waiting = [x for x in t.clockwise(s) if t.seats[x].status == SeatStatus.ACTIVE and t.seats[x].drawn is None]
    if waiting:
        t.to_act = waiting[0]
    else:
        start_postdraw(t)


def start_postdraw(t: WorkingTable) -> None:
    """The second round (D4): from the opener, or the next live seat after the opener, or from the
    button's left when the profile says so; the big bet (D5)."""
    t.phase = Phase.POSTDRAW
    for x in t.order:
        if t.seats[x].committed or t.seats[x].acted:
            t.set(x, committed=0, acted=False)
    t.bet_level, t.raises, t.last_aggressor = 0, 0, None
    movers = [x for x in t.live() if t.seats[x].stack > 0]
    if len(movers) < 2:
        t.message += "; no betting after the draw (players all in)"
        start_showdown(t)
        return
    start = t.opener if t.profile.postdraw_first == "opener" and t.opener is not None else t.button
    if start == t.opener and start in movers:
        t.to_act = start
    else:
        t.to_act = next(x for x in t.clockwise(start) if x in movers)
    t.message += "; the draw is over: betting after the draw"


def start_showdown(t: WorkingTable) -> None:
    """Showdown order (D6): the last bettor or raiser shows first, else the opener; then clockwise."""
    t.phase = Phase.SHOWDOWN
    live = t.live()
    first = t.last_aggressor if t.last_aggressor in live else t.opener
    if first not in live:
        first = next(x for x in t.clockwise(first if first is not None else t.button) if x in live)
    order = [first] + [x for x in t.clockwise(first) if x in live and x != first]
    t.show_order = tuple(order)
    t.to_act = first
    t.message += f"; showdown: seat {first} shows first (D6)"


def show(t: WorkingTable, e: ev.Show) -> None:
    """Shows a hand. A hand of other than five cards is dead (H6). The opener proves openers with it,
    or with the escrow when openers were split (F1, S2)."""
    s = e.seat
    t.check_turn("show", s)
    if t.phase != Phase.SHOWDOWN or t.reopen is not None:
        raise t.refuse(f"seat {s} cannot show: hands are shown at the showdown")
    texts = e.cards  # read once, at the edge (rules.events)
    check_cards(t, texts, "show")
    overlap = [c for c in texts if any(c in esc for _, esc in t.escrow)]
    if overlap:
        raise t.refuse(f"show: {overlap[0]} is in escrow, it cannot be in a hand")
    shown = [c for c in texts for x in t.order if x != s and c in (t.seats[x].shown or ())]
    if shown:
        raise t.refuse(f"show: {shown[0]} is already in another player's hand")
    wild = t.profile.wild
    if len(texts) == 5:
        try:
            evaluate(texts, t.profile)
        except CardError as exc:
            raise t.refuse(f"show: {exc}") from None
    t.set(s, shown=texts)
    if len(texts) != 5:
        t.set(s, status=SeatStatus.DEAD)
        t.message = f"seat {s} shows {len(texts)} cards: a foul hand is dead (H6)"
        if s == t.opener and not t.proven:
            t.unproven, t.unproven_hand = True, None
    else:
        t.message = f"seat {s} shows {' '.join(texts)}"
        if s == t.opener and not t.proven:
            from rules.openers import proof
            escrow = t.escrow_of(s)
            kept = proof(texts, t.seats[s].drawn or 0, escrow, wild=wild, minimum=t.requirement,
                         southern=t.profile.southern_hands)
            if kept is not None:
                t.proven = True
                shown_kept = " ".join(c for c in map(str, kept) if c not in escrow)
                t.message += (f" and, with the escrow {' '.join(escrow)}, proves openers (S2)" if escrow
                              else f" and proves openers with {shown_kept} (F1)")
            else:
                # F1: the hand is dead; the ruling waits for the other hands (F8, S2), so that it
                # knows whether anyone is left to take the pot
                t.set(s, status=SeatStatus.DEAD)
                t.unproven, t.unproven_hand = True, texts
                t.message += (", which with the escrow cannot have held openers (S2)" if escrow
                              else ", which does not prove openers: the cards kept hold no openers (F1)")
    if t.phase == Phase.SHOWDOWN:
        next_show(t)


def muck(t: WorkingTable, e: ev.Muck) -> None:
    """Gives up the hand at the showdown. An opener left alone who mucks has not proved openers (F8)."""
    s = e.seat
    t.check_turn("muck", s)
    if t.phase != Phase.SHOWDOWN or t.reopen is not None:
        raise t.refuse(f"seat {s} cannot muck: hands are mucked at the showdown (fold while betting)")
    t.set(s, status=SeatStatus.FOLDED)
    t.message = f"seat {s} mucks"
    if s == t.opener and not t.proven and not t.live():
        t.unproven, t.unproven_hand = True, None  # F8: left alone, the opener did not prove openers
    if t.phase == Phase.SHOWDOWN:
        next_show(t)


def next_show(t: WorkingTable) -> None:
    """Ask the next hand, or settle the pot once every hand is shown or mucked.

    An opener who did not prove openers waits for the other hands; then a ruling is needed
    (``t.next_step``), which :mod:`rules.table` asks :mod:`rules.irregularities` for.
    """
    live = t.live()
    pending = [x for x in t.show_order if x in live and t.seats[x].shown is None]
    if pending:
        if not t.unproven and len(live) == 1 and not (live[0] == t.opener and not t.proven):
            w = live[0]
            amount = t.pot
            award(t, {w: amount})
            t.message += f"; seat {w} takes the pot of {amount}, the other hands given up"
            return
        t.to_act = pending[0]
        return
    if t.unproven:
        t.next_step = "rule_unproven"
        return
    finish_showdown(t)


def resume(t: WorkingTable) -> None:
    """The deal goes on from where a ruling left it: without the dead hands (F5, F6), from the
    reopener's opening (F3), or on with the showdown."""
    t.next_step = None
    if t.phase == Phase.BETWEEN_DEALS:
        return
    if t.resume_after is not None:
        s, t.resume_after = t.resume_after, None
        after_action(t, s)
        return
    live = t.live()
    if t.phase == Phase.SHOWDOWN:
        next_show(t)
        return
    if t.phase == Phase.PREDRAW and not t.opened:
        asked = [x for x in t.clockwise(t.to_act or t.button) if x in live and x not in t.passed]
        if len(live) < 2 or not asked:
            throw_in(t)  # nobody left to open against: the cards are thrown in (O3)
        elif t.to_act not in asked:
            t.to_act = asked[0]
        return
    if len(live) == 1:
        last_standing(t, live[0])
        return
    if not live:
        end_deal(t, DealEnd.CARRIED)
        return
    if t.phase == Phase.DRAW:
        waiting = [x for x in t.clockwise(t.button) if x in live and t.seats[x].drawn is None]
        if t.to_act not in waiting:
            if waiting:
                t.to_act = next(x for x in t.clockwise(t.to_act or t.button) if x in waiting)
            else:
                start_postdraw(t)
        return
    t.bet_level = max(t.seats[x].committed for x in live)  # chips handed back lower the bet to call
    current = t.to_act if t.to_act is not None else t.button
    if current in live and t.seats[current].stack > 0:
        movers = [x for x in live if t.seats[x].stack > 0]
        pending = [x for x in movers if not t.seats[x].acted or t.seats[x].committed < t.bet_level]
        if pending and current in pending:
            return
    after_action(t, current)
