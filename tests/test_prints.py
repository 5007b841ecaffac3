"""Printed rule summaries: /rules/<profile> and /rules/<profile>.pdf (issue 6)."""

from __future__ import annotations

import io
import os
import re

import pytest
from pypdf import PdfReader

from floor import house_profiles
from floor.extensions import db
from floor.models import HouseProfile
from floor.prints import stored, views as prints
from floor.rulings import printed as printed_pdfs
from rules import catalogue
from rules.rulings import DISPUTES
from tests.conftest import csrf_token_from, login, make_app

HOUSE_TOML = 'base = "cardroom"\ntitle = "Main room, Friday game"\nante_deals = 2\npostdraw_first = "left_of_button"\n'


@pytest.fixture(autouse=True, scope="module")
def fresh_pdf_cache():
    """The module starts and ends with an empty cache of the process; within it, a PDF rendered
    once is reused (the cache is keyed by the profile's content, so a reuse is always the same
    document)."""
    stored.recent.clear()
    yield
    stored.recent.clear()


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """The named profiles' summaries, each rendered once for the module: name -> (response, reader, text)."""
    app = make_app(tmp_path_factory.mktemp("printed"))
    client = login(app.test_client(), "dee")
    out = {}
    for name in ("cardroom", "foster", "pagat"):
        response = client.get(f"/rules/{name}.pdf")
        out[name] = (response, *pdf_text(response))
    return out


def pdf_text(response):
    """The PDF's text, one string, with runs of white space made single spaces."""
    assert response.status_code == 200, response.data[:400]
    assert response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    return reader, " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


def add_house(app, name="main-room", toml=HOUSE_TOML):
    with app.app_context():
        db.session.add(HouseProfile(name=name, toml=toml))
        db.session.commit()


@pytest.mark.parametrize("role", ["dealer", "floor", "director"])
def test_every_logged_in_role_may_read_and_print_the_rules(as_role, role):
    client = as_role(role)
    page = client.get("/rules/")
    assert page.status_code == 200 and b"/rules/cardroom.pdf" in page.data
    assert client.get("/rules/cardroom").status_code == 200
    assert client.get("/rules/cardroom.pdf").mimetype == "application/pdf"


def test_strangers_are_sent_to_log_in(client):
    for url in ("/rules/", "/rules/cardroom", "/rules/cardroom.pdf"):
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_the_cardroom_summary_pdf(printed):
    response, reader, text = printed["cardroom"]
    assert response.headers["Content-Disposition"] == "attachment; filename=rules-cardroom.pdf"
    assert 4 <= len(reader.pages) <= 12  # the rules, then the seven dispute trees (D12 added one) on four pages
    assert f"Page 1 of {len(reader.pages)}" in text
    assert "Cardroom rules (the default)" in text and "profile cardroom" in text
    # the rules with their ids and sources, and the readings the profile's options pick
    for rule_id in ("H1", "H2", "O1", "O4", "F2", "F7", "S1", "D4", "D8"):
        assert re.search(rf"\b{rule_id}\b", text), rule_id
    assert "The ante cap CARDROOM · GUIDE" in text
    assert "Here a pot takes antes on its first 3 deals in a row" in text
    assert "After the draw the opener acts first" in text
    assert "Here the floor person decides each case." in text
    # the options table
    assert "ante_deals 3 O4" in text and 'postdraw_first "opener" D4' in text
    # the hand rankings of the 53-card deck with the bug, exact counts and odds
    assert "2,869,685" in text
    assert "Five of a kind 1 " in text and "Straight flush 204 " in text and "Four of a kind 828 " in text
    assert "Full house 4,368 " in text and "High card 1,418,964 " in text
    assert "Hands that can open as dealt (a pair of jacks or better): 642,881 of 2,869,685" in text
    # the decision tree, drawn
    assert "Dispute: false openers" in text and "POT_CARRIES_OVER" in text and "ALL_IN_OPENER_BARRED" in text
    # rules the profile does not play are named, not printed
    assert "Not in force at this table: H3 and H4" in text
    assert " ".join(catalogue.rule("F9").text.split()[:8]) not in text


def test_fosters_summary_has_the_52_card_counts_and_his_penalty(printed):
    _, _, text = printed["foster"]
    assert "Foster's 1897 Hoyle" in text
    assert "how many of the 2,598,960 possible five-card hands" in text
    assert "Straight flush 40 " in text and "Four of a kind 624 " in text and "One pair 1,098,240 " in text
    assert "Five of a kind" not in text  # cannot be dealt without a wild card
    assert "F9 Foster's penalty" in text or ("F9" in text and "Foster's penalty" in text)
    assert "Here false openers are settled by this penalty" in text
    assert "FOSTER_FORFEIT" in text
    assert "every deal of a pot takes an ante: there is no cap" in text
    assert "Here a hand of the wrong size is dead whether it is found before the draw or after it." in text


def test_pagat_summary_reads_its_own_options(printed):
    _, _, text = printed["pagat"]
    assert "Here a player may draw at most 3 cards." in text
    assert "Here discards are never retrieved to prove openers." in text


def test_a_house_profile_prints_with_its_own_readings(app, as_role):
    add_house(app)
    client = as_role("dealer")
    response = client.get("/rules/main-room.pdf")
    assert response.headers["Content-Disposition"] == "attachment; filename=rules-main-room.pdf"
    _, text = pdf_text(response)
    assert "Main room, Friday game" in text and "profile main-room" in text and "house profile" in text
    assert "Here a pot takes antes on its first 2 deals in a row" in text
    assert "After the draw the first player still in to the left of the button acts first." in text
    assert "ante_deals 2 O4" in text


def test_a_house_profile_file_in_the_instance_folder_prints(app, as_role):
    folder = app.config["FLOOR_PROFILES_DIR"]
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "back-room.toml"), "w", encoding="utf-8") as fh:
        fh.write('base = "foster"\ntitle = "Back room"\nmax_draw = 3\n')
    client = as_role("floor")
    assert b"back-room (house file)" in client.get("/rules/").data
    _, text = pdf_text(client.get("/rules/back-room.pdf"))
    assert "Back room" in text and "Here a player may draw at most 3 cards." in text


def test_a_broken_house_file_is_refused_in_plain_words(app, as_role):
    folder = app.config["FLOOR_PROFILES_DIR"]
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "broken.toml"), "w", encoding="utf-8") as fh:
        fh.write("ante_deals = 0\n")
    client = as_role("dealer")
    for url in ("/rules/broken", "/rules/broken.pdf"):
        response = client.get(url)
        assert response.status_code == 422
        assert b"ante_deals: must be at least 1" in response.data and b"Traceback" not in response.data


@pytest.mark.parametrize("name", ["poker-night", "nope.pdf", "..", "%2e%2e", "CARDROOM", "x" * 300])
def test_an_unknown_profile_is_404_in_plain_words(as_role, name):
    client = as_role("dealer")
    for url in (f"/rules/{name}", f"/rules/{name}.pdf"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert b"There is no profile called" in response.data or b"Not Found" in response.data
        assert b"Traceback" not in response.data


def test_unknown_profile_message_names_the_known_ones(as_role):
    response = as_role("dealer").get("/rules/poker-night.pdf")
    assert response.status_code == 404
    assert b"There is no profile called &#39;poker-night&#39;. The profiles are: cardroom, pagat, foster" in response.data


def test_the_html_preview_matches_the_pdf_and_loads_nothing_from_outside(app, as_role):
    page = as_role("dealer").get("/rules/cardroom")
    html = page.get_data(as_text=True)
    assert "Download the PDF" in html and "/rules/cardroom.pdf" in html
    assert "O4" in html and "2,869,685" in html and html.count("data:image/svg+xml;base64,") == len(DISPUTES)  # one tree drawing per dispute kind
    with app.test_request_context("/rules/cardroom.pdf"):
        from flask import render_template

        printed = render_template("prints/summary.html", print_mode=True,
                                  **prints.summary_context(house_profiles.find_profile("cardroom")))
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", printed)
    assert "@import" not in printed and "url(" not in printed and "<link" not in printed
    assert "@page" in printed and "DejaVu Sans" in printed and "counter(pages)" in printed


@pytest.mark.slow
def test_the_pdf_is_rendered_once_per_profile_content(app, as_role, monkeypatch):
    """Issue 33: made once per version of the profile and kept in the database, so another server
    process (or this one after a restart) serves the stored pages instead of laying them out again."""
    renders = []
    real = printed_pdfs.pdf_bytes

    def counting_pdf(*args, **kwargs):
        renders.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(printed_pdfs, "pdf_bytes", counting_pdf)
    stored.recent.clear()  # counted from an empty cache
    add_house(app)
    client = as_role("director")
    first = client.get("/rules/main-room.pdf")
    second = client.get("/rules/main-room.pdf")
    assert len(renders) == 1 and first.data == second.data  # the same cached document
    stored.recent.clear()  # another worker, or a restart: nothing in this process's memory
    third = client.get("/rules/main-room.pdf")
    assert len(renders) == 1 and third.data == first.data  # served from the database
    with app.app_context():
        from floor.extensions import db

        kept = db.session.scalars(db.select(stored.SummaryPrint)).one()
        assert kept.name == "house:main-room" and bytes(kept.pdf) == first.data
    page = client.get("/director/profiles/1/edit")
    edited = client.post("/director/profiles/1/edit", data={
        "name": "main-room", "toml": HOUSE_TOML.replace("ante_deals = 2", "ante_deals = 4"),
        "csrf_token": csrf_token_from(page.data)})
    assert edited.status_code == 302
    _, text = pdf_text(client.get("/rules/main-room.pdf"))
    assert len(renders) == 2 and "Here a pot takes antes on its first 4 deals in a row" in text


def test_profile_choices_list_named_then_house_profiles(app):
    add_house(app, "zeta")
    with app.test_request_context():
        names = [name for name, _ in house_profiles.profile_choices()]
    assert names == ["cardroom", "pagat", "foster", "zeta"]


@pytest.mark.slow
@pytest.mark.parametrize("toml, raise_open, check_open", [
    ('base = "cardroom"\n', True, False),
    ('base = "cardroom"\nopen_with_raise = false\ncheck_open = true\n', False, True),
])
def test_O2_the_summary_promises_what_the_engine_plays(app, as_role, toml, raise_open, check_open):
    """O2: the printed summary says how a pot may be opened exactly as the engine's legal moves
    allow it, for each reading of the house options."""
    from rules.jackpot import replay
    from rules.profiles import from_toml

    add_house(app, "o2-house", toml)
    _, text = pdf_text(as_role("dealer").get("/rules/o2-house.pdf"))
    said_raise = "opens for the minimum bet or opens with a raise" in text
    said_check = "may also declare the pot open by checking" in text
    assert (said_raise, said_check) == (raise_open, check_open)
    assert ("the opening bet is the minimum bet" in text) != raise_open
    assert ("Declaring openers with a check is not played here" in text) != check_open
    setup = {"profile": from_toml(toml).to_dict(), "ante": 5, "small_bet": 10, "button": 1,
             "seats": [{"seat": 1, "player": "A", "stack": 100}, {"seat": 2, "player": "B", "stack": 100}]}
    amounts = replay(setup, [{"type": "deal"}])["legal"][1]["amounts"]
    assert (20 in amounts, 0 in amounts) == (raise_open, check_open)
