"""Every desk action that changes who is in the event or their chips records the bust-outs the log
already holds and draws the final table when due, on its page and in its API alike (issue 34; the
decision is in :func:`floor.tournament.floorwork.sync_eliminations`'s docstring).

The table log's hook records a bust-out when its pot is won; when it did not (a log written without
it, a hook that failed: :func:`floor.tournament.floorwork.after_append` says the desk's next action
finds it), a floor person must see the player placed, and the final table drawn, right after
whatever the desk does next. Each test busts a player with the hook off, checks the player is still
listed, then takes one desk action and checks what the floor would see. The last test is a bust-out
by the desk's own count (a recount of 0), placed at once with no eliminator."""

from __future__ import annotations

import json

import pytest

from floor import tables as table_log
from tests.conftest import login
from tests.test_tournament_desk import STRUCTURE, api, clock, make_event, play_bust, seats_of  # noqa: F401 (fixtures)


def place_of(api, event: int, player: str) -> int | None:
    return next(r["place"] for r in api.get(f"/api/events/{event}/results") if r["player"] == player)


def missed_bust(api, monkeypatch, event: int, table_id: int) -> tuple[str, str, int]:
    """Bust the player of the table's second seat (the first wins) with the log's hook off: the
    player still listed, unplaced, at 0 chips in the seat. Returns (loser, winner, the loser's seat)."""
    seats = sorted(seats_of(api, table_id))
    names = {s: x["player"] for s, x in seats_of(api, table_id).items()}
    with monkeypatch.context() as m:
        m.setattr(table_log, "AFTER_APPEND", [])
        play_bust(api, table_id, seats[0], seats[1])
    loser = names[seats[1]]
    assert place_of(api, event, loser) is None and seats_of(api, table_id)[seats[1]]["stack"] == 0
    return loser, names[seats[0]], seats[1]


def placed(api, event: int, table_id: int, loser: str, seat: int, place: int) -> None:
    """What the floor sees once the bust-out is recorded: the place, the seat free, off the chip counts."""
    assert place_of(api, event, loser) == place
    assert seat not in seats_of(api, table_id) or seats_of(api, table_id)[seat]["player"] != loser
    assert loser not in [c["player"] for c in api.get(f"/api/events/{event}/chips")]


# --------------------------------------------------------------------------- the API


def test_a_recount_through_the_api_places_a_player_the_hook_missed(api, monkeypatch):
    event, ids = make_event(api, entries=4, tables=1)
    loser, winner, seat = missed_bust(api, monkeypatch, event, ids[0])
    stack = next(x["stack"] for x in seats_of(api, ids[0]).values() if x["player"] == winner)
    api.post(f"/api/events/{event}/counts", {"player": winner, "stack": stack, "reason": "check"}, role="floor",
             status=201)
    placed(api, event, ids[0], loser, seat, 4)


def test_a_recount_of_a_player_the_cards_busted_gives_no_chips_from_the_house(api, monkeypatch):
    """Counted 100 while the log says the pot that busted them is won: they are out (place 4), and the
    house gives them nothing (before, a correction of +100 from the house sat them back in)."""
    event, ids = make_event(api, entries=4, tables=1)
    loser, _, seat = missed_bust(api, monkeypatch, event, ids[0])
    refused = api.call("POST", f"/api/events/{event}/counts", role="floor",
                       json={"player": loser, "stack": 100, "reason": "says they have chips"})
    assert refused.status_code == 422 and "out of the event already" in refused.get_json()["message"]
    placed(api, event, ids[0], loser, seat, 4)
    assert api.table(ids[0])["ledger"] == {"chips_in": 0, "chips_out": 0}


def test_hand_for_hand_through_the_api_places_a_player_the_hook_missed(api, monkeypatch):
    event, ids = make_event(api, entries=8, tables=2)
    loser, _, seat = missed_bust(api, monkeypatch, event, ids[0])
    on = api.post(f"/api/events/{event}/hand_for_hand", {"on": True}, role="floor", status=200)
    assert on["on"] is True and on["clock"]["players_left"] == 7
    placed(api, event, ids[0], loser, seat, 8)


def test_the_chip_race_through_the_api_places_a_player_the_hook_missed(api, monkeypatch, clock):
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "color_up": [{"level": 3, "chip": 5}]})
    loser, _, seat = missed_bust(api, monkeypatch, event, ids[0])
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    clock.wait(minutes=51)
    report = api.post(f"/api/events/{event}/color_up", role="floor", status=201)
    assert loser not in report[0]["after"]  # nobody races with a busted player's nothing
    placed(api, event, ids[0], loser, seat, 4)


def test_a_late_entry_through_the_api_places_a_player_the_hook_missed_first(api, monkeypatch):
    """The late entry takes a free seat: the busted player's, once the bust-out is recorded."""
    event, ids = make_event(api, entries=4, tables=1)
    loser, _, seat = missed_bust(api, monkeypatch, event, ids[0])
    done = api.post(f"/api/events/{event}/entries", {"player": "Zed"}, role="floor", status=201)
    assert done["seated"] is not None
    assert place_of(api, event, loser) == 5  # the first out of five entries
    assert loser not in [c["player"] for c in api.get(f"/api/events/{event}/chips")]


def test_a_player_the_hook_missed_re_enters_through_the_api(api, monkeypatch):
    """Re-entry: the player the cards busted comes to the desk to enter again (before: "already entered")."""
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "reentry": 1})
    loser, _, _ = missed_bust(api, monkeypatch, event, ids[0])
    done = api.post(f"/api/events/{event}/entries", {"player": loser}, role="floor", status=201)
    assert done["seated"] is not None
    row = next(r for r in api.get(f"/api/events/{event}/results") if r["player"] == loser)
    assert row["reentries"] == 1 and row["place"] is None  # back in, a new buy-in
    assert [c["stack"] for c in api.get(f"/api/events/{event}/chips") if c["player"] == loser] == [100]


def test_a_late_entry_is_refused_once_the_missed_bust_out_draws_the_final_table(api, monkeypatch):
    """Five players at two tables of four: the bust-out leaves four, who fit the final table, so its
    seats are drawn and entries close (late registration runs until the final table)."""
    event, ids = make_event(api, entries=5, tables=2)
    big = max(ids, key=lambda i: len(seats_of(api, i)))
    missed_bust(api, monkeypatch, event, big)
    late = api.call("POST", f"/api/events/{event}/entries", role="floor", json={"player": "Zed"})
    assert late.status_code == 422 and "the final table is drawn" in late.get_json()["message"]
    assert api.get(f"/api/events/{event}/balance")["final_redraw"] is True
    assert "Zed" not in [r["player"] for r in api.get(f"/api/events/{event}/results")]


def test_a_deal_through_the_api_places_a_player_the_hook_missed_and_deals_them_out(api, monkeypatch):
    """The three with chips agree a deal: the busted player is placed fourth, not dealt a share
    (before: refused, "every player in the deal has chips", until some other desk action)."""
    event, ids = make_event(api, entries=4, tables=1)
    loser, _, seat = missed_bust(api, monkeypatch, event, ids[0])
    left = [x["player"] for x in seats_of(api, ids[0]).values() if x["player"] != loser]
    rows = api.post(f"/api/events/{event}/chop", {"method": "chip", "agreed": left}, role="floor", status=201)
    assert sorted(r["player"] for r in rows) == sorted(left)
    assert place_of(api, event, loser) == 4


def test_a_manual_bust_out_of_a_player_the_cards_busted_leaves_the_bounty_to_the_winner(api, monkeypatch):
    """The cards busted them: the desk's bust-out by hand is refused (out already) and the bounty is
    the hand's winner's, traced to the hand (before: busted by hand, the bounty won by nobody)."""
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "bounty": 10})
    loser, winner, seat = missed_bust(api, monkeypatch, event, ids[0])
    by_hand = api.call("POST", f"/api/events/{event}/eliminate", role="floor", json={"player": loser, "reason": "left"})
    assert by_hand.status_code == 422 and "out of the event already" in by_hand.get_json()["message"]
    placed(api, event, ids[0], loser, seat, 4)
    assert [(b["player"], b["winner"], b["amount"]) for b in api.get(f"/api/events/{event}/bounties")] == [
        (loser, winner, 10)]


def test_a_rebuy_of_a_player_the_hook_missed_pays_the_bounty_first(api, monkeypatch):
    """A rebuy buys a new bounty; the one on the busted head is the winner's (before: never paid)."""
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "bounty": 10, "rebuy_levels": 2})
    loser, winner, seat = missed_bust(api, monkeypatch, event, ids[0])
    api.post(f"/api/events/{event}/buys", {"player": loser, "kind": "rebuy"}, role="floor", status=201)
    assert [(b["player"], b["winner"]) for b in api.get(f"/api/events/{event}/bounties")] == [(loser, winner)]
    assert seats_of(api, ids[0])[seat]["player"] == loser and seats_of(api, ids[0])[seat]["stack"] == 100


# --------------------------------------------------------------------------- the pages


def test_a_late_entry_on_the_event_page_places_a_player_the_hook_missed(app, api, monkeypatch):
    event, ids = make_event(api, entries=4, tables=1)
    loser, _, _ = missed_bust(api, monkeypatch, event, ids[0])
    floor = login(app.test_client(), "fred")
    page = floor.post(f"/tournament/{event}/entries", data={"player": "Zed"}, follow_redirects=True)
    assert "Zed entered, seated at Table 1" in page.get_data(as_text=True)
    assert place_of(api, event, loser) == 5  # the first out of five entries


def test_a_deal_on_the_deal_page_places_a_player_the_hook_missed_and_deals_them_out(app, api, monkeypatch):
    """The three with chips sign the sheet: the settlement records the bust-out first (fourth, no
    prize) and deals the three (before: refused, "every player in the deal has chips", until some
    other desk action recorded it)."""
    event, ids = make_event(api, entries=4, tables=1)
    loser, _, _ = missed_bust(api, monkeypatch, event, ids[0])
    floor = login(app.test_client(), "fred")
    left = {x["player"]: x["stack"] for x in seats_of(api, ids[0]).values() if x["player"] != loser}
    form = {"method": "icm", "bounties": "kept", "seen": json.dumps(left), "agreed": list(left)}
    done = floor.post(f"/tournament/{event}/deal", data=form)
    assert done.status_code == 302, done.get_data(as_text=True)
    rows = {r["player"]: r for r in api.get(f"/api/events/{event}/results")}
    assert rows[loser]["place"] == 4 and rows[loser]["prize"] == 0 and not rows[loser]["deal"]
    assert all(rows[p]["deal"] for p in left)


def test_a_rebuy_on_the_floor_page_pays_the_bounty_of_a_player_the_hook_missed_first(app, api, monkeypatch):
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "bounty": 10, "rebuy_levels": 2})
    loser, winner, seat = missed_bust(api, monkeypatch, event, ids[0])
    floor = login(app.test_client(), "fred")
    assert floor.post(f"/tournament/{event}/buys", data={"player": loser, "kind": "rebuy"}).status_code == 302
    assert [(b["player"], b["winner"]) for b in api.get(f"/api/events/{event}/bounties")] == [(loser, winner)]
    assert seats_of(api, ids[0])[seat]["player"] == loser and seats_of(api, ids[0])[seat]["stack"] == 100


def test_a_bust_out_by_hand_on_the_floor_page_of_a_player_the_cards_busted_is_refused(app, api, monkeypatch):
    """Before, the page asked to confirm a bust-out by hand of 0 chips, which would give the bounty to nobody."""
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "bounty": 10})
    loser, winner, seat = missed_bust(api, monkeypatch, event, ids[0])
    floor = login(app.test_client(), "fred")
    page = floor.post(f"/tournament/{event}/desk", data={"action": "eliminate", "player": loser}, follow_redirects=True)
    assert f"{loser} is out of the event already" in page.get_data(as_text=True)
    placed(api, event, ids[0], loser, seat, 4)
    assert [(b["player"], b["winner"]) for b in api.get(f"/api/events/{event}/bounties")] == [(loser, winner)]


@pytest.mark.parametrize("through", ["page", "api"])
def test_a_move_of_a_player_the_hook_missed_is_refused(app, api, monkeypatch, through):
    """Three and three at two tables of four: the busted player (still on the plan the floor read) is
    not moved to the other table but placed, the floor told to look at the suggestions again
    (before: moved there with 0 chips)."""
    event, ids = make_event(api, entries=6, tables=2)
    loser, _, seat = missed_bust(api, monkeypatch, event, ids[0])
    free = next(s for s in range(1, 5) if s not in seats_of(api, ids[1]))
    move = {"player": loser, "from_table": ids[0], "from_seat": seat, "to_table": ids[1], "to_seat": free}
    if through == "api":
        refused = api.call("POST", f"/api/events/{event}/balance", role="floor", json={"moves": [move]})
        said = refused.get_json()["message"]
    else:
        floor = login(app.test_client(), "fred")
        said = floor.post(f"/tournament/{event}/moves", data={"move": json.dumps(move)},
                          follow_redirects=True).get_data(as_text=True)
    assert f"{loser} is not in seat {seat} at Table 1 (the tables changed: look at the suggestions again)" in said
    assert free not in seats_of(api, ids[1])
    placed(api, event, ids[0], loser, seat, 6)


@pytest.mark.parametrize("path, body", [
    ("entries", {"player": "Zed"}), ("counts", {"player": "Player 01", "stack": 1, "reason": "x"}),
    ("hand_for_hand", {"on": True}), ("color_up", {}), ("chop", {"method": "chip", "agreed": []}),
    ("eliminate", {"player": "Player 01"}), ("buys", {"player": "Player 01", "kind": "rebuy"}),
])
def test_a_dealer_refused_at_the_desk_records_nothing(api, monkeypatch, path, body):
    """Roles per action: the desk's writes are the floor's; a dealer's request is refused (403) before
    anything is read or recorded, the bust-out the hook missed too."""
    event, ids = make_event(api, entries=4, tables=1)
    loser, _, _ = missed_bust(api, monkeypatch, event, ids[0])
    response = api.call("POST", f"/api/events/{event}/{path}", role="dealer", json=body)
    assert response.status_code == 403 and "needs the" in response.get_json()["message"]
    assert place_of(api, event, loser) is None


def test_a_player_counted_at_0_is_out_at_once_with_no_eliminator(api):
    """A recount of 0 after a hand: the player is out now (place 3, the seat free), as a bust-out by
    hand, and the bounty is nobody's, so the champion's at the end (before: the table log's hook read
    the last pot's winner as the eliminator, the bounty paid to them and traced to a hand that never
    busted the player)."""
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "bounty": 10})
    seats = sorted(seats_of(api, ids[0]))
    names = {s: x["player"] for s, x in seats_of(api, ids[0]).items()}
    play_bust(api, ids[0], seats[0], seats[1])  # the winner of that pot: names[seats[0]]
    counted = names[seats[2]]
    done = api.post(f"/api/events/{event}/counts", {"player": counted, "stack": 0, "reason": "no chips left"},
                    role="floor", status=201)
    assert done["change"] < 0
    placed(api, event, ids[0], counted, seats[2], 3)
    row = next(r for r in api.get(f"/api/events/{event}/results") if r["player"] == counted)
    assert row["hand"] is None and row["table"] == "Table 1"
    assert [b["player"] for b in api.get(f"/api/events/{event}/bounties")] == [names[seats[1]]]
    undo = api.call("POST", f"/api/events/{event}/reinstate", role="floor", json={"player": counted})
    assert undo.status_code == 422  # no bust-out by hand to undo: its chips went to the house


# --------------------------------------------------------------------------- the actions themselves


def _direct(name: str, t, loser: str, winner: str):
    """Call one desk action the way a new route or a CLI command would: the function, no route."""
    from floor.tournament import desk, floorwork, service

    calls = {
        "add_entry": lambda: desk.add_entry(t, "Zed", None),
        "recount": lambda: desk.recount(t, winner, desk.seat_of(t, winner)[2].stack, "check", None),
        "eliminate": lambda: desk.eliminate(t, next(e.player for e in service.live_entries(t)
                                                    if e.player not in (loser, winner)), "went home", None),
        "set_hand_for_hand": lambda: desk.set_hand_for_hand(t, True, None),
        "rebuy": lambda: floorwork.buy(t, service.entry_named(t, loser), "rebuy", None),
        "bust_preview": lambda: desk.bust_preview(t, loser),  # refused: the cards busted them
    }
    return calls[name]()


@pytest.mark.parametrize("action", ["add_entry", "recount", "eliminate", "set_hand_for_hand", "rebuy",
                                    "bust_preview"])
def test_a_desk_action_called_directly_records_the_bust_out_the_hook_missed(app, api, monkeypatch, action):
    """The sync is the action's own (floor.tournament.eliminations.synced), not its route's: called as
    a function, with no route around it, each action records the bust-out the log holds first, so the
    bounty is the hand's winner's (checked: each fails with the action's ``@synced`` taken off)."""
    from floor.extensions import db
    from floor.tournament import service
    from rules import IllegalAction

    event, ids = make_event(api, entries=6, tables=2, structure={**STRUCTURE, "bounty": 10, "rebuy_levels": 2})
    big = max(ids, key=lambda i: len(seats_of(api, i)))
    loser, winner, seat = missed_bust(api, monkeypatch, event, big)
    with app.app_context(), monkeypatch.context() as m:
        m.setattr(table_log, "AFTER_APPEND", [])  # the action's own sync, not the hook on a seat it logs
        t = service.get(event)
        try:
            _direct(action, t, loser, winner)
        except IllegalAction as exc:
            assert action == "bust_preview" and "out of the event already" in str(exc)
        db.session.remove()
    assert [(b["player"], b["winner"]) for b in api.get(f"/api/events/{event}/bounties")] == [(loser, winner)]
    if action != "rebuy":  # a rebuy sits the player back in: the bust-out recorded, then undone by the buy
        assert place_of(api, event, loser) == (7 if action == "add_entry" else 6)
        assert seat not in seats_of(api, big) or seats_of(api, big)[seat]["player"] != loser


def test_every_desk_action_syncs_before_it_and_after_it_where_the_docstring_says():
    """The decision in floor.tournament.eliminations.synced, action by action: after too, or before only."""
    from floor.tournament import desk, floorwork

    after = {f.__name__: f.synced_after for f in (
        desk.add_entry, desk.eliminate, desk.bust_preview, desk.reinstate, desk.recount, desk.set_hand_for_hand,
        desk.settle, desk.color_up, floorwork.carry_out, floorwork.buy)}
    assert after == {"add_entry": False, "eliminate": True, "bust_preview": False, "reinstate": True, "recount": True,
                     "set_hand_for_hand": True, "settle": False, "color_up": True, "carry_out": True, "buy": True}
