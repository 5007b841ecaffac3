"""Issue 30: inputs that answered 500, each answered 4xx with the reason, and numbers bounded to what
the database holds. One test per cause; each case is a request a client can send.

The causes: a list where a name or a text is expected; a lone UTF-16 surrogate in JSON text; an
index or an id beyond 64 bits; digits that are not ASCII ("³" passes ``str.isdigit()`` and fails
``int()``; "١" passes both); a float that is no finite number (``1e999``); banked options that are
not an object; ``starting_chips`` beyond what a card room plays.
"""

from __future__ import annotations

import pytest

from floor.extensions import db
from floor.models import Tournament
from tests.conftest import SETUP, bearer, login

BIG = 2**63  # one beyond a 64-bit column
STRUCTURE = {"levels": [{"minutes": 20, "small_bet": 10}], "starting_chips": 1000, "buy_in": 50}


@pytest.fixture
def room(app, tokens):
    """A table with a deal logged, a tournament with a table, clients by role."""
    api = app.test_client()
    table = api.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    assert api.post(f"/api/tables/{table}/events", json={"type": "deal"},
                    headers=bearer(tokens["dealer"])).status_code == 201
    event = api.post("/api/events", json={"name": "Cup", "structure": STRUCTURE},
                     headers=bearer(tokens["director"])).json["id"]
    return {"api": api, "table": table, "event": event, "tokens": tokens,
            "floor": login(app.test_client(), "fred"), "director": login(app.test_client(), "dana"),
            "dealer": login(app.test_client(), "dee")}


def _json(room, role, path, body):
    return room["api"].post(path, json=body, headers=bearer(room["tokens"][role]))


def _raw(room, role, path, text: bytes):
    return room["api"].post(path, data=text, content_type="application/json", headers=bearer(room["tokens"][role]))


def _refused(response, status, *words):
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:300])
    text = response.get_data(as_text=True)
    assert all(w in text for w in words), text[:400]


def test_a_list_where_a_name_or_a_text_is_expected(room):
    """Was a 500 (a list asked of the named profiles: unhashable) or a player named "['Ann']"."""
    e = room["event"]
    _refused(_json(room, "director", "/api/tables", {"name": "X", **SETUP, "profile": ["cardroom"]}), 422,
             "a profile is named with letters")
    _refused(_json(room, "director", "/api/tables", {"name": ["X"], **SETUP}), 400, "'name' must be text")
    _refused(_json(room, "director", "/api/events", {"name": "X", "structure": STRUCTURE, "profile": ["a"]}), 400,
             "'profile' must be text")
    _refused(_json(room, "floor", f"/api/events/{e}/entries", {"player": ["Ann"]}), 400, "'player' must be text")
    _refused(_json(room, "floor", f"/api/events/{e}/clock", {"action": ["start"]}), 400, "'action' must be text")
    _refused(_json(room, "floor", f"/api/events/{e}/eliminate", {"player": "Ann", "reason": {"x": 1}}), 400,
             "'reason' must be text")


def test_a_lone_surrogate_in_json_text(room):
    """"\\ud800" is no character: the database driver could not store it (500)."""
    e, t = room["event"], room["table"]
    surrogate = b'"\\ud800"'
    for role, path, body in (
            ("director", "/api/tables", b'{"name": %s, "seats": [{"seat": 1, "player": "A", "stack": 50}, '
                                        b'{"seat": 2, "player": "B", "stack": 50}], "ante": 1, "small_bet": 2}'),
            ("floor", f"/api/events/{e}/entries", b'{"player": %s}'),
            ("dealer", f"/api/tables/{t}/events", b'{"type": "sit", "seat": 5, "player": %s, "chips": 10}'),
            ("director", "/api/events", b'{"name": %s, "structure": {"levels": [{"minutes": 5, "small_bet": 2}], '
                                        b'"starting_chips": 10, "buy_in": 1}}'),
            ("floor", "/api/rulings", b'{"facts": {"issue": "caller_refund", "seat": 2}, "note": %s}')):
        _refused(_raw(room, role, path, body.replace(b"%s", surrogate)), 400, "lone UTF-16 surrogate")
    # a pair is one character (an emoji): accepted
    paired = b'{"player": "\\ud83d\\ude00 Ann"}'
    assert _raw(room, "floor", f"/api/events/{e}/entries", paired).status_code == 201


def test_an_index_or_an_id_beyond_64_bits(room):
    """A dealer's void of event 2**63 asked the database for entry 2**63 + 1 (an overflow: 500)."""
    t, e = room["table"], room["event"]
    _refused(_json(room, "dealer", f"/api/tables/{t}/events", {"type": "void", "event": BIG}), 422, "void: event")
    _refused(_json(room, "dealer", f"/api/tables/{t}/events", {"type": "void", "event": 2**63 - 1}), 422, "cannot withdraw entry")
    _refused(room["floor"].get(f"/rulings/new?table={BIG}"), 404, "There is no table")
    _refused(room["floor"].get(f"/rulings/new?supersedes={BIG}"), 404, "no ruling")
    _refused(_json(room, "floor", f"/api/events/{e}/balance", {"moves": [{
        "player": "Ann", "from_table": BIG, "from_seat": 1, "to_table": 1, "to_seat": 2}]}), 422, "table id")
    assert room["floor"].get(f"/floor/lineups?from_table={BIG}").status_code == 200  # a preset ignored
    _refused(room["floor"].post("/floor/move", data={"from_table": str(BIG), "from_seat": "1",
                                                     "to_table": str(BIG), "to_seat": "2"}), 400, "Not moved")
    _refused(room["floor"].get(f"/floor/tables/{t}/correction?ruling={BIG}"), 200)  # no such ruling: none shown
    _refused(_json(room, "director", f"/api/events/{e}/tables", {"name": "T", "seats": BIG}), 422, "seats")


@pytest.mark.parametrize("digit", ["³", "١"])
def test_digits_that_are_not_ascii(room, digit):
    """"³" passes str.isdigit() and fails int() (500); "١" passes both and was read as 1."""
    t = room["table"]
    _refused(room["floor"].get(f"/floor/tables/{t}/hands.txt?deal={digit}"), 400, "deal must be a whole number")
    assert room["floor"].get(f"/floor/tables/{t}/hands/{digit}").status_code == 404
    assert room["api"].get(f"/api/tables/{digit}", headers=bearer(room["tokens"]["dealer"])).status_code == 404
    _refused(room["api"].get(f"/api/tables/{t}/events?after={digit}", headers=bearer(room["tokens"]["dealer"])),
             400, "'after'")
    _refused(room["floor"].post("/rulings/new", data={"step": "engine", "table": str(t), "version": digit,
                                                       "issue": "false_openers"}), 400, "version must be a whole number")
    _refused(room["floor"].get(f"/rulings/new?table={digit}"), 404, "There is no table")
    _refused(_json(room, "dealer", f"/api/tables/{t}/events", {"type": "pass", "seat": digit}), 422,
             "is not a seat number")
    e = room["event"]
    _refused(_json(room, "director", f"/api/events/{e}/tables", {"name": "T", "seats": digit}), 422, "seats")
    _refused(room["director"].post(f"/tournament/{e}/tables", data={"name": "T", "seats": digit}), 302)


def test_a_banked_form_with_digits_that_are_not_ascii_or_options_that_are_not_an_object(room, as_role):
    director = room["director"]
    _refused(director.post("/banked/tables", data={"name": "B", "boxes": "3", "options": "-1"}), 422,
             "banked options: an object of named options")
    _refused(director.post("/banked/tables", data={"name": "B", "boxes": "³", "options": "{}"}), 422,
             "boxes must be a whole number")
    _refused(director.post("/banked/tables", data={"name": "B", "boxes": "١", "options": "{}"}), 422, "boxes")
    from tests.test_banked_seals import new_table

    banked = new_table(as_role)
    _refused(room["dealer"].post(f"/banked/tables/{banked}/events", data={"type": "deal", "version": "³"}), 422,
             "version must be a whole number")


def test_a_number_no_float_holds(room):
    """payouts "1e999": its sum could not be told as a float (OverflowError: 500)."""
    for payouts in ("1e999", ["1e999"], [50, "1e999"], "60 40e999", "1e999999999"):
        _refused(_json(room, "director", "/api/events", {"name": "X", "structure": {**STRUCTURE, "payouts": payouts}}),
                 422, "a percentage from 0 to 100")
    _refused(_raw(room, "director", "/api/events", b'{"name": "X", "structure": {"levels": [{"minutes": 20, '
                                                   b'"small_bet": 10}], "starting_chips": 1000, "buy_in": 50, '
                                                   b'"payouts": [1e999]}}'), 422, "payouts[0]: a percentage")
    e = room["event"]
    _refused(_raw(room, "director", f"/api/events/{e}/tables", b'{"name": "T", "seats": 1e999}'), 422, "seats")
    _refused(_raw(room, "floor", f"/api/events/{e}/counts", b'{"player": "Ann", "stack": 1e999, "reason": "x"}'),
             422, "count: the stack counted is a whole number of chips")


def test_starting_chips_and_every_stored_number_are_bounded(app, room):
    """2**63 starting chips were accepted; that player could never be busted out. Chips anywhere
    (a structure, a seat, a rebuy, a count) are at most a billion."""
    _refused(_json(room, "director", "/api/events", {"name": "X", "structure": {**STRUCTURE, "starting_chips": BIG}}),
             422, "starting_chips: at most 1000000000 chips")
    _refused(_json(room, "director", "/api/events", {"name": "X", "structure": {**STRUCTURE, "buy_in": 10**12}}), 422,
             "buy_in: at most 1000000000 chips")
    _refused(_json(room, "director", "/api/tables", {"name": "X", **SETUP, "seats": [
        {"seat": 1, "player": "A", "stack": BIG}, {"seat": 2, "player": "B", "stack": 5}]}), 422, "at most 1000000000")
    t = room["table"]
    _refused(_json(room, "floor", f"/api/tables/{t}/events", {"type": "correction", "reason": "x", "moves": [
        {"seat": 1, "amount": BIG}, {"seat": 2, "amount": -BIG}]}), 422, "at most 1000000000 chips either way")
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Tournament.id))) == 1  # nothing else was made
