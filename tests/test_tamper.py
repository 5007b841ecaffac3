"""Issue 20: a record nobody can quietly rewrite. Each test tampers with the database the way an
auditor with direct access would (a snapshot edited, a log cut back to an earlier sealed head, an
old backup put back without a word, a ruling or a whole table deleted, a banked round start
moved), and checks both halves: ``flask verify`` names it (exit 1), and the app never serves the
tampered state (it answers what a replay of the sealed log gives).
"""

from __future__ import annotations

import json
import pathlib

import pytest
import sqlalchemy as sa

from floor import tables
from floor.banked.models import BankedEntry, BankedTable
from floor.extensions import db
from floor.models import IssuedRuling, LogEntry, PotSnapshot, Table
from rules.jackpot import replay_state
from tests.conftest import SETUP, bearer
from tests.test_banked_seals import log_round, new_table
from tests.test_history_seals import PLAY, history, tamper, verify
from tests.test_pot_snapshots import _pots


def _move_chips(data, amount: int, conserve: bool = True):
    """The snapshot's data with ``amount`` chips moved from the second seat to the first (or, when
    not ``conserve``, only added to the first): the stacks a careless or a careful editor writes."""
    seats = []

    def walk(node):
        if isinstance(node, dict):
            if "$seat" in node and "stack" in node["$seat"]:
                seats.append(node["$seat"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    assert len(seats) >= 2
    seats[0]["stack"] += amount
    if conserve:
        seats[1]["stack"] -= amount
    return data


def _edit_latest_snapshot(app, table_id, conserve):
    with app.app_context():
        snap = db.session.scalars(db.select(PotSnapshot).where(PotSnapshot.table_id == table_id)
                                  .order_by(PotSnapshot.version.desc())).first()
        data = _move_chips(snap.data, 400, conserve)
        version = snap.version
    tamper(app, sa.update(PotSnapshot.__table__).where(PotSnapshot.__table__.c.table_id == table_id,
                                                       PotSnapshot.__table__.c.version == version).values(data=data))
    return version


def _stacks(state):
    return {int(seat): info["stack"] for seat, info in state["seats"].items()}


def test_a_snapshot_edited_with_the_chips_kept_is_named_and_never_served(app, tokens):
    """400 chips moved between two seats in the snapshot the table would resume from, the total
    kept: after a restart the table still shows the log's stacks, and the next event is checked
    against them; verify names the snapshot."""
    table_id = _pots(app, 2)
    with app.app_context():
        table = db.session.get(Table, table_id)
        truth = _stacks(replay_state(table.setup, tables.events_of(table)).to_dict())
    version = _edit_latest_snapshot(app, table_id, conserve=True)
    tables.cache.clear()  # a restart: nothing remembered
    shown = app.test_client().get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"]))
    assert shown.status_code == 200 and _stacks(shown.json["state"]) == truth
    logged = app.test_client().post(f"/api/tables/{table_id}/events", json={"type": "deal"},
                                    headers=bearer(tokens["dealer"]))
    assert logged.status_code == 201
    with app.app_context():
        table = db.session.get(Table, table_id)
        assert _stacks(logged.json["state"]) == _stacks(replay_state(table.setup, tables.events_of(table)).to_dict())
    code, output = verify(app)
    assert code == 1 and f"table #{table_id} (Table 1): the pot snapshot at version {version} does not match its seal" \
        in output, output


def test_a_careless_snapshot_edit_falls_back_to_the_log_not_a_server_error(app, tokens):
    """Chips added in the snapshot (not conserved): the table answers from the log, not 500."""
    table_id = _pots(app, 2)
    with app.app_context():
        table = db.session.get(Table, table_id)
        truth = _stacks(replay_state(table.setup, tables.events_of(table)).to_dict())
    version = _edit_latest_snapshot(app, table_id, conserve=False)
    tables.cache.clear()
    shown = app.test_client().get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"]))
    assert shown.status_code == 200 and _stacks(shown.json["state"]) == truth
    code, output = verify(app)
    assert code == 1 and f"the pot snapshot at version {version} does not match its seal" in output


def test_a_snapshot_moved_to_another_version_is_not_resumed(app):
    """A genuine sealed snapshot copied to where another pot begins: it is sealed to the entry it
    follows, so it is not resumed there either."""
    table_id = _pots(app, 3)
    with app.app_context():
        snaps = db.session.scalars(db.select(PotSnapshot).where(PotSnapshot.table_id == table_id)
                                   .order_by(PotSnapshot.version)).all()
        first, last = snaps[1], snaps[-1]
        data, seal, version = first.data, first.seal, last.version
    snap_t = PotSnapshot.__table__
    tamper(app, sa.update(snap_t).where(snap_t.c.table_id == table_id, snap_t.c.version == version)
           .values(data=data, seal=seal))
    with app.app_context():
        table = db.session.get(Table, table_id)
        assert tables.table_state(table) == replay_state(table.setup, tables.events_of(table))
    code, output = verify(app)
    assert code == 1 and f"the pot snapshot at version {version} does not match its seal" in output


def test_a_banked_round_start_moved_is_named_and_never_served(app, as_role):
    """The round start set back to the first round's deal: the tablet still shows the round in
    play (from the log's last deal), and verify names the move."""
    table_id = new_table(as_role)
    log_round(as_role, table_id, rounds=2)
    dealer = as_role("dealer")
    before = dealer.get(f"/banked/tables/{table_id}.json").json
    tab = BankedTable.__table__
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(round_start=1))
    after = dealer.get(f"/banked/tables/{table_id}.json").json
    assert after["state"] == before["state"]
    code, output = verify(app)
    assert code == 1 and f"banked table #{table_id} (Banked 1): the round in play is said to begin at entry 1" \
        in output, output


# --------------------------------------------------------------------------- rollback and deletion

def _play(client, table_id, token, count):
    """``count`` more events: deals that everyone passes (the pot carries over)."""
    for _ in range(count):
        state = client.get(f"/api/tables/{table_id}", headers=bearer(token)).json["state"]
        event = {"type": "deal"} if state["phase"] == "between_deals" else {"type": "pass", "seat": state["to_act"]}
        assert client.post(f"/api/tables/{table_id}/events", json=event, headers=bearer(token)).status_code == 201


def _head(app, table_id):
    with app.app_context():
        table = db.session.get(Table, table_id)
        return {"version": table.version, "head_digest": table.head_digest, "head_seal": table.head_seal}


def _refused_as_rolled_back(client, tokens, table_id):
    """The app serves nothing from a rolled-back table, and logs nothing there."""
    tables.cache.clear()  # a restart too
    shown = client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"]))
    assert shown.status_code == 409 and "the room's witness saw it reach entry" in shown.json["message"], shown.json
    tapped = client.post(f"/api/tables/{table_id}/events", json={"type": "deal"}, headers=bearer(tokens["dealer"]))
    assert tapped.status_code == 409 and "flask --app floor restore" in tapped.json["message"]


def cut_back(app, client, tokens) -> int:
    """A table "T1" of 11 entries cut back to its sealed head at entry 6: the tail deleted (its pot
    snapshots too) and the table's version, head and seal set back to what they were then."""
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 6)
    earlier = _head(app, table_id)
    _play(client, table_id, tokens["dealer"], 5)
    log, snaps, tab = LogEntry.__table__, PotSnapshot.__table__, Table.__table__
    tamper(app, sa.delete(log).where(log.c.table_id == table_id, log.c.seq > 6))
    tamper(app, sa.delete(snaps).where(snaps.c.table_id == table_id, snaps.c.version >= 6))
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(**earlier))
    return table_id


def test_a_log_cut_back_to_an_earlier_sealed_head_is_named_and_never_served(app, tokens):
    """The tail deleted and the table's version, head and seal set back to what they were then:
    every seal in the database matches, but the room's witness remembers how far the log reached."""
    client = app.test_client()
    table_id = cut_back(app, client, tokens)
    code, output = verify(app)
    assert code == 1 and f"table #{table_id} (T1): its log was cut back to entry 6, but the room's witness saw it " \
        "reach entry 11" in output, output
    assert "entry 6 was changed" not in output and "seal does not match" not in output  # the seals alone say nothing
    _refused_as_rolled_back(client, tokens, table_id)


def test_a_banked_log_cut_back_is_named_and_never_served(app, as_role):
    table_id = new_table(as_role)
    log_round(as_role, table_id)
    with app.app_context():
        table = db.session.get(BankedTable, table_id)
        earlier = {"version": table.version, "head_digest": table.head_digest, "head_seal": table.head_seal,
                   "round_start": table.round_start}
    dealer = as_role("dealer")
    from tests.test_banked_app import ROUND

    for offset, event in enumerate(ROUND[:2]):
        assert dealer.post(f"/banked/tables/{table_id}/events",
                           json={**event, "expected_version": earlier["version"] + offset}).status_code in (200, 201)
    log, tab = BankedEntry.__table__, BankedTable.__table__
    tamper(app, sa.delete(log).where(log.c.table_id == table_id, log.c.seq > earlier["version"]))
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(**earlier))
    code, output = verify(app)
    assert code == 1 and f"banked table #{table_id} (Banked 1): its log was cut back to entry {earlier['version']}, " \
        f"but the room's witness saw it reach entry {earlier['version'] + 2}" in output, output
    shown = dealer.get(f"/banked/tables/{table_id}.json")
    assert shown.status_code == 409 and "flask --app floor restore" in shown.get_data(as_text=True)


def test_an_old_backup_put_back_silently_is_named_and_flask_restore_is_accepted(app, tokens, as_role, tmp_path):
    """A backup copied back over the live database without `flask restore` is a rollback of every
    table (jackpot and banked): named, refused. The same backup put back with `flask restore` is
    the director's explicit act: verify accepts it and says so."""
    from floor import backup

    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        from tests import pg

        if not pg.tool("pg_dump"):
            pytest.skip("pg_dump is not installed")
    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 4)
    banked_id = new_table(as_role)
    log_round(as_role, banked_id)
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    saved = backup.backup(url, tmp_path / "backups" / "old.backup")
    _play(client, table_id, tokens["dealer"], 3)
    dealer = as_role("dealer")
    from tests.test_banked_app import ROUND

    assert dealer.post(f"/banked/tables/{banked_id}/events", json={**ROUND[0], "expected_version": 7}).status_code \
        in (200, 201)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    backup.restore(url, saved)  # silently: no `flask restore`
    code, output = verify(app)
    assert code == 1, output
    assert f"table #{table_id} (T1): its log was cut back to entry 4, but the room's witness saw it reach entry 7" \
        in output and f"banked table #{banked_id} (Banked 1): its log was cut back to entry 7" in output, output
    _refused_as_rolled_back(client, tokens, table_id)

    result = app.test_cli_runner().invoke(args=["restore", str(saved), "--yes"])
    assert result.exit_code == 0 and "Recorded in the room's witness" in result.output, result.output
    code, output = verify(app)
    assert code == 0 and "accepted a restore (old.backup" in output, output
    tables.cache.clear()
    assert client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"])).json["version"] == 4
    _play(client, table_id, tokens["dealer"], 2)  # the room carries on from the restored log
    assert verify(app)[0] == 0


def test_a_deleted_ruling_is_named(app, tokens):
    table_id, ruling_id = history(app, tokens)
    rulings = IssuedRuling.__table__
    tamper(app, sa.delete(rulings).where(rulings.c.id == ruling_id))
    code, output = verify(app)
    assert code == 1 and f"ruling #{ruling_id} was deleted: the room's witness saw it issued" in output, output
    shown = app.test_client().get(f"/api/rulings/{ruling_id}", headers=bearer(tokens["dealer"]))
    assert shown.status_code == 404


def test_a_deleted_confirmation_is_named_and_no_longer_matches(app, tokens, as_role):
    """Issue 30: verify named it, but the ruling's own page said MATCHES and the API intact: true."""
    from tests.test_pot_snapshots import POT

    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    for event in POT:
        assert client.post(f"/api/tables/{table_id}/events", json=event, headers=bearer(tokens["dealer"])).status_code == 201
    with app.app_context():
        ruling_id = db.session.scalars(db.select(IssuedRuling.id).where(IssuedRuling.table_id == table_id)).first()
    assert as_role("floor").post(f"/rulings/{ruling_id}/confirm").status_code in (200, 302)
    rulings = IssuedRuling.__table__
    tamper(app, sa.update(rulings).where(rulings.c.id == ruling_id).values(
        confirmed_by_id=None, confirmed_at=None, confirmation_digest=""))
    code, output = verify(app)
    assert code == 1 and f"ruling #{ruling_id}: the floor's confirmation the room's witness saw" in output, output
    page = as_role("floor").get(f"/rulings/{ruling_id}/verify").get_data(as_text=True)
    assert "MATCHES" not in page and "confirmation the room&#39;s witness saw is gone" in page
    assert client.get(f"/api/rulings/{ruling_id}", headers=bearer(tokens["dealer"])).json["intact"] is False


def test_a_table_deleted_with_its_log_is_named(app, tokens):
    table_id, _ = history(app, tokens)
    with app.app_context():
        empty_id = db.session.scalars(db.select(Table.id).where(Table.name == "T2")).one()
    log, snaps, tab = LogEntry.__table__, PotSnapshot.__table__, Table.__table__
    tamper(app, sa.delete(log).where(log.c.table_id == table_id))
    tamper(app, sa.delete(snaps).where(snaps.c.table_id == table_id))
    tamper(app, sa.delete(tab).where(tab.c.id.in_([table_id, empty_id])))
    code, output = verify(app)
    assert code == 1, output
    assert f"table #{table_id} was deleted, with its log: the room's witness saw it (line" in output
    assert f"its log at entry {len(PLAY)})" in output and f"table #{empty_id} was deleted" in output
    assert app.test_client().get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"])).status_code == 404


def test_the_witness_file_edited_is_named(app, tokens):
    history(app, tokens)
    path = pathlib.Path(app.instance_path) / "witness.log"
    lines = path.read_text().splitlines()
    line = json.loads(lines[2])
    line["at"] = "2020-01-01T00:00:00Z"  # the act moved to another day, the link left as it was
    lines[2] = json.dumps(line, sort_keys=True, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")
    code, output = verify(app)
    assert code == 1 and "the witness's line 3 was changed" in output, output


def test_an_untouched_room_verifies_with_its_witness(app, tokens, as_role):
    history(app, tokens)
    log_round(as_role, new_table(as_role))
    code, output = verify(app)
    assert code == 0 and "the room's witness started at line 1" in output, output


# --------------------------------------------------------------------------- the kinds issue 11 found, served

def _edit_entry(app, table_id):
    log = LogEntry.__table__
    tamper(app, sa.update(log).where(log.c.table_id == table_id, log.c.seq == 3)
           .values(payload={"type": "open", "seat": 3, "amount": 20}))
    return "entry 3 was changed after it was logged", "entry 3 of the log does not match its seal"


def _edit_stakes(app, table_id):
    with app.app_context():
        setup = db.session.get(Table, table_id).setup
    tab = Table.__table__
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(setup={**setup, "small_bet": 100, "big_bet": 200}))
    return "the table's seal does not match", "the table's seal does not match"


def _cut_last_covering_tracks(app, table_id):
    log, tab = LogEntry.__table__, Table.__table__
    tamper(app, sa.delete(log).where(log.c.table_id == table_id, log.c.seq == len(PLAY)))
    with app.app_context():
        last = db.session.scalars(db.select(LogEntry.digest).where(LogEntry.table_id == table_id)
                                  .order_by(LogEntry.seq.desc())).first()
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(version=len(PLAY) - 1, head_digest=last))
    return "the table's seal does not match", f"the room's witness saw it reach entry {len(PLAY)}"


def _delete_middle_entry(app, table_id):
    log = LogEntry.__table__
    tamper(app, sa.delete(log).where(log.c.table_id == table_id, log.c.seq == 2))
    return "entry 3 follows entry 1", "entry 2 of the log does not match its seal"


@pytest.mark.parametrize("change", [_edit_entry, _edit_stakes, _cut_last_covering_tracks, _delete_middle_entry])
def test_a_log_changed_in_place_is_named_and_never_served(app, tokens, change):
    """Issue 11's kinds (an entry edited or removed, the stakes edited, the tail cut with the head
    set to the new last entry): verify named them; now the app, after a restart, also refuses to
    show or log anything at that table rather than replay a log that does not match its seals."""
    table_id, _ = history(app, tokens)
    named, refused = change(app, table_id)
    code, output = verify(app)
    assert code == 1 and named in output, output
    tables.cache.clear()  # a restart
    client = app.test_client()
    shown = client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"]))
    assert shown.status_code == 409 and refused in shown.json["message"], shown.json
    tapped = client.post(f"/api/tables/{table_id}/events", json={"type": "fold", "seat": 1},
                         headers=bearer(tokens["dealer"]))
    assert tapped.status_code == 409 and "flask --app floor verify" in tapped.json["message"]
    page = as_dealer(app).get(f"/dealer/tables/{table_id}")
    assert page.status_code == 409
    from tests.conftest import login

    floor = login(app.test_client(), "fred")
    for url in (f"/floor/tables/{table_id}/hands", f"/floor/tables/{table_id}/hands.txt",
                f"/floor/tables/{table_id}/history"):
        assert floor.get(url).status_code == 409, url  # past hands and the night's lines: not from a changed log


@pytest.mark.parametrize("change", [_edit_entry, _edit_stakes, _cut_last_covering_tracks, _delete_middle_entry])
def test_one_broken_table_is_flagged_on_the_floor_pages_and_the_others_are_shown(app, tokens, as_role, change):
    """One table's broken record is that table's matter: the floor's overview, the line-ups and the
    shift report answer 200, name the broken table on its own line and show nothing of its log
    (no deal, no pot, no seat, no shift figure), and show every other table as before. (The
    overview and the line-ups used to answer 409 for the whole room.)"""
    table_id, _ = history(app, tokens)
    with app.app_context():
        other = db.session.scalars(db.select(Table).where(Table.name == "T2")).one().id
    for event in ({"type": "deal"}, {"type": "pass", "seat": 2}):
        assert app.test_client().post(f"/api/tables/{other}/events", json=event,
                                      headers=bearer(tokens["dealer"])).status_code == 201
    change(app, table_id)
    tables.cache.clear()  # a restart
    floor = as_role("floor")

    overview = floor.get("/floor/")
    assert overview.status_code == 200
    rows = {row.split("</strong>")[0].rsplit(">", 1)[-1]: row
            for row in overview.get_data(as_text=True).split("<tr")[1:] if "<strong>" in row}
    flagged = ("does not match its seals", "was rolled back")  # a broken seal; a log cut back past the witness
    assert any(words in rows["T1"] for words in flagged) and "call the director" in rows["T1"]
    assert "between deals" not in rows["T1"] and "Correct chips" not in rows["T1"]
    assert "1 · before the draw" in rows["T2"] and "does not match" not in rows["T2"]

    lineups = floor.get("/floor/lineups")
    assert lineups.status_code == 200
    sections = {part.split('"')[0]: part for part in lineups.get_data(as_text=True).split('aria-label="')[1:]}
    assert any(words in sections["T1 line-up"] for words in flagged) and "data-seat" not in sections["T1 line-up"]
    assert sections["T2 line-up"].count("data-seat") == 8 and "Ann" in sections["T2 line-up"]

    shift = floor.get("/floor/shift").get_data(as_text=True)
    t1 = shift.split("<td>T1")[1].split("<td>T2")[0]  # its line and the problem's line below it
    assert "withheld" in t1 and ("changed outside the app" in t1 or "taken away from the database" in t1)
    assert "withheld" not in shift.split("<td>T2")[1].split("<tr>")[0]
    assert "problem" in shift  # and the Flagged section names what verify found


def test_a_banked_entry_edited_in_the_round_is_never_served(app, as_role):
    table_id = new_table(as_role)
    log_round(as_role, table_id, rounds=2)
    log = BankedEntry.__table__
    from tests.test_banked_app import ROUND

    changed = {**ROUND[0], "antes": {"1": 30, "2": 6, "3": 3}}
    tamper(app, sa.update(log).where(log.c.table_id == table_id, log.c.seq == len(ROUND) + 2).values(payload=changed))
    shown = as_role("dealer").get(f"/banked/tables/{table_id}.json")
    assert shown.status_code == 409 and "does not match its seal" in shown.get_data(as_text=True)
    assert verify(app)[0] == 1


def as_dealer(app):
    from tests.conftest import login

    return login(app.test_client(), "dee")


def test_each_ruling_shows_its_line_and_the_head_of_the_room_record(app, tokens, as_role):
    """The ruling page prints where the ruling stands in the room's witness, the witness's head and
    its last sealed checkpoint, to the full link; the PDF the line and the checkpoint (a head, which
    moves with every tap, would make the stored print new each time): a printed checkpoint the
    witness no longer holds is a rewrite."""
    _, ruling_id = history(app, tokens)
    with app.app_context():
        from floor import witness

        known = witness.seen()
        line, head, checkpoint = db.session.get(IssuedRuling, ruling_id).witness_line, known.head, known.checkpoint
    page = as_role("floor").get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert f"This ruling is line {line} of the room" in page and head["link"] in page and f"line {head['n']}" in page
    assert checkpoint["link"] in page
    from tests.test_ruling_pdf import pdf_text

    pages, text, _ = pdf_text(as_role("floor").get(f"/rulings/{ruling_id}.pdf"))
    assert pages == 1  # still one A4 page
    assert f"This ruling is line {line} of the room" in text and checkpoint["link"][:20] in text.replace(" ", "")
    assert "Head when shown" not in text


def test_a_witness_deleted_is_no_fresh_start(app, tokens):
    """Issue 30: the witness deleted (or cut back) while the database remembers it reaching further:
    every request answers 503 naming it, verify names it, and nothing starts a new witness; the
    operator's explicit, recorded step (`flask witness adopt`) does, and verify notes it ever after."""
    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 3)
    (pathlib.Path(app.instance_path) / "witness.log").unlink()
    with app.app_context():
        from floor import witness

        witness.room().forget()  # a restart of the server
    code, output = verify(app)
    assert code == 1 and "the room's witness (instance/witness.log) ends at line 0, but the database remembers it " \
        "reaching line" in output, output
    shown = client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"]))
    assert shown.status_code == 503 and "witness adopt" in shown.json["message"], shown.json
    assert not (pathlib.Path(app.instance_path) / "witness.log").exists()  # no fresh start
    result = app.test_cli_runner().invoke(args=["witness", "adopt", "--reason", "the disk was lost", "--yes"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        witness.room().forget()
    _play(client, table_id, tokens["dealer"], 1)
    code, output = verify(app)
    assert code == 0 and "was begun anew on this host (adopted) (the disk was lost" in output, output


def test_a_deleted_table_whose_id_is_taken_again_is_named(app, tokens):
    """The last table deleted with its log, then a new table set up: on SQLite it gets the same
    id, which must not hide the deletion (on PostgreSQL it gets a new id: the deletion is named)."""
    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 3)
    log, snaps, tab = LogEntry.__table__, PotSnapshot.__table__, Table.__table__
    tamper(app, sa.delete(log).where(log.c.table_id == table_id))
    tamper(app, sa.delete(snaps).where(snaps.c.table_id == table_id))
    tamper(app, sa.delete(tab).where(tab.c.id == table_id))
    again = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    code, output = verify(app)
    assert code == 1, output
    if again == table_id:
        assert f"table #{table_id} was set up again" in output and "that table was deleted" in output, output
    else:
        assert f"table #{table_id} was deleted, with its log" in output, output


def test_restore_in_place_accepts_the_database_as_it_stands(app, tokens):
    """After a power cut the database did not survive whole (its last commits lost, the witness's
    lines kept), a director accepts it as it stands: an explicit act, recorded and then accepted."""
    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 4)
    earlier = _head(app, table_id)
    _play(client, table_id, tokens["dealer"], 2)
    log, tab = LogEntry.__table__, Table.__table__
    tamper(app, sa.delete(log).where(log.c.table_id == table_id, log.c.seq > 4))
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(**earlier))
    assert verify(app)[0] == 1
    runner = app.test_cli_runner()
    assert runner.invoke(args=["restore", "--yes"]).exit_code != 0  # neither a backup nor --in-place: refused
    result = runner.invoke(args=["restore", "--in-place", "--yes"])
    assert result.exit_code == 0 and "the database in place" in result.output, result.output
    code, output = verify(app)
    assert code == 0 and "accepted a restore (the database in place" in output, output
    _play(client, table_id, tokens["dealer"], 1)


def test_one_broken_tournament_table_withholds_the_chip_figures_never_the_clock(app, tokens, as_role):
    """The tournament's clock is read by the wall and paused by the director: one event table's
    broken record withholds what is read from the tables (the average stack, the chips in play,
    null in the clock's JSON, "withheld" on the pages, with the table named) and the clock goes on
    answering and being paused and resumed. Balancing, which needs every table, refuses, naming it."""
    from tests.test_tournament_app import make_event
    from tests.tourney_play import Api

    api = Api(app.test_client(), tokens)
    event, ids = make_event(api, entries=8, tables=2)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, status=200)
    _edit_stakes(app, ids[0])  # the drawn table's setup (its seats and stacks) is under the table's seal

    info = api.get(f"/api/events/{event}/clock")
    assert info["average_stack"] is None and info["chips_in_play"] is None
    assert "Table 1" in info["withheld"] and "outside the app" in info["withheld"]
    assert info["players_left"] == 8 and info["running"] is True and info["level"] == 1
    paused = api.post(f"/api/events/{event}/clock", {"action": "pause"}, role="floor", status=200)
    assert paused["running"] is False and paused["withheld"]
    api.post(f"/api/events/{event}/clock", {"action": "resume"}, role="floor", status=200)

    floor = as_role("floor")
    page = floor.get(f"/tournament/{event}/")
    assert page.status_code == 200 and "average stack withheld" in page.get_data(as_text=True)
    assert "Table 1" in page.get_data(as_text=True).split("average stack withheld", 1)[1]
    assert floor.get(f"/tournament/{event}/wall").status_code == 200
    balancing = floor.get(f"/tournament/{event}/floor")
    assert balancing.status_code == 409 and "Table 1" in balancing.get_data(as_text=True)
    refused = api.call("GET", f"/api/events/{event}/balance", role="floor")
    assert refused.status_code == 409 and "Table 1" in refused.get_json()["message"]
