"""The printed rule summary of a profile with issue 22's options says each in plain words (O7, D14,
O3's capped-pot newcomer), read from the PDF itself."""

from __future__ import annotations

import os

from tests.conftest import login, make_app
from tests.test_prints import add_house, pdf_text

RESTRADDLES = ('base = "cardroom"\ntitle = "Big blind game"\nopening_minimum = "none"\nblinds = [5, 10]\n'
               'straddle = 2\nante_deals = "none"\n')
LOW = 'base = "cardroom"\ntitle = "Jacks back, no check-raise"\njacks_back = true\njacks_back_no_check_raise = true\n'


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
    if os.environ.get("FLOOR_KEEP_PDF"):  # to look at it: pdftoppm -png
        (tmp_path / "restraddles.pdf").write_bytes(first.data)
        print(tmp_path)
