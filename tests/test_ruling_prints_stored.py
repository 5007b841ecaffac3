"""A sealed ruling prints once (issue 23): its PDF is rendered on the first request, stored, and
served from storage after that; anything that changes what the page prints (a correction that
supersedes it, a record that no longer matches its seal, the print's wording) renders it afresh,
so a stored PDF is never handed out for a record it was not made from."""

from __future__ import annotations

import sqlalchemy as sa
from jinja2 import ChoiceLoader, DictLoader

from floor.extensions import db
from floor.models import IssuedRuling
from floor.rulings import printed
from floor.rulings.printed import RulingPrint
from tests.conftest import bearer
from tests.test_ruling_pdf import pdf_text

FACTS = {"issue": "false_openers", "found": "after_draw", "opener": 2, "opener_all_in": False,
         "callers": 1, "raise_before_draw": False, "drawn_to": True}


def issue(client, tokens, **extra):
    response = client.post("/api/rulings", json={"facts": FACTS, "profile": "foster", **extra},
                           headers=bearer(tokens["floor"]))
    assert response.status_code == 201, response.json
    return response.json


def renders(monkeypatch):
    """Count WeasyPrint's renderings of ruling prints (the costly part a stored print skips)."""
    count = []
    real = printed.pdf_bytes

    def counting(*args, **kwargs):
        count.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(printed, "pdf_bytes", counting)
    return count


def stored(app, ruling_id):
    with app.app_context():
        return db.session.scalars(db.select(RulingPrint).where(RulingPrint.kind == "jackpot",
                                                               RulingPrint.ruling_id == ruling_id)).one()


def test_the_second_print_of_a_ruling_is_the_stored_one(app, tokens, monkeypatch):
    client = app.test_client()
    body = issue(client, tokens)
    count = renders(monkeypatch)
    first = client.get(body["pdf_url"], headers=bearer(tokens["dealer"]))
    assert len(count) == 1
    row = stored(app, body["id"])
    assert row.seal == body["digest"] and row.pdf == first.data
    second = client.get(body["pdf_url"], headers=bearer(tokens["floor"]))
    assert len(count) == 1, "served from storage, not rendered again"
    assert second.data == first.data
    assert second.headers["Content-Disposition"] == first.headers["Content-Disposition"] == \
        f"attachment; filename=ruling-{body['id']}.pdf"
    _, text, _ = pdf_text(second)
    assert f"Floor ruling #{body['id']}" in text and "FOSTER_FORFEIT" in text


def test_a_ruling_superseded_after_it_was_printed_prints_afresh_saying_so(app, tokens, monkeypatch):
    client = app.test_client()
    old = issue(client, tokens)
    count = renders(monkeypatch)
    assert "SUPERSEDED" not in pdf_text(client.get(old["pdf_url"], headers=bearer(tokens["floor"])))[1]
    new = issue(client, tokens, supersedes=old["id"])
    _, text, _ = pdf_text(client.get(old["pdf_url"], headers=bearer(tokens["floor"])))
    assert len(count) == 2
    assert f"SUPERSEDED by ruling #{new['id']}" in text
    assert stored(app, old["id"]).pdf != b""  # the new print replaced the old one: one per ruling
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(RulingPrint)) == 1


def test_a_record_changed_after_it_was_printed_is_never_served_the_old_print(app, tokens, monkeypatch):
    client = app.test_client()
    body = issue(client, tokens)
    count = renders(monkeypatch)
    client.get(body["pdf_url"], headers=bearer(tokens["floor"]))
    with app.app_context():  # someone edits the stored ruling behind the app's back
        rulings = IssuedRuling.__table__
        db.session.execute(sa.update(rulings).where(rulings.c.id == body["id"]).values(note="never said"))
        db.session.commit()
    _, text, _ = pdf_text(client.get(body["pdf_url"], headers=bearer(tokens["floor"])))
    assert len(count) == 2
    assert "no longer matched its seal" in text and "never said" in text


def test_new_wording_of_the_print_renders_afresh(app, tokens, monkeypatch):
    client = app.test_client()
    body = issue(client, tokens)
    count = renders(monkeypatch)
    client.get(body["pdf_url"], headers=bearer(tokens["floor"]))
    # a deployment with the print's wording changed: the same ruling, another page
    source = app.jinja_env.loader.get_source(app.jinja_env, "rulings/print.html")[0]
    reworded = source.replace("\"Floor ruling\"", "\"Ruling of the floor\"")
    assert reworded != source
    app.jinja_env.loader = ChoiceLoader([DictLoader({"rulings/print.html": reworded}), app.jinja_env.loader])
    app.jinja_env.cache.clear()
    _, text, _ = pdf_text(client.get(body["pdf_url"], headers=bearer(tokens["floor"])))
    assert len(count) == 2
    assert f"Ruling of the floor #{body['id']}" in text
    client.get(body["pdf_url"], headers=bearer(tokens["floor"]))
    assert len(count) == 2  # and that print is the stored one from then on


def test_a_banked_ruling_prints_once_and_afresh_when_its_record_changes(app, as_role, monkeypatch):
    from floor.banked.models import IssuedBankedRuling
    from tests.test_banked_disputes_app import DRAW, PAYOUT, log
    from tests.test_banked_app import ROUND

    floor = as_role("floor")
    table_id = int(as_role("director").post("/banked/tables", data={"name": "Banked 1", "boxes": "3", "options": ""})
                   .location.rsplit("/", 1)[1])
    log(floor, table_id, ROUND + [DRAW])
    issued = floor.post(f"/banked/tables/{table_id}/disputes", data={
        **PAYOUT, "f_box_cards": "Ah Ad As Kd Qh", "f_dealer_final": "Kh Kc Td 3s 2s", "f_ante_box": "0.6",
        "f_bet": "1.2"})
    assert issued.status_code == 201
    with app.app_context():
        ruling_id = db.session.scalars(db.select(IssuedBankedRuling.id)).one()
    count = renders(monkeypatch)
    first = as_role("dealer").get(f"/banked/rulings/{ruling_id}.pdf")
    second = as_role("dealer").get(f"/banked/rulings/{ruling_id}.pdf")
    assert len(count) == 1 and second.data == first.data
    assert second.headers["Content-Disposition"] == f"attachment; filename=banked-ruling-{ruling_id}.pdf"
    with app.app_context():
        row = db.session.scalars(db.select(RulingPrint).where(RulingPrint.kind == "banked")).one()
        assert row.ruling_id == ruling_id and row.seal == db.session.get(IssuedBankedRuling, ruling_id).digest
        banked = IssuedBankedRuling.__table__
        db.session.execute(sa.update(banked).where(banked.c.id == ruling_id).values(note="never said"))
        db.session.commit()
    _, text, _ = pdf_text(as_role("dealer").get(f"/banked/rulings/{ruling_id}.pdf"))
    assert len(count) == 2 and "PAYOUT_CORRECTED" in text
