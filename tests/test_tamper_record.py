"""Issue 30: what still passed ``flask verify`` and was served, tried as a regulated room's auditor
would, with write access to the database and to ``instance/`` but not to the seal key (on SQLite,
and on PostgreSQL with ``FLOOR_TEST_PG=1``). One test per kind: each tampers the way the auditor
would (SQL statements and file edits, never the app's models, whose writes re-seal), then checks
both halves: ``flask verify`` names it (exit status 1), and nothing of it is served. (A deleted
confirmation, which verify named and the ruling's page did not, is tests/test_tamper.py's.)
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import threading

import pytest
import sqlalchemy as sa

from floor import tables
from floor.extensions import db
from floor.models import ClockMove, Entry, IssuedRuling, LogEntry, PotSnapshot, Tournament, User
from tests.conftest import SETUP, bearer, login
from tests.test_history_seals import history, tamper, verify
from tests.test_tamper import _play, cut_back
from tests.tourney_play import Api


def restart(app):
    """What a server restart forgets: every cached state, and what it had read of the witness."""
    from floor import witness

    tables.forget()
    with app.app_context():
        witness.room().forget()


def _lines(app) -> list[bytes]:
    return (pathlib.Path(app.instance_path) / "witness.log").read_bytes().splitlines(keepends=True)


# --------------------------------------------------------------------------- the witness itself

def _old_backup(app, tmp_path, client, tokens, table_id):
    from floor import backup

    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        from tests import pg

        if not pg.tool("pg_dump"):
            pytest.skip("pg_dump is not installed")
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    saved = backup.backup(url, tmp_path / "backups" / "old.backup")
    lines_then = len(_lines(app))
    _play(client, table_id, tokens["dealer"], 4)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return url, saved, lines_then


@pytest.mark.parametrize("witness_change", ["deleted", "cut back"])
def test_the_witness_deleted_or_cut_back_then_an_old_backup_put_back(app, tokens, tmp_path, witness_change):
    """Before: verify noted "the witness is empty", the app started a new one and served every table
    at the old version. Now the database's own record of the witness (in the backup too) says how far
    it reached: a witness missing or cut back against it is a mismatch, and nothing is served."""
    from floor import backup

    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 3)
    url, saved, lines_then = _old_backup(app, tmp_path, client, tokens, table_id)
    path = pathlib.Path(app.instance_path) / "witness.log"
    if witness_change == "deleted":
        path.unlink()
    else:
        # at a line boundary, short of the backup's last commit (cut back to exactly the backup's line,
        # both agree: only the checkpoints the collector holds catch that, see the test below)
        path.write_bytes(b"".join(_lines(app)[:lines_then - 3]))
    backup.restore(url, saved)
    restart(app)
    code, output = verify(app)
    assert code == 1 and "but the database remembers it reaching line" in output, output
    for url_ in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/events"):
        answer = client.get(url_, headers=bearer(tokens["dealer"]))
        assert answer.status_code == 503 and "witness adopt" in answer.json["message"], answer.json
    assert client.post(f"/api/tables/{table_id}/events", json={"type": "deal"},
                       headers=bearer(tokens["dealer"])).status_code == 503
    assert (not path.exists()) if witness_change == "deleted" else len(_lines(app)) == lines_then - 3  # no fresh start


def test_the_witness_cut_back_alone_is_named_and_nothing_is_served(app, tokens):
    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 5)
    path = pathlib.Path(app.instance_path) / "witness.log"
    path.write_bytes(b"".join(_lines(app)[:-3]))
    restart(app)
    code, output = verify(app)
    assert code == 1 and "but the database remembers it reaching line" in output, output
    assert client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"])).status_code == 503


def test_the_databases_record_of_the_witness_deleted_is_named(app, tokens):
    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 2)
    tamper(app, sa.text("DELETE FROM witness_reach"))
    code, output = verify(app)
    assert code == 1 and "the database's record of the room's witness ends at line 0" in output, output
    refused = client.post(f"/api/tables/{table_id}/events", json={"type": "pass", "seat": 3},
                          headers=bearer(tokens["dealer"]))
    assert refused.status_code == 409 and "flask --app floor restore" in refused.json["message"]


# --------------------------------------------------------------------------- rows the seals did not cover

def test_a_role_set_to_director_makes_no_director(app, tokens):
    tamper(app, sa.update(User.__table__).where(User.__table__.c.username == "dee").values(role="director"))
    client = app.test_client()
    refused = client.post("/api/tables", json={"name": "X", **SETUP}, headers=bearer(tokens["dealer"]))
    assert refused.status_code == 401 and "dee's record does not match its seal" in refused.json["message"]
    assert client.post("/login", data={"username": "dee", "password": "correct horse battery"}).status_code == 403
    code, output = verify(app)
    assert code == 1 and "user dee (#3): the account's record does not match its seal" in output, output


def test_a_user_row_put_back_as_it_was_is_refused(app, tokens):
    """The row itself sealed, but from before: a director demoted to dealer, then the old (sealed)
    row copied back. The witness saw the demotion."""
    with app.app_context():
        dana = db.session.scalars(db.select(User).where(User.username == "dana")).one()
        old = {"role": "director", "row_seal": dana.row_seal}
        dana.role_name = "dealer"
        db.session.commit()
    tamper(app, sa.update(User.__table__).where(User.__table__.c.username == "dana").values(**old))
    refused = app.test_client().post("/api/tables", json={"name": "X", **SETUP}, headers=bearer(tokens["director"]))
    assert refused.status_code == 401 and "not the one the room's witness saw" in refused.json["message"]
    code, output = verify(app)
    assert code == 1 and "user dana (#1): the account's record is not the one the room's witness saw" in output


def test_a_plain_sha256_token_digest_logs_nobody_in(app, tokens):
    """Before: a plain SHA-256 of a made-up token, written into users.token_digest, issued sealed
    rulings and chip corrections as that floor person."""
    made_up = "a-token-nobody-issued"
    tamper(app, sa.update(User.__table__).where(User.__table__.c.username == "fred")
           .values(token_digest=hashlib.sha256(made_up.encode()).hexdigest()))
    client = app.test_client()
    ruling = client.post("/api/rulings", json={"facts": {"issue": "caller_refund", "seat": 4}},
                         headers=bearer(made_up))
    assert ruling.status_code == 401
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(IssuedRuling)) == 0
    code, output = verify(app)
    assert code == 1 and "user fred (#2): the account's record does not match its seal" in output, output


def test_a_stored_print_replaced_is_never_served(app, tokens):
    from floor.rulings.printed import RulingPrint

    _, ruling_id = history(app, tokens)
    client = app.test_client()
    first = client.get(f"/rulings/{ruling_id}.pdf", headers=bearer(tokens["floor"])).data
    forged = first[:-6] + b"%forged\n%%EOF\n"  # another PDF in the stored row
    assert forged != first
    tamper(app, sa.update(RulingPrint.__table__).values(pdf=forged))
    code, output = verify(app)
    assert code == 1 and f"the stored print of jackpot ruling #{ruling_id} does not match its seal" in output, output
    served = client.get(f"/rulings/{ruling_id}.pdf", headers=bearer(tokens["floor"])).data
    assert served != forged and served.startswith(b"%PDF")


# --------------------------------------------------------------------------- a tournament's rows

@pytest.fixture
def cup(app, tokens):
    """A drawn tournament, two players busted out by hand (places 8 and 7), the clock started."""
    api = Api(app.test_client(), tokens)
    from tests.test_tournament_app import make_event

    event, ids = make_event(api, entries=8, tables=1)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    for player in ("Player 01", "Player 02"):
        api.post(f"/api/events/{event}/eliminate", {"player": player, "reason": "went home"}, role="floor", status=201)
    return api, event


def _served_nothing(api, event, *words):
    for url in (f"/api/events/{event}/clock", f"/api/events/{event}/results", f"/api/events/{event}/chips",
                f"/tournament/{event}/results.csv", f"/api/events/{event}"):
        answer = api.call("GET", url, role="floor")
        assert answer.status_code == 409, (url, answer.status_code, answer.get_data(as_text=True)[:300])
        assert all(w in answer.get_data(as_text=True) for w in words), answer.get_data(as_text=True)[:400]


def _tournament_id(app, event):
    with app.app_context():
        return db.session.scalars(db.select(Tournament.id).where(Tournament.event_id == event)).one()


def test_tournament_places_swapped(app, cup):
    api, event = cup
    entries = Entry.__table__
    with app.app_context():
        rows = {p: o for p, o in db.session.execute(sa.select(entries.c.player, entries.c.out_order)
                                                    .where(entries.c.out_order.is_not(None)))}
    tamper(app, sa.update(entries).where(entries.c.player == "Player 01").values(out_order=rows["Player 02"]))
    tamper(app, sa.update(entries).where(entries.c.player == "Player 02").values(out_order=rows["Player 01"]))
    _served_nothing(api, event, "the entry of Player 0", "does not match its seal")
    code, output = verify(app)
    assert code == 1 and "the entry of Player 0" in output, output


@pytest.mark.parametrize("payouts", [[30, 70], "a careless edit", {"first": 100}])
def test_payouts_edited(app, cup, payouts):
    """A careless edit made results and the clock answer 500; any edit is now refused, 409, naming it."""
    api, event = cup
    table = Tournament.__table__
    with app.app_context():
        structure = db.session.scalar(sa.select(table.c.structure).where(table.c.event_id == event))
    tamper(app, sa.update(table).where(table.c.event_id == event).values(structure={**structure, "payouts": payouts}))
    _served_nothing(api, event, "structure (levels, chips, buy-in, payouts)")
    code, output = verify(app)
    assert code == 1 and "structure (levels, chips, buy-in, payouts)" in output, output


@pytest.mark.parametrize("change", ["edited", "deleted"])
def test_clock_moves_edited_or_deleted(app, cup, change):
    api, event = cup
    moves = ClockMove.__table__
    tournament_id = _tournament_id(app, event)
    if change == "edited":
        tamper(app, sa.update(moves).where(moves.c.tournament_id == tournament_id).values(action="pause"))
        words = "clock move #"
    else:
        tamper(app, sa.delete(moves).where(moves.c.tournament_id == tournament_id))
        words = "removed, or put back as it was before"
    _served_nothing(api, event, words)
    code, output = verify(app)
    assert code == 1 and (words in output or "clock move #1 was deleted" in output), output


def test_a_desk_action_deleted(app, cup):
    from floor.tournament.models import DeskAction

    api, event = cup
    actions = DeskAction.__table__
    tamper(app, sa.delete(actions).where(actions.c.id == sa.select(sa.func.min(actions.c.id)).scalar_subquery()))
    _served_nothing(api, event, "removed, or put back as it was before")
    code, output = verify(app)
    assert code == 1 and "desk action #" in output and "was deleted" in output, output


# --------------------------------------------------------------------------- a table served from a flagged record

def test_an_entry_edited_before_the_latest_pot_snapshot_stops_the_table(app, tokens):
    """Verify named it; the table kept serving and logging from its snapshot. Now a state resumed
    from a snapshot checks the entries before it (once per server process)."""
    from tests.test_pot_snapshots import _pots

    table_id = _pots(app, 3)
    with app.app_context():
        snap = db.session.scalar(sa.select(sa.func.max(PotSnapshot.version)).where(PotSnapshot.table_id == table_id))
    assert snap > 3
    log = LogEntry.__table__
    tamper(app, sa.update(log).where(log.c.table_id == table_id, log.c.seq == 2).values(
        payload={"type": "pass", "seat": 3}))
    restart(app)
    client = app.test_client()
    floor = login(app.test_client(), "fred")
    token = None
    with app.app_context():
        user = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        token = user.new_api_token()
        db.session.commit()
    shown = client.get(f"/api/tables/{table_id}", headers=bearer(token))
    assert shown.status_code == 409 and "entry 2 of the log does not match its seal" in shown.json["message"]
    assert client.post(f"/api/tables/{table_id}/events", json={"type": "deal"},
                       headers=bearer(token)).status_code == 409
    assert floor.get(f"/floor/tables/{table_id}/hands.txt").status_code == 409
    code, output = verify(app)
    assert code == 1 and "entry 2 was changed after it was logged" in output, output


def test_a_log_cut_back_serves_nothing_of_it_anywhere(app, tokens):
    """The table answered 409, but its hands, hands.txt, history and GET .../events served the cut log."""
    client = app.test_client()
    table_id = cut_back(app, client, tokens)
    restart(app)
    floor = login(app.test_client(), "fred")
    for url in (f"/floor/tables/{table_id}/hands", f"/floor/tables/{table_id}/hands.txt",
                f"/floor/tables/{table_id}/hands/1", f"/floor/tables/{table_id}/history"):
        answer = floor.get(url)
        assert answer.status_code == 409 and "was rolled back" in answer.get_data(as_text=True), url
    answer = client.get(f"/api/tables/{table_id}/events", headers=bearer(tokens["dealer"]))
    assert answer.status_code == 409 and "the room's witness saw it reach entry 11" in answer.json["message"]
    code, output = verify(app)
    assert code == 1 and "its log was cut back to entry 6" in output, output


# --------------------------------------------------------------------------- keys

def test_a_deleted_seal_key_is_never_replaced_by_a_new_one(app, tokens):
    """Before: a new random key was written without a word, and everything sealed before was
    unverifiable. Now the host refuses to start, naming the setting, and writes no key."""
    from floor import create_app
    from floor.keys import KeyRefused

    history(app, tokens)
    key_file = pathlib.Path(app.instance_path) / "seal_key"
    key_file.unlink()
    settings = {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]}
    with pytest.raises(KeyRefused, match="this host has no seal key.*set FLOOR_SEAL_KEY"):
        create_app(settings, instance_path=app.instance_path)
    assert not key_file.exists()
    with pytest.raises(KeyRefused, match="FLOOR_SEAL_KEY is another key"):
        create_app({**settings, "FLOOR_SEAL_KEY": "ab" * 32}, instance_path=app.instance_path)
    with app.app_context():
        original = app.extensions["floor_seal_key"].decode()
    again = create_app({**settings, "FLOOR_SEAL_KEY": original}, instance_path=app.instance_path)
    from tests import conftest

    conftest._APPS.append(again)  # its connections closed after the test
    assert again.test_client().get("/api/health").status_code == 200


def test_checkpoints_leave_the_machine_and_verify_proves_the_database_extends_them(app, tokens, tmp_path):
    """A checkpoint every few lines, sent to a syslog collector (a TCP listener here), printed; the
    collector's file then catches a database and a witness rolled back together."""
    import socketserver
    import threading

    received: list[bytes] = []

    class Collector(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            received.append(self.rfile.read())

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    app.config.update(FLOOR_CHECKPOINT_SYSLOG=f"tcp://127.0.0.1:{server.server_address[1]}")
    with app.app_context():
        from floor import witness

        witness.room().checkpoint_lines = 5
    try:
        from floor import backup

        client = app.test_client()
        table_id = client.post("/api/tables", json={"name": "T1", **SETUP},
                               headers=bearer(tokens["director"])).json["id"]
        url, saved, lines_then = _old_backup(app, tmp_path, client, tokens, table_id)
        _play(client, table_id, tokens["dealer"], 6)
        result = app.test_cli_runner().invoke(args=["checkpoint"])
        assert result.exit_code == 0 and result.output.startswith("floor-checkpoint {"), result.output
    finally:
        server.shutdown()
        server.server_close()
    collected = tmp_path / "collector.log"
    collected.write_bytes(b"".join(received).replace(b"\x00", b"\n"))
    assert collected.read_text().count("floor-checkpoint") >= 2
    code, output = verify(app)
    assert code == 0, output
    code, output = verify_with(app, "--checkpoints", str(collected))
    assert code == 0 and "held against the database" in output, output
    # both rolled back together to the backup's moment: only the collector remembers
    path = pathlib.Path(app.instance_path) / "witness.log"
    path.write_bytes(b"".join(_lines(app)[:lines_then]))
    backup.restore(url, saved)
    restart(app)
    code, output = verify_with(app, "--checkpoints", str(collected))
    assert code == 1 and "is not in the room's witness: the witness and the database were rolled back together" \
        in output, output


def verify_with(app, *args):
    result = app.test_cli_runner().invoke(args=["verify", *args])
    return result.exit_code, result.output


def test_the_witness_line_of_the_database_matches_the_file(app, tokens):
    """The database's record of the witness is the file's last line, and its checkpoints its lines."""
    history(app, tokens)
    last = json.loads(_lines(app)[-1])
    with app.app_context():
        reach = db.session.execute(sa.text("SELECT n, link FROM witness_reach")).one()
        first = db.session.execute(sa.text("SELECT n, link FROM witness_checkpoints ORDER BY n")).first()
    assert (reach.n, reach.link) == (last["n"], last["link"])
    assert first.n == 1 and first.link == json.loads(_lines(app)[0])["link"]


def test_segments_rotate_a_reader_follows_and_a_new_one_resumes_at_the_last_checkpoint(tmp_path):
    """Bounded: every 10 lines a checkpoint, every 30 a new live segment. The serving process reads
    on across each rotation; a new process resumes at the last checkpoint (reading only the lines
    since); verify checks from there, and --full streams every segment from line 1."""
    from floor import create_app, witness
    from tests.conftest import make_app

    app = make_app(tmp_path, FLOOR_WITNESS_ROTATE_LINES=30, FLOOR_CHECKPOINT_LINES=10)
    tokens = {}
    with app.app_context():
        for name, role in (("dana", "director"), ("dee", "dealer")):
            tokens[role] = db.session.scalars(db.select(User).where(User.username == name)).one().new_api_token()
        db.session.commit()
    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 80)
    segments = sorted((pathlib.Path(app.instance_path) / "witness").glob("*.log"))
    assert len(segments) >= 2, segments
    first = json.loads(_lines(app)[0])
    assert first["kind"] == "checkpoint"  # each live segment begins with one
    with app.app_context():
        head = witness.seen().head  # the serving process read on across every rotation
        assert head["n"] == json.loads(_lines(app)[-1])["n"]
    other = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI":
                        app.config["SQLALCHEMY_DATABASE_URI"], "FLOOR_WITNESS_ROTATE_LINES": 30,
                        "FLOOR_CHECKPOINT_LINES": 10}, instance_path=app.instance_path)
    from tests import conftest

    conftest._APPS.append(other)
    with other.app_context():
        fresh = witness.seen()
        assert fresh.head == head and fresh.began >= head["n"] - 11  # the lines since the last checkpoint only
        began = fresh.began
    _play(client, table_id, tokens["dealer"], 45)  # a rotation and checkpoints past it, while `other` reads nothing
    with app.app_context():
        head = witness.seen().head
    with other.app_context():
        assert witness.seen().head == head  # it read on across the rotation, from where it was
    code, output = verify(app)
    assert code == 0 and "was read from line 1 to" not in output and f"line {began} to" not in output, output
    code, output = verify_with(app, "--full")
    assert code == 0 and "was read from line 1 to" in output, output


def test_a_row_committed_between_reading_a_tournament_and_its_children_is_no_tampering(app, cup):
    """The sum of a tournament's children is read by several statements: a floor person's desk
    action committed between reading the tournament and reading its children (another request, a
    threaded server) was answered 409 as if rows had been put back. It is read again instead."""
    from floor.sealed import check_tournament

    api, event = cup
    with app.app_context():
        tournament = db.session.scalars(db.select(Tournament).where(Tournament.event_id == event)).one()
        assert tournament.children  # read now, as the request's first statement reads it
        # another request commits meanwhile (another thread: its own session): hand for hand, a desk
        # action and a clock move
        other = threading.Thread(target=lambda: api.post(f"/api/events/{event}/hand_for_hand", {"on": True},
                                                         role="floor", status=200))
        other.start()
        other.join()
        check_tournament(tournament)  # no SealBroken


def test_a_user_changed_between_reading_the_row_and_the_witness_is_no_tampering(app, as_role):
    """A user row read by a request, then a director's change committed (and witnessed) by another
    before the request holds it against the witness: the row is read again, not refused."""
    from floor.sealed import user_problem

    with app.app_context():
        dee = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        assert dee.row_seal  # read now, as a request's login reads it

        def promote() -> None:
            with app.app_context():
                row = db.session.scalars(db.select(User).where(User.username == "dee")).one()
                row.role_name = "floor"
                db.session.commit()

        other = threading.Thread(target=promote)
        other.start()
        other.join()
        assert user_problem(dee) is None and dee.role_name == "floor"
