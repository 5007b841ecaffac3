"""A bounded, exhaustive search over combinations of the table's mistakes, with real cards.

For each main profile (cardroom, pagat, foster), on tables of 3 to 5 seats (with and without a
player all in for part of the ante), every sequence of up to N events is played through the engine
(``rules.jackpot``) and, beside it, through the money model written apart from it
(:mod:`tests.money.model`). The events are drawn, at every step, from what the table allows then
(the engine's ``legal`` and ``requests``) and from the irregularities the seeds name:

- false openers found before the draw, during it and after it (F2-F9), and the reopening (F3): the
  floor "finds" false openers only where the opener's real cards hold none;
- opening without openers (the false opening itself), splitting openers with and without them (S1,
  S2), an all-in player opening for the ante (O6, F7);
- a card faced in the draw (D12), a hand of the wrong size before and after the draw (D8, H6), a
  player asking the opener to keep the opening hand (F12);
- folds, mucks and raises at each point, a player leaving a carried pot and a newcomer sitting down
  to it, a barred player buying chips (F7).

The cards are real: each deal gives each seat, in the engine's dealing order, a known hand (some
with openers, some without), and the draw comes off a known stub, so that who has openers, what a
split proves and who wins the showdown are facts, not assertions.

After every event the engine's chips are checked against the model's: every seat's stack and the
pot; the award of a won pot (winners, shares, no dead hand paid); how the deal ended; and a state
the engine reaches by two paths must be one situation for the model (and the other way round).
States are deduplicated: a state already searched with as many events left is not searched again
(its sequences are counted, not replayed), which is what lets N grow.

``python -m tests.money.search --events N`` (``make search``) prints the figures; the test suite
runs a short N (tests/test_money_search.py).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from night import referee
from rules import RulesError
from rules.jackpot import start
from tests.money.model import Model, ModelError

PROFILES = ("cardroom", "pagat", "foster")
ANTE, SMALL, BIG, STACK, SHORT = 5, 10, 20, 100, 3
MAX_DRAW = {"cardroom": 5, "pagat": 3, "foster": 5}

# The hands dealt, in the engine's dealing order (the first after the button first): two sets, so that
# the player who speaks first holds openers in one deal and not in the next. None holds the joker or
# a deuce, so that they read alike with the bug and without it.
HANDS = (
    ("Ks Kd 7c 4h 3s", "9h 8h 6c 5d 3c", "Qc Qh Jd Js 5s", "Ac Tc 8d 6s 4d", "7h 7d 3h 3d 9c", "Th 9d 6h 4c 5h"),
    ("8c 8s Kh 4c 3h", "Ah Ad 9d 5c 3d", "Th Ts 6h 6d Kc", "Jh 9s 7s 5h 4s", "Qs Qd Tc 6c 5d", "Kd Ks 7d 5s 4h"),
)


@dataclass(frozen=True)
class Table:
    """One table searched: the profile, the seats, and whether the last seat is short (all in for part
    of the ante: O6, F7)."""

    profile: str
    seats: int
    short: bool

    @property
    def name(self) -> str:
        return f"{self.profile}/{self.seats}{' short' if self.short else ''}"

    def setup(self) -> dict[str, Any]:
        return {"profile": self.profile, "ante": ANTE, "small_bet": SMALL, "big_bet": BIG, "button": 1,
                "seats": [{"seat": s, "player": f"P{s}",
                           "stack": SHORT if self.short and s == self.seats else STACK}
                          for s in range(1, self.seats + 1)]}

    @property
    def wild(self) -> str:
        return "none" if self.profile == "foster" else "bug"


@dataclass(frozen=True)
class Cards:
    """The truth of the deal in play: each seat's opening hand, its hand now, the stub, the seats
    owed a card for one faced (D12), and the one-off irregularities already used."""

    deal: int = 0
    opening: tuple[tuple[int, tuple[str, ...]], ...] = ()
    hands: tuple[tuple[int, tuple[str, ...]], ...] = ()
    stub: tuple[str, ...] = ()
    owed: tuple[int, ...] = ()
    last_drawn: tuple[tuple[int, tuple[str, ...]], ...] = ()
    used: frozenset[str] = frozenset()

    def hand(self, s: int) -> tuple[str, ...]:
        return dict(self.hands)[s]

    def with_hand(self, s: int, cards: tuple[str, ...]) -> Cards:
        return replace(self, hands=tuple((x, cards if x == s else h) for x, h in self.hands))


def dealt_cards(table: Table, deal: int, order: list[int]) -> Cards:
    hands = HANDS[(deal - 1) % 2]
    given = {s: tuple(hands[i].split()) for i, s in enumerate(order)}
    deck = [r + u for r in "23456789TJQKA" for u in "cdhs"] + (["Jk"] if table.wild == "bug" else [])
    used = {c for h in given.values() for c in h}
    stub = [c for c in deck if c not in used]
    random.Random(f"{table.name} {deal}").shuffle(stub)
    return Cards(deal, tuple(given.items()), tuple(given.items()), tuple(stub))


# --------------------------------------------------------------------------- the moves at a state


def _core(hand: tuple[str, ...], wild: str) -> list[str]:
    """The cards of a hand that make its openers (its pairs, the bug with an ace)."""
    ranks = Counter(c[0] for c in hand if c != "Jk")
    core = [c for c in hand if c != "Jk" and ranks[c[0]] >= 2]
    if "Jk" in hand and wild == "bug" and ranks.get("A"):
        core += [c for c in hand if c[0] == "A" or c == "Jk"]
    return core


def draws(table: Table, st: dict[str, Any], s: int, cards: Cards) -> list[tuple[str, dict[str, Any], tuple[str, ...]]]:
    """The draws searched for seat ``s``: (label, event, discards)."""
    hand = cards.hand(s)
    most = MAX_DRAW[table.profile]
    opener = st["jackpot"]["opener"]
    core = _core(hand, table.wild)
    rest = sorted((c for c in hand if c not in core), key=lambda c: "23456789TJQKA".index(c[0]) if c != "Jk" else 99)
    plain = tuple(rest[:most]) if core else tuple(rest[:3])
    out = []
    keep = st.get("keep_openers") is not None and s == opener
    event: dict[str, Any] = {"type": "draw", "seat": s, "count": len(plain)}
    if keep and plain:
        event.update(escrow=list(plain))  # F12: every discard kept apart
    out.append(("draw", event, plain))
    if s == opener and not keep and st["legal"][0].get("split"):
        # S1: split openers: one card of the openers (or, without openers, a card said to be one) under a chip
        thrown = (core[0],) if core else (rest[-1],)
        out.append(("split", {"type": "draw", "seat": s, "count": 1, "split": True, "escrow": list(thrown)}, thrown))
    return out


def moves(table: Table, st: dict[str, Any], cards: Cards) -> Iterator[tuple[str, dict[str, Any], Any]]:
    """Every event searched at this state: (label, event, what it does to the cards)."""
    phase, to_act = st["phase"], st["to_act"]
    legal = {m["type"]: m for m in st["legal"]}
    requests = {m["type"]: m for m in st["requests"]}
    if phase == "between_deals":
        yield from _between(table, st, cards, legal)
        return
    opener = st["jackpot"]["opener"]
    opening = dict(cards.opening)
    # the floor finds false openers where the opener's real cards hold none (F2-F9)
    if opener is not None and st["seats"][opener]["status"] == "active" and st["reopen"] is None \
            and phase in ("predraw", "draw", "postdraw") \
            and not referee.qualifies(list(opening[opener]), table.wild, st["jackpot"]["requirement"]):
        yield "false_openers", {"type": "false_openers", "seat": opener}, None
    # the one-off mistakes come where they are met at a table, not at every step (which would only
    # multiply the sequences): F12 is asked as the pot is opened; a hand of the wrong size is seen as
    # the cards are dealt (found before the draw) or as a player takes the draw (after it)
    last = st.get("last_event") or {}
    keep = requests.get("keep_openers", {}).get("seats") or []
    if keep and "keep" not in cards.used and last.get("type") in ("open", "reopen"):
        yield "keep_openers", {"type": "keep_openers", "seat": keep[0]}, "keep"
    wrong = requests.get("wrong_count", {}).get("seats") or []
    counted = wrong[-1] if last.get("type") == "deal" else last.get("seat") if last.get("type") == "draw" else None
    if counted in wrong and "count" not in cards.used:
        yield "wrong_count", {"type": "wrong_count", "seat": counted, "count": 6}, "count"
    exposed = requests.get("expose", {}).get("seats") or []
    if exposed and "expose" not in cards.used:
        s = exposed[0]
        got = dict(cards.last_drawn).get(s)
        if got:
            yield "expose", {"type": "expose", "seat": s, "card": got[0]}, ("expose", s, got[0])
    if to_act is None:
        return
    if phase == "draw" and "draw" in legal:
        for label, event, thrown in draws(table, st, to_act, cards):
            yield label, event, ("draw", to_act, thrown)
        return
    if phase == "showdown":
        if "show" in legal:
            yield "show", {"type": "show", "seat": to_act, "cards": list(cards.hand(to_act))}, None
        if "muck" in legal:
            yield "muck", {"type": "muck", "seat": to_act}, None
        return
    for kind in ("pass", "open", "reopen", "check", "call", "bet", "fold"):
        if kind in legal:
            yield kind, {"type": kind, "seat": to_act}, None
    if "raise" in legal and st["raises"] == 0:
        yield "raise", {"type": "raise", "seat": to_act}, None


def _between(table: Table, st: dict[str, Any], cards: Cards, legal: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], Any]]:
    if "deal" in legal:
        yield "deal", {"type": "deal"}, "deal"
    carried = not st["jackpot"]["new_pot"] and st["pot"] > 0
    seats = st["seats"]
    if carried and "leave" not in cards.used and "leave" in legal:
        s = max(int(x) for x in legal["leave"]["seats"])
        yield "leave", {"type": "leave", "seat": s}, "leave"
    if carried and "sit" not in cards.used and "sit" in legal:
        s = min(legal["sit"]["seats"])
        yield "sit", {"type": "sit", "seat": s, "player": "Newcomer", "chips": STACK}, "sit"
    barred = [int(s) for s, x in seats.items() if x["status"] == "barred"]
    if barred and "rebuy" not in cards.used and "add_chips" in legal:
        yield "add_chips", {"type": "add_chips", "seat": barred[0], "amount": STACK}, "rebuy"


def follow(table: Table, cards: Cards, change: Any, st: dict[str, Any]) -> Cards:
    """The cards after an event the engine accepted (``st`` is the state after it)."""
    if change == "deal":
        order = [int(s) for s in st["dealt"]]
        fresh = dealt_cards(table, cards.deal + 1, order)
        return replace(fresh, used=frozenset(u for u in cards.used if u in ("leave", "sit", "rebuy")))
    if isinstance(change, str):
        return replace(cards, used=cards.used | {change})
    if isinstance(change, tuple) and change[0] == "draw":
        _, s, thrown = change
        kept = tuple(c for c in cards.hand(s) if c not in thrown)
        new, stub = cards.stub[:len(thrown)], cards.stub[len(thrown):]
        cards = replace(cards, stub=stub, last_drawn=((s, new),))
        cards = cards.with_hand(s, kept + new)
    elif isinstance(change, tuple) and change[0] == "expose":
        _, s, card = change
        cards = replace(cards.with_hand(s, tuple(c for c in cards.hand(s) if c != card)),
                        owed=cards.owed + (s,), used=cards.used | {"expose"}, last_drawn=())
    owed_now = {int(x) for x in st.get("owed") or ()}
    for s in [x for x in cards.owed if x not in owed_now]:  # D12: the replacement comes now
        cards = replace(cards.with_hand(s, cards.hand(s) + cards.stub[:1]), stub=cards.stub[1:],
                        owed=tuple(x for x in cards.owed if x != s))
    return cards


# --------------------------------------------------------------------------- checking a state

VOLATILE = ("version", "message", "last_event", "undo", "voided", "legal", "requests", "rulings", "deal")


def engine_key(st: dict[str, Any]) -> str:
    data = {k: v for k, v in st.items() if k not in VOLATILE}
    data["rulings"] = [(r.get("outcome"), tuple(r.get("barred") or ())) for r in st["rulings"]]
    return json.dumps(data, sort_keys=True, default=str)


def model_key(m: Model) -> str:
    seats = {s: (x.player, x.stack, x.put, x.bets, x.round, x.status, x.acted, x.shown, x.drawn)
             for s, x in sorted(m.seats.items())}
    return repr((seats, m.left, m.new_pot, m.ante_deals, m.force_ante, m.ante_for_all, sorted(m.barred), m.phase,
                 m.dealt, m.opened, m.opener, m.opener_bets, m.proven, sorted(m.passed), m.callers, m.raised,
                 m.level, m.escrow, m.reopen, m.keep, m.unproven))


PHASES = {"between_deals": "between", "predraw": "predraw", "draw": "draw", "postdraw": "postdraw",
          "showdown": "showdown"}


def compare(m: Model, st: dict[str, Any], before: dict[str, Any]) -> list[tuple[str, str]]:
    """What the engine's state says against the model's, as (kind, words); the model pays an award
    the engine made once it is within its reading."""
    found: list[tuple[str, str]] = []
    ended = st["phase"] == "between_deals" and before["phase"] != "between_deals"
    if ended and st["last_end"] == "won" or (st["phase"] == "between_deals" and st["awards"] != before["awards"]
                                              and st["awards"]):
        awards = {int(s): a for s, a in st["awards"].items()}
        dead = [s for s in awards if s in m.seats and m.seats[s].status in ("dead", "barred")]
        if dead:
            found.append(("dead hand paid", f"the engine pays {awards} to dead seats {dead}"))
        if m.ended != "won":
            found.append(("pot", f"the engine awards {awards}; the model has the deal {m.ended or m.phase}"))
        else:
            why = m.pay_awards(awards)
            if why:
                found.append(("award", why))
    elif ended and m.phase != "between":
        found.append(("flow", f"the engine ends the deal ({st['last_end']}); the model is in the {m.phase}"))
    elif m.ended == "won" and m.pending_pot and st["phase"] != "between_deals":
        found.append(("pot", f"the model awards {m.awards}; the engine plays on ({st['phase']})"))
    elif PHASES[st["phase"]] != m.phase:
        found.append(("flow", f"engine phase {st['phase']}, model {m.phase}"))
    mine = {s: (x.stack, x.put) for s, x in m.seats.items()}
    theirs = {int(s): (x["stack"], x["put"]) for s, x in st["seats"].items()}
    if theirs != mine or st["pot"] != m.pot:
        diff = {s: (theirs.get(s), mine.get(s)) for s in set(theirs) | set(mine) if theirs.get(s) != mine.get(s)}
        found.append(("chips", f"(stack, put) engine/model {diff}; pot {st['pot']}/{m.pot}"))
    return found


# --------------------------------------------------------------------------- the search


@dataclass
class Figures:
    sequences: int = 0
    states: int = 0
    distinct: set[str] = field(default_factory=set)
    refused: int = 0
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)     # each kind of move played, over the states searched
    outcomes: Counter[str] = field(default_factory=Counter)   # each ruling the engine made


class Search:
    """Depth-first over the moves, memoised on (engine state, cards, model state, events left)."""

    def __init__(self, table: Table, events: int, figures: Figures) -> None:
        self.table, self.events, self.f = table, events, figures
        self.memo: dict[tuple[str, str, str, int], int] = {}
        self.by_model: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.seen_problems: set[tuple[str, str]] = set()

    def run(self) -> int:
        state = start(self.table.setup())
        model = Model.of(self.table.setup())
        return self.visit(state, state.to_dict(), model, Cards(), [], self.events)

    def visit(self, state: Any, st: dict[str, Any], model: Model, cards: Cards, path: list[str], left: int) -> int:
        """The number of sequences from here (this one and every longer one, up to ``left`` more events)."""
        ekey = engine_key(st)
        ckey = repr(cards)
        # the model's state too: a state of the engine reached in two situations the model tells apart
        # is searched in each (the engine may be the one that lost the difference)
        key = (ekey, ckey, model_key(model), left)
        if key in self.memo:
            return self.memo[key]
        self.f.states += 1
        self.f.distinct.add(ekey + ckey)
        self._one_situation(st, model, path)
        total = 1
        if left:
            for label, event, change in moves(self.table, st, cards):
                try:
                    after = state.apply(event)
                except RulesError:
                    self.f.refused += 1
                    continue
                st2 = after.to_dict()
                self.f.events[label] += 1
                if st2["deal"] == st["deal"] and len(st2["rulings"]) > len(st["rulings"]):
                    self.f.outcomes.update(r["outcome"] for r in st2["rulings"][len(st["rulings"]):])
                cards2 = follow(self.table, cards, change, st2)
                m2 = model.copy()
                step = path + [describe(event)]
                try:
                    m2.apply(event, dict(cards2.opening) if change == "deal" else dict(cards.opening))
                    problems = compare(m2, st2, st)
                except (ModelError, AssertionError, KeyError) as exc:
                    problems = [("model", f"{type(exc).__name__}: {exc}")]
                if problems:
                    self._report(problems, step, st2)
                    total += 1  # the sequence is counted; nothing is searched beyond a disagreement
                    continue
                total += self.visit(after, st2, m2, cards2, step, left - 1)
        self.memo[key] = total
        return total

    def _one_situation(self, st: dict[str, Any], model: Model, path: list[str]) -> None:
        """Between deals, one situation of the model (who sits with what, what is in the pot and whose,
        who is barred, whether the next deal antes) is one state of the engine, whatever the path."""
        if model.phase != "between":
            return
        theirs = (sorted((s, x["player"], x["stack"], x["put"], x["status"] == "barred") for s, x in st["seats"].items()),
                  st["pot"], st["jackpot"]["new_pot"], st["jackpot"]["antes_next_deal"], st["jackpot"]["ante_for_all"])
        mine = (sorted((str(s), x.player, x.stack, x.put, x.player in model.barred) for s, x in model.seats.items()),
                model.pot, model.new_pot, model.force_ante, model.ante_deals, model.ante_for_all)
        other = self.by_model.setdefault(repr(mine), (repr(theirs), tuple(path)))
        if other[0] != repr(theirs):
            self._report([("two paths", f"one situation, two answers: {other[0]} after {'; '.join(other[1])}, "
                                        f"{theirs} here")], path, st)

    def _report(self, problems: list[tuple[str, str]], path: list[str], st: dict[str, Any] | None) -> None:
        for kind, words in problems:
            sig = (kind, words.split(";")[0][:90])
            self.f.kinds[kind] += 1
            if sig in self.seen_problems:
                continue
            self.seen_problems.add(sig)
            self.f.disagreements.append({"table": self.table.name, "kind": kind, "what": words, "path": path,
                                         "message": st["message"] if st else ""})


def describe(event: dict[str, Any]) -> str:
    words = [str(event.get("seat", "")), event["type"]]
    if event["type"] == "draw":
        words.append(str(event["count"]) + (" split " + " ".join(event["escrow"]) if event.get("split") else
                                            " keep " + " ".join(event["escrow"]) if event.get("escrow") else ""))
    elif event["type"] == "show":
        words.append(" ".join(event["cards"]))
    elif event["type"] in ("expose",):
        words.append(event["card"])
    elif event["type"] == "wrong_count":
        words.append(str(event["count"]))
    return " ".join(w for w in words if w)


def tables(seats: tuple[int, ...] = (3, 4, 5), profiles: tuple[str, ...] = PROFILES) -> list[Table]:
    return [Table(p, n, short) for p in profiles for n in seats for short in (False, True)]


def search(events: int, seats: tuple[int, ...] = (3, 4, 5), profiles: tuple[str, ...] = PROFILES,
           progress: bool = False) -> Figures:
    figures = Figures()
    for table in tables(seats, profiles):
        began = time.perf_counter()
        before = (figures.states, len(figures.distinct), len(figures.disagreements))
        figures.sequences += Search(table, events, figures).run()
        if progress:
            print(f"  {table.name:18} states {figures.states - before[0]:>8}  distinct {len(figures.distinct) - before[1]:>8}"
                  f"  disagreements {len(figures.disagreements) - before[2]:>3}  {time.perf_counter() - began:6.1f} s",
                  file=sys.stderr, flush=True)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=14, help="the longest sequence searched (N)")
    parser.add_argument("--seats", default="3,4,5")
    parser.add_argument("--profiles", default=",".join(PROFILES))
    parser.add_argument("--show", type=int, default=20, help="disagreements printed in full")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    f = search(args.events, tuple(int(x) for x in args.seats.split(",")), tuple(args.profiles.split(",")), progress=True)
    for d in f.disagreements[:args.show]:
        print(f"{d['table']}: {d['kind']}: {d['what']}\n    path: {'; '.join(d['path'])}\n    engine: {d['message']}")
    print("moves played: " + ", ".join(f"{k} {n}" for k, n in sorted(f.events.items())))
    print("rulings made: " + ", ".join(f"{k} {n}" for k, n in sorted(f.outcomes.items())))
    print(f"search: N {args.events}, {f.sequences} sequences, {f.states} states searched, {len(f.distinct)} distinct "
          f"end states, {f.refused} events refused, {len(f.disagreements)} disagreements "
          f"({', '.join(f'{k} {n}' for k, n in f.kinds.items()) or 'none'}), {time.perf_counter() - began:.1f} s")
    return 1 if f.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
