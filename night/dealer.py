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
from night.players import Players
from night.server import Client
from rules.jackpot.collection import TimeMove
from rules.jackpot.moves import Move, parse_move
from rules.jackpot.seating import AddChipsMove, LeaveMove, SitMove

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
class DealInPlay:
    """What the night's dealer knows of the deal in play and the server does not: every card (the
    seats' hands and the stub), the pot's export record, who folded, the values of the hands shown
    that may win, who opened, the seat of the last tap and the table's state before it (what the
    referee judges the pot's end against)."""

    dealt: list[int]
    hands: dict[int, list[str]]
    deck: list[str]
    record: dict[str, Any]
    number: int
    before: dict[str, Any]
    folded: set[int] = field(default_factory=set)
    shown: dict[int, tuple] = field(default_factory=dict)
    opened_by: int | None = None
    seat: int = 0


@dataclass
class Unproven:
    """Events of the contract the server may not serve yet (issue 22: ``expose``, ``keep_openers``),
    one record for all the night's tables: ``served`` name -> None (not tried), True (served), or
    the server's refusal (then skipped, never passed); ``used``: how often each was logged."""

    served: dict[str, Any] = field(default_factory=lambda: {"expose": None, "keep_openers": None})
    used: dict[str, int] = field(default_factory=lambda: {"expose": 0, "keep_openers": 0})


class Dealer(FloorWork, Players):
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
        """One deal, from the deal tap to the referee's verdict on the pot: the cards dealt, the
        misdeal tried, then tap after tap (an irregularity called to the floor, a player's request,
        a faced card replaced, the seat's choice and what follows it) until the deal is over."""
        if not self.deal_tapped():
            return
        deal = self.deal_cards()
        self.misdeal(deal.hands, deal.deck, deal.record, deal.dealt)
        if self.deal_over(deal):
            return
        for _ in range(MAX_STEPS):
            if self.state["phase"] == "between_deals":
                break
            if self.false_opener_called_before_the_draw(deal):
                if self.deal_over(deal):
                    return
                continue
            self.ask_to_keep_openers(deal)
            self.replace_faced_card(deal)
            event = self.seat_taps(deal)
            if event is None:
                return
            if self.count_ruled_after_the_draw(deal, event):
                if self.deal_over(deal):
                    return
                continue
            self.face_a_drawn_card(deal, event)
            if event["type"] == "show":
                self.hand_shown(deal, deal.seat)
            self.collect_rulings(deal.record)
            if self.deal_over(deal):
                return
        self.tally.discrepancies.append(f"{self.tally.name} deal {deal.number}: the deal did not end in {MAX_STEPS} taps")

    def deal_tapped(self) -> bool:
        """The deal tap; False when the table closes instead (a tournament table short of players
        waits for the floor; a cash table still stuck with a newcomer seated)."""
        status, body = self.tap({"type": "deal"})
        if short_handed(status, body) and self.tournament:
            self.closed = True  # the table waits for the floor to move players in, or breaks
            return False
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
                return False
        if status != 201:
            raise RuntimeError(f"{self.tally.name}: deal refused: {status} {body.get('message', body)}")
        return True

    def deal_cards(self) -> DealInPlay:
        """The cards of the deal the server just started, from a real shuffled deck, one at a time
        round the seats dealt in (time unpaid and the F7 bar checked first)."""
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
        self.irregular = {"rulings_seen": len(self.state.get("rulings", []))}
        self.arm_all_in(dealt)
        return DealInPlay(dealt, hands, deck, record, number=self.state["deal"], before=self.state)

    def deal_over(self, deal: DealInPlay) -> bool:
        """True, once the referee has judged the pot, when the last tap ended the deal."""
        if self.state["phase"] != "between_deals":
            return False
        self.judge(deal.before, deal.record, deal.dealt, deal.folded, deal.shown, deal.opened_by)
        return True

    def false_opener_called_before_the_draw(self, deal: DealInPlay) -> bool:
        """A false opening injected to be found before the draw, called to the floor now (at the draw
        at the latest, else now and then): True when the floor was called."""
        irr = self.irregular
        if (irr.get("false") and irr.get("find_before") and not irr.get("found")
                and self.state["phase"] in ("predraw", "draw")
                and self.state["seats"][str(irr["false"])]["status"] == "active" and not deal.record["drawn"]
                and (self.state["phase"] == "draw" or self.rng.random() < 0.4)):
            deal.before = self.state
            self.call_floor(deal.record, deal.folded, deal.hands)
            deal.opened_by = irr.get("reopened", deal.opened_by)
            return True
        return False

    def ask_to_keep_openers(self, deal: DealInPlay) -> None:
        irr = self.irregular
        if (deal.opened_by is not None and not irr.get("asked") and self.state["phase"] == "predraw"
                and not irr.get("false") and self.rng.random() < self.rate / 2):
            irr["asked"] = True  # G-R8, C12: a player asks the opener to keep the opening hand
            asker = next((s for s in deal.dealt if s != deal.opened_by and s not in deal.folded), None)
            if asker is not None:
                self.optional({"type": "keep_openers", "seat": asker})

    def replace_faced_card(self, deal: DealInPlay) -> None:
        irr = self.irregular
        if irr.get("exposed") and self.state["phase"] != "draw" and deal.deck:
            # D12: the faced card is replaced once every other player has drawn
            seat_x, card = irr.pop("exposed")
            fresh = deal.deck.pop()
            deal.hands[seat_x] = [c for c in deal.hands[seat_x] if c != card] + [fresh]
            drawn = deal.record["drawn"]
            drawn[str(seat_x)] = [c for c in drawn[str(seat_x)] if c != card] + [fresh]

    def seat_taps(self, deal: DealInPlay) -> dict[str, Any] | None:
        """The seat to act chooses, the night notes what the choice means for the irregularities in
        play, and the dealer taps it; None (a discrepancy noted) when the server refuses it."""
        irr = self.irregular
        deal.before = self.state
        seat = deal.seat = self.state["to_act"]
        event = self.choose(seat, deal.hands, deal.deck, deal.record)
        if event["type"] == "fold":
            deal.folded.add(seat)
        if event["type"] == "pass" and deal.opened_by is None:
            irr.setdefault("passed", set()).add(seat)  # F3: passed before the opening, cannot reopen
        if event["type"] in ("open", "reopen"):
            deal.opened_by = seat
        if irr.get("false") and event["type"] in ("call", "raise", "bet", "check") and self.state["phase"] == "predraw":
            # over an all-in opener's opening of nothing, a check calls it and a bet raises it (F5)
            kind = "callers" if event["type"] in ("call", "check") else "raises"
            irr[kind] = irr.get(kind, 0) + 1
        if event["type"] == "reopen":
            irr["reopened"] = seat
        status, body = self.tap(event)
        if status != 201:
            self.tally.discrepancies.append(
                f"{self.tally.name} deal {deal.number}: the legal move {event} was refused: {status} "
                f"{body.get('message', '')}")
            return None
        return event

    def count_ruled_after_the_draw(self, deal: DealInPlay, event: dict[str, Any]) -> bool:
        """H6, D8: a seat given a wrong count at the draw counts its cards and calls the floor."""
        irr, seat = self.irregular, deal.seat
        if event["type"] == "draw" and irr.get("count_after") == seat and not irr.get("count_ruled"):
            irr["count_ruled"] = True  # H6, D8: the player counts the draw and says so
            deal.before = self.state
            self.rule_card_count(seat, len(deal.hands[seat]), "after_draw", deal.record)
            return True
        return False

    def face_a_drawn_card(self, deal: DealInPlay, event: dict[str, Any]) -> None:
        irr, seat, drawn = self.irregular, deal.seat, deal.record["drawn"]
        if (event["type"] == "draw" and event["count"] and not irr.get("exposed_once") and deal.deck
                and drawn.get(str(seat))
                and self.rng.random() < self.rate / 3):
            irr["exposed_once"] = True  # D12: the dealer turns a card of the draw face up
            card = drawn[str(seat)][0]
            if self.optional({"type": "expose", "seat": seat, "card": card}):
                irr["exposed"] = (seat, card)

    def hand_shown(self, deal: DealInPlay, seat: int) -> None:
        """A hand shown: the referee proves a split of openers, finds a false opener out at the
        showdown (unless the cards shown could hold openers) and values the hands that may win."""
        irr, hand = self.irregular, deal.hands[seat]
        deal.record["final"][str(seat)] = list(hand)
        split = irr.get("split")
        if split and split["seat"] == seat:
            requirement = irr.get("requirement") or self.state["jackpot"].get("requirement") or "J"
            ok = referee.could_open_split(hand, split["escrow"], split["drawn"], self.wild,
                                          requirement, self.wild_rank)
            irr["split_expect"] = "SPLIT_VERIFIED" if ok else "SPLIT_FAILED"
            self.tally.splits += 1
            if irr.get("false") == seat and not irr.get("found"):
                irr["found"] = "after_draw"
                if ok:
                    irr["undetectable"] = True
            elif irr.get("false") != seat and not ok:
                self.tally.wrong.append(f"{self.tally.name} deal {deal.number}: an honest split of openers "
                                        f"could not be proved by the referee ({hand} + {split['escrow']})")
        if irr.get("false") == seat and not irr.get("found"):
            irr["found"] = "after_draw"
            drawn = len(deal.record["drawn"].get(str(seat), []))
            requirement = irr.get("requirement", "J")
            if referee.kept_could_open(hand, drawn, self.wild, requirement, self.wild_rank):
                irr["undetectable"] = True  # the cards shown could hold openers: nobody can tell
                self.tally.notes.append(f"{self.tally.name} deal {deal.number}: a false opener's final hand "
                                        "could have held openers; uncaught, as at a real table")
        if irr.get("false") != seat or irr.get("undetectable"):  # F1/F8: a false opener cannot win
            deal.shown[seat] = referee.value(hand, self.wild, self.wild_rank)

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
