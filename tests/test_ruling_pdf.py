"""The printed ruling: one A4 page read back with pypdf (text, never bytes)."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from floor import tables
from floor.extensions import db
from tests.conftest import SETUP, bearer

OPENED = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4}]


def pdf_text(resp) -> tuple[int, str, tuple[float, float]]:
    assert resp.status_code == 200
    assert resp.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(resp.data))
    box = reader.pages[0].mediabox
    words = " ".join(page.extract_text() for page in reader.pages)
    return len(reader.pages), re.sub(r"\s+", " ", words), (float(box.width), float(box.height))


def test_a_table_ruling_prints_on_one_a4_page_with_everything_a_player_needs(app, tokens):
    with app.app_context():
        table = tables.create_table("Table 7", SETUP)
        for event in OPENED:
            tables.append(table, event, None)
    client = app.test_client()
    issued = client.post("/api/rulings", json={"facts": {"issue": "false_openers", "reopener": None},
                                               "table_id": 1, "apply": True, "note": "Seat 4 called the floor."},
                         headers=bearer(tokens["floor"]))
    assert issued.status_code == 201, issued.json
    body = issued.json

    resp = client.get(body["pdf_url"], headers=bearer(tokens["dealer"]))
    assert resp.headers["Content-Disposition"] == "attachment; filename=ruling-1.pdf"
    pages, text, (width, height) = pdf_text(resp)
    assert pages == 1
    assert round(width) == 595 and round(height) == 842  # A4 in points
    assert "Floor ruling #1" in text and "Table 7" in text and "Deal 1 · entry 5 of the table's log" in text
    # the game and the house rules in force head the page; the outcome code is evidence, at the foot
    assert "Five-card draw, jacks or better to open, 53 cards with the joker as the bug" in text
    assert "House rules: cardroom" in text and "Outcome code POT_CARRIES_OVER" in text
    # the headline says who gets what, in words
    assert "Seat 3's hand is dead; seat 4, Dev, takes back 10; the pot of 30 stays for the next deal." in text
    for rule_id in body["citations"]:
        assert f"{rule_id} " in text
    assert "F4 Nobody reopens" in text or "F4 " in text
    # the chip movement: seat 4 (Dev) gets the 10 called back
    assert re.search(r"4 Dev \+10 takes bets back from the pot", text)
    assert "3 Cleo" in text and "hand dead" in text
    # the path in plain words: each question and the answer taken
    assert "What is the dispute about? false openers" in text
    assert "Which player now declares the pot open? (nobody, if no one does) nobody" in text
    # the facts on the path, in words (not internal keys)
    assert "Opener seat 3" in text and "Passed before the opening seat 2" in text and "opener_all_in" not in text
    # people and signatures
    assert "Ruled by fred" in text
    assert "Floor person: fred" in text and "Seat 4: Dev" in text and "Seat 3: Cleo" in text
    # the seal and how to check it
    assert body["digest"] in text.replace(" ", "") or body["digest"] in text
    # no public address configured: how to check it in the app, never the host that served the print
    assert "opens ruling #1 in the floor tool and taps \"Check the seal\"" in text
    assert "localhost" not in text and "/rulings/1/verify" not in text
    # the floor's words come first; the outcome code and the seal are the evidence at the foot
    assert text.index("WHAT HAPPENED") < text.index("WHO GETS WHAT") < text.index("THE RULES") < text.index("Evidence.")
    assert text.index("Evidence.") < text.index("Outcome code POT_CARRIES_OVER")
    assert "SUPERSEDED" not in text


def test_a_hand_not_logged_prints_with_its_facts(app, tokens):
    client = app.test_client()
    facts = {"issue": "false_openers", "found": "after_draw", "opener": 2, "opener_all_in": False,
             "callers": 1, "raise_before_draw": False, "drawn_to": True}
    body = client.post("/api/rulings", json={"facts": facts, "profile": "foster"},
                       headers=bearer(tokens["floor"])).json
    assert body["outcome"] == "FOSTER_FORFEIT"
    pages, text, _ = pdf_text(client.get("/rulings/1.pdf", headers=bearer(tokens["floor"])))
    assert pages == 1
    assert "Hand not logged at a table" in text and "House rules: foster" in text
    assert "52 cards with no joker" in text
    assert "FOSTER_FORFEIT" in text and "F9 " in text and "[FOSTER]" in text
    assert "antes for every other player next deal" in text
    assert "Did other players draw cards against the opener? yes" in text  # a fact found, in words


def test_a_superseded_ruling_prints_as_superseded(app, tokens):
    client = app.test_client()
    first = {"issue": "wrong_card_count", "found": "after_draw", "seat": 2, "card_count": 6}
    client.post("/api/rulings", json={"facts": first}, headers=bearer(tokens["floor"]))
    second = client.post("/api/rulings", json={"facts": first | {"found": "before_draw"}, "supersedes": 1},
                         headers=bearer(tokens["floor"]))
    assert second.status_code == 201 and second.json["supersedes"] == 1
    _, old, _ = pdf_text(client.get("/rulings/1.pdf", headers=bearer(tokens["dealer"])))
    assert "SUPERSEDED by ruling #2" in old
    _, new, _ = pdf_text(client.get("/rulings/2.pdf", headers=bearer(tokens["dealer"])))
    assert "Corrects ruling #1" in new and "SUPERSEDED" not in new
    again = client.post("/api/rulings", json={"facts": first, "supersedes": 1}, headers=bearer(tokens["floor"]))
    assert again.status_code == 400 and "already corrected by ruling #2" in again.json["message"]
    with app.app_context():
        assert db.session.scalar(db.text("SELECT count(*) FROM rulings")) == 2


def test_an_unknown_ruling_has_no_pdf(app, tokens):
    resp = app.test_client().get("/rulings/5.pdf", headers=bearer(tokens["dealer"]))
    assert resp.status_code == 404 and resp.mimetype != "application/pdf"


def test_a_print_names_the_configured_public_address_to_check_the_seal(app, tokens):
    """The print tells a reader where to check the seal: the card room's public address
    (FLOOR_PUBLIC_URL), never the host the print happened to be served from."""
    app.config["FLOOR_PUBLIC_URL"] = "https://floor.example-room.test/"
    client = app.test_client()
    facts = {"issue": "wrong_card_count", "found": "after_draw", "seat": 2, "card_count": 6}
    assert client.post("/api/rulings", json={"facts": facts}, headers=bearer(tokens["floor"])).status_code == 201
    _, text, _ = pdf_text(client.get("/rulings/1.pdf", headers=bearer(tokens["floor"]),
                                     base_url="http://10.0.0.7:5000"))
    assert "https://floor.example-room.test/rulings/1/verify" in text.replace(" ", "")
    assert "10.0.0.7" not in text


def test_a_reopened_pot_at_a_full_table_prints_on_one_page(app, tokens):
    """The demo's ruling #3 at a table of seven (F3): seat 5's false openers, seat 6 passes on the
    offer and seat 7 reopens; three players sign beside the floor person. Their four signature lines
    took two rows, and the room's record ran onto a second page holding nothing else ("page 1 of 2")."""
    from floor.models import CardRoomEvent, IssuedRuling, Table, User

    names = {1: "Ann", 3: "Cleo", 4: "Dev", 5: "Eve", 6: "Finn", 7: "Zed", 8: "Gus"}
    setup = {**SETUP, "button": 4, "seats": [{"seat": s, "player": p, "stack": 500} for s, p in names.items()]}
    with app.app_context():
        event = CardRoomEvent(name="Demo Friday Jackpots", profile="cardroom")
        db.session.add(event)
        db.session.commit()
        table_id = tables.create_table("Table 1", setup, event_id=event.id).id
        fred, dee = (db.session.scalars(db.select(User).where(User.username == name)).one() for name in ("fred", "dee"))
        for event, by in (({"type": "deal"}, dee), ({"type": "open", "seat": 5}, dee), ({"type": "call", "seat": 6}, dee),
                          ({"type": "false_openers", "seat": 5}, fred), ({"type": "pass", "seat": 6}, dee),
                          ({"type": "reopen", "seat": 7, "amount": 10}, dee)):
            tables.append(db.session.get(Table, table_id), event, by)
        ruling = db.session.scalars(db.select(IssuedRuling)).one()
        assert ruling.outcome == "REOPENED", ruling.outcome
        ruling_id = ruling.id
    pages, text, _ = pdf_text(app.test_client().get(f"/rulings/{ruling_id}.pdf", headers=bearer(tokens["floor"])))
    assert "Seat 5: Eve" in text and "Seat 6: Finn" in text and "Seat 7: Zed" in text and "Room record." in text
    assert pages == 1
