"""A table's hands as hand-history text in the PokerStars style, for export.

Why this format: there is no open standard hand history for draw poker that a card room's
software reads. The PokerStars text is the one most poker software and most players already
read (tracking tools, converters and replayers take it), it is plain lines a person can read
without a tool, and it has the words draw poker needs ("discards 2 cards", "stands pat",
"*** FIRST DRAW ***"). So a hand is written as PokerStars writes a five-card draw hand, with
these differences, each because a jackpot has something PokerStars has not:

- amounts are chips, without a currency sign; the header says "Jackpot floor Hand #<table>-<deal>"
  and names the game as "5 Card Draw Jackpots (<openers> to open)";
- a pass before the pot is open is written "checks" and the opening bet "bets" (PokerStars' words
  for declining to bet and for the first bet); the opener is named in the summary;
- the pot carried in from earlier deals is a line of its own before the antes, and a pot nobody
  won is "carried to the next deal" in the summary;
- a split opener's escrowed cards, a floor ruling and false openers are written on lines that
  start with the player's name or "Floor:", as PokerStars writes its own notices;
- withdrawn events (the dealer's undo) are left out: the text is the hand as it stands.

>>> from rules.reports.hand_history import hands
>>> setup = {"profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
...          "seats": [{"seat": 1, "player": "Ann", "stack": 100}, {"seat": 2, "player": "Bob", "stack": 100}]}
>>> log = [{"type": "deal"}, {"type": "open", "seat": 2, "amount": 10}, {"type": "call", "seat": 1},
...        {"type": "draw", "seat": 2, "count": 3}, {"type": "draw", "seat": 1, "count": 0},
...        {"type": "check", "seat": 2}, {"type": "check", "seat": 1},
...        {"type": "show", "seat": 2, "cards": ["Jh", "Jd", "4s", "5s", "9c"]},
...        {"type": "muck", "seat": 1}]
>>> print(hand_text(hands(setup, log)[0], table="Table 1", table_id=7))
Jackpot floor Hand #7-1: 5 Card Draw Jackpots (jacks or better to open) Limit (10/20, ante 5)
Table 'Table 1' Seat #1 is the button
Seat 1: Ann (100 in chips)
Seat 2: Bob (100 in chips)
Ann: posts the ante 5
Bob: posts the ante 5
*** DEALING HANDS ***
Bob: bets 10
Ann: calls 10
*** FIRST DRAW ***
Bob: discards 3 cards
Ann: stands pat
Bob: checks
Ann: checks
*** SHOW DOWN ***
Bob: shows [Jh Jd 4s 5s 9c] (a pair of jacks, nine-five-four)
Ann: mucks hand
Bob collected 30 from pot
*** SUMMARY ***
Total pot 30 | Rake 0
Opened by Bob (jacks or better)
Seat 1: Ann (button) mucked
Seat 2: Bob showed [Jh Jd 4s 5s 9c] and won (30) with a pair of jacks, nine-five-four
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from rules.reports.hand_history import Hand, Step
from rules.hands import evaluate
from rules.profiles import get_profile
from rules.words import hand_words, requirement_words

__all__ = ["hand_text", "hands_text"]

_DRAWS = ("FIRST", "SECOND", "THIRD")


def _describe(cards: tuple[str, ...], profile: str) -> str:
    """The hand in words, or "" when it cannot be valued (a foul hand, a wild widow's rank)."""
    try:
        return hand_words(evaluate(cards, get_profile(profile).hand_rules).describe())
    except (ValueError, KeyError, TypeError):
        return ""


def _action(step: Step, name: str, profile: str) -> str:
    e, kind = step.event, step.event.get("type")
    if kind == "pass" or kind == "check" or (kind in ("open", "reopen") and not step.chips):
        return f"{name}: checks"
    if kind in ("open", "reopen", "bet"):
        return f"{name}: bets {step.chips}"
    if kind == "call":
        return f"{name}: calls {step.chips}"
    if kind == "raise":
        return f"{name}: raises {step.raised_by} to {step.bet_to}"
    if kind == "fold":
        return f"{name}: folds"
    if kind == "draw":
        n = int(e.get("count") or 0)
        text = f"{name}: stands pat" if not n else f"{name}: discards {n} card{'s' if n != 1 else ''}"
        if e.get("split"):
            text += f" [splits openers, escrow {' '.join(map(str, e.get('escrow') or []))}]"
        return text
    if kind == "show":
        cards = tuple(str(c) for c in e.get("cards") or ())
        what = _describe(cards, profile) if len(cards) == 5 else f"{len(cards)} cards: a foul hand, dead"
        return f"{name}: shows [{' '.join(cards)}]" + (f" ({what})" if what else "")
    if kind == "muck":
        return f"{name}: mucks hand"
    if kind == "false_openers":
        return f"{name}: did not hold openers"
    if kind == "widow":
        return f"*** WIDOW *** [{e.get('card')}]"
    return f"Floor: {step.words}"


def hand_text(hand: Hand, table: str, table_id: int | str, when: str = "") -> str:
    """One hand as PokerStars-style text (``when``: the deal's time, already in the room's zone)."""
    names = hand.names
    lines = [f"Jackpot floor Hand #{table_id}-{hand.deal}: 5 Card Draw Jackpots "
             f"({requirement_words(hand.requirement)} to open) Limit ({hand.small_bet}/{hand.big_bet}, "
             f"ante {hand.ante})" + (f" - {when}" if when else ""),
             f"Table '{table}' Seat #{hand.button} is the button"]
    lines += [f"Seat {s}: {names.get(s, s)} ({hand.stacks_before[s]} in chips)"
              + ("" if s in hand.dealt else " is sitting out") for s in sorted(hand.stacks_before)]
    if hand.pot_in:
        lines.append(f"Pot carried in from earlier deals: {hand.pot_in}")
    lines += [f"{names.get(s, s)}: posts the ante {a}" for s, a in sorted(hand.antes.items())]
    lines.append("*** DEALING HANDS ***")
    played, folded_at = _play_lines(hand)
    lines += played
    for s, amount in sorted(hand.awards.items()):
        if amount:
            lines.append(f"{names.get(s, s)} collected {amount} from pot")
    lines.append("*** SUMMARY ***")
    total = sum(hand.awards.values()) if hand.awards else hand.pot_left
    lines.append(f"Total pot {total} | Rake 0")
    if hand.opener is not None:
        lines.append(f"Opened by {names.get(hand.opener, hand.opener)} ({requirement_words(hand.requirement)})")
    if hand.complete and not hand.awards:
        lines.append(f"The pot of {hand.pot_left} is carried to the next deal")
    if not hand.complete:
        lines.append(f"The hand is still in play (the pot holds {hand.pot_left})")
    lines += _seat_summaries(hand, folded_at)
    return "\n".join(lines)


def _play_lines(hand: Hand) -> tuple[list[str], dict[int, int]]:
    """The hand's play, step by step, with the draw rounds and the showdown marked and the floor's
    rulings where they happened; and, for each seat that folded, how many draws came before."""
    names = hand.names
    lines: list[str] = []
    draws, folded_at, showdown = 0, {}, False
    previous = None
    for step in hand.played[1:]:
        kind = step.event.get("type")
        seat = step.event.get("seat")
        name = str(names.get(int(seat), seat)) if seat is not None else ""
        if kind == "draw" and (previous is None or previous.event.get("type") != "draw"):
            # a draw round starts: the first draw, or a draw after betting between draws
            lines.append(f"*** {_DRAWS[min(draws, 2)]} DRAW ***")
            draws += 1
        if kind in ("show", "muck") and not showdown:
            lines.append("*** SHOW DOWN ***")
            showdown = True
        if kind == "fold" and seat is not None:
            folded_at[int(seat)] = draws
        lines.append(_action(step, name, hand.profile))
        for r in step.rulings:  # the ruling the event produced, where it happened
            lines.append(f"Floor: ruling {r.get('outcome', '')}: {r.get('headline') or r.get('summary', '')}")
        previous = step
    return lines, folded_at


def _seat_summaries(hand: Hand, folded_at: Mapping[int, int]) -> list[str]:
    """The summary's line for each seat dealt in: folded (before or after the draw), showed and won or
    lost with what, mucked, collected without showing, or did not show."""
    names = hand.names
    lines = []
    mucked = {int(st.event["seat"]) for st in hand.played if st.event.get("type") == "muck"}
    for s in sorted(hand.dealt):
        mark = " (button)" if s == hand.button else ""
        if s in folded_at:
            where = "before the Draw" if folded_at[s] == 0 else "after the Draw"
            lines.append(f"Seat {s}: {names.get(s, s)}{mark} folded {where}")
        elif s in hand.shown:
            cards = " ".join(hand.shown[s])
            won = hand.awards.get(s, 0)
            what = _describe(hand.shown[s], hand.profile) if len(hand.shown[s]) == 5 else ""
            result = f"won ({won})" + (f" with {what}" if what else "") if won else "lost" + (f" with {what}" if what else "")
            lines.append(f"Seat {s}: {names.get(s, s)}{mark} showed [{cards}] and {result}")
        elif s in mucked:
            lines.append(f"Seat {s}: {names.get(s, s)}{mark} mucked")
        elif hand.awards.get(s):
            lines.append(f"Seat {s}: {names.get(s, s)}{mark} collected ({hand.awards[s]})")
        else:
            lines.append(f"Seat {s}: {names.get(s, s)}{mark} didn't show")
    return lines


def hands_text(hands: Iterable[Hand], table: str, table_id: int | str,
               times: Mapping[int, str] | None = None) -> str:
    """Several hands, each followed by two empty lines as PokerStars separates them; ``times``
    maps a hand's first log index to its time."""
    times = times or {}
    out = [hand_text(h, table, table_id, times.get(h.first_index, "")) for h in hands]
    return "\n\n\n".join(out) + ("\n" if out else "")

