"""The night's high-hand promotion (issue 32): the floor awards a high hand shown at a table whose
drop funds the high-hand pool, and the referee judges the app's answer.

The referee reads the qualifying hand apart from ``rules/`` (:func:`night.referee.value`): a hand
shown at a showdown of four of a kind or better (the profile's default qualifier) must be paid, the
whole pool as it stands; the first hand below it shown at such a table is also put to the app once,
and must be refused. Only deals without an irregularity are put (a dead hand, a false opener, a
ruling: the floor pays a high hand only on a clean showdown). At the end of the night the room's
pool must be what the high-hand tables set aside less what the night was paid
(:func:`check_pool`). A promotion is paid in cash from the pool, never chips at a table
(docs/house.md, "Promotions"): the chips of the room are counted as before.
"""

from __future__ import annotations

from typing import Any

from night import referee

#: The least category a high hand is (the profile's default qualifier, four of a kind).
FOUR_OF_A_KIND = referee.CATEGORIES.index("four_of_a_kind")
#: What marks a deal as not clean: an irregularity the night injected.
IRREGULAR = ("false", "dead", "split", "exposed", "found", "reopened", "undetectable")


def funds_high_hand(game: dict[str, Any]) -> bool:
    return (game.get("drop") or {}).get("pool") == "high_hand"


def after_showdown(dealer: Any, record: dict, shown: dict[int, tuple], where: str) -> None:
    """Put the best high hand shown in this deal to the app (``POST /api/promotions/high_hand/award``,
    the floor's token), or a hand that does not qualify once a night, and judge the answer."""
    tally = dealer.tally
    if dealer.floor_api is None or not funds_high_hand(dealer.game) or record["rulings"] \
            or any(dealer.irregular.get(k) for k in IRREGULAR):
        return
    shown_cards = {int(s): cards for s, cards in record["final"].items() if int(s) in shown}
    if not shown_cards:
        return
    best = max(shown_cards, key=lambda s: shown[s])
    qualifies = shown[best][0] >= FOUR_OF_A_KIND
    if not qualifies and tally.promotions["refused"]:
        return  # one hand below the qualifier a night is enough to see the refusal
    player = dealer.state["seats"][str(best)]["player"]
    status, body = dealer.floor_api.request("POST", "/api/promotions/high_hand/award",
                                            {"player": player, "table": dealer.id, "deal": record["deal"]})
    if qualifies and status == 201 and int(body.get("amount", 0)) > 0:
        tally.promotions["paid"] += 1
        tally.promotions["amount"] += int(body["amount"])
        tally.notes.append(f"{where}: the high hand {' '.join(shown_cards[best])} of seat {best} paid "
                           f"{body['amount']} from the pool")
    elif not qualifies and status == 422:
        tally.promotions["refused"] += 1
    elif qualifies and status == 422 and "holds nothing yet" in str(body.get("message", "")):
        tally.notes.append(f"{where}: a high hand shown with the pool empty (paid just before): nothing to pay")
    else:
        tally.wrong.append(f"{where}: the high hand award for seat {best}'s {' '.join(shown_cards[best])} "
                           f"({'qualifies' if qualifies else 'does not qualify'}, says the referee) answered "
                           f"{status} {body.get('message', body)}")


def check_pool(floor_api: Any, dealers: list[Any]) -> tuple[str, list[str]]:
    """The night's line on the high-hand pool, and what does not add up: the app's pool must be the
    drops the high-hand tables set aside less what the night was paid."""
    dropped = sum(int((d.state.get("house") or {}).get("drop", 0)) for d in dealers if funds_high_hand(d.game))
    paid = sum(d.tally.promotions["amount"] for d in dealers)
    awards = sum(d.tally.promotions["paid"] for d in dealers)
    refused = sum(d.tally.promotions["refused"] for d in dealers)
    status, pools = floor_api.request("GET", "/api/promotions")
    found = next((p for p in pools if p.get("id") == "high_hand"), None) if status == 200 else None
    problems = []
    if found is None:
        problems.append(f"the high-hand pool was not served ({status})")
    elif (found["dropped"], found["paid"], found["amount"]) != (dropped, paid, dropped - paid):
        problems.append(f"the high-hand pool: the app says set aside {found['dropped']}, paid {found['paid']}, "
                        f"owed {found['amount']}; the tables set aside {dropped} and the night was paid {paid}")
    line = (f"promotions: high hand paid {awards} time(s), {paid} chips; {refused} hand(s) below the qualifier "
            f"refused; the pool owes {dropped - paid}")
    return line, problems
