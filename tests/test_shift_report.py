"""The floor manager's shift report (issue 24): /floor/shift.pdf?from=&to= lists the shift's tables
and pots, its rulings with their seals, the chip corrections and what verify finds; floor only."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime, timedelta

from floor import tables
from floor.extensions import db
from floor.models import IssuedRuling
from tests.conftest import SETUP, bearer, user

# Seat 2 passes, seat 3 opens, 4 calls, 1 and 2 fold; both draw, check, show: seat 4's kings win.
HAND = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4},
        {"type": "fold", "seat": 1}, {"type": "fold", "seat": 2}, {"type": "draw", "seat": 3, "count": 3},
        {"type": "draw", "seat": 4, "count": 3}, {"type": "check", "seat": 3}, {"type": "check", "seat": 4},
        {"type": "show", "seat": 3, "cards": "Jh Jd 2c 3s 4h"}, {"type": "show", "seat": 4, "cards": "Kh Kd 2d 3h 5h"}]


def night(app):
    with app.app_context():
        table = tables.create_table("Table 9", SETUP)
        floor, dealer = user("fred"), user("dee")
        for event in HAND:
            tables.append(table, event, dealer)
        tables.append(table, {"type": "correction", "moves": [{"seat": 4, "amount": -10}, {"seat": 3, "amount": 10}],
                              "reason": "a pot pushed long by ten"}, floor)
        return table.id


def text_of(pdf: bytes, tmp_path) -> str:
    path = tmp_path / "shift.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def window() -> str:
    now = datetime.now(UTC)
    return f"from={(now - timedelta(hours=1)).isoformat(timespec='seconds')}&to={(now + timedelta(minutes=5)).isoformat(timespec='seconds')}".replace("+", "%2B")


def test_the_shift_report_lists_tables_pots_rulings_corrections_and_verify(app, as_role, tmp_path):
    night(app)
    response = as_role("floor").get(f"/floor/shift.pdf?{window()}")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    text = text_of(response.data, tmp_path)
    assert "Shift report" in text and "Table 9" in text
    line = next(x for x in text.splitlines() if "cardroom" in x)
    # 13 entries logged, 1 deal, 1 pot won, none carried, 40 awarded (antes 20, the bet and the call), biggest 40
    assert line.split()[-6:] == ["13", "1", "1", "0", "40", "40"]
    assert "CHIPS_CORRECTED" in text and "matches" in text  # the correction's ruling and its seal
    assert "a pot pushed long by ten" in text and "seat 4: -10" in text
    assert "every chain and seal matches" in text


def test_a_broken_seal_shows_on_the_shift_report(app, as_role, tmp_path):
    night(app)
    with app.app_context():
        row = db.session.scalars(db.select(IssuedRuling)).first()
        row.record = {**row.record, "summary": "edited after the fact"}
        db.session.commit()
    text = text_of(as_role("floor").get(f"/floor/shift.pdf?{window()}").data, tmp_path)
    assert "DOES NOT MATCH" in text and "problem" in text


def test_a_shift_before_anything_happened_is_empty_and_bad_times_are_refused(app, as_role):
    night(app)
    floor = as_role("floor")
    page = floor.get("/floor/shift?from=2020-01-01&to=2020-01-02").get_data(as_text=True)
    assert "No deal was logged in this shift." in page and "No ruling was issued" in page
    assert floor.get("/floor/shift.pdf?from=yesterday").status_code == 400
    assert floor.get("/floor/shift.pdf?from=2020-01-02&to=2020-01-01").status_code == 400


def test_dealers_may_not_read_the_shift_report(app, as_role):
    assert as_role("dealer").get("/floor/shift.pdf").status_code == 403


def test_what_the_referee_flagged_shows_in_the_shift_report_with_table_and_pot(app, as_role, tokens, tmp_path):
    """A finding filed through the API (as the night's referee files a wrong verdict) is listed in
    the "Flagged" section of the page and of the PDF, with its table and deal; before, it says
    nothing was flagged. Dealers may not file one; a malformed finding is refused with the field."""
    table_id = night(app)
    floor = as_role("floor")
    page = floor.get(f"/floor/shift?{window()}").get_data(as_text=True)
    assert "Nothing flagged." in page and "nothing flagged" in page
    finding = {"kind": "wrong_verdict", "table_id": table_id, "deal": 1, "source": "night referee, seed 7",
               "text": "the engine gave {4: 40}; the referee says {3: 40} from the cards"}
    api = app.test_client()  # the referee's own client, with a token as the night has
    assert api.post("/api/findings", json=finding, headers=bearer(tokens["dealer"])).status_code == 403
    bad = api.post("/api/findings", json={**finding, "kind": "hunch"}, headers=bearer(tokens["floor"]))
    assert bad.status_code == 400 and "'kind'" in bad.get_json()["message"]
    filed = api.post("/api/findings", json=finding, headers=bearer(tokens["floor"]))
    assert filed.status_code == 201, filed.get_json()
    assert filed.get_json()["table"] == "Table 9" and filed.get_json()["filed_by"]
    room = api.post("/api/findings", headers=bearer(tokens["floor"]), json={
        "kind": "discrepancy", "text": "the room: chips in 900 do not match out and on the tables 890"})
    assert room.status_code == 201
    page = floor.get(f"/floor/shift?{window()}").get_data(as_text=True)
    assert "Nothing flagged." not in page and "2 things flagged" in page
    text = text_of(floor.get(f"/floor/shift.pdf?{window()}").data, tmp_path)
    flagged = text[text.index("Flagged"):text.index("Tables and pots")]
    assert "wrong verdict" in flagged and "Table 9 · deal 1" in flagged and "the referee says {3: 40}" in flagged
    assert "chip discrepancy" in flagged and "the room" in flagged and "night referee, seed 7" in flagged
    # another shift does not carry them
    assert "Nothing flagged." in floor.get("/floor/shift?from=2020-01-01&to=2020-01-02").get_data(as_text=True)
