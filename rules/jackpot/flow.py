"""The play of a deal: the deal itself (with its blinds, or the age's), passing, the draws and the
showdown, and moving the turn on after each action (D1-D7, D9-D13, O1-O6, S1, H6). The betting
actions are in :mod:`rules.jackpot.betting`.

The irregularities a deal can meet are ruled in :mod:`rules.jackpot.irregularities`; this module only
marks when a ruling is needed (an opener who did not prove openers) and goes on from where a
ruling leaves the deal (:func:`resume`). :mod:`rules.jackpot.table` runs the two in turn.
"""

from __future__ import annotations


from rules import CardError, IllegalAction
import rules.jackpot.events as ev
from rules.cards import parse_rank, rank_plural
from rules.hands import categories, declare as declare_hand_value
from rules.jackpot.requests import deal_owed
from rules.jackpot.settlement import award, end_deal, finish_showdown, throw_in
from rules.jackpot.state import DealEnd, Phase, SeatStatus, WorkingTable, check_cards, evaluate, reset_deal

__all__ = ["deal", "post_blind", "pass_", "draw", "show", "muck", "after_action", "last_standing", "next_show",
           "resume"]


@ev.handles(ev.Deal)
def deal(t: WorkingTable, e: ev.Deal) -> None:
    """A new deal (O3, O4, D1): move the button, deal in the players, take antes unless capped.

    The deal may set the stakes from this deal on (a tournament's level); seats sitting out, and
    newcomers waiting for a carried pot to be won, are not dealt in (rules.jackpot.seating)."""
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
    statuses, forced = t.deal_plan()
    moves = t.deal_no > 0 and (t.last_end != DealEnd.THROW_IN or t.profile.button_moves_on_throw_in)
    if moves or t.button not in t.seats or statuses[t.button] == SeatStatus.OUT:
        # the button moves one seat (O3), and never rests on an empty seat or one not in play
        t.button = next((s for s in t.clockwise(t.button) if statuses[s] != SeatStatus.OUT), t.button)
    dealt = tuple(s for s in t.clockwise(t.button) if statuses[s] == SeatStatus.ACTIVE)
    why = t.deal_refusal(statuses)
    if why is not None:
        raise IllegalAction(why)
    if forced:
        t.force_ante = True  # too few players with a stake in the capped pot: everyone antes (O4)
    antes = t.antes_due()
    t.finished, t.finished_end = None, ()  # the deal before is closed: rulings on it are corrections now
    for s in t.order:
        t.set(s, status=statuses[s], committed=0, bets=0, acted=False, drawn=None, shown=None, drew_four=False,
              declared=None)
    reset_deal(t)
    t.phase, t.dealt = Phase.PREDRAW, dealt
    t.stub = t.profile.deck_size - t.profile.hand_size * len(dealt)
    words: list[str] = []
    if t.profile.age and not t.jack_pot:
        # D11: a blind deal: no antes; the age (first after the button) puts up a blind of one small
        # bet, and anyone may come in against it with any cards
        t.new_pot = False
        t.deals += 1
        t.deal_no += 1
        t.requirement = "none"
        t.age_seat = dealt[0]
        t.message = f"deal {t.deal_no}, button on seat {t.button}: a blind deal, seat {dealt[0]} is the age (D11)"
        post_blind(t, dealt[0], t.small_bet, "age's blind")
        after_action(t, dealt[0])
        return
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
    if t.profile.blinds is not None:
        # the basic game's blinds: they open the pot; nothing to prove (O2, opening_minimum none)
        small, big = t.profile.blinds
        post_blind(t, dealt[0], small, "small blind")
        post_blind(t, dealt[1], big, "big blind")
        after_action(t, dealt[1])


def post_blind(t: WorkingTable, s: int, amount: int, what: str) -> None:
    """A blind bet posted before the cards are seen: it opens the pot, the betting goes on after it,
    and the blind may still raise when everyone has only called (its ``acted`` stays false)."""
    paid = min(amount, t.seats[s].stack)
    t.put_chips(s, paid)
    t.opened, t.proven = True, True
    t.bet_level = max(t.bet_level, t.seats[s].committed)
    t.last_aggressor = s
    t.message += f"; seat {s} posts the {what} of {paid}"


@ev.handles(ev.Widow)
def widow(t: WorkingTable, e: ev.Widow) -> None:
    """Wild widow (H4): the card turned up during the deal; its rank is wild for this deal, and
    it is in no hand."""
    if not t.widow_due:
        why = ("this game plays no wild widow" if t.profile.wild != "widow" else
               "the widow card is turned up once, at the start of a deal")
        raise t.refuse(f"widow: {why}")
    if e.card == "Jk" or e.card not in {str(c) for c in t.profile.hand_rules.deck()}:
        raise t.refuse(f"widow: {e.card} cannot be the widow card (a natural card of this game's deck)")
    t.widow = e.card
    t.stub -= 1
    t.message = f"the widow card is {e.card}: {rank_plural(parse_rank(e.card[0]))} are wild this deal (H4)"


def pass_(t: WorkingTable, e: ev.Pass) -> None:
    """Declines to open (O2). (During a reopen offer a pass declines to reopen: see
    :func:`rules.jackpot.irregularities.decline_reopen`.)"""
    s = e.seat
    if t.phase != Phase.PREDRAW or t.opened:
        t.check_turn("pass", s)
        raise t.refuse(f"seat {s} cannot pass: passing only declines to open, and the pot is open")
    t.check_turn("pass", s)
    t.passed = t.passed + (s,)
    live = t.live()
    following = [x for x in t.clockwise(s) if x in live and x not in t.passed]
    if not following:
        if t.profile.jacks_back and not t.low:
            _turn_to_low(t, s)
            return
        throw_in(t)
        return
    t.to_act = following[0]
    t.message = f"seat {s} passes"


def _turn_to_low(t: WorkingTable, s: int) -> None:
    """D10, jacks back: nobody opened, so the same hands are played for ace-to-five low, with a fresh
    betting round from the button's left in which anyone may open (and nothing needs proving); with
    the house's blind, the first player posts it and the betting starts after the blind."""
    # the requirement stays as it was: nothing needs proving while ``low`` (rules.jackpot.betting.open_),
    # and if the low round is thrown in too the next deal of the pot needs openers again (O1, O5)
    t.low, t.passed, t.checked = True, (), ()
    t.message = f"seat {s} passes; nobody opened: the hands are played for low (D10)"
    first = next(x for x in t.clockwise(t.button) if x in t.live())
    t.to_act = first
    if t.profile.jacks_back_blind:
        post_blind(t, first, t.small_bet, "low blind")
        after_action(t, first)


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
        if t.profile.all_for_one and t.stub < len(live):
            t.message += "; the pack holds too few cards for another draw (D13)"
            start_showdown(t)  # all for one: the draws stop when the pack runs low
        elif t.phase == Phase.PREDRAW or t.draw_round < t.profile.draw_rounds or t.profile.all_for_one:
            start_draw(t)  # D13: another draw, when the house plays more than one
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
    if t.profile.trips_to_win and not t.low:
        t.phase, t.show_order, t.to_act = Phase.SHOWDOWN, (w,), w
        t.message += f"; everyone else folded: seat {w} shows three of a kind or better to take the pot (D9)"
        return
    if t.keep_owed():
        t.phase, t.show_order = Phase.SHOWDOWN, (w,)
        t.message += f"; everyone else folded to seat {w}"
        next_show(t)  # F12: the opener who folded shows the kept hand first
        return
    amount = t.pot
    nobody_came_in = t.age_seat == w and t.callers == 0 and t.phase == Phase.PREDRAW
    award(t, {w: amount})
    t.message += f"; seat {w} takes the pot of {amount} uncalled (D7)"
    if nobody_came_in:
        t.jack_pot = True  # D11: the age went unchallenged, so the next deal is a jack pot
        t.message += "; the age went unchallenged: the next deal is played as a jack pot (D11)"


def start_draw(t: WorkingTable) -> None:
    t.phase = Phase.DRAW
    t.draw_round += 1
    for x in t.order:
        if t.seats[x].committed or t.seats[x].acted or (t.draw_round > 1 and t.seats[x].drawn is not None):
            t.set(x, committed=0, acted=False)
    t.bet_level, t.raises, t.last_aggressor = 0, 0, None
    # D15: in seven-card draw the draw begins after the big blind (the second seat dealt)
    start = t.dealt[1] if t.profile.seven_card_draw else t.button
    if t.profile.all_for_one and t.draw_leader is not None:
        start = t.draw_leader  # D13: each draw begins one seat further round than the last
    t.to_act = next(x for x in t.clockwise(start) if t.seats[x].status == SeatStatus.ACTIVE)
    t.draw_leader = t.to_act
    t.message += ("; betting before the draw is complete: the draw starts (D2)" if t.draw_round == 1
                  else f"; the betting is complete: draw {t.draw_round} of {t.profile.draw_rounds} (D13)")
    t.drew_this_round, t.drawn_now, t.exposed_now, t.checked = (), (), (), ()


@ev.handles(ev.Draw)
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
    four = t.profile.ace_draws_four and e.count == 4
    if t.profile.all_for_one:
        allowed = t.all_for_one_counts()
        if e.count not in allowed:
            raise t.refuse(f"seat {s} cannot draw {e.count}: in all for one a player stands pat, changes one card "
                           f"or all five, as the pack allows ({', '.join(map(str, allowed))} now) (D13)")
    elif e.count > t.profile.max_draw and not four:
        also = ", or 4 when keeping an ace" if t.profile.ace_draws_four else ""
        raise t.refuse(f"seat {s} cannot draw {e.count}: at most {t.profile.max_draw} cards{also} (D2)")
    escrow: tuple[str, ...] = ()
    keep = t.keep_asked is not None and s == t.opener and t.draw_round == 1
    if keep and e.count and len(e.escrow) != e.count:
        raise t.refuse(f"seat {s} was asked to keep the opening hand (F12, by seat {t.keep_asked}): every discard "
                       f"is kept apart, so the escrow lists all {e.count} discards, not {len(e.escrow)}")
    if keep and e.escrow and not e.split:
        escrow = e.escrow  # kept apart at a player's request (F12), not a split
        check_cards(t, escrow, "escrow")
    elif e.split or e.escrow:
        if t.draw_round > 1:
            raise t.refuse(f"seat {s} cannot split openers in draw {t.draw_round}: openers are split in the "
                           "first draw (S1)")
        if s != t.opener:
            raise t.refuse(f"seat {s} cannot split openers: only the opener (seat {t.opener}) splits (S1)")
        if not e.split:
            raise t.refuse("escrow cards are kept only when the opener splits openers (split: true, S1)")
        if len(e.escrow) != e.count or not e.count:
            raise t.refuse(f"seat {s} splits openers: every discard goes under the chip (S1), so the escrow "
                           f"lists all {e.count} discards, not {len(e.escrow)}"
                           if e.count else f"seat {s} cannot split openers without discarding (S1)")
        escrow = e.escrow  # read once, at the edge (rules.jackpot.events)
        check_cards(t, escrow, "escrow")
    n = e.count
    pack = t.pack()  # D3: the stub's last card only with the discards; a card owed for one faced is kept back
    if n > pack and n:
        raise t.refuse(f"seat {s} cannot draw {n}: only {pack} card{'' if pack == 1 else 's'} can be dealt, "
                       f"even with the discards of those who drew reshuffled (the escrow never is, nor a dead "
                       f"card; the stub's last card is not dealt but with them) (D3)")
    # D16: the Bosnian exchange deals a fifth card for a four-card draw, one of the last two left
    # out, when the pack has it; otherwise the four are dealt plainly
    bosnian = t.profile.bosnian and n == 4 and pack >= 5
    if (e.take or e.up) and not bosnian:
        raise t.refuse(f"seat {s}: the Bosnian exchange (take, up) is for a draw of four where the house plays "
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
    t.message = (f"seat {s} draws {n}" if n else f"seat {s} stands pat") + note
    if four:
        t.message += "; four cards, keeping an ace (checked at the show, D2)"
    if bosnian:
        faced = f" {e.up}" if e.up else ""
        t.message += (f"; the Bosnian exchange: seat {s} takes the face-up card{faced}" if e.take == "up" else
                      f"; the Bosnian exchange: seat {s} takes the face-down card, the face-up{faced} is dead"
                      if e.take == "down" else "; the Bosnian exchange (D16)")
    if escrow and e.split:
        t.message += f"; openers split, {' '.join(escrow)} in escrow (S1)"
    elif escrow:
        t.message += f"; the discards {' '.join(escrow)} are kept apart, as asked (F12)"
    waiting = [x for x in t.clockwise(s) if t.seats[x].status == SeatStatus.ACTIVE and x not in t.drew_this_round]
    if waiting:
        t.to_act = waiting[0]
    else:
        start_postdraw(t)


def start_postdraw(t: WorkingTable) -> None:
    """The second round (D4): from the opener, or the next live seat after the opener, or from the
    button's left when the profile says so; the big bet (D5)."""
    deal_owed(t)  # D12: every other player has drawn: a card faced is replaced now
    t.phase, t.checked = Phase.POSTDRAW, ()
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
    if t.age_seat is not None:
        start = t.age_seat  # D11: in a blind deal the first bet after the draw is left of the age
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


@ev.handles(ev.Show)
def show(t: WorkingTable, e: ev.Show) -> None:
    """Shows a hand. A hand of other than five cards is dead (H6). The opener proves openers with it,
    or with the escrow when openers were split (F1, S2)."""
    s = e.seat
    t.check_turn("show", s)
    if t.phase != Phase.SHOWDOWN or t.reopen is not None:
        raise t.refuse(f"seat {s} cannot show: hands are shown at the showdown")
    texts = e.cards  # read once, at the edge (rules.jackpot.events)
    check_cards(t, texts, "show")
    overlap = [c for c in texts if any(c in esc for _, esc in t.escrow)]
    if overlap:
        raise t.refuse(f"show: {overlap[0]} is in escrow, it cannot be in a hand")
    shown = [c for c in texts for x in t.order if x != s and c in (t.seats[x].shown or ())]
    if shown:
        raise t.refuse(f"show: {shown[0]} is already in another player's hand")
    if len(texts) == 5:
        try:
            evaluate(texts, t.hand_rules())
        except CardError as exc:
            raise t.refuse(f"show: {exc}") from None
    if t.profile.declared_hands and len(texts) == 5:
        declare_hand(t, s, texts, e.declare)
    elif e.declare is not None:
        raise t.refuse("show: hands are declared only where cards do not speak (declared_hands, H9)")
    t.set(s, shown=texts)
    if len(texts) == 5 and t.seats[s].drew_four and not any(c[0] == "A" or c == "Jk" for c in texts):
        # D2: four cards were drawn only to an ace kept; a hand without one is dead
        t.set(s, status=SeatStatus.DEAD)
        t.message = f"seat {s} shows {' '.join(texts)}: four cards were drawn without an ace kept, the hand is dead (D2)"
        if s == t.opener and not t.proven:
            t.unproven, t.unproven_hand = True, None
    elif len(texts) != 5:
        t.set(s, status=SeatStatus.DEAD)
        t.message = f"seat {s} shows {len(texts)} cards: a foul hand is dead (H6)"
        if s == t.opener and not t.proven:
            t.unproven, t.unproven_hand = True, None
    else:
        t.message = f"seat {s} shows {' '.join(texts)}"
        if s == t.opener and not t.proven:
            from rules.openers import proof
            escrow = t.escrow_of(s)
            # with several draws (D13) a card drawn may be drawn again: at least 5 - all drawn are kept
            kept = proof(texts, min(5, t.seats[s].drawn or 0), escrow, wild=t.hand_rules(), minimum=t.requirement)
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


def declare_hand(t: WorkingTable, s: int, texts: tuple[str, ...], declare: str | None) -> None:
    """H9, cards do not speak: the show names the hand's class; one the cards cannot make is refused
    (:func:`rules.hands.declare`, the check the floor's tree makes too)."""
    order = categories(t.hand_rules())
    if declare is None:
        raise t.refuse(f"seat {s} shows: here each player declares the hand (declare: one of {', '.join(order)}) "
                       "(H9)")
    try:
        declare_hand_value(texts, declare, t.hand_rules())
    except ValueError as exc:
        raise t.refuse(f"seat {s} declares {declare.replace('_', ' ')} with {' '.join(texts)}: {exc} (H9)") from None
    t.set(s, declared=declare)


@ev.handles(ev.Muck)
def muck(t: WorkingTable, e: ev.Muck) -> None:
    """Gives up the hand at the showdown. An opener left alone who mucks has not proved openers (F8)."""
    s = e.seat
    t.check_turn("muck", s)
    if t.phase != Phase.SHOWDOWN or t.reopen is not None:
        raise t.refuse(f"seat {s} cannot muck: hands are mucked at the showdown (fold while betting)")
    if s == t.opener and t.keep_asked is not None and not t.proven:
        raise t.refuse(f"seat {s} cannot muck: seat {t.keep_asked} asked the opener to keep the opening hand, "
                       "which is shown (F12)")
    t.set(s, status=SeatStatus.FOLDED)
    t.message = f"seat {s} mucks"
    if s == t.opener and not t.proven and not t.live():
        t.unproven, t.unproven_hand = True, None  # F8: left alone, the opener did not prove openers
    if t.phase == Phase.SHOWDOWN:
        next_show(t)


def next_show(t: WorkingTable) -> None:
    """Ask the next hand, or settle the pot once every hand is shown or mucked.

    An opener who did not prove openers waits for the other hands; then a ruling is needed
    (``t.next_step``), which :mod:`rules.jackpot.table` asks :mod:`rules.jackpot.irregularities` for.
    """
    live = t.live()
    pending = [x for x in t.show_order if x in live and t.seats[x].shown is None]
    must_show = t.profile.trips_to_win and not t.low
    uncontested = len(live) == 1 and not (live[0] == t.opener and not t.proven) and not must_show
    if t.keep_owed() and (not pending or uncontested):
        # F12: the opener who folded shows the kept opening hand before the pot is paid
        t.phase, t.to_act = Phase.SHOWDOWN, t.opener
        t.message += f"; seat {t.opener}, who opened, shows the opening hand kept at seat {t.keep_asked}'s request (F12)"
        return
    if pending:
        # The one live hand left wins without showing, as an uncontested pot (D7), whether the
        # others were mucked or found dead (a false opener, a failed split): an opener must still
        # prove openers (F1), and with trips to win the hand must show three of a kind (D9).
        if uncontested:
            if t.unproven:
                t.next_step = "rule_unproven"  # the dead opener's ruling gives it the pot
                return
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
        waiting = [x for x in t.clockwise(t.button) if x in live and x not in t.drew_this_round]
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
        # one player with chips facing no bet, everyone else all in: nobody to bet against, and the
        # round is over, as after_action has it when the betting gets there by itself
        alone = len(movers) == 1 and t.seats[movers[0]].committed >= t.bet_level
        if pending and current in pending and not alone:
            return
    after_action(t, current)
