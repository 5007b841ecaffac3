"""Time collection (issue 32): the house's ``time_charge`` {amount, minutes} and the event ``time``
{seat}. The dealer logs each seat's time; a seat that has not paid for the period in play is dealt
out until it does. The period comes from the log (``minute`` on ``deal`` and ``time``, stamped by
the app), never from a clock in the rules."""

from __future__ import annotations

import pytest

from floor.extensions import db
from floor.models import LogEntry
from rules import IllegalAction, ProfileError
from rules.jackpot import start
from rules.profiles import get_profile
from tests.conftest import SETUP, bearer
from tests.test_dealer_seed_games import log, make_table, panel

# time_charge = {amount = 6, minutes = 30}
TIME = {"amount": 6, "minutes": 30}


def table(stacks=(100, 100, 100, 100)):
    return start({"profile": {"time_charge": TIME}, "ante": 5, "small_bet": 10, "button": 4,
                  "seats": [{"seat": i + 1, "player": n, "stack": s}
                            for i, (n, s) in enumerate(zip(("Ann", "Bob", "Cy", "Dee"), stacks))]})


def law(t):
    d = t.to_dict()
    on_table = sum(x["stack"] for x in d["seats"].values()) + d["pot"]
    assert on_table + d["house"]["rake"] + d["house"]["time"] + d["house"]["drop"] == 400 + d["ledger"]["chips_in"] \
        - d["ledger"]["chips_out"]
    return d


def test_time_charge_is_checked_by_the_profile_schema_with_bounds() -> None:
    """time_charge = {amount, minutes}: bounds named, both fields needed."""
    assert get_profile({"time_charge": TIME}).time_charge.minutes == 30
    for bad, words in (({"amount": 6, "minutes": 1}, "time_charge.minutes: 1 is less than any card room plays"),
                       ({"amount": 0, "minutes": 30}, "time_charge.amount: 0 is less"),
                       ({"amount": 6}, "time_charge: minutes is missing"),
                       ({"amount": 6, "minutes": 30, "per": "seat"}, "time_charge: unknown field 'per'")):
        with pytest.raises(ProfileError, match=words):
            get_profile({"time_charge": bad})


def test_time_charge_the_seat_that_does_not_pay_is_dealt_out() -> None:
    """time_charge: seats 1 to 3 pay their time, seat 4 does not: the deal leaves seat 4 out (no
    cards, no ante) and says why; once seat 4 pays, the next deal deals it in."""
    t = table()
    for s in (1, 2, 3):
        t = t.apply({"type": "time", "seat": s})
        law(t)
    t = t.apply({"type": "deal"})
    d = law(t)
    assert sorted(d["dealt"]) == [1, 2, 3]
    assert d["seats"][4]["status"] == "out" and d["seats"][4]["stack"] == 100  # no ante, no time
    assert d["seats"][4]["owes_time"] and not d["seats"][1]["owes_time"]
    assert "dealt out until they pay time for this period (time_charge): seat 4" in d["message"]
    assert d["house"]["time"] == 18 and d["pot"] == 15
    for _ in range(3):
        t = t.apply({"type": "pass", "seat": t.to_act})  # thrown in: the pot carries
    t = t.apply({"type": "time", "seat": 4})
    t = t.apply({"type": "deal"})
    d = law(t)
    assert 4 in d["dealt"] and d["house"]["time"] == 24 and d["seats"][4]["stack"] == 100 - 6 - 5


def test_time_charge_a_new_period_deals_out_every_seat_until_it_pays_again() -> None:
    """time_charge minutes = 30: the deal at minute 31 begins period 2; seats that paid for period 1
    owe again, and a time logged at minute 31 pays for period 2."""
    t = table()
    for s in (1, 2, 3, 4):
        t = t.apply({"type": "time", "seat": s, "minute": 2})
    t = t.apply({"type": "deal", "minute": 3})
    for _ in range(4):
        t = t.apply({"type": "pass", "seat": t.to_act})
    for s in (1, 2):
        t = t.apply({"type": "time", "seat": s, "minute": 31})
    t = t.apply({"type": "deal", "minute": 32})
    d = law(t)
    assert sorted(d["dealt"]) == [1, 2]
    assert d["seats"][3]["status"] == "out" and d["seats"][4]["status"] == "out"
    assert d["seats"][3]["owes_time"] and d["clock"] == 32 and d["house"]["time"] == 36


def test_time_charge_refusals_name_why() -> None:
    """time: twice in a period, during a deal, without the chips, at a table that collects none."""
    t = table(stacks=(100, 100, 100, 4)).apply({"type": "time", "seat": 1})
    with pytest.raises(IllegalAction, match=r"seat 1 has paid its time for this period \(minutes 0 to 29"):
        t.apply({"type": "time", "seat": 1})
    with pytest.raises(IllegalAction, match=r"seat 4 has 4 chips and the time is 6 \(time_charge\)"):
        t.apply({"type": "time", "seat": 4})
    with pytest.raises(IllegalAction, match=r"cannot deal: .*in play: 1\); seats 2, 3, 4 owe time"):
        t.apply({"type": "deal"})
    t = t.apply({"type": "time", "seat": 2}).apply({"type": "deal"})
    with pytest.raises(IllegalAction, match="the dealer collects time between deals"):
        t.apply({"type": "time", "seat": 3})
    plain = start({"ante": 5, "small_bet": 10, "seats": [{"seat": 1, "player": "A", "stack": 50},
                                                         {"seat": 2, "player": "B", "stack": 50}]})
    with pytest.raises(IllegalAction, match="this table collects no time"):
        plain.apply({"type": "time", "seat": 1})
    assert not [m for m in plain.legal() if m.kind == "time"]


def test_time_charge_through_the_api_the_app_stamps_the_minute(app, client, tokens) -> None:
    """time_charge through HTTP: each time and deal is logged with the minute the app stamps, so the
    log alone gives the period; the state shows the house's time, the seat that has not paid is out."""
    created = client.post("/api/tables", json={"name": "Time", **SETUP,
                                               "profile": {"base": "cardroom", "time_charge": TIME}},
                          headers=bearer(tokens["director"]))
    assert created.status_code == 201, created.json
    tid, headers = created.json["id"], bearer(tokens["dealer"])
    refused = client.post(f"/api/tables/{tid}/events", json={"type": "deal", "expected_version": 0}, headers=headers)
    assert refused.status_code == 422 and "owe time" in refused.json["message"]
    for version, seat in enumerate((1, 2, 3)):
        r = client.post(f"/api/tables/{tid}/events", json={"type": "time", "seat": seat, "expected_version": version},
                        headers=headers)
        assert r.status_code in (200, 201), r.json
    r = client.post(f"/api/tables/{tid}/events", json={"type": "deal", "expected_version": 3}, headers=headers)
    assert r.status_code in (200, 201), r.json
    state = client.get(f"/api/tables/{tid}", headers=headers).json["state"]
    assert state["house"]["time"] == 18 and state["seats"]["4"]["status"] == "out" and state["seats"]["4"]["owes_time"]
    with app.app_context():
        payloads = [e.payload for e in db.session.scalars(db.select(LogEntry).where(LogEntry.table_id == tid)
                                                          .order_by(LogEntry.seq))]
    assert [p["type"] for p in payloads] == ["time", "time", "time", "deal"]
    assert all(p["minute"] == 0 for p in payloads)  # stamped: a new table, in its first minute


def test_the_tablet_offers_time_to_the_seats_that_owe_it(app, dealer) -> None:
    """time_charge on the tablet: between deals each seat that owes time has a "Pays time 6" button
    and an "owes time" mark; a seat that paid has neither."""
    table_id = make_table(app, {"base": "cardroom", "time_charge": TIME})
    log(dealer, table_id, {"type": "time", "seat": 1})
    html = panel(dealer, table_id)
    assert html.count(">Pays time 6</button>") == 3 and html.count("owes time</span>") == 3
