"""The cash-game floor of the night (issue 31), through the HTTP API once the tables have played:
players join a list and are called and seated; a must-move game feeds the main game and its
player who has waited longest moves up when a seat opens there; a seat change is honoured; the
dealers rotate and a dealer's tap at a table not theirs is refused; the public board shows the
lists and no chips. The must-move link and the seat change go through the floor's forms
(``/floor/cash``) when the night gives the floor person's browser session, as a phone would.
Each check that fails is a discrepancy of the night."""

from __future__ import annotations

from typing import Any

from night.dealer import conserved
from night.floorperson import FloorPerson
from night.server import Client

STAKES = {"profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1, "capacity": 6}


class CashFloor:
    """Two tables of cardroom 10/20: "Main 1" (four players) and its must-move game "Must 1"."""

    def __init__(self, director: Client, floor: Client, dealer: Client, dealer_2: Client,
                 dealer_names: tuple[str, str], web: FloorPerson | None = None) -> None:
        self.director, self.floor, self.dealer, self.dealer_2 = director, floor, dealer, dealer_2
        self.web = web  # the floor person's browser session: the page's forms, not the API
        self.dealer_names = dealer_names
        self.discrepancies: list[str] = []
        self.wrong: list[str] = []  # the referee's part has none here; kept for the night's totals
        self.lines: list[str] = []
        self.tables: list[int] = []

    def call(self, client: Client, method: str, path: str, body: dict[str, Any] | None, expect: int) -> Any:
        status, answer = client.request(method, path, body)
        if status != expect:
            raise AssertionError(f"{method} {path} {body}: {status} {answer.get('message', answer)}, not {expect}")
        return answer

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            self.discrepancies.append(f"cash floor: {what}")

    def waiting(self, list_id: int) -> list[dict[str, Any]]:
        lists = self.call(self.floor, "GET", "/api/lists", None, 200)
        players: list[dict[str, Any]] = next(wl for wl in lists if wl["id"] == list_id)["players"]
        return players

    def seats(self, table: int) -> dict[int, dict[str, Any]]:
        state = self.call(self.dealer, "GET", f"/api/tables/{table}", None, 200)["state"]
        return {int(n): s for n, s in state["seats"].items()}

    def form(self, path: str, prefix: str, fields: dict[str, str], api: tuple[str, dict[str, Any], int]) -> None:
        """Post one of the cash floor's forms (fields named with the form's prefix), or, without a
        browser session, the same through the API (``api``: path, body, status)."""
        if self.web is None:
            self.call(self.floor, "POST", api[0], api[1], api[2])
            return
        with self.web.lock:
            token = self.web.token("/floor/cash")
            status, _ = self.web.post_form(path, {**{f"{prefix}-{k}": v for k, v in fields.items()},
                                                  "csrf_token": token, f"{prefix}-csrf_token": token})
        if status != 302:
            raise AssertionError(f"POST {path} {fields}: {status}, not 302")

    def run(self) -> None:
        try:
            self.play()
        except (AssertionError, KeyError, StopIteration) as exc:
            self.discrepancies.append(f"cash floor: {exc!r}")

    def play(self) -> None:
        main = self.call(self.director, "POST", "/api/tables", {"name": "Main 1", **STAKES, "seats": [
            {"seat": n, "player": f"Main P{n}", "stack": 500} for n in range(1, 5)]}, 201)["id"]
        must = self.call(self.director, "POST", "/api/tables", {"name": "Must 1", **STAKES, "seats": []}, 201)["id"]
        self.tables = [main, must]
        wl = self.call(self.floor, "POST", "/api/lists", {"game": "cardroom", "stakes": "10/20"}, 201)["id"]
        walk = [f"Walk-in {n}" for n in range(1, 6)]
        for name in walk:
            self.call(self.floor, "POST", f"/api/lists/{wl}/join", {"player": name}, 200)
        self.check([p["name"] for p in self.waiting(wl)] == walk, "the list is not in the order joined")
        self.form(f"/floor/cash/tables/{must}/feeds", f"t{must}", {"main": str(main)},
                  (f"/api/tables/{must}/feeds", {"table": main}, 200))
        # The first three are called and seated: two at the must-move game, one at the main game's open seat.
        for name, table, seat in ((walk[0], must, 1), (walk[1], must, 2), (walk[2], main, 5)):
            self.call(self.floor, "POST", f"/api/lists/{wl}/call", {"player": name}, 200)
            self.call(self.floor, "POST", f"/api/lists/{wl}/seat",
                      {"player": name, "table": table, "seat": seat, "chips": 200}, 200)
        self.check([p["name"] for p in self.waiting(wl)] == walk[3:], "the seated players are still on the list")
        # A seat opens at the main game: the must-move player who has waited longest is called, first.
        self.call(self.dealer, "POST", f"/api/tables/{main}/events", {"type": "leave", "seat": 2}, 201)
        first = self.waiting(wl)[0]
        self.check(first["name"] == walk[0] and first["called_at"] is not None and first["must_move_from"] == must,
                   f"a seat opened at Main 1 and the list's first is {first}, not {walk[0]} called from Must 1")
        self.call(self.floor, "POST", f"/api/lists/{wl}/seat", {"player": walk[0], "table": main, "seat": 2}, 200)
        here, there = self.seats(main), self.seats(must)
        self.check(here.get(2, {}).get("player") == walk[0] and here[2]["stack"] == 200 and 1 not in there,
                   f"{walk[0]} did not move up from Must 1 seat 1 to Main 1 seat 2 with 200")
        # A seat change at the main game is honoured when a seat opens; the seat left calls the next must-move player.
        self.form(f"/floor/cash/tables/{main}/seat_changes", f"t{main}", {"player": "Main P1", "seat": ""},
                  (f"/api/tables/{main}/seat_changes", {"player": "Main P1"}, 201))
        self.call(self.dealer, "POST", f"/api/tables/{main}/events", {"type": "leave", "seat": 4}, 201)
        here = self.seats(main)
        self.check(here.get(4, {}).get("player") == "Main P1" and 1 not in here,
                   "Main P1's seat change to seat 4 was not honoured")
        first = self.waiting(wl)[0]
        self.check(first["name"] == walk[1] and first["called_at"] is not None,
                   f"seat 1 opened at Main 1 and {walk[1]} (must move) was not called first: {first}")
        self.lines.append(f"cash floor: {len(walk)} joined the list, 3 called and seated from it, 1 must-move player "
                          "moved up, the next called; 1 seat change honoured")
        self.rotate(main, must)
        board = self.call(Client(self.floor.port), "GET", "/board", None, 200)["text"]
        self.check(all(f'data-player="{name}"' in board for name in (walk[1], walk[3], walk[4]))
                   and "500" not in board and "stack" not in board,
                   "the public board does not show the list, or shows chips")
        self.check(f"{self.dealer_names[0]}: Main 1" not in board, "the board still shows a rotation ended")
        for table, start in ((main, 2000), (must, 0)):  # the contract's law at each table
            state = self.call(self.dealer, "GET", f"/api/tables/{table}", None, 200)["state"]
            self.check(conserved(state, start), f"table {table}: the chips do not add up: {state['ledger']}")

    def rotate(self, main: int, must: int) -> None:
        """Two dealers rotate over the two tables; each logs only at their own; the floor anywhere."""
        first, second = self.dealer_names
        slots = self.call(self.floor, "POST", "/api/rotation",
                          {"dealers": [first, second], "tables": [main, must], "minutes": 30}, 201)
        now = {s["dealer"]: s["table"] for s in slots if s["from"] == min(x["from"] for x in slots)}
        self.check(now == {first: main, second: must}, f"the rotation's first round is {now}")
        status, refused = self.dealer_2.request("POST", f"/api/tables/{main}/events", {"type": "sit_out", "seat": 3})
        self.check(status == 403 and "rotation: Main 1 is not your table now: you deal at Must 1" in refused["message"],
                   f"a dealer's tap at another dealer's table: {status} {refused}")
        self.call(self.dealer_2, "POST", f"/api/tables/{must}/events", {"type": "sit_out", "seat": 2}, 201)
        self.call(self.dealer_2, "POST", f"/api/tables/{must}/events", {"type": "sit_in", "seat": 2}, 201)
        self.call(self.floor, "POST", f"/api/tables/{must}/events", {"type": "sit_out", "seat": 2}, 201)
        self.call(self.dealer, "POST", f"/api/tables/{main}/events", {"type": "sit_out", "seat": 3}, 201)
        board = self.call(Client(self.floor.port), "GET", "/board", None, 200)["text"]
        self.check(f"{first}: Main 1 · next Must 1 at" in board, "the board does not show the dealers' next tables")
        self.call(self.floor, "POST", "/api/rotation/end", {}, 200)
        self.lines.append("dealer rotation: 2 dealers over 2 tables; a tap at another dealer's table refused, "
                          "the floor's anywhere")
