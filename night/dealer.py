"""A simulated dealer at a cash table: real shuffled decks, every seat played by a simple strategy,
every tap through the HTTP API with ``expected_version``, the referee's verdict on every pot.

The simulator knows every card (it deals them) but logs only what a dealer sees: the counts drawn,
the hands shown at the showdown. Of ``rules/`` it reads only the moves the server lists (the ``legal``
list the tablet's buttons show), as the engine's move values (:func:`rules.jackpot.moves.parse_move`,
the JSON read back), and each tap is the event a move builds; hand strength is the referee's.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from night import promotions, referee
from night.floorperson import FloorPerson
from night.irregular import FloorWork
from night.server import Client
from rules.jackpot.betting import BetMove, CallMove, CheckMove, FoldMove, RaiseMove
from rules.jackpot.collection import TimeMove
from rules.jackpot.draw import DrawMove
from rules.jackpot.irregularities import ReopenMove
from rules.jackpot.moves import Move, parse_move
from rules.jackpot.opening import OpenMove, PassMove
from rules.jackpot.seating import AddChipsMove, LeaveMove, SitMove
from rules.jackpot.showdown import MuckMove, ShowMove

MAX_STEPS = 400  # taps in one deal at most: a table that never ends its deal is a failure, not a hang


@dataclass
class Tally:
    """What one table reports to the night."""

    name: str
    profile: str
    pots: int = 0
    won: int = 0
    rulings: int = 0
    discrepancies: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    export: list[dict] = field(default_factory=list)
    taps: dict[str, list[float]] = field(default_factory=dict)
    start_chips: int = 0
    notes: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    corrections: int = 0
    splits: int = 0
    table_id: int | None = None
    # all-in ante openers: with openers (O6), without (F7), barred by the ruling, the bar held on a
    # later deal of the pot while the player had chips again
    allin: dict[str, int] = field(default_factory=lambda: {"honest": 0, "false": 0, "barred": 0, "held": 0,
                                                            "came_back": 0})
    # wrong card counts (H6, D8): called to the floor, ruled dead, ruled put right
    counts: dict[str, int] = field(default_factory=lambda: {"called": 0, "dead": 0, "corrected": 0})
    false_calls: int = 0  # false openers found before the draw, reported to the floor
    walked: int = 0  # disputes the floor person settled on the phone, question by question
    walked_false: int = 0  # of them, false openers settled by hand
    # the high-hand promotion (issue 32, night.promotions): awards paid, their chips, hands refused
    promotions: dict[str, int] = field(default_factory=lambda: {"paid": 0, "amount": 0, "refused": 0})


def chips_on_table(state: dict[str, Any]) -> int:
    return sum(s["stack"] for s in state["seats"].values()) + state["pot"]


def house_take(state: dict[str, Any]) -> int:
    """What the house has taken from the table: rake, time and drops (contract part four)."""
    house = state.get("house") or {}
    return sum(int(house.get(k, 0)) for k in ("rake", "time", "drop"))


def conserved(state: dict[str, Any], start: int) -> bool:
    """chips in = chips out + on the table + the house's take (the contract's law, part four):
    stacks + pot + house == starting stacks + chips_in - chips_out."""
    ledger = state["ledger"]
    return chips_on_table(state) + house_take(state) == start + ledger["chips_in"] - ledger["chips_out"]


def short_handed(status: int, body: dict[str, Any]) -> bool:
    """Whether the server refused a deal for want of two players who can play."""
    return status == 422 and "at least two players" in body.get("message", "")


def guarded(work: Callable[[], None], errors: list[str], name: str) -> threading.Thread:
    """A thread running ``work`` (a table's night); an exception is written to ``errors`` as a
    discrepancy of the night (a table that breaks down), not a crash of the night."""

    def run() -> None:
        try:
            work()
        except Exception as exc:  # noqa: BLE001 - a discrepancy of the night
            errors.append(f"{name}: {type(exc).__name__}: {exc}")

    return threading.Thread(target=run, daemon=True)


@dataclass
class Unproven:
    """Events of the contract the server may not serve yet (issue 22: ``expose``, ``keep_openers``),
    one record for all the night's tables: ``served`` name -> None (not tried), True (served), or
    the server's refusal (then skipped, never passed); ``used``: how often each was logged."""

    served: dict[str, Any] = field(default_factory=lambda: {"expose": None, "keep_openers": None})
    used: dict[str, int] = field(default_factory=lambda: {"expose": 0, "keep_openers": 0})


class Dealer(FloorWork):
    """Deals ``deals`` pots at one table; ``rate`` is how often an irregularity is injected (the
    irregularities called to the floor: :mod:`night.irregular`); ``unproven``: the night's record
    of the events the server may not serve (a table of its own when not given)."""

    def __init__(self, client: Client, floor: FloorPerson | None, table_id: int, tally: Tally, game: dict[str, Any],
                 rng: random.Random, deals: int, rate: float = 0.0, churn: float = 0.1,
                 unproven: Unproven | None = None) -> None:
        self.api, self.floor, self.id, self.tally = client, floor, table_id, tally
        self.unproven = unproven if unproven is not None else Unproven()
        self.game, self.rng, self.deals, self.rate, self.churn = game, rng, deals, rate, churn
        self.wild = game.get("wild", "bug")
        self.wild_rank = game.get("wild_rank")
        self.trips = bool(game.get("trips_to_win"))
        self.max_draw = int(game.get("max_draw", 5))
        self.newcomers = 0
        self.unpaid: set[int] = set()  # seats that did not pay their time when asked (time_charge)
        self.false_rules = game.get("false_openers", "cardroom")
        self.irregular: dict[str, Any] = {}
        self.closed = False
        self.tournament = False
        self.deadline = float("inf")  # time.monotonic() after which no new deal starts
        self.floor_api: Client | None = None
        self.tablet: FloorPerson | None = None  # the dealer's tablet page session (calls the floor)
        self.played = 0
        self.injected: dict[str, int] = {}
        self.allin_armed: int | None = None  # a short stack seated, to be dealt in all in for the ante
        self.barred: dict[int, str] = {}  # F7: seat -> player, barred until the pot is won
        tally.table_id = table_id
        status, body = self.api.request("GET", f"/api/tables/{table_id}")
        assert status == 200, body
        self.state, self.version = body["state"], body["version"]
        self.tally.start_chips = sum(s["stack"] for s in body["setup"]["seats"])

    # ------------------------------------------------------------------ taps
    def tap(self, event: dict[str, Any], client: Client | None = None) -> tuple[int, dict]:
        """Post one event as the tablet does; keep the new state; check conservation after it."""
        client = client or self.api
        began = time.perf_counter()
        status, body = client.request("POST", f"/api/tables/{self.id}/events",
                                      {"event": event, "expected_version": self.version})
        self.tally.taps.setdefault(event["type"], []).append((time.perf_counter() - began) * 1000)
        if status == 201:
            self.state, self.version = body["state"], body["version"]
            self.check_chips(f"{self.tally.name}: after {event}")
        elif status == 409:
            self.refresh()
        return status, body

    def check_chips(self, where: str) -> None:
        """The contract's law on the state held now; a discrepancy names ``where`` otherwise."""
        if not conserved(self.state, self.tally.start_chips):
            self.tally.discrepancies.append(f"{where}: chips not conserved (on the table "
                                            f"{chips_on_table(self.state)}, ledger {self.state['ledger']}, "
                                            f"house {self.state.get('house')})")

    def optional(self, event: dict[str, Any]) -> bool:
        """Post an event of the contract that the server may not serve yet: True when logged; an
        unknown event type turns the feature off for the night ("skipped: not served")."""
        kind = event["type"]
        served = self.unproven.served
        if served.get(kind) not in (None, True):
            return False
        status, body = self.tap(event)
        if status == 201:
            served[kind] = True
            self.unproven.used[kind] += 1
            return True
        message = str(body.get("message", ""))
        if status in (400, 404) or "unknown event type" in message:
            served[kind] = f"skipped: not served ({status}: {message[:60]})"
        else:
            self.tally.discrepancies.append(f"{self.tally.name}: the contract's {event} was refused: {status} {message}")
        return False

    def refresh(self) -> None:
        status, body = self.api.request("GET", f"/api/tables/{self.id}")
        self.state, self.version = body["state"], body["version"]

    def must(self, event: dict[str, Any], client: Client | None = None) -> dict:
        status, body = self.tap(event, client)
        if status != 201:
            raise RuntimeError(f"{self.tally.name}: {event} refused: {status} {body.get('message', body)}")
        return body

    # ------------------------------------------------------------------ the night at this table
    def run(self) -> None:
        for _ in range(self.deals):
            if time.monotonic() > self.deadline:
                self.tally.notes.append(f"{self.tally.name}: the night's time is up; the table closes")
                break
            self.between_deals()
            if len([s for s in self.state["seats"].values() if s["stack"] > 0 or s["all_in"]]) < 2:
                self.tally.notes.append(f"{self.tally.name}: fewer than two players with chips; the table closes")
                break
            self.play_deal()
            if self.closed:
                break

    def play_one(self) -> bool:
        """One deal at a tournament table (no rebuys or newcomers: the desk seats and moves players);
        False when the table has fewer than two players with chips."""
        self.refresh()
        live = [s for s in self.state["seats"].values() if s["stack"] > 0 or s["committed"]]
        if len(live) < 2 and not self.state["pot"]:
            return False
        self.closed = False
        self.play_deal()
        return not self.closed

    def legal(self) -> dict[type[Move], Any]:
        """The moves the server lists now, read back as move values, by kind."""
        return {type(m): m for m in map(parse_move, self.state["legal"])}

    def between_deals(self) -> None:
        """Players come and go: busted players rebuy or leave, now and then someone leaves or sits;
        where the house collects time the dealer logs it, though now and then a seat does not pay."""
        moves = self.legal()
        owing = moves.get(TimeMove)
        if owing is not None:
            # now and then one seat does not pay (never leaving fewer than two to deal in)
            skip = self.rng.choice(owing.seats) if len(owing.seats) >= 3 and self.rng.random() < 0.3 else None
            for seat in owing.seats:
                if seat == skip:
                    self.unpaid.add(seat)
                else:
                    self.must(owing.event(seat).to_dict())
                    self.unpaid.discard(seat)
        moves = self.legal()
        seats = self.state["seats"]
        for seat, info in list(seats.items()):
            rebuy = moves.get(AddChipsMove)
            if info["stack"] < 2 * max(1, self.state.get("ante") or 1) and rebuy and int(seat) in rebuy.seats:
                leave = self.legal().get(LeaveMove)
                if self.rng.random() < 0.7:
                    self.must(rebuy.event(int(seat), 300).to_dict())
                elif leave and int(seat) in leave.seats:
                    self.must(leave.event(int(seat)).to_dict())
        if self.floor_api is not None and self.rng.random() < self.rate / 3 and len(self.state["seats"]) >= 2:
            # The floor puts a miscounted award right: chips between two seats, the amounts summing to 0.
            rich, poor = sorted(self.state["seats"], key=lambda s: -self.state["seats"][s]["stack"])[:2]
            if self.state["seats"][rich]["stack"] >= 5:
                self.must({"type": "correction", "moves": [{"seat": int(rich), "amount": -5},
                                                           {"seat": int(poor), "amount": 5}],
                           "reason": "a pot pushed short by five, put right by the floor"}, self.floor_api)
                self.tally.corrections += 1
        self.barred_comes_back()
        leave = self.legal().get(LeaveMove)
        if self.rng.random() < self.churn and len(self.state["seats"]) > 3 and leave:
            self.must(leave.event(self.rng.choice(leave.seats)).to_dict())
        sit = self.legal().get(SitMove)
        if self.rng.random() < self.churn and len(self.state["seats"]) < 6 and sit:
            self.newcomers += 1
            self.must(sit.event(self.rng.choice(sit.seats), f"{self.tally.name} guest {self.newcomers}", 400).to_dict())
        self.short_stack_sits()

    def play_deal(self) -> None:
        status, body = self.tap({"type": "deal"})
        if short_handed(status, body) and self.tournament:
            self.closed = True  # the table waits for the floor to move players in, or breaks
            return
        if short_handed(status, body):
            # A table that cannot deal though it has players (issue #22's stuck trips-to-win table,
            # fixed: the lone claimant takes the pot): a discrepancy. A card room would seat a
            # newcomer to go on; the night does the same so the rest of the night still plays.
            self.tally.stuck.append(f"deal {self.state['deal'] + 1}: {body.get('message')}")
            self.tally.discrepancies.append(f"deal {self.state['deal'] + 1}: the table is stuck: "
                                            f"{body.get('message')}")
            sit = self.legal().get(SitMove)
            if sit:
                self.newcomers += 1
                self.must(sit.event(sit.seats[0], f"{self.tally.name} guest {self.newcomers}", 400).to_dict())
            status, body = self.tap({"type": "deal"})
            if short_handed(status, body):
                self.tally.stuck.append(f"{self.tally.name}: still refused with a newcomer seated: {body.get('message')};"
                                        " the table closes with its pot on it")
                self.closed = True
                return
        if status != 201:
            raise RuntimeError(f"{self.tally.name}: deal refused: {status} {body.get('message', body)}")
        dealt = [int(s) for s in self.state.get("dealt", [])]
        for s in sorted(self.unpaid & set(dealt)):
            self.tally.wrong.append(f"{self.tally.name} deal {self.state['deal']}: seat {s} was dealt in without "
                                    "paying its time (time_charge: dealt out until it pays)")
        self.played += 1
        self.check_barred(dealt, self.state["deal"])
        deck = referee.deck(self.wild == "bug")
        self.rng.shuffle(deck)
        hands: dict[int, list[str]] = {s: [] for s in dealt}
        for _ in range(5):  # one card at a time round the table, as a dealer deals
            for s in dealt:
                hands[s].append(deck.pop())
        record = {"table": self.tally.name, "deal": self.state["deal"], "profile": self.tally.profile,
                  "dealt": {str(s): list(h) for s, h in hands.items()}, "drawn": {}, "final": {},
                  "awards": {}, "rulings": []}
        folded: set[int] = set()
        shown: dict[int, tuple] = {}
        opened_by: int | None = None
        deal_no = self.state["deal"]
        self.irregular = {"rulings_seen": len(self.state.get("rulings", []))}
        self.arm_all_in(dealt)
        before = self.state
        self.misdeal(hands, deck, record, dealt)
        if self.state["phase"] == "between_deals":
            self.judge(before, record, dealt, folded, shown, opened_by)
            return
        for _ in range(MAX_STEPS):
            if self.state["phase"] == "between_deals":
                break
            irr = self.irregular
            if (irr.get("false") and irr.get("find_before") and not irr.get("found")
                    and self.state["phase"] in ("predraw", "draw")
                    and self.state["seats"][str(irr["false"])]["status"] == "active" and not record["drawn"]
                    and (self.state["phase"] == "draw" or self.rng.random() < 0.4)):
                before = self.state
                self.call_floor(record, folded, hands)
                opened_by = irr.get("reopened", opened_by)
                if self.state["phase"] == "between_deals":
                    self.judge(before, record, dealt, folded, shown, opened_by)
                    return
                continue
            if (opened_by is not None and not irr.get("asked") and self.state["phase"] == "predraw"
                    and not irr.get("false") and self.rng.random() < self.rate / 2):
                irr["asked"] = True  # G-R8, C12: a player asks the opener to keep the opening hand
                asker = next((s for s in dealt if s != opened_by and s not in folded), None)
                if asker is not None:
                    self.optional({"type": "keep_openers", "seat": asker})
            if irr.get("exposed") and self.state["phase"] != "draw" and deck:
                # D12: the faced card is replaced once every other player has drawn
                seat_x, card = irr.pop("exposed")
                fresh = deck.pop()
                hands[seat_x] = [c for c in hands[seat_x] if c != card] + [fresh]
                record["drawn"][str(seat_x)] = [c for c in record["drawn"][str(seat_x)] if c != card] + [fresh]
            before = self.state
            seat = self.state["to_act"]
            event = self.choose(seat, hands, deck, record)
            if event["type"] == "fold":
                folded.add(seat)
            if event["type"] == "pass" and opened_by is None:
                irr.setdefault("passed", set()).add(seat)  # F3: passed before the opening, cannot reopen
            if event["type"] in ("open", "reopen"):
                opened_by = seat
            if irr.get("false") and event["type"] in ("call", "raise", "bet", "check") and self.state["phase"] == "predraw":
                # over an all-in opener's opening of nothing, a check calls it and a bet raises it (F5)
                kind = "callers" if event["type"] in ("call", "check") else "raises"
                irr[kind] = irr.get(kind, 0) + 1
            if event["type"] == "reopen":
                irr["reopened"] = seat
            status, body = self.tap(event)
            if status != 201:
                self.tally.discrepancies.append(
                    f"{self.tally.name} deal {deal_no}: the legal move {event} was refused: {status} "
                    f"{body.get('message', '')}")
                return
            if event["type"] == "draw" and irr.get("count_after") == seat and not irr.get("count_ruled"):
                irr["count_ruled"] = True  # H6, D8: the player counts the draw and says so
                before = self.state
                self.rule_card_count(seat, len(hands[seat]), "after_draw", record)
                if self.state["phase"] == "between_deals":
                    self.judge(before, record, dealt, folded, shown, opened_by)
                    return
                continue
            if (event["type"] == "draw" and event["count"] and not irr.get("exposed_once") and deck
                    and record["drawn"].get(str(seat))
                    and self.rng.random() < self.rate / 3):
                irr["exposed_once"] = True  # D12: the dealer turns a card of the draw face up
                card = record["drawn"][str(seat)][0]
                if self.optional({"type": "expose", "seat": seat, "card": card}):
                    irr["exposed"] = (seat, card)
            if event["type"] == "show":
                record["final"][str(seat)] = list(hands[seat])
                split = irr.get("split")
                if split and split["seat"] == seat:
                    requirement = irr.get("requirement") or self.state["jackpot"].get("requirement") or "J"
                    ok = referee.could_open_split(hands[seat], split["escrow"], split["drawn"], self.wild,
                                                  requirement, self.wild_rank)
                    irr["split_expect"] = "SPLIT_VERIFIED" if ok else "SPLIT_FAILED"
                    self.tally.splits += 1
                    if irr.get("false") == seat and not irr.get("found"):
                        irr["found"] = "after_draw"
                        if ok:
                            irr["undetectable"] = True
                    elif irr.get("false") != seat and not ok:
                        self.tally.wrong.append(f"{self.tally.name} deal {deal_no}: an honest split of openers "
                                                f"could not be proved by the referee ({hands[seat]} + {split['escrow']})")
                if irr.get("false") == seat and not irr.get("found"):
                    irr["found"] = "after_draw"
                    drawn = len(record["drawn"].get(str(seat), []))
                    requirement = irr.get("requirement", "J")
                    if referee.kept_could_open(hands[seat], drawn, self.wild, requirement, self.wild_rank):
                        irr["undetectable"] = True  # the cards shown could hold openers: nobody can tell
                        self.tally.notes.append(f"{self.tally.name} deal {deal_no}: a false opener's final hand "
                                                "could have held openers; uncaught, as at a real table")
                if irr.get("false") != seat or irr.get("undetectable"):  # F1/F8: a false opener cannot win
                    shown[seat] = referee.value(hands[seat], self.wild, self.wild_rank)
            self.collect_rulings(record)
            if self.state["phase"] == "between_deals":
                self.judge(before, record, dealt, folded, shown, opened_by)
                return
        self.tally.discrepancies.append(f"{self.tally.name} deal {deal_no}: the deal did not end in {MAX_STEPS} taps")

    # ------------------------------------------------------------------ the players
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

    # ------------------------------------------------------------------ the referee's verdict
    def judge(self, before: dict, record: dict, dealt: list[int], folded: set[int], shown: dict[int, tuple],
              opened_by: int | None) -> None:
        state = self.state
        self.tally.pots += 1
        end = state.get("last_end")
        awards = {int(s): a for s, a in state.get("awards", {}).items()} if end == "won" else {}
        record["awards"] = {str(s): a for s, a in awards.items()}
        self.tally.export.append(record)
        where = f"{self.tally.name} deal {record['deal']}"
        remaining = [s for s in dealt if s not in folded and s not in self.irregular.get("dead", set())]
        self.check_rulings(record, where)
        self.note_barred(record, where)
        if end == "throw_in":
            if opened_by is not None and not self.irregular.get("found"):
                self.tally.wrong.append(f"{where}: thrown in although seat {opened_by} opened")
            return
        if end not in ("won", "carried"):
            self.tally.notes.append(f"{where}: the deal ended '{end}'")
            return
        false = self.irregular.get("false")
        split_expect = self.irregular.get("split_expect")
        if split_expect is not None and ("SPLIT_FAILED" in record["rulings"]) != (split_expect == "SPLIT_FAILED"):
            self.tally.wrong.append(f"{where}: the split openers were ruled {record['rulings'] or 'proved'}; "
                                    f"the referee says {split_expect} (S2)")
        split = self.irregular.get("split")
        if split_expect == "SPLIT_FAILED" and false is None:
            false = split["seat"]
            self.irregular["found"] = "after_draw"
        if false is not None and (self.irregular.get("undetectable")
                                  or (false in folded and not self.irregular.get("found"))):
            false = None  # uncaught, or a false opener who folded unfound: out of the pot like any other
        if false is not None and self.irregular.get("found"):
            remaining = [s for s in remaining if s != false]  # F2: the false opener's hand is dead
        uncontested = remaining[0] if len(remaining) == 1 else None
        if false is not None and uncontested == false:
            uncontested = None  # F8: nobody else left, the pot stays
        pots, total = before["pots"], before["pot"]
        if end == "won" and (self.game.get("rake") or self.game.get("drop")):
            # the house's rake and drop come off the pot won before it is divided (docs/house.md)
            pots, raked, dropped = referee.house_cut(pots, self.game.get("rake"), self.game.get("drop"))
            total -= raked + dropped
            house = state.get("house") or {}
            if (house.get("last_rake"), house.get("last_drop")) != (raked, dropped):
                self.tally.wrong.append(f"{where}: the house took rake {house.get('last_rake')} and drop "
                                        f"{house.get('last_drop')} of the pot of {before['pot']}; the referee says "
                                        f"{raked} and {dropped}")
        expected = referee.expected_awards(pots, shown, uncontested, self.trips)
        barred_stays = ("ALL_IN_OPENER_BARRED" in record["rulings"] and not self.irregular.get("pot_plays")
                        and not self.irregular.get("reopened"))
        if "POT_CARRIES_OVER" in record["rulings"] or barred_stays or (false is not None and not remaining) \
                or expected == {}:
            expected = None  # F4 (F7): nobody reopened, the pot carries over; F8: nobody but the false opener
        if expected is None and uncontested is not None and false is None and self.trips \
                and not self.irregular.get("dead") and "POT_CARRIES_OVER" not in record["rulings"]:
            expected = referee.expected_awards(pots, shown, uncontested)  # referee.LONE_CLAIMANT
        if not referee.awards_match(expected, awards, total):
            self.tally.wrong.append(
                f"{where}: the engine gave {awards or 'nothing'} ({end}); the referee says "
                f"{expected if expected is not None else 'no winner (D9)'} of {total} from the cards "
                f"{record['final'] or record['dealt']} (still in: {remaining}; false opener: {false})")
        if end == "won":
            self.tally.won += 1
            self.barred.clear()  # F7: the pot is won, the barred player is dealt in again
            promotions.after_showdown(self, record, shown, where)
