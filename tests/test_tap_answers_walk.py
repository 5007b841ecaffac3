"""A tap's answer and seals over long random walks (issue 34, session 43): whatever a tap keeps
between taps to answer faster (the state cached, the seals' spelling), its answer is, byte for
byte, the answer made the plain way from the sealed log (a replay from scratch, its ``to_dict()``,
the entry row read back, written with the same options), and every seal it wrote is the plain
keyed digest of the record's canonical JSON (what ``flask verify`` recomputes).

The walks tap through the API every move the engine lists (tests/walks.py: the profile's options at
random, real cards, undos now and then), so the states answered cover the engine's phases and
variants, not only the bench's passes.
"""

from __future__ import annotations

import json
import random

import orjson
import pytest

from tests.conftest import bearer
from tests.walks import Cards, event_for, legal_moves, random_profile


def plain_answer(app, table_id: int, answered: dict) -> bytes:
    """The answer to the tap that logged the table's latest entry, made the plain way: the state
    replayed from scratch out of the sealed log and made plain data, the entry row read back, the
    table's JSON as ``floor.posting`` shapes it, written as ``floor.jsonapi.answer`` writes."""
    from flask import url_for

    from floor.extensions import db
    from floor.jsonapi import _ANSWER
    from floor.localtime import utc_text
    from floor.models import LogEntry, Table
    from rules import jackpot

    with app.test_request_context():
        table = db.session.get(Table, table_id)
        entries = db.session.scalars(db.select(LogEntry).where(LogEntry.table_id == table_id)
                                     .order_by(LogEntry.seq)).all()
        state = jackpot.replay(table.setup, [e.payload for e in entries])  # to_dict() of a fresh replay
        entry = entries[-1]
        body = {
            "entry": {"seq": entry.seq, "index": entry.seq - 1, "event": entry.payload,
                      "logged_by": entry.logged_by.username if entry.logged_by else None,
                      "logged_at": utc_text(entry.logged_at)},
            "id": table.id, "name": table.name, "event_id": table.event_id, "version": entry.seq,
            "profile": table.profile_name, "setup": table.setup, "state": state,
            "rulings_url": url_for("api.list_rulings", table_id=table.id),
        }
        assert answered["entry"]["logged_at"] == body["entry"]["logged_at"]
        return orjson.dumps(body, default=app.json.default, option=_ANSWER) + b"\n"


def check_seals(app, table_id: int) -> None:
    """Every entry's seal and the head's, recomputed the plain way (no spelling kept or shared)."""
    from floor.extensions import db
    from floor.models import LogEntry, Table
    from floor.seals import canonical, entry_content, head_content, keyed_digest

    with app.app_context():
        table = db.session.get(Table, table_id)
        prev = ""
        for entry in db.session.scalars(db.select(LogEntry).where(LogEntry.table_id == table_id)
                                        .order_by(LogEntry.seq)):
            content = entry_content(table_id, entry.seq, entry.payload, entry.logged_by_id, entry.logged_at, prev)
            assert entry.prev_digest == prev and entry.digest == keyed_digest(json.loads(canonical(content)))
            prev = entry.digest
        assert table.head_digest == prev
        assert table.head_seal == keyed_digest(head_content(table.id, table.version, prev, table.setup))


@pytest.mark.parametrize("seed", [3, 29])
def test_a_taps_answer_is_the_plain_answer_from_the_sealed_log_along_a_random_walk(app, client, tokens, seed):
    from floor.tables import FLOOR_EVENTS
    from rules.jackpot import start

    rng = random.Random(seed)
    profile = random_profile(rng)
    n = rng.randint(3, 6)
    setup = {"profile": profile.to_dict(), "ante": rng.choice([0, 5]), "small_bet": 10, "big_bet": 20, "button": 1,
             "seats": [{"seat": s, "player": f"P{s}", "stack": rng.choice([8, 40, 200, 200])} for s in range(1, n + 1)]}
    made = client.post("/api/tables", json={"name": "Walk", **setup}, headers=bearer(tokens["director"]))
    assert made.status_code == 201, made.json
    table_id, version = made.json["id"], 0
    table = start(made.json["setup"])  # the walk's own state, to pick moves from
    cards = Cards(rng, table.profile)
    state = table.to_dict()
    for step in range(120):
        if state["undo"] is not None and rng.random() < 0.08:
            event = {"type": "void", "event": state["undo"]["event"]}
        else:
            event = event_for(rng, state, rng.choice(legal_moves(table)), cards).to_dict()
        who = "floor" if event["type"] in FLOOR_EVENTS else "dealer"
        response = client.post(f"/api/tables/{table_id}/events", json={**event, "expected_version": version},
                               headers=bearer(tokens[who]))
        assert response.status_code == 201, (seed, step, event, response.json)
        assert response.get_data() == plain_answer(app, table_id, response.json), (seed, step, event)
        table = table.apply(response.json["entry"]["event"])  # as logged (a sit names the player's record)
        version, state = response.json["version"], table.to_dict()
        assert json.loads(json.dumps(state)) == response.json["state"]
        if event["type"] == "deal":
            cards.deal(state)
    check_seals(app, table_id)
