"""Rulings in the floor's words first (issue 33): what happened, who gets what and the rules in
words head the page and the print; the outcome code, the digest and the witness line are evidence
at the foot; lists name a ruling by what it decides. A failed split's headline and body agree."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from floor import tables
from floor.extensions import db
from floor.models import IssuedRuling
from tests.conftest import SETUP, user
from tests.notation import log

# S2: seat 3 splits openers, escrows Td, and shows a hand that with the ten could not have opened
FAILED_SPLIT = log("deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 1 split Td; 4 draw 1; 3 check; 4 check; "
                   "3 show Js 8h 7h 6h 2h")


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages).split())


def failed_split(app) -> int:
    with app.app_context():
        table = tables.create_table("Table 5", SETUP)
        for event in FAILED_SPLIT:
            tables.append(table, event, user("dee"))
        row = db.session.scalars(db.select(IssuedRuling)).one()
        assert row.outcome == "SPLIT_FAILED" and row.record["won"] == {"4": 40}
        return row.id


def test_a_failed_splits_headline_and_body_agree(app, as_role):
    """S2: the opener loses the pot and seat 4 (Dev), the one live hand left, takes it in the same
    event: the print says the ruling settled the pot, never that it "played on" under a headline
    naming the winner (it did, on a record that named no winner though its event awarded the pot)."""
    ruling_id = failed_split(app)
    floor = as_role("floor")
    text = pdf_text(floor.get(f"/rulings/{ruling_id}.pdf").data)
    assert "Seat 4, Dev, wins the pot of 40; seat 3's hand is dead." in text
    assert "This ruling settled the pot: seat 4 (Dev) takes 40." in text
    assert "played on" not in text and "plays on" not in text
    page = floor.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert "This ruling settled the pot: seat 4 (Dev) takes 40." in page and "played on" not in page


def test_the_page_puts_the_floors_words_first_and_the_evidence_last(app, as_role):
    ruling_id = failed_split(app)
    page = as_role("floor").get(f"/rulings/{ruling_id}").get_data(as_text=True)
    order = [page.index(words) for words in ("What happened", "Who gets what", "The rules", "How the floor got there",
                                             'id="evidence"', "SPLIT_FAILED", "SHA-256 digest")]
    assert order == sorted(order), order
    assert page.count("SPLIT_FAILED") == 1  # in the evidence only
    assert "deal 1 · entry 11 of the table's log" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def test_lists_name_a_ruling_by_what_it_decides_not_its_code(app, as_role):
    failed_split(app)
    floor = as_role("floor")
    for url in ("/rulings/", "/floor/"):
        page = floor.get(url).get_data(as_text=True)
        assert "Seat 4, Dev, wins the pot of 40" in page, url
        assert "SPLIT_FAILED" not in page, url
    tablet = as_role("dealer").get("/dealer/tables/1").get_data(as_text=True)
    assert "SPLIT_FAILED" not in tablet


def test_a_banked_ruling_leads_with_what_it_decides(as_role):
    from tests.test_banked_app import ROUND
    from tests.test_banked_disputes_app import DRAW, PAYOUT

    director = as_role("director")
    table_id = int(director.post("/banked/tables", data={"name": "Banked 1", "boxes": "3", "options": ""})
                   .location.rsplit("/", 1)[1])
    floor = as_role("floor")
    for event in ROUND + [DRAW]:
        assert floor.post(f"/banked/tables/{table_id}/events", json=event).status_code == 201
    issued = floor.post(f"/banked/tables/{table_id}/disputes", data={
        **PAYOUT, "f_box_cards": "Ah Ad As Kd Qh", "f_dealer_final": "Kh Kc Td 3s 2s", "f_ante_box": "0.6",
        "f_bet": "1.2"})
    assert issued.status_code == 201
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", issued.get_data(as_text=True)))
    assert "Box 1: the house pays 3.6 more." in page
    assert page.index("the house pays 3.6 more") < page.index("What happened") < page.index("PAYOUT_CORRECTED")
    text = pdf_text(floor.get("/banked/rulings/1.pdf").data)
    assert text.index("Box 1: the house pays 3.6 more") < text.index("Evidence. Outcome code PAYOUT_CORRECTED")
    table_page = floor.get(f"/banked/tables/{table_id}").get_data(as_text=True)
    assert "the payout is corrected" in table_page and "PAYOUT_CORRECTED</" not in table_page
