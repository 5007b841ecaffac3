"""The night's banked table (the BANKED seed's joker game, B1-B5): a director sets it up on its page
(session, CSRF token), a dealer plays rounds through ``/banked/tables/<id>/events`` (JSON, bearer
token) from real shuffled 53-card decks, each box by a simple strategy.

The referee's checks, from the real cards and apart from ``rules/``: the dealer's final five are the
cards dealt and drawn from the deck (nothing else), "no game" exactly when the dealer's final hand
is below a pair of jacks (B4; the joker counted as any card, as the casino joker is), the winner of
every box that bet where neither hand holds the joker (plain H5 ranking) and the hands differ, and
the money: the house's net each round is minus the boxes' total, and the house's total their sum.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

from night import referee
from night.floorperson import FloorPerson
from night.server import Client


class BankedNight:
    def __init__(self, port: int, dealer: Client, director_name: str, rng: random.Random, rounds: int,
                 boxes: int = 3) -> None:
        self.port, self.dealer, self.director_name = port, dealer, director_name
        self.rng, self.rounds, self.boxes = rng, rounds, boxes
        self.played = 0
        self.house_total = 0
        self.discrepancies: list[str] = []
        self.wrong: list[str] = []
        self.taps: dict[str, list[float]] = {}
        self.id = 0
        self.version = 0
        self.deadline = float("inf")

    def setup(self) -> None:
        director = FloorPerson(self.port, self.director_name)  # a browser session, as the floor's
        director.login()
        status, headers = director.post_form("/banked/tables", {
            "name": "Banked 1", "boxes": str(self.boxes), "options": "{}",
            "csrf_token": director.token("/banked/")})
        found = re.search(r"/banked/tables/(\d+)", headers.get("location", ""))
        if status not in (302, 303) or not found:
            raise RuntimeError(f"the banked table was not set up ({status})")
        self.id = int(found.group(1))
        status, body = self.dealer.request("GET", f"/banked/tables/{self.id}.json")
        self.version = body["version"]

    def tap(self, event: dict[str, Any]) -> dict[str, Any]:
        began = time.perf_counter()
        status, body = self.dealer.request("POST", f"/banked/tables/{self.id}/events",
                                           {**event, "expected_version": self.version})
        self.taps.setdefault(f"banked {event['type']}", []).append((time.perf_counter() - began) * 1000)
        if status != 201:
            raise RuntimeError(f"banked {event} refused: {status} {body}")
        self.version = body["version"]
        return body["state"]

    def run(self) -> None:
        self.setup()
        for _ in range(self.rounds):
            if time.monotonic() > self.deadline:
                break
            self.play_round()

    def play_round(self) -> None:
        deck = referee.deck(True)
        self.rng.shuffle(deck)
        boxes = list(range(1, self.boxes + 1))
        cards = {b: [deck.pop() for _ in range(5)] for b in boxes}
        dealer = [deck.pop() for _ in range(5)]
        antes = {str(b): 3 * self.rng.randint(1, 3) for b in boxes}
        state = self.tap({"type": "deal", "antes": antes, "cards": {str(b): " ".join(c) for b, c in cards.items()}})
        where = f"banked round {self.played + 1}"
        exchanged: set[int] = set()
        for _ in range(20):
            box = state.get("to_act")
            if box is None:
                break
            allowed = next(x["allowed"] for x in state["boxes"] if x["box"] == box)
            hand = cards[box]
            v = referee.value(hand, "bug")
            if "exchange" in allowed and v[0] == 0 and self.rng.random() < 0.5:
                throw = sorted(hand, key=lambda c: referee.RANKS.get(c[0], 15))[:1 if box in exchanged else 3]
                if throw:
                    exchanged.add(box)
                    drawn = [deck.pop() for _ in throw]
                    state = self.tap({"type": "exchange", "box": box, "discards": " ".join(throw),
                                      "drawn": " ".join(drawn)})
                    cards[box] = [c for c in hand if c not in throw] + drawn
                    continue
            move = "bet" if ("bet" in allowed and (v[0] >= 1 or self.rng.random() < 0.3)) else "fold"
            state = self.tap({"type": move, "box": box})
        state = self.tap({"type": "reveal", "dealer": " ".join(dealer)})
        throw = state["dealer"]["throw"]
        drawn = [deck.pop() for _ in throw]
        state = self.tap({"type": "dealer_draw", "drawn": " ".join(drawn)})
        final = [c for c in dealer if c not in throw] + drawn
        self.played += 1
        if sorted(state["dealer"]["final"]) != sorted(final):
            self.discrepancies.append(f"{where}: the dealer's final hand {state['dealer']['final']} is not the "
                                      f"cards dealt and drawn {final}")
        # B4: the dealer qualifies with a pair of jacks or better (the joker any card).
        qualifies = referee.value(final, "joker_any") >= (1, 11)
        nets = 0
        for p in state["payouts"]:
            nets += p["player_net"]
            if p["outcome"] == "folded":
                continue
            if (p["outcome"] == "no_game") == qualifies:
                self.wrong.append(f"{where}: box {p['box']} {p['outcome']}, yet the dealer's {final} "
                                  f"{'qualifies' if qualifies else 'does not qualify'} (B4)")
            box_cards = cards[p["box"]]
            if qualifies and referee.JOKER not in box_cards + final:
                mine, theirs = referee.value(box_cards), referee.value(final)
                right = "player_wins" if mine > theirs else "dealer_wins" if mine < theirs else "push"
                if p["outcome"] != right:
                    self.wrong.append(f"{where}: box {p['box']} {box_cards} against {final}: {p['outcome']}, "
                                      f"the referee says {right} (B5)")
        self.house_total += state["house_net"]
        # (The state is read from the round in play only, ``round_start``: its house_total is not the day's.)
        if state["house_net"] != -nets:
            self.discrepancies.append(f"{where}: the house's net {state['house_net']} is not minus the boxes' {nets}")
