"""The irregularities a simulated dealer calls the floor for, and the referee's check of each ruling.

A mixin of :class:`night.dealer.Dealer` (it uses the dealer's client, state and tally). What is
injected, at the night's ``--rate`` (and once at every cash table that has gone a third of its
deals without one, so that even a quick night shows each):

- **false openers** found before the draw: the dealer's tap is a report (202); the floor person
  confirms it on the floor page, or (every other time) settles it by hand on the phone, walking the
  tree question by question (``/rulings/new``, :mod:`night.walk`), answering who reopens from the
  cards (F2-F7, F9);
- **all-in ante openers**: a short stack (no more than the ante) sits down; dealt in all in for the
  ante, it opens, the others waiting for it: with openers (O6, the pot judged with its side pots)
  or without (F7: called, ruled ``ALL_IN_OPENER_BARRED``, and the bar checked on every later deal of
  the pot, a rebuy or not);
- **wrong card counts** (H6, D8): a hand dealt four or six cards, found before the draw (put right
  or dead, as the house rule says), or a draw that gives one card too many or too few (dead); the
  dealer calls the floor from the tablet page, the floor person walks the dispute on the phone.

Every ruling is checked against the real cards (the outcome, who may reopen, whose hand is dead),
printed (``/rulings/<id>.pdf``), and the table's chips checked after it.
"""

from __future__ import annotations

from typing import Any

from night import referee
from night.walk import WalkError
from rules.jackpot.betting import CheckMove
from rules.jackpot.opening import OpenMove, PassMove
from rules.jackpot.seating import LeaveMove, SitMove
from rules.jackpot.seating import LeaveMove, SitMove

COUNT_OUTCOMES = ("HAND_DEAD_CARD_COUNT", "CARD_COUNT_CORRECTED")
FALSE_OUTCOMES = {"POT_PLAYS_OPENER_DEAD", "REOPENED", "POT_CARRIES_OVER", "ALL_IN_OPENER_BARRED", "FOSTER_FORFEIT"}


class FloorWork:
    """Irregularities called to the floor (mixed into the Dealer)."""

    # ------------------------------------------------------------------ when to inject
    def want(self, kind: str, share: float = 1.0) -> bool:
        """Inject ``kind`` now: at the night's rate (times ``share``), or at once at a cash table
        that has played a third of its deals without one."""
        if self.tournament or not self.rate:
            return False
        done = self.injected.get(kind, 0)
        hit = (not done and self.played >= max(2, self.deals // 3)) or self.rng.random() < self.rate * share
        if hit:
            self.injected[kind] = done + 1
        return hit

    # ------------------------------------------------------------------ all-in ante openers (O6, F7)
    def short_stack_sits(self) -> None:
        """Between deals: a player with no more than the ante sits down (a seat freed if need be)."""
        if self.allin_armed is not None or not self.want("all_in_ante", 0.5):
            return
        moves = self.legal()
        sit, leave = moves.get(SitMove), moves.get(LeaveMove)
        if sit is None:
            if len(self.state["seats"]) <= 2 or leave is None:
                self.injected["all_in_ante"] -= 1
                return
            self.must(leave.event(self.rng.choice(leave.seats)).to_dict())
            sit = self.legal()[SitMove]
        seat = self.rng.choice(sit.seats)
        self.newcomers += 1
        chips = self.rng.randint(1, max(1, int(self.state.get("ante") or 5)))
        self.must(sit.event(seat, f"{self.tally.name} short {self.newcomers}", chips).to_dict())
        self.allin_armed = seat

    def arm_all_in(self, dealt: list[int]) -> None:
        """After the deal: the short stack plays its part only when dealt in all in for the ante."""
        seat, self.allin_armed = self.allin_armed, None
        if seat is not None and seat in dealt and self.state["seats"][str(seat)]["all_in"]:
            self.irregular["allin"] = seat

    def all_in_opens(self, seat: int, hand: list[str], moves: dict[type, Any]) -> dict[str, Any] | None:
        """The opening round while an all-in short stack is to speak: the others pass until it has
        (they hold nothing they care to open with); it opens, with openers (O6) or without (F7)."""
        irr = self.irregular
        allin = irr.get("allin")
        if allin is None or irr.get("allin_acted"):
            return None
        if seat != allin:
            return moves[PassMove if PassMove in moves else CheckMove].event().to_dict()
        irr["allin_acted"] = True
        requirement = self.state["jackpot"].get("requirement") or "J"
        if referee.qualifies(hand, self.wild, requirement, self.wild_rank):
            self.tally.allin["honest"] += 1
        else:
            self.tally.allin["false"] += 1
            irr.update(false=seat, requirement=requirement, find_before=True)
        return moves[OpenMove].event().to_dict()

    def check_barred(self, dealt: list[int], deal_no: int) -> None:
        """F7: a barred opener is dealt out of every deal of the pot until someone else has won it,
        even after buying more chips."""
        for seat, player in list(self.barred.items()):
            now = self.state["seats"].get(str(seat))
            if now is None or now["player"] != player:
                del self.barred[seat]  # the player left: the bar went with them
            elif seat in dealt:
                self.tally.wrong.append(f"{self.tally.name} deal {deal_no}: seat {seat} ({player}), barred by F7 "
                                        "until the pot is won, was dealt in")
                del self.barred[seat]
            elif now["stack"] > 0:
                self.tally.allin["held"] += 1

    def barred_comes_back(self) -> None:
        """F7 belongs to the person (issue 31): now and then a barred player leaves and buys in again
        at another seat, under the same name (the same record); they must sit barred, and
        :meth:`check_barred` then holds them dealt out until the pot is won. Never at a tournament's
        table (its desk seats it)."""
        if self.tournament:
            return
        for seat, player in list(self.barred.items()):
            leave = self.legal().get(LeaveMove)
            if leave is None or seat not in leave.seats or self.rng.random() < 0.5:
                continue
            self.must(leave.event(seat).to_dict())
            self.refresh()
            sit = self.legal().get(SitMove)
            others = [s for s in (sit.seats if sit is not None else ()) if s != seat]
            del self.barred[seat]
            if sit is None or not others:
                continue
            to = self.rng.choice(others)
            self.must(sit.event(to, player, 300).to_dict())
            self.refresh()
            now = self.state["seats"].get(str(to))
            if now is None or now["status"] != "barred":
                self.tally.wrong.append(f"{self.tally.name} deal {self.state['deal']}: {player}, barred by F7, left "
                                        f"seat {seat} and bought in again at seat {to}: seated "
                                        f"{now['status'] if now else 'nowhere'}, not barred (F7 follows the person)")
                continue
            self.barred[to] = player
            self.tally.allin["came_back"] += 1

    # ------------------------------------------------------------------ wrong card counts (H6, D8)
    def misdeal(self, hands: dict[int, list[str]], deck: list[str], record: dict, dealt: list[int]) -> None:
        """Right after the deal: one seat was dealt four or six cards; the player says so at once."""
        if len(dealt) < 3 or "allin" in self.irregular or not self.want("count_before", 0.3):
            return
        seat = self.rng.choice(dealt)
        if self.rng.random() < 0.5:
            deck.insert(0, hands[seat].pop())  # the card the seat missed stays in the stub, at the bottom
        else:
            hands[seat].append(deck.pop())
        record["dealt"][str(seat)] = list(hands[seat])
        count = len(hands[seat])
        outcome = self.rule_card_count(seat, count, "before_draw", record)
        if outcome == "CARD_COUNT_CORRECTED":  # D8 as this house puts it right: a card more, or the extra one out
            if count < 5:
                hands[seat].append(deck.pop())
            else:
                hands[seat].pop()
            record["dealt"][str(seat)] = list(hands[seat])

    def wrong_draw(self, seat: int, wanted: int, deck_left: int) -> int:
        """At a draw: how many cards the dealer really gives (one too many or too few, now and then,
        never to the opener, whose hand decides the pot's fate by other rules)."""
        irr = self.irregular
        if (irr.get("count_after") or irr.get("allin") == seat or irr.get("false") == seat
                or self.state["jackpot"].get("opener") == seat or not self.want("count_after", 0.3)):
            return wanted
        given = wanted - 1 if wanted and (deck_left <= wanted or self.rng.random() < 0.5) else wanted + 1
        if given > deck_left - 1:  # the stub keeps a card for a faced card's replacement (D12)
            return wanted
        irr["count_after"] = seat
        return given

    def rule_card_count(self, seat: int, count: int, found: str, record: dict) -> str | None:
        """The dealer calls the floor from the tablet; the floor person walks the dispute on the
        phone (every other time from the blank walk, else from the call's issue and seat), issues
        the ruling and prints it; the referee checks the outcome and whose hand is dead."""
        where = f"{self.tally.name} deal {record['deal']}"
        dead_before = self.game.get("wrong_count_before_draw") == "dead"
        expected = "HAND_DEAD_CARD_COUNT" if found == "after_draw" or dead_before else "CARD_COUNT_CORRECTED"
        self.tally.counts["called"] += 1
        if self.floor is None:
            return None
        if self.tablet is not None and not self.tablet.call_floor(self.id, "wrong_card_count", seat):
            self.tally.wrong.append(f"{where}: the dealer's call for the floor (wrong card count) was refused")
        start = f"/rulings/new?table={self.id}"
        if self.tally.counts["called"] % 2 == 0:
            start += f"&issue=wrong_card_count&seat={seat}"
        known = {"issue": "wrong_card_count", "seat": seat, "card_count": count, "found": found}
        try:
            result = self.floor.walk(start, known)
        except WalkError as exc:
            self.tally.wrong.append(f"{where}: the floor could not rule seat {seat}'s {count} cards on the phone: {exc}")
            self.refresh()
            return None
        self.tally.walked += 1
        self.after_ruling(record, where)
        got = record["rulings"][-1] if record["rulings"] else None
        if not self.floor.print_ruling(result.ruling_id, f"{got}, walked ({found})"):
            self.tally.wrong.append(f"{where}: ruling #{result.ruling_id} did not print")
        status = self.state["seats"][str(seat)]["status"]
        if self.state["phase"] == "between_deals":  # the ruling ended the deal: every seat is active again
            status = "dead" if got == "HAND_DEAD_CARD_COUNT" else "active"
        if got != expected:
            self.tally.wrong.append(f"{where}: seat {seat}'s {count} cards ({found}) were ruled {got}; the referee "
                                    f"says {expected} (H6, D8)")
        elif (status == "dead") != (expected == "HAND_DEAD_CARD_COUNT"):
            self.tally.wrong.append(f"{where}: after {got} seat {seat} is {status} (H6, D8)")
        else:
            self.tally.counts["dead" if expected == "HAND_DEAD_CARD_COUNT" else "corrected"] += 1
        if expected == "HAND_DEAD_CARD_COUNT":  # the referee's view: the hand cannot win (H6, D8)
            self.irregular.setdefault("dead", set()).add(seat)
        return got

    # ------------------------------------------------------------------ false openers before the draw
    def call_floor(self, record: dict, folded: set[int], hands: dict[int, list[str]]) -> None:
        """False openers found before the draw: the dealer's tap is a report (202); the floor person
        confirms it on the floor page or settles it by hand on the phone (every other time); the
        referee says what the ruling must be (F2-F7, F9) and who could reopen (F3, from the cards)."""
        irr = self.irregular
        seat = irr["false"]
        where = f"{self.tally.name} deal {record['deal']}"
        status, body = self.tap({"type": "false_openers", "seat": seat})
        irr["found"] = "before_draw"
        if status != 202:
            self.tally.wrong.append(f"{where}: the dealer's report of false openers answered {status} "
                                    f"{body.get('message', '')}")
            return
        # F5: the pot plays whatever the opener held after a raise, two calls or the betting done
        irr["pot_plays"] = bool(irr.get("raises") or irr.get("callers", 0) >= 2 or self.state["phase"] == "draw")
        if self.false_rules == "foster":
            irr["expect"] = {"FOSTER_FORFEIT"}
        elif irr.get("allin") == seat:  # F7: all in for the ante when it opened (not all in by the opening bet)
            irr["expect"] = {"ALL_IN_OPENER_BARRED"}
        elif irr["pot_plays"]:
            irr["expect"] = {"POT_PLAYS_OPENER_DEAD"}
        else:
            irr["expect"] = {"REOPENED", "POT_CARRIES_OVER"}  # which one: who reopens (checked at the end)
        irr["could_reopen"] = self.could_reopen(seat, folded, hands)
        ruling: int | None = None
        settled = "confirmed"
        self.tally.false_calls += 1
        if self.floor and self.tally.false_calls % 2 == 0:
            settled = "walked"
            known = {"reopener": irr["could_reopen"][0] if irr["could_reopen"] else None}
            try:
                result = self.floor.walk(f"/rulings/new?table={self.id}&issue=false_openers&by_hand=1", known)
            except WalkError as exc:
                self.tally.wrong.append(f"{where}: the floor could not rule the false openers on the phone: {exc}")
                self.refresh()
                return
            ruling = result.ruling_id
            self.tally.walked += 1
            self.tally.walked_false += 1
            opener = self.refreshed_opener()
            if opener is not None and opener != seat:
                irr["reopened"] = opener  # REOPENED by the ruling itself: the reopener is the opener now
        elif self.floor:
            ruling = self.floor.confirm(body["call"]["id"])
        irr["ruling_id"] = ruling
        seen = len(record["rulings"])
        self.after_ruling(record, where)
        kind = f"{', '.join(record['rulings'][seen:]) or None}, {settled}"
        if ruling is not None and self.floor and not self.floor.print_ruling(ruling, kind):
            self.tally.wrong.append(f"{where}: ruling #{ruling} did not print")

    def note_barred(self, record: dict, where: str) -> None:
        """At the end of a deal ruled ``ALL_IN_OPENER_BARRED`` (at the call, or once the reopen offer
        was answered): the opener stays barred while the pot is not won (F7)."""
        seat = self.irregular.get("false")
        if "ALL_IN_OPENER_BARRED" not in record["rulings"] or seat is None:
            return
        self.tally.allin["barred"] += 1
        now = self.state["seats"].get(str(seat))
        if now is None or self.state.get("last_end") == "won":
            return  # the pot was won this deal: the bar ends with it
        if now["status"] != "barred":
            self.tally.wrong.append(f"{where}: ALL_IN_OPENER_BARRED left seat {seat} {now['status']} with the pot "
                                    "not won (F7)")
        else:
            self.barred[seat] = now["player"]

    def refreshed_opener(self) -> int | None:
        self.refresh()
        opener = self.state["jackpot"].get("opener")
        return int(opener) if opener is not None and self.state["phase"] != "between_deals" else None

    def could_reopen(self, opener: int, folded: set[int], hands: dict[int, list[str]]) -> list[int]:
        """F3 from the cards: the seats still in (not the opener, not passed before the opening, not
        dead) that hold openers, clockwise from the opener."""
        order = sorted(hands)
        order = [s for s in order if s > opener] + [s for s in order if s < opener]
        passed = self.irregular.get("passed", set())
        dead = self.irregular.get("dead", set())
        requirement = self.irregular.get("requirement") or "J"
        return [s for s in order if s not in folded and s not in passed and s not in dead and len(hands[s]) == 5
                and self.state["seats"].get(str(s), {}).get("status") == "active"
                and referee.qualifies(hands[s], self.wild, requirement, self.wild_rank)]

    def after_ruling(self, record: dict, where: str) -> None:
        self.refresh()
        self.check_chips(f"{where}: after the ruling")
        self.collect_rulings(record)

    def collect_rulings(self, record: dict) -> None:
        rulings = self.state.get("rulings", [])
        seen = self.irregular.get("rulings_seen", 0)
        if len(rulings) > seen:
            for r in rulings[seen:]:
                record["rulings"].append(r.get("outcome"))
                self.tally.rulings += 1
            self.irregular["rulings_seen"] = len(rulings)

    def check_rulings(self, record: dict, where: str) -> None:
        irr = self.irregular
        expect = irr.get("expect")
        if not expect:
            return
        if expect == {"REOPENED", "POT_CARRIES_OVER"} or (expect == {"ALL_IN_OPENER_BARRED"}
                                                           and not irr.get("pot_plays")):
            if expect != {"ALL_IN_OPENER_BARRED"}:
                expect = {"REOPENED"} if irr.get("reopened") else {"POT_CARRIES_OVER"}
            could = irr.get("could_reopen", [])
            if irr.get("reopened") and irr["reopened"] not in could:
                self.tally.wrong.append(f"{where}: seat {irr['reopened']} reopened without openers or while not "
                                        f"free to (F3); the cards let {could or 'nobody'}")
            if not irr.get("reopened") and could:
                self.tally.wrong.append(f"{where}: the pot carried over though seats {could} were free to reopen "
                                        "with openers (F3, F4)")
        got = set(record["rulings"]) & FALSE_OUTCOMES
        if got != expect:
            self.tally.wrong.append(f"{where}: false openers ruled {sorted(got) or 'nothing'}; "
                                    f"the referee expected {sorted(expect)}")
        if irr.get("ruling_id") is None and self.floor and expect != {"FOSTER_FORFEIT"}:
            status, body = self.api.request("GET", f"/api/tables/{self.id}/rulings?limit=1")
            rows = body.get("rulings", []) if status == 200 else []
            if rows and not self.floor.print_ruling(rows[0]["id"], f"{rows[0].get('outcome')}, after the offer"):
                self.tally.wrong.append(f"{where}: ruling #{rows[0]['id']} did not print")

