"""The floor manager's shift report (issue 24): /floor/shift.pdf?from=&to= lists the shift's tables
and pots, its rulings with their seals, the chip corrections and what verify finds; floor only."""

from __future__ import annotations

import re
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
    assert "Chips corrected: seat 4" in text and "matches" in text  # the correction's ruling, in words, and its seal
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


def test_the_report_is_linked_from_the_floor_and_takes_any_window(app, as_role):
    """Issue 33: the report was linked from nowhere and always the last twelve hours. The floor's
    overview and the rulings link to it; its form takes any window in the room's time, or the last
    few hours with one tap; the PDF prints the window shown."""
    night(app)
    floor = as_role("floor")
    assert 'href="/floor/shift"' in floor.get("/floor/").get_data(as_text=True)
    assert 'href="/floor/shift"' in floor.get("/rulings/").get_data(as_text=True)
    page = floor.get("/floor/shift?hours=1").get_data(as_text=True)
    assert "Table 9" in page and 'href="/floor/shift?hours=8"' in page
    start = re.search(r'name="from" value="([^"]+)"', page).group(1)
    end = re.search(r'name="to" value="([^"]+)"', page).group(1)
    assert datetime.fromisoformat(end) - datetime.fromisoformat(start) == timedelta(hours=1)
    assert f'shift.pdf?from={start}&amp;to={end}' in page
    assert "Table 9" not in floor.get("/floor/shift?from=2020-01-01T18:00&to=2020-01-02T06:00").get_data(as_text=True)
    for bad in ("hours=0", "hours=eight", "from=2020-01-01&to=2020-03-01"):
        assert floor.get(f"/floor/shift?{bad}").status_code == 400, bad


def test_the_report_has_the_banked_tables_and_heads_every_ruling_in_words(app, as_role, tmp_path):
    from tests.test_banked_app import ROUND
    from tests.test_banked_disputes_app import DRAW, PAYOUT

    night(app)
    table_id = int(as_role("director").post("/banked/tables", data={"name": "Banked 7", "boxes": "3", "options": ""})
                   .location.rsplit("/", 1)[1])
    floor = as_role("floor")
    for event in ROUND + [DRAW]:
        assert floor.post(f"/banked/tables/{table_id}/events", json=event).status_code == 201
    assert floor.post(f"/banked/tables/{table_id}/disputes", data={
        **PAYOUT, "f_box_cards": "Ah Ad As Kd Qh", "f_dealer_final": "Kh Kc Td 3s 2s", "f_ante_box": "0.6",
        "f_bet": "1.2"}).status_code == 201
    text = text_of(floor.get(f"/floor/shift.pdf?{window()}").data, tmp_path)
    banked = text[text.index("Banked tables"):text.index("Disputes and rulings")]
    line = next(x for x in banked.splitlines() if "Banked 7" in x)
    assert line.split()[-4:] == ["8", "1", "1", "-5.7"]  # 8 entries, 1 round dealt and settled, the house -5.7
    rulings = text[text.index("Disputes and rulings"):text.index("Chip corrections")]
    # headed by what each decides (the PDF's columns wrap the words: read as one run of words)
    page = " ".join(floor.get(f"/floor/shift?{window()}").get_data(as_text=True).split())
    assert "<strong>Chips corrected: seat 4, Dev, gives 10; seat 3, Cleo, gets 10.</strong>" in page
    assert "<strong>Box 1: the house pays 3.6 more.</strong>" in page and ">banked #1</a>" in page
    assert "Chips corrected: seat 4," in rulings and "banked #1" in rulings and "Box 1: the house pays" in rulings
    # the list speaks the floor's words: no outcome code, in the page or the print (docs/pages.md, "The floor's words first")
    assert not re.search(r"\b[A-Z]+(_[A-Z]+)+\b", rulings)
    listed = page[page.index("Disputes and rulings"):page.index("Chip corrections")]
    assert not re.search(r"\b[A-Z]+(_[A-Z]+)+\b", re.sub(r"<[^>]+>", " ", listed))


def test_the_shift_report_shows_the_houses_take_per_table_and_in_all(app, as_role, tmp_path):
    """Issue 32: the shift report's money page: each table's rake (rake = {percent = 10, cap = 5}),
    time (time_charge = {amount = 6, minutes = 30}) and drop (drop = {amount = 1, pool = "high_hand"})
    taken in the shift, and the house's take over all tables."""
    house = {"base": "cardroom", "rake": {"percent": 10, "cap": 5}, "time_charge": {"amount": 6, "minutes": 30},
             "drop": {"amount": 1, "pool": "high_hand"}}
    night(app)  # a table without a rake: 0 everywhere
    with app.app_context():
        table = tables.create_table("Raked 1", {**SETUP, "profile": house})
        dealer = user("dee")
        for seat in (1, 2, 3, 4):
            tables.append(table, {"type": "time", "seat": seat}, dealer)
        for event in HAND:  # the pot of 40 won: the rake 4, the drop 1
            tables.append(table, event, dealer)
    response = as_role("floor").get(f"/floor/shift.pdf?{window()}")
    text = text_of(response.data, tmp_path)
    assert "The house's take" in text
    money = text[text.index("The house's take"):]
    assert next(x for x in money.splitlines() if "Raked 1" in x).split()[-4:] == ["4", "24", "1", "29"]
    assert next(x for x in money.splitlines() if "Table 9" in x).split()[-4:] == ["0", "0", "0", "0"]
    assert next(x for x in money.splitlines() if "All tables" in x).split()[-4:] == ["4", "24", "1", "29"]


def test_a_tables_hands_show_the_houses_take_per_pot_and_at_the_table(app, as_role):
    """Issue 32: the table's past hands (/floor/tables/<id>/hands) show each pot's rake and drop
    (rake = {percent = 10, cap = 5}, drop = {amount = 1, pool = "high_hand"}) and the house's take at
    the table, time (time_charge = {amount = 6, minutes = 30}) included."""
    house = {"base": "cardroom", "rake": {"percent": 10, "cap": 5}, "time_charge": {"amount": 6, "minutes": 30},
             "drop": {"amount": 1, "pool": "high_hand"}}
    with app.app_context():
        table = tables.create_table("Raked 2", {**SETUP, "profile": house})
        dealer = user("dee")
        for seat in (1, 2, 3, 4):
            tables.append(table, {"type": "time", "seat": seat}, dealer)
        for event in HAND:
            tables.append(table, event, dealer)
        table_id = table.id
    html = as_role("floor").get(f"/floor/tables/{table_id}/hands").get_data(as_text=True)
    assert "(the house: rake 4, drop 1)" in html
    assert " ".join(html.split()).count("The house's take at this table: rake 4, time 24, drop 1; 29 in all.") == 1
    plain = night(app)
    assert "The house's take" not in as_role("floor").get(f"/floor/tables/{plain}/hands").get_data(as_text=True)


def test_digests_stand_in_the_reports_evidence_only(app, as_role, tmp_path):
    """The floor's words first, the record's digests last (issue 33's rule for every page, which the
    shift report broke: the room's witness line and each ruling's digest stood in its Flagged and
    rulings sections). The Evidence section still holds both: the witness line is what a restore
    from an old backup cannot match, the digests what each ruling's own print shows."""
    night(app)
    with app.app_context():
        digest = db.session.scalars(db.select(IssuedRuling.digest)).one()
    floor = as_role("floor")
    hexes = re.compile(r"\b[0-9a-f]{16,}\b")
    page = floor.get(f"/floor/shift?{window()}").get_data(as_text=True)
    words, evidence = page.split('id="evidence"')
    assert not hexes.findall(re.sub(r'name="csrf[-_]token" (?:content|value)="[^"]*"', "", words))
    assert "The room's witness when this report was made: line" in evidence and digest[:16] in evidence
    text = text_of(floor.get(f"/floor/shift.pdf?{window()}").data, tmp_path)
    words, evidence = text.split("\nEvidence\n")
    assert not hexes.findall(words) and digest[:16] in evidence and "matches" in words
