"""A money model of the jacks-or-better table, written apart from ``rules/``: who holds each chip.

It imports nothing of the project's engine: hands are valued by the night's referee
(:mod:`night.referee`, itself apart from ``rules/``), and everything about chips is read here from
the seeds, rule by rule (the rule ids of the project's catalogue). It follows a logged deal event by
event, as a floor person with a notepad would: the antes, every bet, who is still in, what a ruling
hands back, who takes the pot. It keeps its own reading of when a betting round is over, because the
false-openers rulings depend on it (F5).

Where the seeds are silent the project decided, and the model follows the decision, saying whose it
is (``DECISIONS`` below); everything else is the seeds' own words, read as the comments say.

A seat's chips are ``stack`` (in front of the player) and ``put`` (in the pot now, over all the deals
of a carried pot): conservation is stacks + pot constant, which the model asserts after each event.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from night import referee

#: Where the seeds are silent: the project's decisions the model holds the engine to (each names
#: where it is written down).
DECISIONS = {
    "dead_bets": "F4 hands back the bets of the live players only: a hand already dead (a false opener, a "
                 "hand of the wrong size) gave up its claim to the pot, and its bets with it (docs/money.md).",
    "zero_stack_claim": "A player with no chips but a claim on a carried pot is dealt in, all in for nothing "
                        "(O6), and plays for what the claim covers (rules.jackpot.state.deal_plan).",
    "capped_newcomer": "Nobody plays a capped pot (O4) free: a player with nothing in it is not dealt in, unless "
                       "that leaves fewer than two players, when everyone antes again (issue 22).",
    "orphan_layer": "A side pot none of whose claimants is left goes to the best live hand at the table: the "
                    "chips cannot stay with nobody (night.referee.expected_awards).",
    "proof": "Openers are proved by what a dealer can see: some of the final hand's kept cards with the escrow "
             "hold openers (F1, S2; night.referee.could_open_split).",
    "last_claimant": "A carried pot whose other claimants all left goes to the one player left at the table "
                     "when that player has a claim (rules.jackpot.seating.last_claimant_takes_the_pot).",
}


@dataclass
class Seat:
    player: str
    stack: int
    put: int = 0          # in the pot now, over the deals of a carried pot (antes and bets)
    bets: int = 0         # bets of this deal, antes aside (what F3 and F4 hand back)
    round: int = 0        # chips in this betting round
    status: str = "out"   # in, folded, dead, barred (F7), out (not dealt)
    acted: bool = False
    shown: tuple[str, ...] | None = None
    drawn: int | None = None


@dataclass
class Options:
    """What the model reads of a profile: the few options that move chips."""

    ante: int = 5
    small: int = 10
    big: int = 20
    ante_cap: int | None = 3         # O4
    false_rules: str = "cardroom"    # F2-F7, or F9 ("foster")
    wrong_count_before: str = "correct"  # D8
    wild: str = "bug"                # H2, for the referee's hand values

    @classmethod
    def of(cls, profile: str) -> Options:
        """The three main profiles' options, as the project's catalogue states them."""
        if profile == "cardroom":
            return cls()
        if profile == "pagat":
            return cls(ante_cap=None)
        if profile == "foster":
            return cls(ante_cap=None, false_rules="foster", wrong_count_before="dead", wild="none")
        raise ValueError(profile)


class ModelError(AssertionError):
    """The model cannot follow the log (an event its reading does not allow)."""


@dataclass
class Model:
    options: Options
    seats: dict[int, Seat]
    left: list[int] = field(default_factory=list)  # what players who left put in: it stays in the pot
    # the pot over its deals
    new_pot: bool = True
    ante_deals: int = 0
    force_ante: bool = False
    ante_for_all: int | None = None
    barred: set[str] = field(default_factory=set)
    # the deal
    phase: str = "between"
    dealt: list[int] = field(default_factory=list)
    opened: bool = False
    opener: int | None = None
    opener_bets: list[int] = field(default_factory=list)
    proven: bool = False
    passed: set[int] = field(default_factory=set)
    callers: int = 0
    raised: bool = False
    level: int = 0
    escrow: tuple[str, ...] = ()
    reopen: list[int] | None = None   # F3: the seats still to be asked
    keep: bool = False                # F12 asked
    unproven: bool = False            # the opener showed without proving (F1): its ruling waits
    awards: dict[int, tuple[int, int]] | None = None  # the last award: seat -> (least, most)
    ended: str | None = None          # how the last deal ended: won, carried, thrown_in
    pending_pot: int = 0              # a pot won, until the engine's split of it is checked and paid
    left_with: int = 0                # the stack the last player to leave took away

    @classmethod
    def of(cls, setup: dict[str, Any]) -> Model:
        seats = {int(x["seat"]): Seat(x["player"], int(x["stack"])) for x in setup["seats"]}
        return cls(Options.of(setup["profile"]), seats)

    def copy(self) -> Model:
        new = Model.__new__(Model)
        new.__dict__.update(self.__dict__)
        new.seats = {s: replace(x) for s, x in self.seats.items()}
        new.left, new.barred, new.passed = list(self.left), set(self.barred), set(self.passed)
        new.dealt, new.opener_bets = list(self.dealt), list(self.opener_bets)
        new.reopen = list(self.reopen) if self.reopen is not None else None
        new.awards = dict(self.awards) if self.awards is not None else None
        return new

    # ------------------------------------------------------------------ readings
    @property
    def pot(self) -> int:
        return sum(x.put for x in self.seats.values()) + sum(self.left)

    def live(self) -> list[int]:
        return [s for s in self.dealt if s in self.seats and self.seats[s].status == "in"]

    def money(self) -> tuple[dict[int, int], int]:
        return {s: x.stack for s, x in self.seats.items()}, self.pot

    def _pay(self, s: int, chips: int, bet: bool = True) -> int:
        x = self.seats[s]
        chips = min(chips, x.stack)
        x.stack -= chips
        x.put += chips
        if bet:
            x.bets += chips
            x.round += chips
        return chips

    def _back(self, s: int, chips: int) -> None:
        """A ruling hands chips back from the pot."""
        x = self.seats[s]
        x.stack += chips
        x.put -= chips
        x.bets -= chips
        x.round = max(0, x.round - chips)

    # ------------------------------------------------------------------ between deals
    def apply(self, e: dict[str, Any], opening: dict[int, tuple[str, ...]]) -> None:
        """Follow one logged event; ``opening`` holds the five cards each seat was dealt (the truth)."""
        before = sum(x.stack for x in self.seats.values()) + self.pot + self.pending_pot
        kind = e["type"]
        getattr(self, "_" + kind)(e, opening)
        after = sum(x.stack for x in self.seats.values()) + self.pot + self.pending_pot
        brought = e.get("chips", 0) if kind == "sit" else e.get("amount", 0) if kind == "add_chips" else 0
        taken = self.left_with if kind == "leave" else 0
        assert after == before + brought - taken, f"the model lost chips on {e}"

    def _deal(self, e: dict[str, Any], opening: dict[int, tuple[str, ...]]) -> None:
        o = self.options
        if self.new_pot:
            # F7: barred "until after that pot has been legally opened and won"
            self.barred.clear()
            self.ante_deals, self.force_ante = 0, False
        candidates = [s for s, x in sorted(self.seats.items())
                      if x.player not in self.barred and (x.stack > 0 or x.put > 0)]  # zero_stack_claim
        antes = self.new_pot or self.force_ante or o.ante_cap is None or self.ante_deals < o.ante_cap
        if not antes and not self.new_pot:
            # capped_newcomer: nobody plays a capped pot free
            paid_in = [s for s in candidates if self.seats[s].put > 0]
            if len(paid_in) >= 2:
                candidates = paid_in
            else:
                antes = True
        if len(candidates) < 2:
            raise ModelError("a deal needs two players")
        self.dealt = [s for s in opening if s in candidates]  # in the engine's dealing order
        if sorted(self.dealt) != candidates:
            raise ModelError(f"dealt {sorted(opening)}, the model deals {candidates}")
        for s, x in self.seats.items():
            x.status = "in" if s in self.dealt else ("barred" if x.player in self.barred else "out")
            x.bets = x.round = 0
            x.acted, x.shown, x.drawn = False, None, None
        payer = self.ante_for_all if self.ante_for_all in self.dealt else None
        if payer is not None and o.ante:
            # F9: the false opener antes for all the others: each ante is that player's, and so is the
            # claim it buys on the pot (what a player all in may win)
            paid = self._pay(payer, o.ante * len(self.dealt), bet=False)
            share = paid // len(self.dealt)
            for s in self.dealt:
                self.seats[payer].put -= share
                self.seats[s].put += share
            self.ante_deals += 1
        elif antes and o.ante:
            for s in self.dealt:  # O6: a short stack antes what it has
                self._pay(s, o.ante, bet=False)
            self.ante_deals += 1
        self.ante_for_all, self.force_ante, self.new_pot = None, False, False
        self.phase, self.opened, self.opener, self.opener_bets = "predraw", False, None, []
        self.proven, self.passed, self.callers, self.raised, self.level = False, set(), 0, False, 0
        self.escrow, self.reopen, self.keep, self.unproven = (), None, False, False
        self.awards, self.ended = None, None

    def _sit(self, e: dict[str, Any], opening: Any) -> None:
        self.seats[int(e["seat"])] = Seat(e["player"], int(e["chips"]))

    def _add_chips(self, e: dict[str, Any], opening: Any) -> None:
        self.seats[int(e["seat"])].stack += int(e["amount"])  # F7: the bar stays

    def _leave(self, e: dict[str, Any], opening: Any) -> None:
        x = self.seats.pop(int(e["seat"]))
        self.left_with = x.stack
        if x.put:
            self.left.append(x.put)  # "what they put into a carried pot stays in it" (DESIGN)
        # F7: the bar is the person's; leaving does not lift it ("even if you buy in again", issue 31)
        if len(self.seats) == 1 and not self.new_pot and self.pot:
            ((w, last),) = self.seats.items()
            if last.put and last.player not in self.barred:  # last_claimant
                self._award({w: self.pot})

    # ------------------------------------------------------------------ betting (O2, D5)
    def _after_bet(self, s: int) -> None:
        self.seats[s].acted = True
        live = self.live()
        if len(live) == 1:
            self._last_standing(live[0])
            return
        self._close_round_if_over()

    def _close_round_if_over(self) -> None:
        live = self.live()
        movers = [x for x in live if self.seats[x].stack > 0]
        pending = [x for x in movers if not self.seats[x].acted or self.seats[x].round < self.level]
        if pending and not (len(movers) == 1 and self.seats[movers[0]].round >= self.level):
            return
        for x in self.seats.values():
            x.round, x.acted = 0, False
        self.level = 0
        self.phase = "draw" if self.phase == "predraw" else "showdown"

    def _pass(self, e: dict[str, Any], opening: Any) -> None:
        s = int(e["seat"])
        if self.reopen is not None:  # F3: this player does not reopen
            self.reopen.remove(s)
            if not self.reopen:
                self._no_reopener()
            return
        self.passed.add(s)
        if not [x for x in self.live() if x not in self.passed]:
            self.phase, self.ended = "between", "thrown_in"  # O3: the pot waits, no chips move

    def _open(self, e: dict[str, Any], opening: Any) -> None:
        s = int(e["seat"])
        amount = e.get("amount") or self.options.small
        paid = self._pay(s, amount)  # O6: an all-in player opens for what it has, even nothing
        self.opened, self.opener, self.opener_bets, self.level = True, s, [paid], self.seats[s].round
        self._after_bet(s)

    def _check(self, e: dict[str, Any], opening: Any) -> None:
        s = int(e["seat"])
        if self.phase == "predraw" and not self.raised and s != self.opener:
            self.callers += 1  # the opening bet was nothing (O6): to check is to call it (F5 counts it)
        self._after_bet(s)

    def _call(self, e: dict[str, Any], opening: Any) -> None:
        s = int(e["seat"])
        paid = self._pay(s, self.level - self.seats[s].round)
        if s == self.opener and paid:
            self.opener_bets.append(paid)  # F2: every bet after the opening bet
        if self.phase == "predraw" and not self.raised:
            self.callers += 1
        self._after_bet(s)

    def _raise(self, e: dict[str, Any], opening: Any) -> None:
        s = int(e["seat"])
        step = self.options.small if self.phase == "predraw" else self.options.big
        paid = self._pay(s, self.level + step - self.seats[s].round)
        # a raise all in for less than a full one is still what the others must call: no more
        self.level = max(self.level, self.seats[s].round)
        if self.phase == "predraw":
            self.raised = True
        self._aggressor(s, paid)

    def _bet(self, e: dict[str, Any], opening: Any) -> None:
        # after the draw the big bet (D5); before it only over an all-in opener's opening of nothing
        # (O6): the first chips in, a bet and not a raise
        s = int(e["seat"])
        paid = self._pay(s, self.options.big if self.phase == "postdraw" else self.options.small)
        self.level = self.seats[s].round  # all in for less, the bet is what it put in
        self._aggressor(s, paid)

    def _aggressor(self, s: int, paid: int) -> None:
        """A bet or a raise: every other live player must act again; an opener's bet after the opening
        one is among those F2 hands back while the betting before the draw is open."""
        if s == self.opener:
            self.opener_bets.append(paid)
        for x in self.live():
            if x != s:
                self.seats[x].acted = False
        self._after_bet(s)

    def _fold(self, e: dict[str, Any], opening: Any) -> None:
        s = int(e["seat"])
        self.seats[s].status = "folded"
        self._after_bet(s)

    def _last_standing(self, w: int) -> None:
        """Everyone else is out of the deal: the pot is won without a show (D7), but an opener who
        has not proved openers must show them (F1, PAGAT "even if all the other players fold")."""
        o = self.seats[self.opener] if self.opener is not None else None
        if w == self.opener and not self.proven:
            self.phase = "showdown"
            return
        if self.keep and not self.proven and o is not None and o.status == "folded" and o.shown is None:
            self.phase = "showdown"  # F12: the opener who folded shows the kept hand before the pot is paid
            return
        self._award({w: self.pot})

    # ------------------------------------------------------------------ the draw (D2, S1, D12, F12)
    def _draw(self, e: dict[str, Any], opening: Any) -> None:
        s = int(e["seat"])
        if self.phase != "draw":
            raise ModelError(f"a draw in the {self.phase}")
        self.seats[s].drawn = int(e["count"])
        if e.get("escrow"):
            self.escrow = tuple(e["escrow"])  # S1 split, or F12 every discard kept apart
        if all(self.seats[x].drawn is not None for x in self.live()):
            self.phase = "postdraw"
            self._close_round_if_over()  # nobody left to bet: straight to the show

    def _expose(self, e: dict[str, Any], opening: Any) -> None:
        pass  # D12: a faced card is replaced; no chips move

    def _keep_openers(self, e: dict[str, Any], opening: Any) -> None:
        self.keep = True  # F12: the opener shows the opening hand at the end; no chips move

    # ------------------------------------------------------------------ the showdown (D6, F1, F8, S2, H5)
    def _show(self, e: dict[str, Any], opening: Any) -> None:
        s = int(e["seat"])
        if self.phase == "postdraw":
            self._close_round_if_over()
        if self.phase != "showdown":
            raise ModelError(f"a show in the {self.phase}")
        x = self.seats[s]
        x.shown = tuple(e["cards"])
        if s == self.opener and not self.proven:
            drawn = x.drawn or 0
            if len(x.shown) == 5 and referee.could_open_split(list(x.shown), list(self.escrow), drawn, self.options.wild):
                self.proven = True  # F1, S2 (decision "proof")
            else:
                x.status = "dead"  # F1: the opener cannot win; the ruling waits for the other hands (F8)
                self.unproven = True
        elif len(x.shown) != 5:
            x.status = "dead"  # H6: a foul hand is dead
        self._settle_if_all_in()

    def _muck(self, e: dict[str, Any], opening: Any) -> None:
        s = int(e["seat"])
        self.seats[s].status = "folded"
        if s == self.opener and not self.proven and not self.live():
            self.unproven = True  # F8: left alone, the opener mucks without proving openers
        self._settle_if_all_in()

    def _settle_if_all_in(self) -> None:
        """Settle once every live hand is shown; one live hand left takes the pot unshown (D7), unless
        it is the opener's still to prove openers (F1). An opener asked to keep the opening hand shows
        it before the pot is paid, even after folding (F12)."""
        live = self.live()
        o = self.seats.get(self.opener) if self.opener is not None else None
        if self.keep and not self.proven and o is not None and o.status == "folded" and o.shown is None:
            return
        if any(self.seats[x].shown is None for x in live):
            if len(live) == 1 and not (live[0] == self.opener and not self.proven):
                self._opener_failed()
                self._award({live[0]: self.pot})
            return
        self._opener_failed()
        if not live:
            self._carry()  # F8: everyone else folded and the opener did not prove openers
            return
        self._showdown(live)

    def _opener_failed(self) -> None:
        """An opener who did not prove openers is a false opener, whenever it is found: in Foster's game,
        drawn to, it antes for all the others next deal (F9); all in for the ante, it is out of the pot's
        deals until the pot is won (F7)."""
        if not self.unproven or self.opener is None:
            return
        self.unproven = False
        x = self.seats[self.opener]
        if self.options.false_rules == "foster":
            if any(self.seats[y].drawn is not None for y in self.dealt if y != self.opener and y in self.seats):
                self.ante_for_all = self.opener
        elif x.stack == 0 and self.opener_bets[:1] == [0]:
            self.barred.add(x.player)

    def _showdown(self, live: list[int]) -> None:
        """H5: the best hand wins each layer it has a claim on; a player all in wins from each other
        player only as much as it put in itself (the claim); an exact tie splits (odd chips to either)."""
        value = {s: referee.value(list(self.seats[s].shown or ()), self.options.wild) for s in live}
        all_in = {s for s in live if self.seats[s].stack == 0}
        # the chips of those who folded, died or left stay in the layers they reached
        claims = {s: x.put for s, x in self.seats.items()}
        claims.update({-i: c for i, c in enumerate(self.left)})
        levels = sorted({claims[s] for s in all_in} | {max(claims[s] for s in live)})
        ranges: dict[int, list[int]] = {}
        previous = 0
        for i, level in enumerate(levels):
            top = i == len(levels) - 1
            amount = sum(min(c, level) - min(c, previous) for c in claims.values())
            if top:
                amount += sum(max(0, c - level) for c in claims.values())
            eligible = [s for s in live if s not in all_in or claims[s] >= level] or live  # orphan_layer
            best = max(value[s] for s in eligible)
            winners = [s for s in eligible if value[s] == best]
            for s, (lo, hi) in referee.split_pot(amount, winners).items():
                r = ranges.setdefault(s, [0, 0])
                r[0] += lo
                r[1] += hi
            previous = level
        self._award({s: (lo, hi) for s, (lo, hi) in ranges.items()})

    def _award(self, shares: dict[int, Any]) -> None:
        """The pot is won: each winner is paid; exact amounts are settled against the engine's."""
        self.awards = {s: (v, v) if isinstance(v, int) else v for s, v in shares.items()}
        self.pending_pot = self.pot
        for x in self.seats.values():
            x.put = 0
        self.left = []
        self.barred.clear()  # F7: the bar lasts until the pot is won
        self.phase, self.ended, self.new_pot = "between", "won", True

    def pay_awards(self, actual: dict[int, int]) -> str | None:
        """Pay the award as the engine split it, once it is within the model's ranges; else why not."""
        expected = {s: r for s, r in (self.awards or {}).items() if r[1]}
        if set(expected) != {s for s, v in actual.items() if v}:
            return f"winners {sorted(expected)} (model) against {sorted(s for s, v in actual.items() if v)}"
        if any(not lo <= actual[s] <= hi for s, (lo, hi) in expected.items()):
            return f"shares {expected} (model) against {actual}"
        if sum(actual.values()) != self.pending_pot:
            return f"the award pays {sum(actual.values())} of a pot of {self.pending_pot}"
        for s, v in actual.items():
            self.seats[s].stack += v
        self.awards, self.pending_pot = {s: (v, v) for s, v in actual.items()}, 0
        return None

    def _carry(self) -> None:
        self.phase, self.ended = "between", "carried"

    # ------------------------------------------------------------------ false openers (F2-F9)
    def _false_openers(self, e: dict[str, Any], opening: dict[int, tuple[str, ...]]) -> None:
        s = int(e["seat"])
        if s != self.opener:
            raise ModelError("false openers of a seat that did not open")
        if referee.qualifies(list(opening[s]), self.options.wild):
            raise ModelError(f"seat {s} held openers: {opening[s]}")
        before = self.phase == "predraw" or (self.phase == "draw" and all(
            self.seats[x].drawn is None for x in self.dealt if x in self.seats))
        if self.options.false_rules == "foster":
            self._foster(s)
            return
        x = self.seats[s]
        x.status = "dead"  # F2: "the false opener has a dead hand"
        if not before:
            # after the draw the action before it was complete: the pot plays on, nothing goes back
            # (F5, F6); with nobody else in, the pot stays (F8)
            self._resume_without(s)
            return
        all_in_for_ante = x.stack == 0 and self.opener_bets[:1] == [0]
        if all_in_for_ante:
            self.barred.add(x.player)  # F7: loses the ante money, out of this pot's deals until won
            x.status = "barred"
        plays = self.raised or self.callers >= 2 or self.phase != "predraw"  # F5
        if plays:
            if self.phase == "predraw" and not all_in_for_ante:
                self._back(s, sum(self.opener_bets[1:]))  # F2: bets after the opening bet, while open
            self._resume_without(s)
            return
        if not all_in_for_ante:
            self._back(s, sum(self.opener_bets[1:]))
        # F3: any other active player may declare the pot open, except those who passed
        self.reopen = [y for y in self.live() if y != s and y not in self.passed]
        if not self.reopen:
            self._no_reopener()

    def _resume_without(self, s: int) -> None:
        """The deal goes on without the dead hand of seat ``s``: its bets stay in the pot and are no
        bet to call (the live players need only match each other)."""
        live = self.live()
        self.level = max([self.seats[y].round for y in live] + [0])
        if not live:
            self._carry()
        elif len(live) == 1 and self.phase != "showdown":
            self._award({live[0]: self.pot})  # D7: the one hand left takes the pot
        elif self.phase in ("predraw", "postdraw"):
            self._close_round_if_over()
        elif self.phase == "draw" and all(self.seats[y].drawn is not None for y in live):
            self.phase = "postdraw"
            self._close_round_if_over()

    def _hand_back_bets(self) -> None:
        """F3, F4: every bet of the live players goes back (decision "dead_bets")."""
        for y in self.live():
            if self.seats[y].bets:
                self._back(y, self.seats[y].bets)

    def _no_reopener(self) -> None:
        """F4: all bets go back except the false opener's first one, which stays with the antes for
        the next deal; everyone of this deal may ante and play again."""
        self.reopen = None
        self._hand_back_bets()
        self.force_ante = True
        self._carry()

    def _reopen(self, e: dict[str, Any], opening: Any) -> None:
        s = int(e["seat"])
        if self.reopen is None or s not in self.reopen:
            raise ModelError(f"seat {s} may not reopen")
        self.reopen = None
        self._hand_back_bets()  # F3: the reopener's opening starts the betting afresh
        for y in self.live():
            self.seats[y].round, self.seats[y].acted = 0, False
        paid = self._pay(s, self.options.small)
        self.opener, self.opener_bets, self.level, self.proven = s, [paid], self.seats[s].round, False
        self.callers, self.raised = 0, False
        self._after_bet(s)

    def _foster(self, s: int) -> None:
        """F9: the false opener forfeits all it put in; if drawn to, it antes for all the others on
        the next deal; those who came in stay and play for the pot, else the pot stays."""
        x = self.seats[s]
        x.status = "dead"
        drawn_to = any(self.seats[y].drawn is not None for y in self.dealt if y != s and y in self.seats)
        if drawn_to:
            self.ante_for_all = s
        came_in = self.callers > 0 or self.raised
        if not came_in or not self.live():
            self._carry()
            return
        self._resume_without(s)

    # ------------------------------------------------------------------ the floor's other rulings
    def _wrong_count(self, e: dict[str, Any], opening: Any) -> None:
        """D8, H6: a hand of the wrong size is dead after the draw; before it, as the house rule says
        (put right, or dead). A dead hand's chips stay in the pot, as a fold's do."""
        s = int(e["seat"])
        before = self.seats[s].drawn is None and self.phase in ("predraw", "draw")
        if before and self.options.wrong_count_before == "correct":
            return
        # dead, and so unable to win (H6); a foul hand shows nothing about openers, so it is no false
        # opener's (F7, F9 are not for it)
        self.seats[s].status = "dead"
        live = self.live()
        # a dead hand's bets stay in the pot, and are no bet to call: the live players need only
        # match each other (the project's reading, rules.jackpot.flow.resume)
        self.level = max([self.seats[y].round for y in live] + [0])
        if self.phase == "showdown":
            self._settle_if_all_in()
        elif not self.opened:
            if len(live) < 2 or not [y for y in live if y not in self.passed]:
                self.phase, self.ended = "between", "thrown_in"  # O3: nobody left to open against
        elif not live:
            self._carry()  # F8: nobody else is left to take it
        elif len(live) == 1:
            self._last_standing(live[0])
        elif self.phase in ("predraw", "postdraw"):
            self._close_round_if_over()
        elif self.phase == "draw" and all(self.seats[y].drawn is not None for y in live):
            self.phase = "postdraw"
            self._close_round_if_over()
