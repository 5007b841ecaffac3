"""D3, the deck running out in the draw, and the dead cards of the draw (D12, D16).

D3 (docs/rules.md; PAGAT, FOSTER-era laws): "the discards of players who have already drawn (never the
escrowed split openers) are shuffled to finish the draw; the last card of the stub is not dealt."
PAGAT (P1): "the discards of the players who have already discarded are shuffled and cut to form a
new deck from which replacement cards can be dealt to the remaining player(s)".

Only discards are reshuffled. A card faced while the draw is dealt (D12) and the face-up card a
Bosnian exchange leaves behind (D16) are dead: every player has seen them, so they are set aside
and never dealt again. The stub's last card is not dealt off the stub: it goes into the reshuffle
with the discards, and with no discard to shuffle it with it is not dealt at all.
"""

from __future__ import annotations

import random

import pytest

from rules import IllegalAction
from rules.cards import deck
from rules.jackpot import replay, start
from rules.profiles import get_profile
from tests.notation import log, table

TEN = "deal; 2 open; " + "; ".join(f"{s} call" for s in (3, 4, 5, 6, 7, 8, 9, 10, 1))  # stub 3 (53 - 50)
BOSNIAN = {"base": "cardroom", "bosnian": True, "max_draw": 4}


def draw_max(state: dict) -> int:
    return next(m for m in state["legal"] if m["type"] == "draw")["max"]


def test_D3_a_card_faced_in_the_draw_is_dead_and_never_reshuffled() -> None:
    """D3 with D12: seat 2 draws 2 of the 3 left (the stub's last card kept back); a card is faced
    to seat 2 and is dead: the discards are seat 2's two cards, not three, and the replacement owed
    to seat 2 is kept back, so seat 3 may draw 2 (the last card with the two discards, less the one
    owed), not 3 as when the dead card was shuffled back in."""
    setup = table(n=10)
    events = log(TEN + "; 2 draw 2") + [{"type": "expose", "seat": 2, "card": "9h"}]
    state = replay(setup, events)
    assert state["exposed"] == [{"seat": 2, "card": "9h"}] and state["owed"] == [2]
    assert state["stub"] == 1 and state["discards"] == 2
    assert draw_max(state) == 2
    with pytest.raises(IllegalAction, match=r"only 2 cards can be dealt.*nor a dead card.*\(D3\)"):
        replay(setup, events + log("3 draw 3"))
    after = replay(setup, events + log("3 draw 2"))  # the reshuffle: last card + 2 discards, 2 dealt
    assert after["stub"] == 1 and after["discards"] == 2 and "reshuffled to finish the draw (D3)" in after["message"]
    # the dead card can never come back: it is refused in any hand
    with pytest.raises(IllegalAction, match="9h was faced in the draw and is dead"):
        replay(setup, events + log("3 draw 0; 4 draw 0; 5 draw 0; 6 draw 0; 7 draw 0; 8 draw 0; 9 draw 0; "
                                   "10 draw 0; 1 draw 0; 2 check; 3 check; 4 check; 5 check; 6 check; "
                                   "7 check; 8 check; 9 check; 10 check; 1 check; 2 show 9h Ah Ad Kc Qc"))


def test_D3_the_bosnian_face_up_card_left_is_dead_the_face_down_card_left_is_a_discard() -> None:
    """D3 with D16: "If the face up card is chosen the face down card is discarded unseen": that
    card joins the discards and may be reshuffled; a face-up card left behind has been seen by all
    and is dead, so it is not among the discards."""
    setup = table(profile=BOSNIAN)
    heads_up = "deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold"
    up = replay(setup, log(heads_up) + [{"type": "draw", "seat": 3, "count": 4, "take": "up", "up": "Kh"}])
    assert up["discards"] == 4 + 1 and up["exposed"] == []
    down = replay(setup, log(heads_up) + [{"type": "draw", "seat": 3, "count": 4, "take": "down", "up": "Kh"}])
    assert down["discards"] == 4 and down["exposed"] == [{"seat": 3, "card": "Kh"}]
    assert up["stub"] == down["stub"] == 53 - 20 - 5


def test_D3_with_no_discard_to_shuffle_the_last_card_of_the_stub_is_not_dealt() -> None:
    """D3: "the last card of the stub is not dealt". Ten players leave 3; seat 2 splits openers
    (its 2 discards go to escrow, never reshuffled), so nothing can be shuffled with the last card:
    seat 3 may stand pat only, and a draw of one is refused."""
    setup = table(n=10)
    events = log(TEN + "; 2 draw 2 split Jh 4c")
    state = replay(setup, events)
    assert state["stub"] == 1 and state["discards"] == 0 and draw_max(state) == 0
    with pytest.raises(IllegalAction, match=r"only 0 cards can be dealt.*\(D3\)"):
        replay(setup, events + log("3 draw 1"))
    # once a discard exists the last card joins the reshuffle
    state = replay(setup, events + log("3 draw 0"))
    assert draw_max(state) == 0  # seat 3 stood pat: still nothing to shuffle with
    state = replay(setup, log(TEN + "; 2 draw 1; 3 draw 1"))
    assert state["stub"] == 1 and state["discards"] == 2  # 2 took the 2nd card, 3 the reshuffled pack


# --------------------------------------------------------------------------- the truth: real cards

class Pack:
    """The physical cards of one deal, as a card room handles them under D3: the stub (its bottom
    card first), the discards, the dead cards set aside, the hands."""

    def __init__(self, rng: random.Random, profile, seats: list[int]) -> None:
        self.rng = rng
        self.stub = [str(c) for c in deck(wild=profile.wild, stripped=profile.stripped_deck)]
        rng.shuffle(self.stub)
        self.hands = {s: [self.stub.pop() for _ in range(5)] for s in seats}
        self.discards: list[str] = []
        self.dead: set[str] = set()
        self.owed: list[int] = []

    def available(self) -> int:
        last = 1 if self.discards and self.stub else 0  # the bottom card only with discards
        return max(0, len(self.stub) - 1) + len(self.discards) + last - len(self.owed)

    def take(self, n: int) -> list[str]:
        if n == 0 or n <= len(self.stub) - 1:
            return [self.stub.pop() for _ in range(n)]
        assert self.discards, "D3: the stub's last card dealt with no discard to shuffle it with"
        pool = self.stub + self.discards
        self.rng.shuffle(pool)
        self.stub, self.discards = pool, []
        assert not self.dead & set(pool), "D3: a dead card reshuffled"
        assert len(self.stub) >= n
        return [self.stub.pop() for _ in range(n)]

    def draw(self, seat: int, n: int, take: str | None) -> str | None:
        hand = self.hands[seat]
        self.rng.shuffle(hand)
        thrown, kept = hand[:n], hand[n:]
        new = self.take(n + (1 if take else 0))
        up = None
        if take:  # D16: the last two are one face up, one face down
            down, up = new.pop(), new.pop()
            new.append(up if take == "up" else down)
            (self.discards.append(down) if take == "up" else self.dead.add(up))
        self.hands[seat] = kept + new
        self.discards += thrown
        return up


@pytest.mark.parametrize("profile", ["cardroom", "pagat", BOSNIAN], ids=["cardroom", "pagat", "bosnian"])
def test_D3_real_shuffled_ten_handed_deals_never_deal_a_dead_card_nor_the_last_card_alone(profile) -> None:
    """D3 against the truth: 150 ten-handed deals of real shuffled cards, every draw as large as the
    engine allows at random, cards faced (D12) and Bosnian exchanges (D16) at random. The physical
    pack never has to reshuffle a dead card or deal the stub's last card without discards, it
    always holds what the engine lets a player draw, and the engine's stub and discards count the
    physical ones after every event."""
    rng = random.Random(3)
    p = get_profile(profile)
    reshuffles = faced = 0
    for _ in range(150):
        setup = table(n=10, button=rng.randint(1, 10), profile=profile)
        state = start(setup).apply({"type": "deal"})
        pack = Pack(rng, p, list(state.to_dict()["dealt"]))
        while (view := state.to_dict())["phase"] == "predraw":
            kinds = {m["type"]: m for m in view["legal"]}
            kind = "open" if "open" in kinds else "call" if "call" in kinds else "check"
            state = state.apply({"type": kind, "seat": view["to_act"]})
        while (view := state.to_dict())["phase"] == "draw":
            seat, move = view["to_act"], view["legal"][0]
            n = rng.randint(move["min"], move["max"])
            assert n <= pack.available(), "the engine allows a draw the pack cannot give under D3"
            take = rng.choice(["up", "down"]) if move.get("bosnian") and n == 4 else None
            up = pack.draw(seat, n, take)
            event = {"type": "draw", "seat": seat, "count": n}
            if take:
                event.update(take=take, up=up)
            state = state.apply(event)
            reshuffles += "reshuffled" in state.to_dict()["message"]
            if state.to_dict()["phase"] != "draw" and pack.owed:  # the owed cards are dealt last (D12)
                owed, pack.owed = pack.owed, []
                for s, card in zip(owed, pack.take(len(owed))):  # together, as the dealer deals them
                    pack.hands[s].append(card)
            expose = next((r for r in state.to_dict()["requests"] if r["type"] == "expose"), None)
            if expose and rng.random() < 0.3:
                s = rng.choice(expose["seats"])
                before = state.to_dict()
                assert (before["stub"], before["discards"]) == (len(pack.stub), len(pack.discards)), before["message"]
                card = pack.hands[s].pop()  # the last card dealt to s was faced: dead
                pack.dead.add(card)
                state = state.apply({"type": "expose", "seat": s, "card": card})
                faced += 1
                if s in state.to_dict()["owed"]:
                    pack.owed.append(s)
                else:
                    pack.hands[s] += pack.take(1)
            view = state.to_dict()
            assert (view["stub"], view["discards"]) == (len(pack.stub), len(pack.discards)), view["message"]
            assert not pack.dead & {c for h in pack.hands.values() for c in h}
    assert reshuffles > 50 and faced > 50  # the walk did reach the runs-out and the faced cards
