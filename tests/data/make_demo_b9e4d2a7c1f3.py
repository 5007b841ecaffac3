"""How tests/data/demo-b9e4d2a7c1f3/ was made: the demo of the code before issue 30 (commit 6eb6495,
the schema at revision b9e4d2a7c1f3), with a tournament, a printed ruling and an API token added,
for tests/test_upgrade_record.py. Run with that commit's code first on the path:

    git archive 6eb6495 | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old .venv/bin/python tests/data/make_demo_b9e4d2a7c1f3.py /tmp/old-instance

It writes the database as SQL (gzip), the instance's seal key, its witness and the token into
tests/data/demo-b9e4d2a7c1f3/.
"""

from __future__ import annotations

import gzip
import shutil
import sqlite3
import sys
from pathlib import Path

from floor import create_app
from floor.cli import init_db_command  # noqa: F401  (the old code's own commands)
from floor.demo import load_demo
from floor.extensions import db
from floor.models import IssuedRuling, User

OUT = Path(__file__).parent / "demo-b9e4d2a7c1f3"


def main(instance: Path) -> None:
    instance.mkdir(parents=True, exist_ok=True)
    database = instance / "demo.sqlite"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "WTF_CSRF_ENABLED": False},
                     instance_path=str(instance))
    assert app.test_cli_runner().invoke(args=["init-db", "--timezone", "Europe/London"]).exit_code == 0
    with app.app_context():
        list(load_demo())  # (a generator of the lines it prints)
        director = db.session.scalars(db.select(User).where(User.username == "director")).one()
        token = director.new_api_token()
        db.session.commit()
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    structure = {"levels": [{"minutes": 20, "small_bet": 10}], "starting_chips": 1000, "buy_in": 50,
                 "payouts": [70, 30]}
    event = client.post("/api/events", json={"name": "Old cup", "structure": structure}, headers=headers).json["id"]
    client.post(f"/api/events/{event}/tables", json={"name": "Cup 1", "seats": 6}, headers=headers)
    for name in ("Ann", "Bob", "Cleo", "Dev"):
        client.post(f"/api/events/{event}/entries", json={"player": name}, headers=headers)
    client.post(f"/api/events/{event}/draw", headers=headers)
    client.post(f"/api/events/{event}/clock", json={"action": "start"}, headers=headers)
    assert client.post(f"/api/events/{event}/eliminate", json={"player": "Dev", "reason": "went home"},
                       headers=headers).status_code == 201
    with app.app_context():
        ruling_id = db.session.scalars(db.select(IssuedRuling.id)).first()
    assert client.get(f"/rulings/{ruling_id}.pdf", headers=headers).status_code == 200
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    OUT.mkdir(exist_ok=True)
    with sqlite3.connect(database) as connection, gzip.open(OUT / "demo.sql.gz", "wt", encoding="utf-8") as fh:
        for statement in connection.iterdump():
            fh.write(statement + "\n")
    for name in ("seal_key", "witness.log"):
        shutil.copy(instance / name, OUT / name)
    (OUT / "director_token").write_text(token + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
