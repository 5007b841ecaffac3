"""The variants of issue 14 as the director sets them up (the house-profile form) and as the printed
rule summary reads them back, rule by rule (D9, D10 with H8, D11, D13, D2, O1 with O2, O3)."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from floor.extensions import db
from floor.models import HouseProfile
from rules.reports import summary
from rules.profiles import get_profile

# the form as a browser posts it: the starter TOML and the fields as the page fills them
FORM = {"name": "friday", "toml": 'base = "cardroom"\ntitle = "Friday"\n# our own\nante_deals = 2\n',
        "variants_shown": "1", "opening_minimum": "J", "open_with_raise": "y", "draw_rounds": "1", "wild": "bug",
        "southern_placement": "odds"}


def text(response) -> str:
    return htmllib.unescape(response.get_data(as_text=True))


def stored(app, name="friday") -> str:
    with app.app_context():
        return db.session.scalars(db.select(HouseProfile).where(HouseProfile.name == name)).one().toml


def test_the_form_offers_every_variant_with_its_rule_text(as_role):
    page = text(as_role("director").get("/director/profiles/new"))
    for label, rule in [("Trips to win", "(D9)"), ("Jacks back", "(D10)"), ("The age", "(D11)"),
                        ("Draws a hand", "(D13)"), ("Four cards only to an ace", "(D2)"), ("Small blind", "(O2)"),
                        ("Straddle", "(O2)"), ("Opening minimum", "(O1)"), ("Joker and wild cards", "(H2, H3, H4)"),
                        ("Southern hands placed", "(H7)"), ("Newcomers wait", "(O3)")]:
        assert label in page and rule in page, label
    assert "no hand below three of a kind wins" in page.lower()
    assert '<option value="none">none</option>' in page  # California: no openers


@pytest.mark.parametrize("fields, toml_lines, rule, reading", [
    ({"trips_to_win": "y"}, ["trips_to_win = true"], "D9", "In force here: no hand below three of a kind wins"),
    ({"jacks_back": "y", "jacks_back_blind": "y"}, ["jacks_back = true", "jacks_back_blind = true"], "D10",
     "the same hands are played for ace-to-five low"),
    ({"age": "y"}, ["age = true"], "D11", "the player after the button (the age) puts up a blind"),
    ({"draw_rounds": "3"}, ["draw_rounds = 3"], "D13", "Here a hand has 3 draws"),
    ({"opening_minimum": "none", "blinds_small": "5", "blinds_big": "10", "straddle": "0"},
     ['opening_minimum = "none"', "blinds = [5, 10]", "straddle = true"], "O2", "may straddle: a blind raise to 20"),
    ({"opening_minimum": "none", "blinds_small": "5", "blinds_big": "10", "straddle": "2"},
     ["blinds = [5, 10]", "straddle = 2"], "O7", "Here up to 2 re-straddles may follow"),
    ({"wild": "widow"}, ['wild = "widow"'], "H4", "wild widow"),
    ({"wild": "rank", "wild_rank": "5"}, ['wild = "rank"', 'wild_rank = "5"'], "H4", "one rank wild"),
    ({"newcomers_wait": "y"}, ["newcomers_wait = true"], "O3", "waits until that pot is won"),
])
def test_a_variant_set_in_the_form_is_written_into_the_toml_and_read_back_in_the_summary(
        app, as_role, fields, toml_lines, rule, reading):
    director = as_role("director")
    response = director.post("/director/profiles/new", data={**FORM, **fields})
    assert response.status_code == 302, re.findall(r'field-error">([^<]*)', text(response))
    toml = stored(app)
    assert "# our own\nante_deals = 2" in toml  # the director's own lines stay as written
    for line in toml_lines:
        assert line in toml
    assert "open_with_raise" not in toml  # as the base has it: no line
    page = text(director.get("/rules/friday"))
    assert reading in page and rule in page


def test_a_combination_the_rules_refuse_is_shown_with_their_message(app, as_role):
    director = as_role("director")
    response = director.post("/director/profiles/new", data={**FORM, "blinds_small": "5", "blinds_big": "10"})
    assert response.status_code == 400
    assert "blinds: only with opening_minimum 'none'" in text(response)
    response = director.post("/director/profiles/new", data={**FORM, "blinds_small": "5"})
    assert response.status_code == 400 and "Give both blinds" in text(response)


def test_the_edit_form_shows_the_variants_the_toml_sets_and_unticking_one_removes_its_line(app, as_role):
    director = as_role("director")
    assert director.post("/director/profiles/new", data={**FORM, "trips_to_win": "y"}).status_code == 302
    with app.app_context():
        house_id = db.session.scalars(db.select(HouseProfile)).one().id
    page = director.get(f"/director/profiles/{house_id}/edit").get_data(as_text=True)
    assert re.search(r'<input checked id="trips_to_win"', page)
    response = director.post(f"/director/profiles/{house_id}/edit", data={**FORM, "toml": stored(app)})
    assert response.status_code == 302
    assert "trips_to_win" not in stored(app)


def test_a_client_that_posts_only_the_toml_keeps_it_as_written(app, as_role):
    toml = 'base = "cardroom"\ntrips_to_win = true\n'
    assert as_role("director").post("/director/profiles/new", data={"name": "plain", "toml": toml}).status_code == 302
    assert stored(app, "plain") == toml


# --------------------------------------------------------------------------- the summary, rule by rule

@pytest.mark.parametrize("options, rule_ids", [
    ({"trips_to_win": True}, ["D9"]),
    ({"jacks_back": True}, ["D10", "H8"]),
    ({"age": True}, ["D11"]),
    ({"draw_rounds": 2}, ["D13"]),
])
def test_a_variant_puts_its_rules_in_force_in_the_summary(options, rule_ids):
    plain, played = get_profile("cardroom"), get_profile({"base": "cardroom", **options})
    for rule_id in rule_ids:
        assert rule_id in summary.left_out(plain)
        assert rule_id not in summary.left_out(played)
        assert summary.readings(played)[rule_id]
        in_force = [line.rule.id for group in summary.rule_groups(played) for line in group.lines]
        assert rule_id in in_force


def test_O1_california_reads_no_openers_in_the_glance_and_the_rules():
    p = get_profile({"base": "cardroom", "opening_minimum": "none", "blinds": [5, 10]})
    assert summary.glance(p).open.startswith("No openers: anyone may open with any cards (O1); blinds of 5 and 10")
    assert summary.readings(p)["O1"] == ["Openers here: none. Anyone may open with any cards and there is nothing "
                                         "to prove (California, or guts, draw)."]


def test_re_straddles_survive_an_edit_of_the_form(app, as_role):
    """O7: a profile of two re-straddles shows them in the form and keeps them when saved again (the
    field was once a tick box, which wrote the number back as true)."""
    director = as_role("director")
    fields = {**FORM, "opening_minimum": "none", "blinds_small": "5", "blinds_big": "10", "straddle": "2"}
    assert director.post("/director/profiles/new", data=fields).status_code == 302
    with app.app_context():
        profile_id = db.session.scalars(db.select(HouseProfile.id).where(HouseProfile.name == "friday")).one()
    page = text(director.get(f"/director/profiles/{profile_id}/edit"))
    assert re.search(r'<option (selected )?value="2"( selected)?>A straddle and up to 2 re-straddles', page)
    assert re.search(r'<option[^>]*selected[^>]*value="2"|<option value="2" selected', page)
    toml = stored(app)
    resaved = director.post(f"/director/profiles/{profile_id}/edit", data={**fields, "toml": toml})
    assert resaved.status_code == 302
    assert "straddle = 2" in stored(app) and get_profile({"opening_minimum": "none", "blinds": [5, 10],
                                                         "straddle": 2}).straddles == 3
