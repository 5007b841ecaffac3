"""Issue 30's migration (c3f9a1e7d2b8) upgrades an existing database cleanly: the demo of the code
before it (tests/data/demo-b9e4d2a7c1f3/, made by make_demo_b9e4d2a7c1f3.py: the demo's tables,
pot and ruling, a tournament with an entry busted out, a printed ruling, an API token), with its
instance's seal key and witness. After ``flask init-db``: verify is clean and says the upgrade was
recorded, the token handed out before still works, every sealed row is sealed and checked from
then on, and the room carries on. On SQLite and on PostgreSQL (the same rows, copied into a
database migrated to the old revision).
"""

from __future__ import annotations

import gzip
import shutil
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

import floor

from tests import conftest
from tests.conftest import bearer

DATA = Path(__file__).parent / "data" / "demo-b9e4d2a7c1f3"
OLD = "b9e4d2a7c1f3"


def head() -> str:
    """The migrations' head: the upgrade runs through issue 30's to the latest."""
    from alembic.script import ScriptDirectory

    import floor

    return ScriptDirectory(str(Path(floor.__file__).parent / "migrations")).get_current_head() or ""


def _old_sqlite(path: Path) -> str:
    with sqlite3.connect(path) as connection, gzip.open(DATA / "demo.sql.gz", "rt", encoding="utf-8") as fh:
        connection.executescript(fh.read())
    return f"sqlite:///{path}"


def _old_postgresql(tmp_path: Path, instance: Path) -> str:
    """The same rows in a PostgreSQL database migrated to the old revision."""
    from flask_migrate import upgrade

    from floor import create_app

    source = sa.create_engine(_old_sqlite(tmp_path / "old.sqlite"))
    url = conftest.POSTGRES.empty_database()
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url}, instance_path=str(instance))
    conftest._APPS.append(app)
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory, revision=OLD)
    target = sa.create_engine(url)
    old, new = sa.MetaData(), sa.MetaData()
    old.reflect(source)
    new.reflect(target)
    with source.connect() as read, target.begin() as write:
        for table in new.sorted_tables:
            if table.name == "alembic_version" or table.name not in old.tables:
                continue
            rows = [dict(row._mapping) for row in read.execute(sa.select(old.tables[table.name]))]
            if rows:
                write.execute(table.insert(), rows)
            if "id" in table.c and rows:
                write.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                      f"(SELECT max(id) FROM {table.name}))"))
    source.dispose()
    target.dispose()
    return url


@pytest.fixture
def old_room(tmp_path):
    """The old demo's database and its instance folder (its seal key and witness)."""
    instance = tmp_path / "instance"
    instance.mkdir()
    for name in ("seal_key", "witness.log"):
        shutil.copy(DATA / name, instance / name)
    url = _old_postgresql(tmp_path, instance) if conftest.POSTGRES is not None else _old_sqlite(tmp_path / "demo.sqlite")
    return url, instance


@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
def test_the_upgrade_of_the_old_demo_is_clean_and_verify_clean_after_it(old_room):
    from floor import create_app
    from floor.extensions import db
    from floor.models import ClockMove, Entry, Tournament, User

    url, instance = old_room
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": False},
                     instance_path=str(instance))
    conftest._APPS.append(app)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0, (result.output, result.exception)
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 0, result.output
    assert "recorded the upgrade (upgrade to revision c3f9a1e7d2b8" in result.output, result.output
    with app.app_context():
        assert db.session.scalar(sa.text("SELECT version_num FROM alembic_version")) == head()
        for model in (User, Tournament, Entry, ClockMove):
            rows = db.session.scalars(db.select(model)).all()
            assert rows and all(row.row_seal_intact for row in rows), model
        fingerprint = db.session.scalar(sa.text("SELECT fingerprint FROM room_keys WHERE name = 'seal'"))
        from floor.keys import fingerprint as of_key

        assert fingerprint == of_key((instance / "seal_key").read_text().strip().encode())
        from floor.models import CardRoomEvent

        event = db.session.scalars(db.select(CardRoomEvent.id).where(CardRoomEvent.name == "Old cup")).one()

    token = (DATA / "director_token").read_text().strip()  # handed out before the upgrade
    client = app.test_client()
    tables = client.get("/api/tables/1", headers=bearer(token))
    assert tables.status_code == 200, tables.get_data(as_text=True)
    assert client.get(f"/api/events/{event}/results", headers=bearer(token)).status_code == 200
    assert client.get(f"/api/events/{event}/clock", headers=bearer(token)).status_code == 200
    assert client.get("/rulings/1.pdf", headers=bearer(token)).status_code == 200
    state = tables.json["state"]
    event_ = {"type": "deal"} if state["phase"] == "between_deals" else {"type": "fold", "seat": state["to_act"]}
    assert client.post("/api/tables/1/events", json=event_, headers=bearer(token)).status_code == 201
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 0, result.output

    # sealed from now on: a role changed in the database is named
    with app.app_context():
        db.session.execute(sa.text("UPDATE users SET role = 'director' WHERE username = 'dealer1'"))
        db.session.commit()
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 1 and "user dealer1" in result.output and "does not match its seal" in result.output


@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
def test_the_upgrade_refuses_a_key_that_is_not_the_historys(old_room):
    """A host upgrading with another key (a mixed-up key file) stops, naming the setting: the key's
    fingerprint is recorded only when the key verifies the sealed history."""
    from floor import create_app
    from floor.extensions import db

    url, instance = old_room
    (instance / "seal_key").write_text("ab" * 32 + "\n")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url}, instance_path=str(instance))
    conftest._APPS.append(app)
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code != 0 and "does not verify the database's sealed records" in result.output, result.output
    with app.app_context():
        db.session.remove()
        assert db.session.scalar(sa.text("SELECT version_num FROM alembic_version")) == OLD  # nothing half done
