"""The rulings at the table: false openers (F2-F9), a failed proof of openers (F1, F7, F8, S2), the
reopen offer (F3). Events ``false_openers`` and ``reopen``; the floor's own ruling and its
corrections of chips are :mod:`rules.jackpot.floor_word`. The decision tree (:mod:`rules.rulings`)
decides; this module reads its facts from the table and applies its ruling, typed, field by field:
no behaviour here depends on an outcome code or a citation.

* Irregularities: the engine reads the tree's facts from the log and calls ``rules.rulings.resolve``.
  A ruling is applied from its fields alone (dead, returns, barred, winner or winners, pot_plays,
  reopener, ante_for_all), whether the engine or a floor person asked for it. Unless it names a
  winner or a reopener, it ends the deal, the pot staying for the next one, exactly when the pot
  does not play (``pot_plays`` false); otherwise play goes on.
* ``false_openers`` found in the draw before anyone drew counts as found before the draw.

After a ruling that lets the deal go on, the play takes over again (``t.next_step = "resume"``,
:func:`rules.jackpot.flow.resume`); :mod:`rules.jackpot.table` runs the two in turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules import MissingFact, RulesError
from rules.jackpot.frozen import freeze
from rules.jackpot.event_base import NotNow, SeatEvent, Who, WithAmount, handles, may
from rules.jackpot.house import rake_off
from rules.jackpot.moves import TurnMove, turn_seat
from rules.jackpot.pots import split_amount
from rules.rulings import Ruling, resolve
from rules.jackpot.settlement import award, end_deal, settle, shut_out_folded, value
from rules.jackpot.state import IN_DEAL, DealEnd, Phase, ReopenOffer, SeatStatus, WorkingTable
from rules.words import ruling_headline

__all__ = ["FalseOpeners", "Reopen", "FalseOpenersMove", "ReopenMove", "read_facts", "irregularity",
           "false_openers", "reopen", "decline_reopen", "apply_ruling", "rule_unproven", "finish_rulings"]


@dataclass(frozen=True)
class FalseOpeners(SeatEvent):
    """It is found that the opener had no openers (F2-F9): the floor's word; a dealer's tap is a
    report that waits for a floor person."""

    kind = "false_openers"
    said = "{who}did not hold openers"
    by = Who.FLOOR
    reported = True


@dataclass(frozen=True)
class Reopen(WithAmount):
    """After false openers, an eligible player declares the pot open (F3)."""

    kind = "reopen"
    by = Who.DEALER
    said = "{who}reopens"


@dataclass(frozen=True)
class FalseOpenersMove(TurnMove):
    """The floor may find that the opener (``seat``) held no openers."""

    event_type = FalseOpeners
    place = 90

    def event(self) -> FalseOpeners:
        return FalseOpeners(self.seat)


@dataclass(frozen=True)
class ReopenMove(TurnMove):
    """An eligible player reopens the pot for the opening bet, ``amount`` (F3)."""

    event_type = Reopen
    place = 30
    amount: int

    def event(self, amount: int | None = None) -> Reopen:
        self.check_amount(amount)
        return Reopen(self.seat, amount)

    def check_amount(self, amount: int | None) -> None:
        if amount is not None and amount != self.amount:
            raise NotNow(f"seat {self.seat} cannot reopen for {amount}: the opening bet is {self.amount}")

    def words(self) -> str:
        return f"reopen for {self.amount}"


def read_facts(t: WorkingTable, issue: str, extra: Mapping[str, Any]) -> dict[str, Any]:
    """The facts of the decision tree, read from the table (the fact names of docs/contract.md, "Facts")."""
    opener = t.opener
    live = t.live()
    nobody_drew = all(t.seats[x].drawn is None for x in t.dealt)
    before = t.phase == Phase.PREDRAW or (t.phase == Phase.DRAW and nobody_drew)
    op = t.seats[opener] if opener is not None else None
    hands = {x: list(t.seats[x].shown or ()) for x in t.dealt if t.seats[x].shown is not None}
    facts: dict[str, Any] = {
        "issue": issue,
        "found": "before_draw" if before else "after_draw",
        "opener": opener,
        # O6, F7: all in for the ante (or part of it) is an opener who had nothing left to bet when
        # opening; one who opened all in for less than a bet put chips in and is an F2 opener
        "opener_all_in": bool(op is not None and op.stack == 0 and t.opener_bets and t.opener_bets[0] == 0),
        "raise_before_draw": t.raised_before_draw,
        "callers": t.callers,
        "action_complete_before_draw": t.phase != Phase.PREDRAW,
        "passed": list(t.passed),
        "active": live,
        "opener_bets": list(t.opener_bets),
        # the bets F3/F4 hand back are the live players': a hand already dead gave up every claim to
        # the pot (F2; GUIDE: "including their opening bet"), so a false opener whose pot was reopened
        # and whose reopener proves false too gets nothing back: that first opening bet stays in the
        # pot, as it does when the reopener fails at the showdown instead (F8)
        "bets": {x: t.seats[x].bets for x in t.dealt if x != opener and t.seats[x].status != SeatStatus.DEAD},
        "drawn_to": any(t.seats[x].drawn is not None for x in t.dealt if x != opener),
        "everyone_folded": not [x for x in live if x != opener],
        "hands": hands,
        "discards": list(t.escrow_of(opener)),
        # with several draws (D13) a card may be drawn twice: at most five of the hand are new
        "drawn": min(5, op.drawn or 0) if op is not None else 0,
        "requirement": t.requirement,
    }
    if t.profile.declared_hands and not t.low:
        # H9: the hands as declared at the show, where cards do not speak (the tree weighs these)
        facts["declared"] = {x: t.seats[x].declared for x in hands if t.seats[x].declared is not None}
    if t.widow is not None:
        facts["widow"] = t.widow  # wild widow: the rank that is wild this deal (H4)
    if opener is not None and t.seats[opener].shown is not None:
        facts["final_hand"] = list(t.seats[opener].shown or ())
    facts.update(extra)
    return facts


def _cannot_rule(issue: str, exc: RulesError) -> NotNow:
    """The refusal when the log cannot settle a ruling: what it lacks, and the way out."""
    what = f"needs '{exc.fact}', which the log does not hold" if isinstance(exc, MissingFact) else \
        f"cannot be ruled from the log ({exc})"
    return NotNow(f"{issue.replace('_', ' ')}: the ruling {what}; settle it on the floor page and log it "
                  "as a ruling event")


def irregularity(t: WorkingTable, issue: str, extra: Mapping[str, Any]) -> None:
    """Ask the decision tree and apply its ruling; a needed reopener starts the reopen offer (F3)."""
    facts = read_facts(t, issue, extra)
    try:
        ruling = resolve(dict(facts), t.profile)
    except MissingFact as exc:
        if exc.fact == "reopener":
            _offer_reopen(t, facts)
            return
        raise _cannot_rule(issue, exc) from None
    except RulesError as exc:
        raise _cannot_rule(issue, exc) from None
    apply_ruling(t, ruling, None, facts)


@may(FalseOpeners, (Phase.PREDRAW, Phase.DRAW, Phase.POSTDRAW))
def may_false_openers(t: WorkingTable, seat: int | None) -> FalseOpenersMove:
    """While an opened deal is played, of the opener whose hand is still live."""
    s = t.opener if seat is None else seat
    if s is None or s not in t.seats:
        raise NotNow(f"there is no seat {s} at this table")
    if t.phase not in (Phase.PREDRAW, Phase.DRAW, Phase.POSTDRAW) or not t.opened or t.reopen is not None:
        raise NotNow(f"false openers of seat {s}: only while an opened deal is being played "
                     "(at the showdown the opener shows or mucks)")
    if s != t.opener:
        raise NotNow(f"false openers of seat {s}: seat {s} is not the opener (seat {t.opener} is)")
    if t.seats[s].status != SeatStatus.ACTIVE:
        raise NotNow(f"false openers of seat {s}: the opener's hand is already {t.seats[s].status}")
    return FalseOpenersMove(s)


@handles(FalseOpeners)
def false_openers(t: WorkingTable, e: FalseOpeners, move: FalseOpenersMove) -> None:
    """It is found that the opener had no openers: the tree rules (F2-F9)."""
    t.message = f"seat {e.seat} had no openers"
    irregularity(t, "false_openers", {})


def _offer_reopen(t: WorkingTable, facts: Mapping[str, Any]) -> None:
    """F3: the active players other than the false opener, except those who passed, may reopen in turn."""
    opener = t.opener if t.opener is not None else t.button
    live = t.live()
    eligible = tuple(x for x in t.clockwise(opener) if x != t.opener and x in live and x not in t.passed)
    if not eligible:
        _conclude_reopen(t, dict(facts), None)
        return
    t.reopen = ReopenOffer(opener, eligible, (), tuple(facts.items()))
    t.to_act = eligible[0]
    t.message += f"; seats {', '.join(map(str, eligible))} may reopen the pot in turn (F3)"


def reopen_offered(t: WorkingTable) -> bool:
    """Whether a reopen offer stands (F3: false openers were found before the draw)."""
    return t.reopen is not None


@may(Reopen, IN_DEAL, when=reopen_offered)
def may_reopen(t: WorkingTable, seat: int | None) -> ReopenMove:
    """The seat asked in turn while the reopen offer stands (F3), for the opening bet."""
    x = turn_seat(t, "reopen", seat)
    if not reopen_offered(t):
        raise NotNow(f"seat {x.seat} cannot reopen: there is no reopen offer (false openers not found)")
    return ReopenMove(x.seat, min(t.small_bet, x.stack))


@handles(Reopen)
def reopen(t: WorkingTable, e: Reopen, move: ReopenMove) -> None:
    """An eligible player declares the pot open after false openers (F3)."""
    s = e.seat
    move.check_amount(e.amount)
    offer = t.reopen
    assert offer is not None
    t.reopen = None
    t.message = f"seat {s} reopens the pot"
    _conclude_reopen(t, dict(offer.facts), s)


def decline_reopen(t: WorkingTable, e: SeatEvent) -> None:
    """A pass during the reopen offer: this player does not reopen (F3)."""
    s = e.seat
    offer = t.reopen
    assert offer is not None
    asked = offer.asked + (s,)
    rest = [x for x in offer.eligible if x not in asked]
    t.message = f"seat {s} does not reopen"
    if rest:
        t.reopen = replace(offer, asked=asked)
        t.to_act = rest[0]
        return
    t.reopen = None
    _conclude_reopen(t, dict(offer.facts), None)


def _conclude_reopen(t: WorkingTable, facts: dict[str, Any], reopener: int | None) -> None:
    facts["reopener"] = reopener
    try:
        ruling = resolve(facts, t.profile)
    except RulesError as exc:
        raise _cannot_rule("false_openers", exc) from None
    apply_ruling(t, ruling, None, facts)


def apply_ruling(t: WorkingTable, r: Ruling, rid: int | None, facts: Mapping[str, Any] | None = None) -> None:
    """Apply a ruling from its fields: dead, returns, barred, winners, pot_plays, ante_for_all,
    ante_again, proved, and for a reopened pot (F3) the new opener. The ruling is checked against
    the table first (seats that are here, chips a seat put in); nothing changes when it is refused."""
    _check_ruling(t, r)
    record = r.to_dict()
    record["id"] = rid
    record["deal"] = t.deal_no  # the table's deal number, as the log and the tablet count deals
    if facts is not None:
        record["facts"] = dict(facts)  # what the engine read from the log for the tree
    t.rulings = t.rulings + (record,)
    t.added = t.added + (record,)
    _rule_hands(t, r)
    t.message = f"ruling {r.outcome}: {r.summary or r.outcome}"
    _rule_pot(t, r)


def _check_ruling(t: WorkingTable, r: Ruling) -> None:
    """A ruling against the table, before anything changes: the seats it names are here, no seat
    gets back more than it put in, a reopening only before the draw (F3), openers proved by the opener."""
    named = (*r.dead, *r.barred, *r.winners, *r.returns,
             *(x for x in (r.winner, r.reopener, r.ante_for_all, r.proved) if x is not None))
    for s in named:
        if s not in t.seats:
            raise NotNow(f"ruling: seat {s} is not at this table")
    for s, v in r.returns.items():
        if v > t.seats[s].put:
            raise NotNow(f"ruling: cannot hand {v} back to seat {s}, which has {t.seats[s].put} in the pot")
    if r.reopener is not None and t.phase != Phase.PREDRAW:
        raise NotNow(f"ruling: seat {r.reopener} cannot reopen the pot now (only before the draw, F3)")
    if r.proved is not None and r.proved != t.opener:
        raise NotNow(f"ruling: openers are proved by the opener (seat {t.opener}), not seat {r.proved}")


def _rule_hands(t: WorkingTable, r: Ruling) -> None:
    """What a ruling does to the hands and seats: openers proved, chips handed back, hands dead,
    the opener barred (F7), antes for all (F9)."""
    if r.proved is not None:
        # the opener's hand stands (F1, S2, S3): a hand the table had found dead for want of a
        # proof is live again, and the ruling the show was waiting for is not needed any more
        t.proven, t.unproven = True, False
        if t.seats[r.proved].status == SeatStatus.DEAD and t.seats[r.proved].shown is not None:
            t.set(r.proved, status=SeatStatus.ACTIVE)
    for s, v in r.returns.items():
        x = t.seats[s]
        t.set(s, stack=x.stack + v, put=x.put - v, bets=max(0, x.bets - v), committed=max(0, x.committed - v))
        if s == t.opener and v:
            t.opener_bets = t.opener_bets[:1]
    for s in r.dead:
        if t.seats[s].status == SeatStatus.ACTIVE and t.phase != Phase.BETWEEN_DEALS:
            t.set(s, status=SeatStatus.DEAD)
    for s in r.barred:
        t.set(s, status=SeatStatus.BARRED)
        if t.profile.f7_follows_player and t.seats[s].person not in t.barred_people:
            # F7: the bar is the person's, not the seat's (rules.jackpot.seating.sit)
            t.barred_people = (*t.barred_people, t.seats[s].person)
    if r.ante_for_all is not None:
        t.ante_for_all = r.ante_for_all


def _rule_pot(t: WorkingTable, r: Ruling) -> None:
    """What a ruling does to the pot: awarded to its winners (settled at the showdown when every live
    hand is shown), carried to the next deal, reopened (F3), or played on."""
    winners = list(r.winners) or ([r.winner] if r.winner is not None else [])
    if winners:
        live = t.live()
        if t.phase == Phase.SHOWDOWN and all(w in live and t.seats[w].shown is not None for w in winners) and all(
                t.seats[x].shown is not None for x in live):
            settle(t)  # the same winners, with side pots respected
            return
        amount = t.pot
        award(t, split_amount(rake_off(t, [amount])[0], winners, t.clockwise(t.button)))
        t.message += f"; {', '.join(f'seat {w}' for w in winners)} take{'s' if len(winners) == 1 else ''} the pot of {amount}"
        return
    if not r.pot_plays:
        # the pot stays for the next deal (F4, F8, F9); every ruling that lets the deal go on,
        # whatever it did to one hand, says pot_plays
        if r.showdown_only:
            shut_out_folded(t)  # D9: those who folded are out of the pot
        end_deal(t, DealEnd.CARRIED)
        t.force_ante = t.force_ante or r.ante_again  # F4, D9: everyone left in antes again
        t.message += f"; the pot of {t.pot} stays for the next deal"
        return
    if r.reopener is not None:
        _become_opener(t, r.reopener)
        return
    t.next_step = "resume"


def _become_opener(t: WorkingTable, s: int) -> None:
    """F3: the reopener declares the pot open and the betting round before the draw goes on."""
    t.opener, t.proven, t.split, t.escrow = s, False, False, ()
    seat = t.seats[s]
    due = min(t.small_bet, seat.stack)
    level = max([t.seats[x].committed for x in t.live()] + [0])
    if level < seat.committed + due:
        extra = seat.committed + due - level
        add = min(extra, seat.stack)
        t.put_chips(s, add)
        t.bet_level = t.seats[s].committed
        t.last_raise = max(t.last_raise, add)
        t.opener_bets = (add,)
    else:
        t.bet_level = level
        t.opener_bets = (0,)
    t.raises, t.callers, t.raised_before_draw = 0, 0, False
    t.last_aggressor = s
    for x in t.live():
        t.set(x, acted=(x == s))
    t.phase = Phase.PREDRAW
    t.message += f"; seat {s} is the opener now (F3)"
    t.next_step, t.resume_after = "resume", s  # the betting goes on after the reopener's opening


def finish_rulings(t: WorkingTable, added: tuple[Mapping[str, Any], ...],
                    before: WorkingTable) -> tuple[Mapping[str, Any], ...]:
    """Give the rulings an event produced their chips (what each seat's stack gained or lost over
    the event) and their headline in plain words, once the event has settled what it settles; the
    records come back read-only (:func:`rules.jackpot.frozen.freeze`), as the state keeps them."""
    chips = {s: x.stack - before.seats[s].stack for s, x in t.seats.items()
             if s in before.seats and x.stack != before.seats[s].stack}
    ended = t.phase == Phase.BETWEEN_DEALS and (before.phase != Phase.BETWEEN_DEALS or t.last_end != before.last_end
                                           or t.awards != before.awards)
    won = dict(t.awards) if ended and t.last_end == DealEnd.WON else None
    names = {s: x.player for s, x in t.seats.items()}
    hands: dict[int, str] = {}
    for w in won or {}:
        shown = t.finished.seats[w].shown if t.finished is not None and w in t.finished.seats else None
        if shown is not None and len(shown) == 5:
            hands[w] = value(t, shown).describe()
    pot_left = t.pot if ended and t.last_end != DealEnd.WON else None
    done = []
    for i, record in enumerate(added):
        if record.get("kind") == "correction":
            done.append(freeze(record))
            continue
        last = i == len(added) - 1
        new = dict(record)
        new["chips"] = chips if last else {}
        if last and won:
            # what the ruling's own event awarded: a ruling that lets the pot play on among the others
            # (a failed split, a dead opener at the show) may settle it in the same event, and its
            # record says so, so that no page reads "the pot played on" under "seat 4 wins the pot"
            new["won"] = dict(won)
        new["headline"] = ruling_headline(new, names, won=won if last else None,
                                          pot_left=pot_left if last else None, hands=hands)
        # recorded read-only (rules.jackpot.frozen): the states, to_dict() and the app share the record, uncopied
        done.append(freeze(new))
    count = len(added)
    t.rulings = t.rulings[:-count] + tuple(done) if count else t.rulings
    if done:
        t.message = "Ruling: " + str(done[-1]["headline"])
    return tuple(done)


def rule_unproven(t: WorkingTable) -> None:
    """The opener did not prove openers: the tree rules once the other hands are known (F1, F8, S2).

    A split that cannot be proved is ruled as split openers (S2) when other hands are left to take
    the pot; with nobody else left, any failed proof is ruled as an opener who cannot show openers,
    so that the pot stays and an all-in opener is barred (F8, F7) whichever way it was found.
    """
    t.unproven = False
    live = t.live()
    hands = {x: list(t.seats[x].shown or ()) for x in live if x != t.opener}
    # every live hand, an unshown one as [] (read_facts lists the shown ones only); the rest, the
    # opener's draw and whether everyone else folded among them, is read_facts' own reading
    extra: dict[str, Any] = {"hands": hands}
    if t.unproven_hand is not None:
        extra["final_hand"] = list(t.unproven_hand)
    else:
        extra["final_hand"] = None  # mucked, or a foul hand: nothing to prove openers with
    issue = "split_openers" if t.split and hands and t.unproven_hand is not None else "opener_cannot_show"
    irregularity(t, issue, extra)
    if t.phase != Phase.BETWEEN_DEALS:
        t.next_step = "resume"  # the other hands are all in: the showdown is settled
