"""The dealer's panel renders the engine's typed state (issue 23): for a few tables in play, what a
dealer reads on the tablet is what the table's state says in the contract's plain data (``GET
/api/tables/<id>``): each seat's player and stack, the pot and the side pots, who acts, the
buttons the rules allow, the escrow of split openers (S1), the cards faced in the draw (D12),
and after a pot is won the winner, even once that player has left or changed seats.
"""

from __future__ import annotations

import random
import re

import jinja2
import pytest

from floor import tables
from floor.extensions import db
from floor.models import FloorCall, Table
from rules import RulesError
from rules.jackpot.betting import BetMove, RaiseMove
from rules.jackpot.deal import WidowMove
from rules.jackpot.draw import DrawMove
from rules.jackpot.opening import OpenMove
from rules.jackpot.moves import MenuMove
from rules.jackpot.requests import ExposeMove, WrongCountMove
from rules.jackpot.seating import AddChipsMove, MoveSeatMove, SitMove
from rules.jackpot.showdown import ShowMove
from tests.conftest import SETUP, statements_run, user
from tests.test_dealer import buttons, log

# seat 1 opens after three passes; seat 4 folds; the draw begins at seat 2
OPENED_BY_SEAT_1 = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "pass", "seat": 3},
                    {"type": "pass", "seat": 4}, {"type": "open", "seat": 1}, {"type": "call", "seat": 2},
                    {"type": "call", "seat": 3}, {"type": "fold", "seat": 4}]


def new_table(app, setup=SETUP) -> int:
    with app.app_context():
        return tables.create_table("Table 1", setup).id


def panel(client, table_id) -> str:
    return client.get(f"/dealer/tables/{table_id}/panel").json["html"]


def plain_state(client, table_id) -> dict:
    return client.get(f"/api/tables/{table_id}").json["state"]


def seats_shown(html: str) -> dict[int, dict]:
    """Each seat as the panel shows it: player, stack, whether it is the seat to act."""
    out = {}
    for m in re.finditer(r'<article class="seat ([^"]*)" data-seat="(\d+)".*?</article>', html, re.S):
        body = m.group(0)
        out[int(m.group(2))] = {
            "player": re.search(r'class="player" title="([^"]*)"', body).group(1),
            "stack": int(re.search(r'<span class="label">stack</span> (\d+)', body).group(1)),
            "to_act": "to-act" in m.group(1).split(),
        }
    return out


def turn_buttons(html: str) -> set[str]:
    """The event types of the turn's own buttons (the row under the turn line)."""
    row = re.search(r'<section class="actions".*?<div class="buttons">(.*?)</div>', html, re.S).group(1)
    return set(buttons(row))


def assert_same_table(html: str, state: dict) -> None:
    """The panel shows the seats, stacks, pot and turn of the state."""
    shown = seats_shown(html)
    assert {s: (x["player"], x["stack"]) for s, x in shown.items()} == {
        int(s): (x["player"], x["stack"]) for s, x in state["seats"].items()}
    assert [s for s, x in shown.items() if x["to_act"]] == ([state["to_act"]] if state["to_act"] else [])
    assert f'id="pot">{state["pot"]}<' in html
    assert f'data-phase="{state["phase"]}"' in html and f'data-version="{state["version"]}"' in html


def test_before_the_first_deal_the_stacks_and_the_deal_button(app, dealer):
    table_id = new_table(app)
    html, state = panel(dealer, table_id), plain_state(dealer, table_id)
    assert_same_table(html, state)
    assert {x["stack"] for x in seats_shown(html).values()} == {500}
    assert turn_buttons(html) == {"deal"}
    assert "Chips brought in 0 · taken away 0" in html


def test_in_the_betting_the_turn_and_only_the_legal_buttons(app, dealer):
    """O2: after the opening the next seat may call, raise or fold; the pot holds antes and bet."""
    table_id = new_table(app)
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3})
    html, state = panel(dealer, table_id), plain_state(dealer, table_id)
    assert_same_table(html, state)
    assert state["to_act"] == 4 and state["pot"] == 30
    assert turn_buttons(html) == {m["type"] for m in state["legal"]} == {"call", "raise", "fold"}
    assert "Call 10" in html and "Raise 20" in html
    assert re.search(r'data-seat="3".*?<span class="pill ok">opener</span>', html, re.S)
    assert "opened by seat 3" in html
    assert "Undo entry 3: seat 3 opens" in html  # the engine's undo, numbered from 1 as every page numbers the log


def test_the_escrow_of_split_openers_and_a_card_faced_in_the_draw(app, dealer):
    """S1: the opener's discards kept apart show as the escrow and cannot be picked as shown cards;
    D12: a card faced while the draw is dealt is dead, and cannot be picked either."""
    table_id = new_table(app)
    log(dealer, table_id, *OPENED_BY_SEAT_1, {"type": "draw", "seat": 2, "count": 2},
        {"type": "expose", "seat": 2, "card": "Kd"}, {"type": "draw", "seat": 3, "count": 1},
        {"type": "draw", "seat": 1, "count": 1, "split": True, "escrow": ["Jh"]})
    html, state = panel(dealer, table_id), plain_state(dealer, table_id)
    assert_same_table(html, state)
    assert state["escrow"] == {"1": ["Jh"]} and state["exposed"] == [{"seat": 2, "card": "Kd"}]
    assert re.search(r'class="escrow"[^>]*>Escrow:\s*seat 1 <span class="card-face suit-h">J♥</span>', html)
    assert turn_buttons(html) == {"check", "bet", "fold"}
    # play on to the showdown: the picker refuses the escrowed and the dead card
    log(dealer, table_id, {"type": "check", "seat": 1}, {"type": "check", "seat": 2}, {"type": "check", "seat": 3})
    html = panel(dealer, table_id)
    assert 'data-picker="show"' in html
    assert re.search(r'data-card="Jh"\s+disabled title="in escrow for seat 1"', html)
    assert re.search(r'data-card="Kd"\s+disabled title="dead: faced to seat 2 in the draw"', html)
    assert not re.search(r'data-card="Qd"\s+disabled', html)


def test_side_pots_of_an_all_in_seat(app, dealer):
    """A seat all in for less than the bet plays for the main pot only; the others for the side pot."""
    setup = {**SETUP, "seats": [*SETUP["seats"][:3], {"seat": 4, "player": "Dev", "stack": 12}]}
    table_id = new_table(app, setup)
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
        {"type": "call", "seat": 4}, {"type": "call", "seat": 1})
    html, state = panel(dealer, table_id), plain_state(dealer, table_id)
    assert_same_table(html, state)
    assert len(state["pots"]) == 2 and state["seats"]["4"]["all_in"]
    shown = re.findall(r'<li><strong>(Main pot|Side pot 1)</strong> (\d+)\s*<span class="muted">seats ([\d, ]+)</span>',
                       html)
    assert shown == [("Main pot", str(state["pots"][0]["amount"]), "1, 2, 3, 4"),
                     ("Side pot 1", str(state["pots"][1]["amount"]), "1, 2, 3")]
    assert re.search(r'data-seat="4".*?<span class="pill warn">all in</span>', html, re.S)


def test_the_winner_is_named_after_leaving_and_a_newcomer_takes_the_seat(app, dealer):
    """The award names the player who won it, as the deal ended: once that player has left and a
    newcomer sat down in the seat, the tablet neither fails (it answered 500 before) nor names the
    newcomer as the winner."""
    table_id = new_table(app)
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
        {"type": "fold", "seat": 4}, {"type": "fold", "seat": 1}, {"type": "fold", "seat": 2},
        {"type": "show", "seat": 3, "cards": ["Qs", "Qd", "7c", "4h", "2s"]})  # F1: openers shown, pot taken
    html = panel(dealer, table_id)
    award = re.search(r'id="award"[^>]*>(.*?)</div>', html, re.S).group(1)
    assert re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", award)).strip() == "Seat 3 · Cleo wins 30 with a pair of queens, seven-four-deuce"
    for newcomer in ({"type": "leave", "seat": 3}, {"type": "sit", "seat": 3, "player": "Zed", "chips": 200}):
        log(dealer, table_id, newcomer)
        page = dealer.get(f"/dealer/tables/{table_id}")
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        award = re.search(r'id="award"[^>]*>(.*?)</div>', html, re.S).group(1)
        assert re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", award)).strip() == "Seat 3 · Cleo wins 30 with a pair of queens, seven-four-deuce"
    assert seats_shown(html)[3] == {"player": "Zed", "stack": 200, "to_act": False}
    assert "Chips brought in 200 · taken away 515" in html


def test_the_idle_poll_reads_the_version_and_the_open_call_in_one_statement(app, dealer, as_role):
    """An idle tablet's poll: the version moves with a tap, the call appears and clears; each poll
    is one read of the database beyond the login's."""
    table_id = new_table(app)
    url = f"/dealer/tables/{table_id}/live"
    assert dealer.get(url).json == {"version": 0, "call": None}
    log(dealer, table_id, {"type": "deal"})
    assert dealer.post(f"/dealer/tables/{table_id}/call-floor", data={"issue": "false_openers", "seat": 2}).status_code == 302
    with app.app_context():
        call_id = db.session.scalars(db.select(FloorCall.id)).one()
    with statements_run(app) as statements:
        assert dealer.get(url).json == {"version": 1, "call": call_id}
    reads = [s for s in statements if "users" not in s.split("FROM", 1)[-1].split("WHERE")[0]]
    assert len(reads) == 1, statements
    # the floor person dismisses the call: the poll says so, and the version has not moved
    assert as_role("floor").post(f"/floor/calls/{call_id}/dismiss").status_code == 302
    assert dealer.get(url).json == {"version": 1, "call": None}
    assert dealer.get("/dealer/tables/999999/live").status_code == 404


# a game of random legal moves, in profiles whose panels differ (spread limit, the Bosnian exchange,
# declared hands, the wild widow, the age, three draws, blinds)
PROFILES = [{"base": "cardroom", "betting": "spread", "spread": [5, 20]},
            {"base": "cardroom", "bosnian": True, "max_draw": 4},
            {"base": "cardroom", "wild": "deuces", "declared_hands": True}, {"wild": "widow"},
            {"base": "foster", "age": True}, {"draw_rounds": 3, "max_draw": 3, "ace_draws_four": True},
            {"opening_minimum": "none", "blinds": [5, 10], "straddle": True, "ante_deals": None}]


def random_tap(app, table_id: int, rng: random.Random) -> dict | None:
    """Log one random legal event at the table as the dealer (:func:`random_event`); a random card
    the rules refuse (already seen) logs nothing. None when no move is left."""
    with app.app_context():
        table = db.session.get(Table, table_id)
        event = random_event(rng, tables.table_state(table))
        if event is None:
            return None
        dealer = user("dee")
        try:
            tables.append(table, event, dealer)
        except RulesError:
            db.session.rollback()
        return event


def random_event(rng, state) -> dict | None:
    """One of the moves the typed state allows now, its event built by the move with the choices the
    tablet would add (rules.jackpot.moves)."""
    moves = [*state.legal(), *state.requests()]
    if not moves:
        return None
    move = rng.choice(moves)
    deck = [f"{r}{s}" for r in "23456789TJQKA" for s in "shdc"]
    match move:
        case WidowMove():
            event = move.event(rng.choice(deck))
        case SitMove():
            event = move.event(rng.choice(move.seats), "Zed", 50)
        case AddChipsMove():
            event = move.event(rng.choice(move.seats), 20)
        case MoveSeatMove():
            event = move.event(rng.choice(move.seats), rng.choice(move.to))
        case ExposeMove():
            event = move.event(rng.choice(move.seats), rng.choice(deck))
        case WrongCountMove():
            event = move.event(rng.choice(move.seats), rng.choice(move.counts))
        case MenuMove():  # a menu whose only choice is the seat
            event = move.event(rng.choice(move.seats))
        case DrawMove():
            event = move.event(rng.choice(move.cards or range(move.max + 1)))
        case ShowMove():
            event = move.event(rng.sample(deck, 5), rng.choice(move.declare) if move.declare else None)
        case OpenMove() | BetMove() | RaiseMove() if move.amounts:
            event = move.event(amount=rng.choice(move.amounts))
        case _:
            event = move.event()
    return event.to_dict()


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: "-".join(f"{k}" for k in p if k != "base"))
def test_the_panel_reads_nothing_the_typed_state_lacks(app, dealer, profile):
    """Along a game of random legal moves the panel renders with Jinja's strict undefined: a name
    the typed state (or the engine's legal moves) does not have fails here instead of showing the
    dealer a blank; and it keeps showing the seats, stacks, pot and turn of the state."""
    app.jinja_env.undefined = jinja2.StrictUndefined
    table_id = new_table(app, {**SETUP, "profile": profile})
    rng = random.Random(23)
    for _ in range(40):
        event = random_tap(app, table_id, rng)
        if event is None:
            break
        response = dealer.get(f"/dealer/tables/{table_id}/panel")
        assert response.status_code == 200, (event, response.get_data(as_text=True)[:300])
        assert_same_table(response.json["html"], plain_state(dealer, table_id))


def test_while_the_pot_is_offered_for_reopening_the_false_opener_is_not_shown_as_the_opener(app, dealer):
    """F3: the floor logged seat 3's false openers with players left to act; until the offer ends
    the engine still holds seat 3 as the deal's opener. The tablet said "opened by seat 3" and gave
    seat 3 the green "opener" tag beside "Seat 3 had false openers": now seat 3 is marked as the
    false opener, and the turn is the reopener's."""
    table_id = new_table(app)
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3})
    with app.app_context():
        tables.append(db.session.get(Table, table_id), {"type": "false_openers", "seat": 3}, user("fred"))
    html, state = panel(dealer, table_id), plain_state(dealer, table_id)
    assert state["reopen"]["false_opener"] == 3 and state["to_act"] in state["reopen"]["eligible"]
    assert_same_table(html, state)
    seat_3 = re.search(r'<article class="seat[^"]*" data-seat="3".*?</article>', html, re.S).group(0)
    assert '<span class="pill warn">false openers</span>' in seat_3 and ">opener<" not in seat_3
    assert "opened by seat 3" not in html and "seat 3 opened without openers" in html
    assert "Seat 3 had false openers" in html
