"""Disqualifying a player already out of the event, and lifting a disqualification (session 41).

A player still in is disqualified by the desk's manual bust-out with its box ticked
(:func:`floor.tournament.desk.eliminate`), which takes their chips off the table. Cheating is often
found after the hand that put the player out: :func:`disqualify` is for them. Either kind stands
until :func:`lift_disqualification` (or, for the bust-out's own, its undo) lifts it; whether one
stands is read from the desk's sealed records alone (:func:`floor.tournament.models.disqualifications`),
and while it does a rebuy, add-on, re-entry or entry is refused
(:func:`floor.tournament.service.check_not_disqualified`). docs/tournament.md, "Disqualification".
"""

from __future__ import annotations

from floor.extensions import db
from floor.models import Entry, Tournament, User
from floor.tournament import models as desk_models
from floor.tournament import service
from floor.tournament.desk import check_not_over
from floor.tournament.eliminations import lock_the_event, synced
from floor.tournament.models import DeskKind
from rules import IllegalAction


@synced(after=False)
def disqualify(t: Tournament, player: str, reason: str, user: User | None) -> Entry:
    """Disqualify a player already out of the event (busted by the cards, or gone): cheating found
    after the hand that put them out. Nothing moves on a table and their place stands; from now a
    rebuy, add-on, re-entry or entry of theirs is refused, as after a bust-out that disqualifies
    (:func:`floor.tournament.service.check_not_disqualified`). A player still in is disqualified
    by the bust-out itself (:func:`floor.tournament.desk.eliminate`), which takes their chips off
    the table. The reason is required; :func:`lift_disqualification` undoes it.

    Synced before: a player the cards have just busted is recorded out first, so the floor can
    disqualify them at once."""
    check_not_over(t, "disqualify")
    said = desk_models.reason_text(reason)
    if said is None:
        raise IllegalAction("disqualify: say why the player is disqualified (reason)")
    entry = service.entry_named(t, player)
    if entry is None:
        raise IllegalAction(f"disqualify: {player.strip() or 'nobody'} has no entry in {t.event.name}")
    if not entry.is_out:
        raise IllegalAction(f"disqualify: {entry.player} is still in the event; bust them out at the desk with "
                            "'Disqualified' ticked, which takes their chips off the table")
    lock_the_event(t)
    if entry.player.casefold() in desk_models.disqualifications(t):
        raise IllegalAction(f"disqualify: {entry.player} is disqualified already")
    desk_models.record(t, DeskKind.DISQUALIFY, user, player=entry.player, reason=said, out_order=entry.out_order)
    db.session.commit()
    return entry


def lift_disqualification(t: Tournament, player: str, reason: str, user: User | None) -> Entry:
    """Lift a disqualification that stands (made on the wrong player, or overturned): the player
    may rebuy, add on and enter again as anyone may; a place given stays given (a bust-out made with
    the disqualification stands: :func:`reinstate` undoes that, while it is the latest). The desk
    keeps who lifted it and why (required), and which action it undoes."""
    check_not_over(t, "lift the disqualification")
    said = desk_models.reason_text(reason)
    if said is None:
        raise IllegalAction("lift the disqualification: say why it is lifted (reason)")
    lock_the_event(t)
    entry = service.entry_named(t, player)
    standing = desk_models.disqualifications(t).get(entry.player.casefold()) if entry is not None else None
    if entry is None or standing is None:
        raise IllegalAction(f"lift the disqualification: {player.strip() or 'nobody'} is not disqualified "
                            f"in {t.event.name}")
    desk_models.record(t, DeskKind.LIFT_DISQUALIFY, user, player=entry.player, reason=said, undoes=standing.id)
    db.session.commit()
    return entry
