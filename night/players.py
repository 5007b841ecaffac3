"""How the night's players play (mixed into :class:`night.dealer.Dealer`): a simple strategy that
opens with openers, calls with a pair, keeps pairs and wild cards, draws at most three and never
more than the stub holds; now and then it injects an irregularity a player makes (a false opening,
a split of openers, a wrong count at the draw). Each tap is an event built by one of the moves the
server lists; hand strength is the referee's (:mod:`night.referee`), never ``rules/``'s."""

from __future__ import annotations

from typing import Any

from night import referee
from rules.jackpot.betting import BetMove, CallMove, CheckMove, FoldMove, RaiseMove
from rules.jackpot.draw import DrawMove
from rules.jackpot.irregularities import ReopenMove
from rules.jackpot.moves import Move
from rules.jackpot.opening import OpenMove, PassMove
from rules.jackpot.showdown import MuckMove, ShowMove


class Players:
    """The seats' choices at one table (mixed into the Dealer, whose state, moves and rng they read)."""

    def strength(self, cards: list[str]) -> tuple:
        return referee.value(cards, self.wild, self.wild_rank)

    def choose(self, seat: int, hands: dict[int, list[str]], deck: list[str], record: dict) -> dict[str, Any]:
        """The seat's tap: an event built by one of the moves the server lists."""
        moves = self.legal()

        def tap(kind: type[Move]) -> dict[str, Any]:
            return moves[kind].event().to_dict()

        hand = hands[seat]
        if len(hand) != 5:  # a wrong count the floor did not rule dead: the player gives the hand up
            for kind in (FoldMove, MuckMove, PassMove, CheckMove):
                if kind in moves:
                    return tap(kind)
        v = self.strength(hand)
        rnd = self.rng.random()
        if ShowMove in moves:
            return moves[ShowMove].event(hand).to_dict()
        if DrawMove in moves:
            return self.draw(seat, hands, deck, record, moves[DrawMove])
        if OpenMove in moves:
            waiting = self.all_in_opens(seat, hand, moves)
            if waiting is not None:
                return waiting
            requirement = self.state["jackpot"].get("requirement") or "J"
            holds = referee.qualifies(hand, self.wild, requirement, self.wild_rank)
            if holds and rnd < 0.9:
                return tap(OpenMove)
            if (requirement != "none" and not holds and rnd > 1 - self.rate and not self.irregular.get("false")
                    and not self.state["seats"][str(seat)]["all_in"]):
                self.irregular["false"] = seat  # an irregularity injected: opens without openers
                self.irregular["requirement"] = requirement
                self.irregular["find_before"] = self.rng.random() < 0.5  # else found at the showdown
                return tap(OpenMove)
            return tap(PassMove if PassMove in moves else CheckMove)
        if CheckMove in moves:
            if BetMove in moves and v[0] >= 2 and rnd < 0.5:
                return tap(BetMove)
            return tap(CheckMove)
        if CallMove in moves:
            if RaiseMove in moves and v[0] >= 2 and rnd < 0.25:
                return tap(RaiseMove)
            if v[0] >= 1 or rnd < 0.2:
                return tap(CallMove)
            return tap(FoldMove)
        if ReopenMove in moves:  # F3: an eligible player with openers declares the pot open
            requirement = self.state["jackpot"].get("requirement") or "J"
            if referee.qualifies(hand, self.wild, requirement, self.wild_rank):
                return tap(ReopenMove)
            return tap(PassMove)
        for kind in (PassMove, FoldMove):
            if kind in moves:
                return tap(kind)
        raise RuntimeError(f"{self.tally.name}: no move the strategy knows in {self.state['legal']}")

    def keep(self, hand: list[str], most: int) -> list[str]:
        """The cards a plain player keeps: a made hand of five stands pat; otherwise the wild cards,
        every rank held twice or more (with the bug: the aces too), else the two highest."""
        v = self.strength(hand)
        if v[0] in (4, 5, 6, 8, 9):
            return list(hand)
        wilds = [c for c in hand if referee.is_wild(c, self.wild, self.wild_rank)]
        naturals = [c for c in hand if c not in wilds]
        counts: dict[str, int] = {}
        for c in naturals:
            counts[c[0]] = counts.get(c[0], 0) + 1
        kept = wilds + [c for c in naturals if counts[c[0]] >= 2
                        or (self.wild == "bug" and wilds and c[0] == "A")]
        by_rank = sorted((c for c in naturals if c not in kept), key=lambda c: referee.RANKS[c[0]], reverse=True)
        if not kept:
            kept = by_rank[:2]
        elif len(kept) == len(wilds):
            kept += by_rank[:1]
        rest = [c for c in by_rank if c not in kept]
        while 5 - len(kept) > most:  # draw no more than the house allows: keep the next highest
            kept.append(rest.pop(0))
        return kept

    def draw(self, seat: int, hands: dict[int, list[str]], deck: list[str], record: dict,
             move: DrawMove) -> dict[str, Any]:
        hand = hands[seat]
        # D3 aside: a player never asks for more than the stub holds less its last card (six players
        # and a newcomer can outrun 53 cards), so the deck never runs out in the simulation.
        most = max(0, min(move.max, self.max_draw, 3, len(deck) - 1))
        kept = self.keep(hand, most)
        escrow: list[str] = []
        if move.split and self.wild != "deuces":  # the opener, in the first draw
            flush = self.split_for_flush(hand)
            if flush is not None and most >= 1:  # S1: breaks a pair of openers to draw to a flush
                kept, escrow = flush, [c for c in hand if c not in flush]
            elif self.irregular.get("false") == seat and most >= 1 and self.rng.random() < 0.5:
                # A false opener who says "splitting": the discards under a chip (S1: all of them), who
                # may or may not be found out by them (S2)
                escrow = [c for c in hand if c not in kept] or [kept.pop()]
        discards = [c for c in hand if c not in kept]
        given = len(discards)
        if not escrow and not move.keep:
            given = self.wrong_draw(seat, given, len(deck))  # H6, D8: a card too many or too few now and then
        new = [deck.pop() for _ in range(given)]
        hands[seat] = kept + new
        record["drawn"][str(seat)] = new
        if escrow:
            self.irregular["split"] = {"seat": seat, "escrow": escrow, "drawn": len(discards)}
            return move.event(len(discards), split=True, escrow=escrow).to_dict()
        if move.keep and discards:
            # F12: a player asked the opener to keep the opening hand, so every discard goes under a
            # chip, kept apart; the dealer lists them as the escrow (the server's legal move says so)
            return move.event(len(discards), escrow=discards).to_dict()
        return move.event(len(discards)).to_dict()

    def split_for_flush(self, hand: list[str]) -> list[str] | None:
        """The four cards of a flush draw that keep only one card of a pair of openers, or None."""
        v = self.strength(hand)
        if v[0] != 1 or referee.JOKER in hand:
            return None
        for suit in referee.SUITS:
            same = [c for c in hand if c[1] == suit]
            if len(same) == 4 and any(c[0] == referee.RANK_TEXT[v[1]] for c in same):
                return same
        return None
