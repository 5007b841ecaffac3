"""The tournament's seating list and the ruling's page render from the engine's typed state (issue 23):
what a director or a floor person checks there is what the table holds now, for known states.

- The seating list by table (page and PDF): each table's button and each seat's player and stack,
  before any deal and after a pot was won uncontested at one table (O1, F1: the opener takes the antes
  and the bet when everyone folds, on showing openers).
- The ruling's page: a ruling that let the pot play on (F2/F5: false openers found before the draw,
  three callers) is worded from the table as it is now: while its deal is in play, once it was won,
  and once the table dealt again; and (unit) when its deal ended with the pot carried.

Every page renders with Jinja's StrictUndefined: an attribute the typed state lacks (a misspelt
name) raises here instead of showing an empty cell. The one leniency (:func:`strict_but_records`):
a key absent from a plain dict, i.e. the stored ruling record read back from JSON, whose optional
keys (``kind``, a step's ``detail``) are simply left out when they do not apply.
"""

from __future__ import annotations

import html as htmllib
import io
import re
from types import SimpleNamespace

import jinja2
import pytest
from pypdf import PdfReader

from floor import tables
from floor.extensions import db
from floor.models import Table
from floor.rulings import stored
from rules.jackpot.table import TableState
from tests.conftest import SETUP, login, user
from tests.test_ruling_pdf_truth import false_openers_ruled, play_out
from tests.test_tournament_app import Api, make_event

BY_TABLE = re.compile(r'<section><h3>([^<]*) <span class="muted">\(button: seat (\d+)\)</span></h3>\s*'
                      r'<table class="grid seating">(.*?)</table></section>', re.S)
ROW = re.compile(r"<tr><td>(\d+)</td><td>([^<]*)</td><td>(\d+)</td></tr>")


def strict_but_records(hint=None, obj=jinja2.utils.missing, name=None, exc=jinja2.UndefinedError):
    """Jinja's StrictUndefined for every name and every attribute of a value (the typed state, a
    seat, a row), the ordinary Undefined only for a key a plain dict leaves out (storage's JSON)."""
    if isinstance(obj, dict):
        return jinja2.Undefined(hint, obj, name, exc)
    return jinja2.StrictUndefined(hint, obj, name, exc)


@pytest.fixture
def strict(app):
    app.jinja_env.undefined = strict_but_records
    return app


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


def seating_page(client, event: int) -> str:
    response = client.get(f"/tournament/{event}/seating")
    assert response.status_code == 200  # a name the typed state lacks is a 500 here
    return response.get_data(as_text=True)


def by_table(page: str) -> dict[str, tuple[int, dict[int, tuple[str, int]]]]:
    """The seating page's "By table" part: table name -> (button, {seat: (player, stack)})."""
    return {name: (int(button), {int(s): (htmllib.unescape(p), int(stack)) for s, p, stack in ROW.findall(rows)})
            for name, button, rows in BY_TABLE.findall(page)}


def test_the_seating_list_by_table_shows_each_tables_button_and_stacks(strict, api):
    """Before any deal every seat holds the starting 100 chips; after one pot at Table 1 (ante 10,
    the first to speak opens for 50, everyone else folds, the opener shows openers: O1, F1) the
    opener holds 90 + 10 a player and every other seat there 90, while Table 2 is unchanged. The
    players and buttons are those of the table's plain data (the API's answer)."""
    event, ids = make_event(api, entries=9, tables=2)
    pages = login(strict.test_client(), "fred")
    shown = by_table(seating_page(pages, event))
    assert set(shown) == {"Table 1", "Table 2"}
    for name, table_id in zip(("Table 1", "Table 2"), ids):
        state = api.table(table_id)
        button, seats = shown[name]
        assert button == state["button"]
        assert seats == {int(s): (x["player"], 100) for s, x in state["seats"].items()}
    assert sum(len(seats) for _, seats in shown.values()) == 9

    api.log(ids[0], {"type": "deal"})
    opener = api.table(ids[0])["to_act"]
    api.log(ids[0], {"type": "open", "seat": opener})
    while (state := api.table(ids[0]))["phase"] != "between_deals":
        if state["phase"] == "showdown":  # F1: everyone else folded, the opener shows openers to take the pot
            api.log(ids[0], {"type": "show", "seat": opener, "cards": "As Ad Ah Kc Kd"})
        else:
            api.log(ids[0], {"type": "fold", "seat": state["to_act"]})
    players = len(state["seats"])
    assert state["awards"] == {str(opener): 10 * players + 50}

    page = seating_page(pages, event)
    shown = by_table(page)
    button, seats = shown["Table 1"]
    assert button == state["button"]
    assert {s: stack for s, (_, stack) in seats.items()} == {
        s: (90 + 10 * players if s == opener else 90) for s in map(int, state["seats"])}
    assert {s: stack for s, (_, stack) in shown["Table 2"][1].items()} == {
        int(s): 100 for s in api.table(ids[1])["seats"]}
    # the rows of the list by player agree with the tables
    assert f"<td>Table 1</td><td>{opener}</td><td>{90 + 10 * players}</td>" in page

    pdf = pages.get(f"/tournament/{event}/seating.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages).split())
    assert f"Table 1 (button: seat {state['button']})" in text
    assert f"{opener} {seats[opener][0]} {90 + 10 * players}" in text

    # the strictness is real: a misspelt attribute of the typed state fails rather than printing blank
    with strict.app_context():
        typed = tables.table_state(db.session.get(Table, ids[0]))
        with pytest.raises(jinja2.UndefinedError):
            strict.jinja_env.from_string("{{ state.buton }}").render(state=typed)
        assert strict.jinja_env.from_string("{{ state.button }}").render(state=typed) == str(state["button"])


def ruling_page(client, ruling_id: int) -> str:
    response = client.get(f"/rulings/{ruling_id}")
    assert response.status_code == 200
    return " ".join(htmllib.unescape(response.get_data(as_text=True)).split())


def test_the_ruling_page_words_the_pot_from_the_table_as_it_is_now(strict, as_role):
    """F2/F5: seat 2's false openers found before the draw with three callers: the hand is dead and
    the pot plays on. The page says so while deal 1 is in play; once seat 1's kings won the 60 it
    says the pot played on and who won what; once the table has dealt again, that deal 1 ended since.
    The print renders under the same strictness."""
    with strict.app_context():
        table, ruling_id = false_openers_ruled()
        table_id = table.id
    floor = as_role("floor")
    during = ruling_page(floor, ruling_id)
    assert "The pot plays on in this deal." in during
    assert "Seat 2's hand is dead; the pot plays on" in during and "played on" not in during

    with strict.app_context():
        play_out(db.session.get(Table, table_id), user("dee"), opener_shows="")
    won = ruling_page(floor, ruling_id)
    assert "After this ruling the pot played on, and deal 1 has ended: seat 1 (Ann) won 60." in won
    assert "Seat 2's hand is dead; the pot played on" in won and "plays on" not in won
    assert floor.get(f"/rulings/{ruling_id}.pdf").status_code == 200

    with strict.app_context():
        tables.append(db.session.get(Table, table_id), {"type": "deal"}, user("dee"))
    later = ruling_page(floor, ruling_id)
    assert "After this ruling the pot played on; deal 1 has ended since (the table's hand history has how)." in later
    assert "won 60" not in later  # deal 2's state says nothing of deal 1's award


def test_the_pot_line_of_a_deal_that_ended_carried_and_of_a_hand_at_no_table():
    """The pot line read from a typed state whose deal 1 ended with the pot carried (F3: nobody
    reopened after false openers), and for a ruling on a hand not logged at a table (no state)."""
    t = TableState.from_setup({**SETUP, "profile": "cardroom"})
    for event in [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
                  {"type": "call", "seat": 4}, {"type": "fold", "seat": 1},
                  {"type": "false_openers", "seat": 3}, {"type": "pass", "seat": 4}]:
        t = t.apply(event)
    assert (t.deal_no, str(t.phase), str(t.last_end)) == (1, "between_deals", "carried")
    row = SimpleNamespace(record={"pot_plays": True}, deal=1)
    assert stored.pot_words(row, {}, t) == (
        "After this ruling the pot played on; deal 1 has ended and the pot stays for the next deal.")
    assert stored.pot_words(row, {}, None) == "The pot plays on in this deal."
    assert stored.headline_words("the pot plays on", row, None) == "the pot plays on"
    assert stored.headline_words("the pot plays on", row, t) == "the pot played on"
