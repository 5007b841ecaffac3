"""The floor person's pages render the engine's typed state (issue 23): for tables in known states,
what a floor person reads on the overview (``/floor/``), the chip correction page and the line-ups
is what the table's state says in the contract's plain data (``GET /api/tables/<id>``): the deal and
its phase, the pot, each seat's player and stack, the ledger's chips in and out, a reopen offer
waiting on the floor after false openers (F3) and a showdown in progress.

Every page here renders with Jinja's strict undefined: a name the typed state does not have (a
misspelt attribute, a field of the plain data only) fails the test instead of showing the floor a
blank cell.
"""

from __future__ import annotations

import random
import re

import jinja2
import pytest

from floor import tables
from rules import RulesError
from rules.words import phase_words
from tests.conftest import SETUP, user
from tests.test_dealer_panel_state import plain_state, random_tap

# seat 2 passes, seat 3 opens, seat 4 calls: seat 1 is to act before the draw
OPENED = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4}]
# ... seat 1 and seat 2 call too, everyone checks after the draw: the showdown begins at the opener
TO_SHOWDOWN = [*OPENED, {"type": "call", "seat": 1}, {"type": "call", "seat": 2},
               {"type": "draw", "seat": 2, "count": 3}, {"type": "draw", "seat": 3, "count": 1},
               {"type": "draw", "seat": 4, "count": 2}, {"type": "draw", "seat": 1, "count": 0},
               {"type": "check", "seat": 3}, {"type": "check", "seat": 4}, {"type": "check", "seat": 1},
               {"type": "check", "seat": 2}]
# seat 3 opens, everyone folds to it, it shows openers and takes the pot (O1): between deals again
WON = [*OPENED[:3], {"type": "fold", "seat": 4}, {"type": "fold", "seat": 1}, {"type": "fold", "seat": 2},
       {"type": "show", "seat": 3, "cards": ["Qs", "Qd", "7c", "4h", "2s"]}]


@pytest.fixture
def floor(app, as_role):
    app.jinja_env.undefined = jinja2.StrictUndefined  # a name the state lacks raises, never renders blank
    return as_role("floor")


def new_table(app, name, events=(), setup=SETUP) -> int:
    """A table with ``events`` logged: the dealer's, and the floor's word (false openers) by the floor."""
    with app.app_context():
        dealer, floor_user = user("dee"), user("fred")
        table = tables.create_table(name, setup)
        for event in events:
            tables.append(table, event, floor_user if event["type"] in ("false_openers", "correction") else dealer)
        return table.id


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def overview_rows(html: str) -> dict[str, dict]:
    """The overview's table rows by table name: deal and phase, pot, the floor's flags, the links."""
    tables_part = html.split("<h2>Tables</h2>", 1)[1].split("<h2>Rulings</h2>", 1)[0]
    rows = {}
    for row in re.findall(r"<tr(?: class=\"disputed\")?>\s*<td><strong>.*?</tr>", tables_part, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        rows[text_of(cells[0])] = {"deal": text_of(cells[3]), "pot": text_of(cells[4]),
                                   "flags": re.findall(r'<span class="pill warn">([^<]*)</span>', cells[6]),
                                   "correct": "Correct chips" in cells[7], "marked": 'class="disputed"' in row}
    return rows


def stacks_shown(html: str) -> dict[int, tuple[str, int]]:
    """The correction page's seats: seat -> (player, stack now)."""
    return {int(seat): (player, int(stack)) for seat, player, stack in
            re.findall(r"<tr><td>(\d+)</td><td>([^<]*)</td><td>(-?\d+)</td>", html)}


def test_the_overview_shows_each_tables_deal_pot_and_what_waits_on_the_floor(app, floor):
    """F3: false openers found before the draw with players left to act offer the pot to reopen,
    and the table is marked for the floor with the seats asked; a showdown in progress is marked
    (openers are proved there); a table between deals waits on nothing and offers the chip
    correction. The deal, phase and pot are the state's."""
    ids = {"Fresh": new_table(app, "Fresh"),
           "Reopen": new_table(app, "Reopen", [*OPENED, {"type": "false_openers", "seat": 3}]),
           "Showdown": new_table(app, "Showdown", TO_SHOWDOWN),
           "Won": new_table(app, "Won", WON)}
    page = floor.get("/floor/")
    assert page.status_code == 200
    rows = overview_rows(page.get_data(as_text=True))
    assert set(rows) == set(ids)
    for name, table_id in ids.items():
        state = plain_state(floor, table_id)
        # the part of the deal in players' words ("before the draw", not the engine's "predraw")
        assert rows[name]["deal"] == (f"{state['deal']} · {phase_words(state['phase'])}" if state["deal"] else "no deal yet"), name
        assert rows[name]["pot"] == str(state["pot"]), name
        assert rows[name]["correct"] == (state["phase"] == "between_deals"), name
    reopen = plain_state(floor, ids["Reopen"])["reopen"]
    assert reopen["false_opener"] == 3 and reopen["eligible"]
    assert rows["Reopen"]["flags"] == ["reopen offer pending: seats " + ", ".join(map(str, reopen["eligible"]))]
    assert rows["Showdown"]["flags"] == ["showdown in progress"]
    assert rows["Showdown"]["deal"] == "1 · showdown" and rows["Showdown"]["pot"] == "60"  # 4 antes of 5, 4 bets of 10
    # a table nobody has dealt at: no "deal 0" for the floor to read
    assert rows["Fresh"] == {"deal": "no deal yet", "pot": "0", "flags": [], "correct": True, "marked": False}
    assert rows["Won"]["deal"] == "1 · between deals" and rows["Won"]["pot"] == "0" and not rows["Won"]["flags"]
    assert rows["Reopen"]["marked"] and rows["Showdown"]["marked"]


def test_a_table_whose_log_the_rules_refuse_is_named_not_a_crash(app, floor, monkeypatch):
    """A log the rules in force refuse (logged under older rules, say) gives the overview and the
    line-ups a line telling the floor to call the director, with no state to read; the other tables
    still show theirs."""
    broken, fine = new_table(app, "Broken", OPENED), new_table(app, "Fine")
    replay = tables.table_state

    def refusing(table):
        if table.id == broken:
            raise RulesError("event #2: seat 3 cannot open: it is not seat 3's turn")
        return replay(table)

    monkeypatch.setattr(tables, "table_state", refusing)
    rows = overview_rows(floor.get("/floor/").get_data(as_text=True))
    assert rows["Broken"] == {"deal": "", "pot": "", "flags": ["the log does not replay: call the director"],
                              "correct": False, "marked": True}
    assert rows["Fine"]["deal"] == "no deal yet"
    lineups = floor.get("/floor/lineups").get_data(as_text=True)
    assert re.search(rf'data-table="{broken}".*?the log does not replay: call the director', lineups, re.S)
    assert re.search(rf'data-table="{fine}".*?No deal yet · pot 0', lineups, re.S)


def test_the_correction_page_shows_each_seats_player_and_stack(app, floor):
    """Between deals the page lists the seats with the stacks the award left (Cleo took the pot);
    a correction moves chips between them and the page shows the new stacks; during a deal it
    warns that chips are corrected between deals only."""
    table_id = new_table(app, "Table 1", WON)
    url = f"/floor/tables/{table_id}/correction"
    html = floor.get(url).get_data(as_text=True)
    state = plain_state(floor, table_id)
    assert stacks_shown(html) == {int(s): (x["player"], x["stack"]) for s, x in state["seats"].items()}
    assert stacks_shown(html)[3] == ("Cleo", 515) and stacks_shown(html)[1] == ("Ann", 495)
    assert "A deal is in progress" not in html
    done = floor.post(url, data={"seat-3": "-10", "seat-1": "+10", "reason": "the pot was misread"})
    assert done.status_code == 302
    html = floor.get(url).get_data(as_text=True)
    assert stacks_shown(html)[3] == ("Cleo", 505) and stacks_shown(html)[1] == ("Ann", 505)
    # a correction that does not add up to nothing is refused; the page shows the stacks unchanged
    refused = floor.post(url, data={"seat-3": "-10", "seat-1": "5", "reason": "x"})
    assert refused.status_code == 422 and stacks_shown(refused.get_data(as_text=True))[3] == ("Cleo", 505)
    # with the amounts as typed, to put right (they came back empty)
    assert re.search(r'name="seat-3"[^>]*value="-10"', refused.get_data(as_text=True))
    assert re.search(r'name="seat-1"[^>]*value="5"', refused.get_data(as_text=True))
    during = new_table(app, "Table 2", OPENED)
    html = floor.get(f"/floor/tables/{during}/correction").get_data(as_text=True)
    assert "A deal is in progress: chips are corrected between deals." in html
    assert stacks_shown(html) == {1: ("Ann", 495), 2: ("Bob", 495), 3: ("Cleo", 485), 4: ("Dev", 485)}


def test_the_lineups_show_stacks_statuses_and_the_ledger(app, floor):
    """The line-up lists every seat up to the capacity: a player sitting out, an empty seat, each
    stack, and the chips brought in and taken away as the state's ledger counts them."""
    table_id = new_table(app, "Table 1", [{"type": "sit_out", "seat": 2}, {"type": "leave", "seat": 4},
                                          {"type": "sit", "seat": 5, "player": "Eve", "chips": 300}])
    html = floor.get("/floor/lineups").get_data(as_text=True)
    section = re.search(rf'<section class="lineup" data-table="{table_id}".*?</section>', html, re.S).group(0)
    state = plain_state(floor, table_id)
    assert state["ledger"] == {"chips_in": 300, "chips_out": 500}
    assert re.search(r"data-chips-in>300<.*data-chips-out>500<", section, re.S)
    assert "No deal yet · pot 0" in text_of(section)  # no "deal 0" before the first deal
    rows = {int(seat): text_of(row) for seat, row in re.findall(r'<tr data-seat="(\d+)"[^>]*>(.*?)</tr>', section, re.S)}
    assert sorted(rows) == list(range(1, state["capacity"] + 1))
    assert rows[2].startswith("2 Bob 500 sitting out") and rows[5].startswith("5 Eve 300 active")
    assert rows[4] == "4 empty" and rows[8] == "8 empty"
    for seat, x in state["seats"].items():
        assert rows[int(seat)].startswith(f"{seat} {x['player']} {x['stack']} ")


def test_the_lineups_say_why_a_seat_is_barred_F7_or_D9(app, floor):
    """F7 against D9 (both show as the state's status "barred"): the floor reads a ruling's bar as
    F7's and a player shut out of a trips-to-win play-off as D9's."""
    trips = {**SETUP, "profile": {"base": "cardroom", "trips_to_win": True}}
    no_trips = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
                {"type": "call", "seat": 4}, {"type": "call", "seat": 1}, {"type": "fold", "seat": 2},
                *({"type": "draw", "seat": s, "count": 1} for s in (3, 4, 1)),
                *({"type": "check", "seat": s} for s in (3, 4, 1)),
                {"type": "show", "seat": 3, "cards": "Jc Jd 5h 5s 2c"}, {"type": "show", "seat": 4, "cards": "Ac Ad Kc Kd 9h"},
                {"type": "show", "seat": 1, "cards": "7c 7d 8h 4s 3c"}]
    shut = new_table(app, "Trips", no_trips, setup=trips)
    short = {**SETUP, "seats": [{**x, "stack": 5} if x["seat"] == 2 else x for x in SETUP["seats"]]}
    barred = new_table(app, "Short", [{"type": "deal"}, {"type": "open", "seat": 2},
                                      {"type": "false_openers", "seat": 2}, {"type": "pass", "seat": 3},
                                      {"type": "pass", "seat": 4}, {"type": "pass", "seat": 1}], setup=short)
    html = floor.get("/floor/lineups").get_data(as_text=True)

    def seat_2(table_id: int) -> str:
        section = re.search(rf'<section class="lineup" data-table="{table_id}".*?</section>', html, re.S).group(0)
        return text_of(re.search(r'<tr data-seat="2"[^>]*>(.*?)</tr>', section, re.S).group(1))

    assert plain_state(floor, shut)["seats"]["2"]["status"] == plain_state(floor, barred)["seats"]["2"]["status"] == "barred"
    assert "shut out until the pot is won (D9)" in seat_2(shut) and "F7" not in seat_2(shut)
    assert "barred until the pot is won (F7)" in seat_2(barred) and "D9" not in seat_2(barred)


@pytest.mark.parametrize("profile", [{"base": "cardroom"}, {"wild": "widow"},
                                     {"opening_minimum": "none", "blinds": [5, 10], "straddle": True,
                                      "ante_deals": None}], ids=["cardroom", "widow", "blinds"])
def test_the_floor_pages_read_nothing_the_typed_state_lacks(app, floor, profile):
    """Along a game of random legal moves the overview, the line-ups and the correction page render
    with Jinja's strict undefined and keep showing the state's pot and stacks."""
    table_id = new_table(app, "Table 1", setup={**SETUP, "profile": profile})
    rng = random.Random(23)
    for _ in range(30):
        event = random_tap(app, table_id, rng)
        if event is None:
            break
        state = plain_state(floor, table_id)
        overview = floor.get("/floor/")
        assert overview.status_code == 200, event
        assert overview_rows(overview.get_data(as_text=True))["Table 1"]["pot"] == str(state["pot"])
        assert floor.get("/floor/lineups").status_code == 200, event
        correction = floor.get(f"/floor/tables/{table_id}/correction")
        assert correction.status_code == 200, event
        assert stacks_shown(correction.get_data(as_text=True)) == {
            int(s): (x["player"], x["stack"]) for s, x in state["seats"].items()}
