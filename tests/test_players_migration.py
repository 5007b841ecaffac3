"""Issue 31's migration (a31d5e7f9b02) of an existing database with names: the demo of an older
code (tests/data/demo-b9e4d2a7c1f3/, see tests/test_upgrade_record.py), whose names are free text
in the tables' setups, the logs' sits and a tournament's entries. After ``flask init-db`` every
name is a player (one per person: "Ann" at a cash table and in the cup is one record), the entries
point at their players, verify is clean, and the players' API reads them and their night. On
SQLite and on PostgreSQL, as the fixture gives it."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from tests import conftest
from tests.conftest import bearer
from tests.test_upgrade_record import DATA, old_room  # noqa: F401  (the fixture)


@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
def test_the_old_demos_names_become_players_and_verify_is_clean(old_room):  # noqa: F811
    from floor import create_app
    from floor.extensions import db
    from floor.models import Entry, LogEntry
    from floor.players.models import Player

    url, instance = old_room
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url}, instance_path=str(instance))
    conftest._APPS.append(app)
    with app.app_context():  # the names the old database holds, read before the upgrade
        names = set()
        for (setup,) in db.session.execute(sa.text("SELECT setup FROM tables")):
            setup = json.loads(setup) if isinstance(setup, str) else setup
            names |= {s["player"].casefold() for s in setup["seats"]}
        for (payload,) in db.session.execute(sa.text("SELECT payload FROM log_entries")):
            payload = json.loads(payload) if isinstance(payload, str) else payload
            if payload.get("type") == "sit":
                names.add(payload["player"].casefold())
        names |= {n.casefold() for (n,) in db.session.execute(sa.text("SELECT player FROM tournament_entries"))}
        db.session.remove()
    runner = app.test_cli_runner()
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0, (result.output, result.exception)
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        players = db.session.scalars(db.select(Player)).all()
        assert sorted(p.name.casefold() for p in players) == sorted(names)  # each name once
        by_name = {p.name.casefold(): p.id for p in players}
        entries = db.session.scalars(db.select(Entry)).all()
        assert entries and all(e.player_id == by_name[e.player.casefold()] for e in entries)
        assert db.session.scalar(sa.select(sa.func.count()).select_from(LogEntry)) > 0
        ann = by_name["ann"]

    token = (DATA / "director_token").read_text().strip()
    client = app.test_client()
    found = client.get("/api/players?q=ann", headers=bearer(token)).json
    assert [p["id"] for p in found] == [ann]
    night = client.get(f"/api/players/{ann}", headers=bearer(token)).json["night"]
    where = {row["table"] for row in night["tables"]}
    assert {"Table 1", "Cup 1"} <= where  # the cash game and the cup: one person
    assert [e["event"] for e in night["entries"]] == ["Old cup"]
    state = client.get("/api/tables/1", headers=bearer(token)).json["state"]
    assert state["seats"]["1"]["player"] == "Ann" and state["seats"]["1"]["player_id"] is None  # the sealed setup as it was
    # the room carries on: a sit names the record; verify stays clean
    state = client.get("/api/tables/2", headers=bearer(token)).json["state"]  # the demo's other cash table
    if state["phase"] != "between_deals":
        client.post("/api/tables/2/events", headers=bearer(token), json={"type": "fold", "seat": state["to_act"]})
        state = client.get("/api/tables/2", headers=bearer(token)).json["state"]
    assert state["phase"] == "between_deals", state["phase"]
    empty = next(n for n in range(1, 9) if str(n) not in state["seats"])
    sat = client.post("/api/tables/2/events", headers=bearer(token),
                      json={"type": "sit", "seat": empty, "player": {"id": ann}, "chips": 100})
    assert sat.status_code == 201, sat.json
    assert sat.json["state"]["seats"][str(empty)]["player_id"] == ann
    assert runner.invoke(args=["verify"]).exit_code == 0
