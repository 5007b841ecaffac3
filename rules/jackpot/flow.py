"""The turn moving on: after each action, the next seat to act or the end of a betting round (the
draw, the showdown), everyone else folding (D7, D9, F1, F12), and the deal going on from where a
ruling left it (:func:`resume`). The events themselves are each in the module of the rules they
follow (:mod:`rules.jackpot.events` lists them).

The irregularities a deal can meet are ruled in :mod:`rules.jackpot.irregularities`; this module only
goes on from where a ruling leaves the deal. :mod:`rules.jackpot.table` runs the two in turn.
"""

from __future__ import annotations

from rules.jackpot.draw import start_draw, start_postdraw
from rules.jackpot.house import rake_off
from rules.jackpot.settlement import award, end_deal, throw_in
from rules.jackpot.showdown import keep_owed, next_show, start_showdown
from rules.jackpot.state import DealEnd, Phase, WorkingTable

__all__ = ["after_action", "last_standing", "resume"]


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
    if keep_owed(t):
        t.phase, t.show_order = Phase.SHOWDOWN, (w,)
        t.message += f"; everyone else folded to seat {w}"
        next_show(t)  # F12: the opener who folded shows the kept hand first
        return
    amount = t.pot
    nobody_came_in = t.age_seat == w and t.callers == 0 and t.phase == Phase.PREDRAW
    award(t, {w: rake_off(t, [amount])[0]})
    t.message += f"; seat {w} takes the pot of {amount} uncalled (D7)"
    if nobody_came_in:
        t.jack_pot = True  # D11: the age went unchallenged, so the next deal is a jack pot
        t.message += "; the age went unchallenged: the next deal is played as a jack pot (D11)"


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
