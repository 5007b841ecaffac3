"""The printed ruling says only what is true when it is printed (issue 25): before and after the deal
it ruled on has ended, and before and after a floor person confirms a ruling of the rules.

Rules: F1, F8 (a dead opener at the showdown: the best other hand wins), F2/F5 (false openers found
before the draw: the pot plays on without the opener).
"""

from __future__ import annotations

from floor import tables
from floor.extensions import db
from floor.models import IssuedRuling, Table, User
from tests.conftest import SETUP, user
from tests.test_ruling_pdf import pdf_text

OPENED = [{"type": "deal"}, {"type": "open", "seat": 2, "amount": 10},
          {"type": "call", "seat": 3}, {"type": "call", "seat": 4}, {"type": "call", "seat": 1}]
HANDS = {1: "Kh Kd Kc 2s 3d", 3: "Jh Jd Jc 6s 7d", 4: "Th Td Tc 8s 9d"}


def false_openers_ruled(name: str = "Table 9") -> tuple[Table, int]:
    """F2/F5: seat 2 opens, three call, and the floor (fred) confirms the dealer's (dee) report of
    false openers found before the draw: the table and the ruling's id (in an app context)."""
    table = tables.create_table(name, SETUP)
    dee, fred = user("dee"), user("fred")
    for event in OPENED:
        tables.append(table, event, dee)
    tables.append(table, {"type": "false_openers", "seat": 2}, fred, reported_by=dee)
    return table, db.session.scalars(db.select(IssuedRuling.id)).one()


def play_out(table: Table, dealer: User, opener_shows: str | None) -> None:
    """Everyone left draws one and checks; at the showdown each shows the hand of HANDS."""
    while (state := tables.state_of(table))["phase"] != "between_deals":
        seat = state["to_act"]
        if state["phase"] == "draw":
            tables.append(table, {"type": "draw", "seat": seat, "count": 1}, dealer)
        elif state["phase"] == "postdraw":
            tables.append(table, {"type": "check", "seat": seat}, dealer)
        else:
            cards = opener_shows if seat == 2 else HANDS[seat]
            tables.append(table, {"type": "show", "seat": seat, "cards": cards}, dealer)


def test_a_ruling_of_the_rules_prints_its_winner_and_who_confirmed_it(app, as_role):
    """F1/F8: the opener shows no openers at the showdown; the rules rule at once (seat 1's kings take
    the pot). The print says the ruling settled the pot, fills every Chips cell, and its note says it
    waits for the floor only until fred confirms it; then it names fred."""
    with app.app_context():
        table = tables.create_table("Table 9", SETUP)
        dee = user("dee")
        for event in OPENED:
            tables.append(table, event, dee)
        play_out(table, dee, opener_shows="2h 4d 6c 7s 9s")
        ruling_id = db.session.scalars(db.select(IssuedRuling.id)).one()
    floor = as_role("floor")
    _, before, _ = pdf_text(floor.get(f"/rulings/{ruling_id}.pdf"))
    assert "BY THE RULES, NOT YET CONFIRMED" in before
    assert "This ruling settled the pot: seat 1 (Ann) takes 60." in before
    assert "The pot plays on" not in before
    assert "1 Ann +60 takes the pot" in before and "2 Bob 0 hand dead" in before  # no blank Chips cell
    assert "it waits for a floor person to confirm it" in before
    assert floor.post(f"/rulings/{ruling_id}/confirm").status_code == 302
    _, after, _ = pdf_text(floor.get(f"/rulings/{ruling_id}.pdf"))
    assert "NOT YET CONFIRMED" not in after and "waits for a floor person" not in after
    assert "confirmed by fred" in after
    assert "Note: Applied by the rules when the event was logged; confirmed by fred on " in after
    page = floor.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert "confirmed by fred on " in page and "waits for a floor person" not in page


def test_a_pot_that_played_on_is_printed_as_played_on_once_the_deal_has_ended(app, as_role):
    """F2/F5: false openers found before the draw, three callers: the opener's hand is dead and the
    pot plays on. While the deal is in play the print says so; once it has ended (seat 1's kings
    won the 60) the same ruling's print says the pot played on and who won it, never "plays on"."""
    with app.app_context():
        table, ruling_id = false_openers_ruled()
    floor = as_role("floor")
    _, during, _ = pdf_text(floor.get(f"/rulings/{ruling_id}.pdf"))
    assert "The pot plays on in this deal." in during and "Seat 2's hand is dead; the pot plays on." in during
    assert "2 Bob 0 hand dead" in during
    with app.app_context():
        play_out(db.session.get(Table, 1), user("dee"), opener_shows="")
    _, ended, _ = pdf_text(floor.get(f"/rulings/{ruling_id}.pdf"))
    assert "The pot plays on in this deal." not in ended and "plays on" not in ended
    assert "Seat 2's hand is dead; the pot played on." in ended
    assert "After this ruling the pot played on, and deal 1 has ended: seat 1 (Ann) won 60." in ended
