"""A GET of the tournament's pages writes nothing (issue 34): the floor's page polls its panel every
few seconds, and the event's page, the results and the balancing plan are read as often. Eliminations
are recorded where the log changes: the table log's hook once the pot that busts a player is won
(:func:`floor.tournament.floorwork.after_append`), or the desk's next action when a log was written
without the hook (:func:`floor.tournament.floorwork.sync_eliminations`). Before, every one of these
GETs recorded eliminations, cleared seats and drew the final table.

"Writes nothing" is read from the database itself: every row of every table, before and after.
"""

from __future__ import annotations

from typing import Any

from floor import tables as table_log
from tests.conftest import login
from tests.test_tournament_app import api, make_event, play_bust  # noqa: F401  (api: the fixture)

PAGES = ("/tournament/{event}/", "/tournament/{event}/floor", "/tournament/{event}/floor/panel",
         "/tournament/{event}/results")
API_GETS = ("/api/events/{event}/results", "/api/events/{event}/balance")


def every_row(app) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the database, in primary-key order: what a write would change."""
    from floor.extensions import db

    with app.app_context():
        return {t.name: [tuple(r) for r in db.session.execute(db.select(t).order_by(*t.primary_key.columns))]
                for t in db.metadata.sorted_tables}


def read_every_page(app, api, event: int) -> None:
    floor = login(app.test_client(), "fred")
    before = every_row(app)
    for url in PAGES:
        response = floor.get(url.format(event=event))
        assert response.status_code == 200, (url, response.status_code)
    for url in API_GETS:
        api.get(url.format(event=event))
    after = every_row(app)
    changed = {name: f"{len(before[name])} rows before, {len(after[name])} after, "
                     f"{sum(row not in before[name] for row in after[name])} new or changed"
               for name in before if before[name] != after[name]}
    assert not changed, f"a GET wrote: {changed}"


def out_of(api, event: int) -> dict[str, int | None]:
    return {r["player"]: r["place"] for r in api.get(f"/api/events/{event}/results")}


def test_a_bust_out_is_recorded_when_the_pot_is_won_and_the_pages_write_nothing(app, api):
    event, ids = make_event(api, entries=6, tables=1)
    state = api.table(ids[0])
    seats = sorted(int(s) for s in state["seats"])
    loser = state["seats"][str(seats[1])]["player"]
    play_bust(api, ids[0], seats[0], seats[1])
    # recorded by the tap that won the pot, before any page is read: the place, and the seat cleared
    assert out_of(api, event)[loser] == 6
    assert str(seats[1]) not in api.table(ids[0])["seats"]
    read_every_page(app, api, event)


def test_a_log_written_without_the_hook_is_caught_by_the_desk_not_by_a_page(app, api, monkeypatch):
    """A bust-out the hook did not see (a log written without it, a hook that failed) is recorded at
    the floor's next action at the desk; reading the pages meanwhile records nothing."""
    event, ids = make_event(api, entries=6, tables=1)
    state = api.table(ids[0])
    seats = sorted(int(s) for s in state["seats"])
    loser = state["seats"][str(seats[1])]["player"]
    with monkeypatch.context() as m:
        m.setattr(table_log, "AFTER_APPEND", [])
        play_bust(api, ids[0], seats[0], seats[1])
    read_every_page(app, api, event)  # before issue 34, each of these placed the player
    assert out_of(api, event)[loser] is None
    floor = login(app.test_client(), "fred")
    assert floor.post(f"/tournament/{event}/desk", data={"action": "hand_for_hand_on"}).status_code == 302
    assert out_of(api, event)[loser] == 6
    assert str(seats[1]) not in api.table(ids[0])["seats"]


def test_the_final_tables_redraw_is_drawn_by_the_bust_out_that_calls_for_it(app, api):
    """Nine players at two tables of eight: the first bust-out leaves eight, who fit the final table
    (rules/tournament/balance.py, "Final table"). The tap that won the pot draws the final seats; the
    balancing plan read afterwards shows the redraw's moves, and reading it writes nothing (before, the
    first GET of the plan drew them)."""
    event, ids = make_event(api, entries=9, tables=2)
    big = max(ids, key=lambda i: len(api.table(i)["seats"]))
    seats = sorted(int(s) for s in api.table(big)["seats"])
    play_bust(api, big, seats[0], seats[1])
    read_every_page(app, api, event)
    plan = api.get(f"/api/events/{event}/balance")
    assert plan["final_redraw"] is True and plan["moves"], plan
