"""The migrations on PostgreSQL (run by ``make test`` with ``FLOOR_TEST_PG=1``; skipped on SQLite).

The other database-facing tests run on PostgreSQL from the schema of the models; these build it
through the migrations, as ``flask --app floor init-db`` does on a card room's server.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from floor import create_app
from floor.extensions import db
from tests import conftest


@pytest.fixture
def empty_pg_app(tmp_path):
    if conftest.POSTGRES is None:
        pytest.skip("PostgreSQL runs with FLOOR_TEST_PG=1 (make test)")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": conftest.POSTGRES.empty_database()},
                     instance_path=str(tmp_path / "instance"))
    conftest._APPS.append(app)
    return app


def test_init_db_on_postgresql_builds_the_models_schema_with_64_bit_ids(empty_pg_app):
    result = empty_pg_app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    with empty_pg_app.app_context():
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
            assert diff == [], f"models and migrations disagree: {diff}"
            small = conn.execute(sa.text(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = 'public' AND data_type = 'integer'")).all()
            assert small == [], f"32-bit columns left: {small}"
            sequences = conn.execute(sa.text("SELECT sequencename, data_type::text FROM pg_sequences")).all()
            assert sequences and all(kind == "bigint" for _, kind in sequences), sequences


def test_upgrading_a_postgresql_database_with_data_seals_it(empty_pg_app):
    from flask_migrate import upgrade

    with empty_pg_app.app_context():
        directory = empty_pg_app.extensions["migrate"].directory
        upgrade(directory=directory, revision="9d3f0b2c7a41")
        run = lambda sql, **p: db.session.execute(sa.text(sql), p)  # noqa: E731
        run("INSERT INTO users (username, role, password_hash, active, created_at) "
            "VALUES ('maria', 'floor', 'x', true, now())")
        run("INSERT INTO tables (name, setup, version, created_at) VALUES ('Old', CAST(:s AS json), 1, now())",
            s='{"profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1, "seats": '
              '[{"seat": 1, "player": "A", "stack": 100}, {"seat": 2, "player": "B", "stack": 100}]}')
        run("INSERT INTO log_entries (table_id, seq, payload, logged_at) VALUES (1, 1, CAST(:p AS json), now())",
            p='{"type": "deal"}')
        db.session.commit()
        upgrade(directory=directory)
        next_id = db.session.execute(sa.text("SELECT nextval(pg_get_serial_sequence('tables', 'id'))")).scalar()
        db.session.rollback()
        db.session.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('tables', 'id'), {2**40})"))
        db.session.commit()
    result = empty_pg_app.test_cli_runner().invoke(args=["verify"])
    assert result.exit_code == 0, result.output
    assert next_id == 2
    with empty_pg_app.app_context():
        from floor import tables

        table = tables.create_table("Far", {"profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20,
                                            "button": 1, "seats": [{"seat": 1, "player": "A", "stack": 100},
                                                                   {"seat": 2, "player": "B", "stack": 100}]})
        assert table.id > 2**40
