"""The printed rule summary of a profile with issue 22's options says each in plain words (O7, D14,
O3's capped-pot newcomer), read from the PDF itself."""

from __future__ import annotations

import os

import pytest

from tests.conftest import login, make_app
from tests.test_prints import add_house, pdf_text

RESTRADDLES = ('base = "cardroom"\ntitle = "Big blind game"\nopening_minimum = "none"\nblinds = [5, 10]\n'
               'straddle = 2\nante_deals = "none"\nseven_card_draw = true\nmax_draw = 4\nbetting = "spread"\n'
               'spread = [5, 20]\n')
LOW = ('base = "cardroom"\ntitle = "Jacks back, no check-raise"\njacks_back = true\njacks_back_no_check_raise = true\n'
       'declared_hands = true\nbosnian = true\n')
ALL = 'base = "cardroom"\ntitle = "All for one"\nall_for_one = true\n'


@pytest.mark.slow
def test_the_summary_pdf_prints_the_new_options_in_plain_words(tmp_path):
    app = make_app(tmp_path)
    add_house(app, "restraddles", RESTRADDLES)
    add_house(app, "low-night", LOW)
    client = login(app.test_client(), "dee")
    first = client.get("/rules/restraddles.pdf")
    _, text = pdf_text(first)
    assert "up to 2 re-straddles may follow the straddle, each by the next player and each twice the one" in text
    assert "a straddle and 2 re-straddles allowed" in text
    _, low = pdf_text(client.get("/rules/low-night.pdf"))
    assert "a player who has checked may not raise later in the same betting round" in low
    assert "check-raising is not restricted" not in low and "no re-straddles are played here" in low
    assert "a player who has put nothing into it waits for the next pot" in low
    # D15, D17 in the first; H9, D16 in the second; D13's all for one in a third
    assert "seven cards each, one draw of up to four cards begun after the big blind" in text
    assert "any amount from 5 to 20 before the draw and from 10 to 40 after it" in text
    assert "the cards do not speak. Each player declares the hand at the show" in low
    assert "gets three face down, then one face up and one face down, and keeps one of the two" in low
    add_house(app, "all-for-one", ALL)
    _, all_text = pdf_text(client.get("/rules/all-for-one.pdf"))
    assert "All for one is played here: draw after draw" in all_text
    if os.environ.get("FLOOR_KEEP_PDF"):  # to look at it: pdftoppm -png
        (tmp_path / "restraddles.pdf").write_bytes(first.data)
        print(tmp_path)
