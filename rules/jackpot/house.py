"""The house's take at a table (issue 32): the rake of a pot when it is won, and what the house
has taken so far (the state's ``house``: rake, time, drop), which the conservation law counts:
stacks + pot + the house's take == starting stacks + chips in - chips out, after every event.

The rake (the profile's ``rake`` {percent, cap, min_pot}, :class:`rules.house.Rake`) is taken once,
when a pot is won, from the whole pot (every deal of a carried jackpot, every layer), never from a
deal whose pot carries. It comes off before the pot is divided, from the main pot first, then the
side pots in order (:func:`rake_off`): tied winners share what is left, and a side pot is raked
only for what the main pot could not give. A ruling that awards a pot rakes it the same way; a
ruling that hands chips back takes no rake from them (they were not won). Decisions: docs/house.md.

>>> from rules.jackpot import start
>>> t = start({"profile": {"rake": {"percent": 10, "cap": 5}}, "ante": 5, "small_bet": 10, "button": 1,
...            "seats": [{"seat": s, "player": p, "stack": 100} for s, p in ((1, "Ann"), (2, "Bob"))]})
>>> t = t.apply({"type": "deal"}).apply({"type": "open", "seat": 2}).apply({"type": "fold", "seat": 1})
>>> t = t.apply({"type": "show", "seat": 2, "cards": "Ks Kd 7h 4c 2s"})
>>> t.to_dict()["awards"], t.to_dict()["house"]
({2: 18}, {'rake': 2, 'time': 0, 'drop': 0, 'last_rake': 2, 'last_drop': 0, 'pool': None})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.jackpot.state import WorkingTable

__all__ = ["rake_due", "drop_due", "rake_off", "note_winners", "start_kill"]


def rake_due(t: WorkingTable) -> int:
    """The rake the house takes from the pot in play if it is won now (0 without a rake)."""
    rake = t.profile.rake
    return 0 if rake is None else rake.due(t.pot)


def drop_due(t: WorkingTable) -> int:
    """The drop set aside for a promotion (the profile's ``drop`` {amount, pool}) if the pot in play
    is won now: from a pot the rake's min_pot admits (any pot without a rake), after the rake."""
    drop, rake = t.profile.drop, t.profile.rake
    if drop is None or (rake is not None and t.pot < rake.min_pot):
        return 0
    return max(0, min(drop.amount, t.pot - rake_due(t)))


def rake_off(t: WorkingTable, layers: Sequence[int]) -> list[int]:
    """The pot's layers (main pot first; they add up to the pot) once the rake and the drop are
    taken from them, main pot first. :func:`rules.jackpot.settlement.award` then records them.

    >>> from rules.jackpot import start
    >>> t = start({"profile": {"rake": {"percent": 10, "cap": 50}}, "ante": 5, "small_bet": 10,
    ...            "seats": [{"seat": 1, "player": "A", "stack": 100}, {"seat": 2, "player": "B", "stack": 100}]})
    >>> t = t.apply({"type": "deal"})
    >>> rake_off(t._t, [6, 4])  # a pot of 10: the rake of 1 from the main pot
    [5, 4]
    """
    due = rake_due(t) + drop_due(t)
    out = []
    for amount in layers:
        take = min(amount, due)
        due -= take
        out.append(amount - take)
    return out


# ------------------------------------------------------------------ kill pots


def note_winners(t: WorkingTable, awards: Mapping[int, int]) -> None:
    """A pot is won (after it is paid): the run of pots won alone by one player goes on or starts
    again (a split pot ends it), and a kill pot's stakes go back to the table's."""
    won = [s for s, amount in awards.items() if amount > 0]
    if len(won) == 1 and won[0] == t.streak_seat:
        t.streak += 1
    elif len(won) == 1:
        t.streak_seat, t.streak = won[0], 1
    else:
        t.streak_seat, t.streak = None, 0
    if t.kill_base is not None:
        t.small_bet, t.big_bet = t.kill_base
        t.kill, t.kill_base = None, None


def start_kill(t: WorkingTable, dealt: Sequence[int]) -> list[str]:
    """The first deal of a new pot: a kill pot when the house plays them and a player dealt in has
    won the last ``after`` pots alone. Its bets are ``times`` the table's for every deal of the pot,
    and the killer puts in a kill of one small bet of the kill pot (dead money: the killer's claim,
    not a bet of the round); in words for the deal's message."""
    kill = t.profile.kill
    killer = t.streak_seat
    if kill is None or killer is None or t.streak < kill.after or killer not in dealt:
        return []
    t.kill, t.kill_base = killer, (t.small_bet, t.big_bet)
    t.small_bet, t.big_bet = t.small_bet * kill.times, t.big_bet * kill.times
    posted = min(t.small_bet, t.seats[killer].stack)
    if posted:
        t.put_chips(killer, posted, bet=False)
    return [f"a kill pot: seat {killer} has won {t.streak} pots in a row and puts in a kill of {posted}; "
            f"the bets are {t.small_bet}/{t.big_bet} (kill)"]
