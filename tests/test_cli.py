"""The set-up commands: init-db, create-user, api-token, demo (issue: foundation)."""

from __future__ import annotations

import pytest

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from floor import create_app, demo, tables
from floor.banked.models import BankedTable
from floor.extensions import db
from floor.models import CardRoomEvent, IssuedRuling, Table, Tournament, User
from floor.tournament import service
from tests.conftest import bearer


def fresh_app(tmp_path):
    """An app on an empty database: no create_all, so only the migrations make the schema."""
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'cli.sqlite'}"},
                      instance_path=str(tmp_path / "instance"))


# SQLite's reflection skips the expression index on lower(username) (with a warning); PostgreSQL's reads it.
@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
@pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression-based index")
def test_init_db_builds_exactly_the_models_schema_through_the_migrations(tmp_path):
    app = fresh_app(tmp_path)
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, repr(result.exception)
    assert "Database ready" in result.output
    with app.app_context():
        diff = compare_metadata(MigrationContext.configure(db.engine.connect()), db.metadata)
    assert diff == [], f"models and migrations disagree: {diff}"
    # Running it again is harmless.
    assert app.test_cli_runner().invoke(args=["init-db"]).exit_code == 0


def test_create_user_with_password_and_token(tmp_path):
    app = fresh_app(tmp_path)
    runner = app.test_cli_runner()
    runner.invoke(args=["init-db"])
    result = runner.invoke(args=["create-user", "maria", "--role", "floor", "--password", "long enough pw"])
    assert result.exit_code == 0, result.output
    token = result.output.rsplit(": ", 1)[1].strip()
    with app.app_context():
        user = db.session.scalars(db.select(User).where(User.username == "maria")).one()
        assert user.role.name == "floor" and user.check_password("long enough pw")
    # The printed token works against the API.
    assert app.test_client().get("/api/tables/999", headers=bearer(token)).status_code == 404


def test_create_user_prompts_for_the_password_when_left_out(tmp_path):
    app = fresh_app(tmp_path)
    runner = app.test_cli_runner()
    runner.invoke(args=["init-db"])
    result = runner.invoke(args=["create-user", "tom", "--role", "dealer"], input="a fine password\na fine password\n")
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert db.session.scalars(db.select(User).where(User.username == "tom")).one().check_password("a fine password")


def test_create_user_refuses_duplicates_bad_roles_and_short_passwords(tmp_path):
    app = fresh_app(tmp_path)
    runner = app.test_cli_runner()
    runner.invoke(args=["init-db"])
    runner.invoke(args=["create-user", "tom", "--role", "dealer", "--password", "password1"])
    result = runner.invoke(args=["create-user", "tom", "--role", "dealer", "--password", "password2"])
    assert result.exit_code != 0 and "exists already" in result.output
    result = runner.invoke(args=["create-user", "ann", "--role", "croupier", "--password", "password1"])
    assert result.exit_code != 0 and "croupier" in result.output
    result = runner.invoke(args=["create-user", "ann", "--role", "dealer", "--password", "short"])
    assert result.exit_code != 0 and "at least 8" in result.output


def test_api_token_replaces_the_old_token(tmp_path):
    app = fresh_app(tmp_path)
    runner = app.test_cli_runner()
    runner.invoke(args=["init-db"])
    old = runner.invoke(args=["create-user", "tom", "--role", "dealer", "--password", "password1"]).output
    old = old.rsplit(": ", 1)[1].strip()
    new = runner.invoke(args=["api-token", "tom"]).output.rsplit(": ", 1)[1].strip()
    client = app.test_client()
    assert client.get("/api/tables/1", headers=bearer(old)).status_code == 401
    assert client.get("/api/tables/1", headers=bearer(new)).status_code == 404
    assert runner.invoke(args=["api-token", "nobody"]).exit_code != 0


def test_demo_loads_accounts_and_tables_once_and_prints_working_logins(tmp_path):
    app = fresh_app(tmp_path)
    runner = app.test_cli_runner()
    runner.invoke(args=["init-db"])
    first = runner.invoke(args=["demo"])
    assert first.exit_code == 0, first.output
    assert "Loaded the demo event" in first.output
    second = runner.invoke(args=["demo"])
    assert "already loaded" in second.output
    logins = {line.split()[0]: line.split()[1] for line in first.output.splitlines() if line.startswith("  ")}
    assert set(logins) == {"director", "floor", "dealer1", "dealer2"}
    assert logins == {line.split()[0]: line.split()[1] for line in second.output.splitlines() if line.startswith("  ")}
    assert "Loaded the demo tournament" in first.output and "Loaded the demo banked table" in first.output
    assert "demo tournament" not in second.output and "banked" not in second.output  # loaded once
    with app.app_context():
        jackpots = db.session.scalars(db.select(CardRoomEvent).where(CardRoomEvent.name == demo.EVENT_NAME)).one()
        table1, table2 = db.session.scalars(db.select(Table).where(Table.event_id == jackpots.id).order_by(Table.name)).all()
        # beside it a tournament drawn at two tables, every entry seated once, and a banked table
        freezeout = db.session.scalars(db.select(Tournament)).one()
        seated = [x["player"] for table in service.event_tables(freezeout)
                  for x in tables.state_of(table)["seats"].values()]
        assert sorted(seated) == sorted(demo.TOURNAMENT_PLAYERS)
        assert db.session.scalars(db.select(BankedTable)).one().setup["boxes"] == 3
        state = tables.state_of(table1)
        # Mid-pot: the third deal of the pot, antes 3 of 3, opened and called.
        assert (state["jackpot"]["deals"], state["jackpot"]["ante_deals"], state["jackpot"]["opener"]) == (3, 3, 5)
        assert state["phase"] == "predraw"
        # The issued ruling of table 2 is stored, sealed and intact.
        ruling = db.session.scalars(db.select(IssuedRuling)).one()
        assert ruling.table_id == table2.id and ruling.outcome == "POT_CARRIES_OVER" and ruling.intact
        # The engine's ruling is stored with the facts it read from the log (printed on the PDF).
        assert ruling.facts["issue"] == "false_openers" and ruling.facts["opener"] == 3
    client = app.test_client()
    for user, home in [("director", "/director/"), ("floor", "/floor/"), ("dealer1", "/dealer/")]:
        response = client.post("/login", data={"username": user, "password": logins[user]})
        assert response.headers["Location"] == home
        client.post("/logout")

