"""The card room's time zone (issue 25): asked once by init-db (the machine's zone offered), changed
by a director, used on every page and print."""

from __future__ import annotations

from floor import create_app, room, tables
from floor.extensions import db
from floor.models import User
from tests.conftest import SETUP


def fresh_app(tmp_path, **config):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'zone.sqlite'}", **config},
                      instance_path=str(tmp_path / "instance"))


def stored(app):
    with app.app_context():
        return room.stored_zone()


def test_init_db_asks_the_zone_once_offering_the_machines(tmp_path, monkeypatch):
    app = fresh_app(tmp_path)
    monkeypatch.setattr("floor.cli._interactive", lambda: True)
    result = app.test_cli_runner().invoke(args=["init-db"], input="Asia/Tokyo\n")
    assert result.exit_code == 0, result.output
    assert f"The card room's time zone [{room.machine_zone()}]:" in result.output
    assert "Time zone: Asia/Tokyo" in result.output and stored(app) == "Asia/Tokyo"
    again = app.test_cli_runner().invoke(args=["init-db"], input="Europe/Paris\n")
    assert "time zone [" not in again.output  # asked once: not again
    assert "Time zone: Asia/Tokyo" in again.output and stored(app) == "Asia/Tokyo"


def test_init_db_from_a_script_takes_the_machines_zone_and_refuses_an_unknown_one(tmp_path):
    app = fresh_app(tmp_path)
    bad = app.test_cli_runner().invoke(args=["init-db", "--timezone", "Mars/Olympus"])
    assert bad.exit_code == 2 and "unknown time zone 'Mars/Olympus'" in bad.output
    assert stored(app) is None
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0 and stored(app) == room.machine_zone()


def test_a_director_sets_the_zone_and_every_page_and_print_shows_times_in_it(app, as_role, tokens):
    with app.app_context():
        table = tables.create_table("Table 1", SETUP)
        fred = db.session.scalars(db.select(User).where(User.username == "fred")).one()
        for event in ({"type": "deal"}, {"type": "open", "seat": 2}, {"type": "call", "seat": 3},
                      {"type": "call", "seat": 4}, {"type": "call", "seat": 1}):
            tables.append(table, event, fred)
        tables.append(table, {"type": "false_openers", "seat": 2}, fred)
    assert as_role("dealer").get("/director/settings/").status_code == 403
    assert as_role("floor").post("/director/settings/", data={"zone": "Asia/Tokyo"}).status_code == 403
    director = as_role("director")
    page = director.get("/director/settings/").get_data(as_text=True)
    assert '<option value="Asia/Tokyo">' in page and "Not chosen yet" in page
    refused = director.post("/director/settings/", data={"zone": "Mars/Olympus"})
    assert refused.status_code == 400 and "unknown time zone" in refused.get_data(as_text=True)
    saved = director.post("/director/settings/", data={"zone": "Asia/Tokyo"}, follow_redirects=True)
    assert "The card room&#39;s time zone is Asia/Tokyo" in saved.get_data(as_text=True)
    assert "JST" in director.get("/rulings/1").get_data(as_text=True)
    from tests.test_ruling_pdf import pdf_text
    _, text, _ = pdf_text(director.get("/rulings/1.pdf"))
    assert "JST" in text and "UTC" not in text
    assert "JST" in director.get("/director/users/1").get_data(as_text=True)
