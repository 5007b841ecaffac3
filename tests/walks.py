"""Random walks over the table engine, for the property that no table is ever left stuck (issue 22):
every move that ``legal`` lists is accepted by ``apply``, and no reachable state has an empty
``legal`` list, in every profile and option combination the schema allows.

A walk deals real cards from the profile's deck (shuffled each deal), so the shows are hands a
table could hold: draws replace the cards discarded, a split escrows the real discards, and a hand
is sometimes shown with a card too few (a foul hand, H6).
"""

from __future__ import annotations

import dataclasses
import json
import random
from itertools import combinations
from collections.abc import Iterable
from typing import Any

from rules import IllegalAction, ProfileError
from rules.cards import to_text
from rules.hands import declarable, evaluate
from rules.jackpot import TableState, start
from rules.jackpot.betting import BetMove, RaiseMove
from rules.jackpot.deal import DealMove, WidowMove
from rules.jackpot.draw import DrawMove
from rules.jackpot.events import Deal, Event, parse_event
from rules.jackpot.irregularities import ReopenMove
from rules.jackpot.moves import MenuMove, Move, parse_move
from rules.jackpot.opening import OpenMove
from rules.jackpot.requests import ExposeMove, WrongCountMove
from rules.jackpot.seating import AddChipsMove, MoveSeatMove, SitMove
from rules.jackpot.showdown import ShowMove
from rules.profiles import Profile, get_profile

RANKS = ["2", "5", "7", "9", "T", "J", "Q", "K", "A"]
NAMES = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kai"]


#: Games made of several options together (issue 22's among them).
PICKS: list[dict[str, Any]] = [
    {"opening_minimum": "none", "blinds": [5, 10], "seven_card_draw": True, "max_draw": 4},
    {"opening_minimum": "none", "blinds": [5, 10], "straddle": 3},
    {"jacks_back": True, "jacks_back_no_check_raise": True, "jacks_back_blind": True},
    {"jacks_back": True, "jacks_back_sevens": True, "wild": "none"},
    {"trips_to_win": True, "ante_deals": 1},
    {"bosnian": True, "max_draw": 4},
    {"betting": "spread", "spread": [5, 20]},
    {"betting": "pot", "raise_cap": None},
    {"betting": "no_limit", "check_open": True},
    {"kill": {"after": 2, "times": 2}, "rake": {"percent": 10, "cap": 5}, "drop": {"amount": 1, "pool": "bad_beat"}},
    {"all_for_one": True, "draw_rounds": 1, "ace_draws_four": False},
    {"declared_hands": True, "wild": "deuces"},
    {"draw_rounds": 3, "max_draw": 3, "ace_draws_four": True},
]


def option_value(rng: random.Random, f: dataclasses.Field[Any]) -> Any:
    """A random value the schema allows for one option (out-of-range values are other tests')."""
    name, choices = f.name, (f.metadata or {}).get("choices")
    if name == "southern_hands":
        return [h for h in choices if rng.random() < 0.3]
    if name == "wild_rank":
        return rng.choice(RANKS)
    if name == "blinds":
        return rng.choice([None, [5, 10], [2, 10]])
    if name == "spread":
        return rng.choice([[5, 20], [10, 10], [1, 40]])
    if name == "straddle":
        return rng.choice([False, True, 0, 1, 2, 3])
    if name == "rake":
        return rng.choice([None, {"percent": 5, "cap": 4, "min_pot": 20}, {"percent": 10, "cap": 50}])
    if name == "kill":
        return rng.choice([None, {"after": 2, "times": 2}])
    if name == "drop":
        return rng.choice([None, {"amount": 1, "pool": "high_hand"}, {"amount": 3, "pool": "bad_beat"}])
    if name == "time_charge":
        return rng.choice([None, None, {"amount": 2, "minutes": 30}])
    if choices is not None:
        return rng.choice(choices)
    if isinstance(f.default, bool):
        return rng.random() < 0.35
    if name in ("ante_deals", "raise_cap"):
        return rng.choice([None, 1, 2, 3, 4])
    if name == "pot_limit":
        return rng.choice([None, 30, 200])
    if name == "max_draw":
        return rng.randint(0, 5)
    if name == "draw_rounds":
        return rng.randint(1, 3)
    raise AssertionError(f"tests/walks.py: no values known for the option {name}; add them")


def random_profile(rng: random.Random) -> Profile:
    """A random profile: each option set with some chance; an option the others do not allow with
    is dropped (the refusal names it first), until the profile is accepted."""
    fields = [f for f in dataclasses.fields(Profile) if f.metadata]
    spec: dict[str, Any] = {"base": rng.choice(["cardroom", "pagat", "foster"])}
    picked = rng.random() < 0.3
    if picked:  # a game that needs several options at once, which random picks seldom hit
        spec.update(rng.choice(PICKS))
    for f in fields:
        if rng.random() < (0.12 if picked else 0.3) and f.name not in spec:
            spec[f.name] = option_value(rng, f)
    for _ in range(len(fields) + 1):
        try:
            return get_profile(spec)
        except ProfileError as exc:
            named = str(exc).split(":", 1)[0]
            if named not in spec:  # a refusal naming an option the base set: undo the last one set
                named = next(reversed([k for k in spec if k != "base"]))
            del spec[named]
    raise AssertionError(f"no profile accepted: {spec}")


class Cards:
    """The cards of the deal in play: a shuffled deck, each seat's hand, the escrow."""

    def __init__(self, rng: random.Random, profile: Profile) -> None:
        self.rng, self.profile = rng, profile
        self.hands: dict[int, list[str]] = {}
        self.deck: list[str] = []
        self.muck: list[str] = []
        self.widow_card: str | None = None

    def deal(self, state: dict[str, Any]) -> None:
        self.deck = [to_text([c]) for c in self.profile.hand_rules.deck()]
        self.rng.shuffle(self.deck)
        size = self.profile.hand_size
        self.muck, self.widow_card = [], None
        self.hands = {s: [self.deck.pop() for _ in range(size)] for s in state["dealt"]}

    def widow(self) -> str:
        card = next(c for c in self.deck if c != "Jk")
        self.deck.remove(card)
        self.widow_card = card
        return card

    def draw(self, seat: int, count: int) -> list[str]:
        hand = self.hands.setdefault(seat, [])
        self.rng.shuffle(hand)
        thrown, kept = hand[:count], hand[count:]
        if len(self.deck) < count:  # the discards are shuffled to finish the draw (D3)
            self.rng.shuffle(self.muck)
            self.deck, self.muck = self.muck + self.deck, []
        new = [self.deck.pop() for _ in range(min(count, len(self.deck)))]
        self.muck += thrown
        self.hands[seat] = kept + new
        return thrown

    def expose(self, seat: int) -> str:
        """D12: the last card dealt to ``seat`` was faced: it is dead, and another takes its place."""
        hand = self.hands.setdefault(seat, [])
        if not hand:  # the simulated stub ran dry for this seat: face a card from what is left
            hand.append((self.deck or self.muck).pop())
        faced = hand.pop()
        if not self.deck:
            self.rng.shuffle(self.muck)
            self.deck, self.muck = self.muck, []
        if self.deck:
            hand.append(self.deck.pop())
        return faced

    def show(self, seat: int, state: dict[str, Any]) -> list[str]:
        hand = self.hands.setdefault(seat, [])
        if len(hand) < 5:  # the simulated pack ran shorter than the table's: top up from unseen cards
            seen = {c for h in self.hands.values() for c in h} | {c for cs in state["escrow"].values() for c in cs}
            seen |= {x["card"] for x in state["exposed"]} | {c for x in state["seats"].values() for c in x["shown"] or ()}
            seen.add(state.get("widow") or "")
            pool = [to_text([c]) for c in self.profile.hand_rules.deck()]
            hand += [c for c in pool if c not in seen][:5 - len(hand)]
        five = best_five(hand, self.profile, self.widow_card) if len(hand) > 5 else hand
        if self.rng.random() < 0.04:
            return five[:4]  # a foul hand (H6)
        return five


def best_five(hand: list[str], profile: Profile, widow: str | None = None) -> list[str]:
    """The best five of a longer hand (seven-card draw shows five); in wild widow, with its card."""
    rules = profile.hand_rules.with_widow(widow) if widow else profile.hand_rules
    return list(max(combinations(hand, 5), key=lambda five: evaluate(list(five), rules)))


def event_for(rng: random.Random, state: dict[str, Any], move: Move, cards: Cards) -> Event:
    """An event the legal move ``move`` builds (:mod:`rules.jackpot.moves`), its choices made at random:
    a seat of a menu, an amount of the spread, a count and the cards of the deal in play."""
    match move:
        case DealMove():
            return move.event()
        case WidowMove():
            return move.event(cards.widow())
        case SitMove():
            seated = {x["player"] for x in state["seats"].values()}
            return move.event(rng.choice(move.seats), rng.choice([n for n in NAMES if n not in seated] or ["Zed"]),
                              rng.choice([1, 20, 300]))
        case AddChipsMove():
            return move.event(rng.choice(move.seats), rng.choice([1, 50, 500]))
        case MoveSeatMove():
            return move.event(rng.choice(move.seats), rng.choice(move.to))
        case ExposeMove():
            seat = rng.choice(move.seats)
            return move.event(seat, cards.expose(seat))
        case WrongCountMove():
            return move.event(rng.choice(move.seats), rng.choice(move.counts))
        case DrawMove():
            return draw_for(rng, move, cards)
        case ShowMove():
            shown = cards.show(move.seat, state)
            declare = None
            if move.declare and len(shown) == 5:
                rules = cards.profile.hand_rules
                if state.get("widow"):
                    rules = rules.with_widow(state["widow"])
                # H9: a class the cards make (the best hand of it plays); the refusal of one they
                # cannot make is tested apart (tests/test_rulings_declared.py)
                declare = rng.choice(declarable(shown, rules))
            return move.event(shown, declare)
        case OpenMove() | BetMove() | RaiseMove():
            amounts = move.amounts
            if move.most is not None and (not amounts or rng.random() < 0.8):
                # pot limit, no limit: the least, the most, or anything between
                return move.event(amount=rng.choice((move.amount, move.most, rng.randint(move.amount, move.most))))
            return move.event(amount=rng.choice(amounts) if amounts else None)
        case ReopenMove():
            return move.event(amount=move.amount if rng.random() < 0.5 else None)
        case MenuMove():  # a menu whose only choice is the seat (leave, sit out or in, keep openers)
            return move.event(rng.choice(move.seats))  # type: ignore[attr-defined, no-any-return]
    return move.event()  # type: ignore[attr-defined, no-any-return]  # nothing left to choose


def draw_for(rng: random.Random, move: DrawMove, cards: Cards) -> Event:
    """A draw within ``move``: a count, the real discards split or kept apart as escrow now and then
    (S1, F12), the Bosnian exchange with the cards in play (D16)."""
    count = rng.choice(move.cards) if move.cards else rng.randint(move.min, move.max)
    thrown = cards.draw(move.seat, count)
    escrow: list[str] = []
    split = False
    if move.keep or (move.split and count and rng.random() < 0.3):
        escrow = thrown
        cards.muck = [c for c in cards.muck if c not in thrown]  # kept apart, never reshuffled
        split = bool(count) and (not move.keep or rng.random() < 0.5)
    up = take = None
    if move.bosnian and count == 4 and len(cards.deck) > 1 and rng.random() < 0.7:
        take = rng.choice(["up", "down"])
        # the face-up card kept is in the hand; the face-up card left is dead
        up = cards.hands[move.seat][-1] if take == "up" else cards.deck.pop()
    return move.event(count, split=split, escrow=escrow, up=up, take=take)


def legal_moves(table: TableState, legal: tuple[Move, ...] | None = None) -> list[Move]:
    """What a walk chooses from: ``legal`` (``table.legal()`` unless given) and the requests beside
    the turn, but D8's wrong count (the walks deal real cards: a hand is never the wrong size)."""
    return [*(table.legal() if legal is None else legal),
            *(r for r in table.requests() if not isinstance(r, WrongCountMove))]


#: The legal moves whose JSON has been read back already (in this process): a walk meets the same
#: moves (``deal``, ``2 pass``, ...) over and over, and reading each back once checks the same as
#: reading it back at every step, for an eighth of a walk's CPU.
READ_BACK: set[Move] = set()
#: The same for the events applied: an event is a frozen value too, and ``deal``, ``3 fold``,
#: ``2 check`` recur all walk long (the shows and draws, with their cards, seldom do).
EVENTS_READ_BACK: set[Event] = set()


def walks(seeds: Iterable[int], steps: int = 80) -> int:
    """:func:`walk` over ``seeds``; returns the events applied in all. Whatever stops a walk (a
    refusal, no legal move, or the engine raising anything else) fails naming its seed, so that
    ``walk(seed, steps)`` replays it, fresh seeds drawn for one run included."""
    applied = 0
    for seed in seeds:
        try:
            applied += walk(seed, steps)
        except AssertionError:
            raise
        except Exception as exc:
            raise AssertionError(f"seed {seed}: {type(exc).__name__}: {exc} "
                                 f"(replay: walk({seed}, steps={steps}))") from exc
    return applied


def walk(seed: int, steps: int = 80) -> int:
    """One random walk; returns the number of events applied. Fails (AssertionError) on a legal
    move refused or a state with no legal move, naming the seed and the event."""
    rng = random.Random(seed)
    profile = random_profile(rng)
    n = rng.randint(2, 7)
    setup = {"profile": profile.to_dict(), "ante": rng.choice([0, 5]), "small_bet": 10, "big_bet": 20,
             "button": rng.randint(1, n),
             "seats": [{"seat": s, "player": f"P{s}", "stack": rng.choice([0, 3, 8, 40, 200, 200])}
                       for s in range(1, n + 1)]}
    table = start(setup)
    cards = Cards(rng, profile)
    applied = 0
    state = table.to_dict()
    for _ in range(steps):
        moves = table.legal()  # worked out once a step (each call works it out again)
        assert moves, f"seed {seed}: no legal move in {state['phase']} ({state['message']})"
        # the moves' JSON (the API's legal and requests) reads back to the very same values
        assert len(state["legal"]) == len(moves)
        for shown, move in zip(state["legal"], moves):
            if move not in READ_BACK:  # a move is a value: its JSON reads back the same every time
                assert parse_move(json.loads(json.dumps(shown))) == move, f"seed {seed}: {shown} reads back otherwise"
                READ_BACK.add(move)
        move = rng.choice(legal_moves(table, moves))
        event = event_for(rng, state, move, cards)
        # the log stores the engine's reading of an event as JSON and the app applies the value it
        # read (floor.tables._stage): that JSON must read back to the very same value, or a replay
        # would apply another event than the one applied live
        if event not in EVENTS_READ_BACK:
            read = parse_event(json.loads(json.dumps(event.to_dict())))
            assert read == event, f"seed {seed}: {event} does not read back"
            EVENTS_READ_BACK.add(event)
        try:
            table = table.apply(event)
        except IllegalAction as exc:
            raise AssertionError(f"seed {seed}: legal move {move} refused as {event}: {exc}") from None
        applied += 1
        # every state reached is read as plain data (the API's JSON) once, here, for the next step
        # and for the deal's cards: each was read twice after a deal
        state = table.to_dict()
        if isinstance(event, Deal):
            cards.deal(state)
    return applied
