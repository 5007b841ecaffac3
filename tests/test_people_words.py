"""Plain words on the dealer's tablet (issue 16): no outcome codes, "queens or better" not "Qs",
"stands pat" not "draws 0", no "Ante 5" on a deal without antes, shown cards with suit symbols.
The tablet's panel is read through the test client, as the page renders it after every tap."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from floor import tables
from floor.extensions import db
from floor.models import User
from tests.conftest import SETUP


def panel_text(client, table_id) -> str:
    """The panel's visible text (tags dropped, entities read), one space between words."""
    raw = client.get(f"/dealer/tables/{table_id}/panel").json["html"]
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", raw)).split())


def make_table(app, setup, events):
    with app.app_context():
        table = tables.create_table("Table 1", setup)
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        for event in events:
            tables.append(table, event, dealer)
        return table.id


def passes(first: int) -> list[dict]:
    return [{"type": "pass", "seat": (first - 1 + i) % 4 + 1} for i in range(4)]


def test_progressive_openers_read_queens_or_better(app, as_role):
    """O5: after a deal nobody opens, the requirement climbs to queens; the tablet says so in words."""
    setup = dict(SETUP, profile={"base": "cardroom", "progressive_openers": True})
    table_id = make_table(app, setup, [{"type": "deal"}, *passes(2)])
    text = panel_text(as_role("dealer"), table_id)
    assert "Openers: queens or better" in text
    assert "openers needed now: queens or better (rule O5, progressive openers)" in text
    assert not re.search(r"\bQs\b", text)


def test_a_deal_past_the_ante_cap_shows_no_ante(app, as_role):
    """O4 (cardroom: antes on three deals of a pot): the fourth deal takes none, and the stakes
    line says so instead of "Ante 5"."""
    events = []
    for deal in range(3):
        events += [{"type": "deal"}, *passes(2 + deal)]
    table_id = make_table(app, SETUP, events + [{"type": "deal"}])
    text = panel_text(as_role("dealer"), table_id)
    assert "Deal 4 · the pot carried since deal 1 · antes 3 of 3" in text
    assert "No antes this deal · bets 10/20" in text
    assert "Ante 5" not in text
    table_id = make_table(app, SETUP, [{"type": "deal"}])  # the first deal of a pot: antes taken
    assert "Antes of 5 · bets 10/20" in panel_text(as_role("dealer"), table_id)


def test_standing_pat_and_shown_cards_in_words(app, as_role):
    """The draw of none reads "stands pat" (log) and "stood pat" (the seat); a foul show (H6) and a
    shown hand read with suit symbols; the ruling line has no outcome code."""
    events = [{"type": "deal"}, {"type": "open", "seat": 2, "amount": 10},
              *[{"type": "call", "seat": s} for s in (3, 4, 1)],
              *[{"type": "draw", "seat": s, "count": c} for s, c in ((2, 1), (3, 0), (4, 3), (1, 2))]]
    table_id = make_table(app, SETUP, events)
    client = as_role("dealer")
    text = panel_text(client, table_id)
    assert "seat 3 stands pat" in text and "draws 0" not in text
    seat3 = re.search(r'data-seat="3".*?</article>', client.get(f"/dealer/tables/{table_id}/panel").json["html"], re.S)
    assert "stood pat" in seat3.group(0) and "drew 0" not in seat3.group(0)

    def log(*more):
        with app.app_context():
            table = db.session.get(tables.Table, table_id)
            dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
            for event in more:
                tables.append(table, event, dealer)

    log(*[{"type": "check", "seat": s} for s in (2, 3, 4, 1)],
        {"type": "show", "seat": 2, "cards": ["Jh", "Jd", "4s", "5s", "9c"]})
    text = panel_text(client, table_id)
    assert "J♥ J♦ 4♠ 5♠ 9♣" in text  # the opener's shown hand, on the seat and in the log
    assert not re.search(r"\b[2-9TJQKA][cdhs]\b", text)
    log({"type": "show", "seat": 3, "cards": ["As", "Kd", "Qh", "Jc"]})
    text = panel_text(client, table_id)
    assert "seat 3 shows 4 cards: a foul hand is dead (rule H6)" in text
    assert "seat 3 shows A♠ K♦ Q♥ J♣" in text
    assert not re.search(r"\b[A-Z]+(_[A-Z]+)+\b", text)  # no outcome code anywhere


def test_a_ruling_reads_in_words_on_the_tablet(app, as_role):
    """F5: the opener's false openers with two callers: the pot plays. The tablet's ruling line is a
    sentence, never the outcome code (POT_PLAYS_OPENER_DEAD)."""
    table_id = make_table(app, SETUP, [{"type": "deal"}, {"type": "pass", "seat": 2},
                                       {"type": "open", "seat": 3, "amount": 10},
                                       {"type": "call", "seat": 4}, {"type": "call", "seat": 1}])
    with app.app_context():
        table = db.session.get(tables.Table, table_id)
        floor = db.session.scalars(db.select(User).where(User.username == "fred")).one()
        tables.append(table, {"type": "false_openers", "seat": 3}, floor)
    text = panel_text(as_role("dealer"), table_id)
    assert re.search(r"Ruling #\d+ ?: Seat 3.s hand is dead; the pot plays on\.", text), text
    assert "POT_PLAYS" not in text and not re.search(r"\b[A-Z]+(_[A-Z]+)+\b", text)


def test_a_ruling_pdf_prints_a_chinese_name_in_a_cjk_font(app, as_role, tmp_path):
    """The ruling against 王小明 (F5) prints the name: the PDF embeds a CJK font (the CSS names
    WenQuanYi Zen Hei, Debian's fonts-wqy-zenhei of the Makefile's APT_PKGS) and its text holds
    the name (drawn with pdftoppm, the page was looked at: the name prints, no empty boxes)."""
    import io

    from pypdf import PdfReader

    from tests import people_data

    ids = people_data.load(app)
    client = as_role("floor")
    response = client.get(f"/rulings/{ids['ruling']}.pdf")
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.data))
    text = " ".join(page.extract_text() for page in reader.pages)
    assert "王小明" in text
    fonts = set()
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    assert any("WenQuanYi" in f or "CJK" in f for f in fonts), (
        f"no CJK font in the PDF ({sorted(fonts)}): install fonts-wqy-zenhei (make sysdeps)")
