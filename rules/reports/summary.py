"""A profile's rule summary as data: what a printed summary for a table says, in plain words.

Pure: no Flask, no I/O. The app (``floor.prints``) prints this with a template; every word of a
summary comes from here, from the catalogue (:mod:`rules.catalogue`) or from the profile's own
option docs (:mod:`rules.profiles`).

- :func:`readings`: what each option of the profile selects, by the rule id it decides;
- :func:`left_out` / :func:`left_out_lines`: the catalogue's rules not in force here, and why;
- :func:`rule_groups`: the rules in force, group by group, each with the readings it carries;
- :func:`option_rows`: the options table (the value as the TOML spells it);
- :func:`hand_rows`: the hand rankings of the profile's deck, with exact counts and odds;
- :func:`glance`: one line per thing a player asks first;
- :func:`summarize`: all of it at once.

>>> from rules.profiles import get_profile
>>> s = summarize(get_profile("cardroom"))
>>> s.total, s.opening, s.opening_words
(2869685, 642881, 'jacks')
>>> s.glance.antes
'On the first 3 deals of a pot, none after that (O4).'
>>> s.left_out[0]
('H3 and H4', 'this table plays the joker in, played as the bug')
>>> [h.name for h in s.hands][:2]
['Five of a kind', 'Straight flush']
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from rules import catalogue
import rules.reports.odds as odds
from rules.profiles import Profile, toml_value

__all__ = [
    "NOT_PLAYED", "MINIMUM_WORDS", "DECK_WORDS", "WILD_RULE", "RuleLine", "RuleGroup", "OptionRow", "HandRow",
    "Glance", "Summary", "readings", "left_out", "left_out_lines", "rule_groups", "option_rows", "hand_rows",
    "glance", "summarize", "percent",
]

#: Rules of the catalogue a profile plays only with a variant option on (why they are left out
#: otherwise); P1 is the hand rankings table itself.
NOT_PLAYED: dict[str, str] = {
    "H8": "low hands are not played at this table (no jacks back)",
    "D9": "this table does not play trips to win",
    "D10": "this table does not play jacks back",
    "D11": "this table does not play the blind game with the age",
    "D13": "one draw a hand is played here",
    "O7": "no re-straddles are played here",
    "D14": "check-raising is not restricted here",
    "D15": "five cards are dealt here",
    "D16": "a four-card draw is dealt plainly here",
    "D17": "bets are fixed here",
    "H9": "the cards speak for themselves here",
    "P1": "see the hand rankings",
}


def _variants_in_force(p: Profile) -> set[str]:
    """The rule ids of NOT_PLAYED that ``p``'s variant options put in force."""
    on = {"H8": p.jacks_back, "D10": p.jacks_back, "D9": p.trips_to_win, "D11": p.age,
          "D13": p.draw_rounds > 1 or p.all_for_one,
          "O7": p.blinds is not None and p.straddles > 1, "D14": p.jacks_back_no_check_raise or p.jacks_back_sevens,
          "D15": p.seven_card_draw, "D16": p.bosnian, "D17": p.spread is not None,
          "H9": p.declared_hands}
    return {rule_id for rule_id, played in on.items() if played}
MINIMUM_WORDS: dict[str, str] = {"J": "jacks", "Q": "queens", "K": "kings", "A": "aces"}
DECK_WORDS: dict[str, str] = {
    "none": "no joker and no wild cards",
    "bug": "the joker in, played as the bug",
    "deuces": "the four deuces wild",
    "joker": "the joker in, fully wild as in the banked game",
    "rank": "one rank wild",
    "widow": "wild widow: the rank of a card turned up in the deal is wild",
}
#: The rule id that each wild mode puts in force.
WILD_RULE: dict[str, str] = {"bug": "H2", "joker": "H3", "deuces": "H4", "rank": "H4", "widow": "H4"}


@dataclass(frozen=True)
class RuleLine:
    """A rule in force, with what this profile's options say about it (``here``)."""

    rule: catalogue.Rule
    here: tuple[str, ...] = ()


@dataclass(frozen=True)
class RuleGroup:
    """A group of the catalogue (``F``, "False openers and proving openers") and its rules in force."""

    letter: str
    heading: str
    lines: tuple[RuleLine, ...]


@dataclass(frozen=True)
class OptionRow:
    """One row of the options table: the option, its value as the TOML spells it, its rule ids."""

    name: str
    value: str
    rules: str
    doc: str


@dataclass(frozen=True)
class HandRow:
    """One hand category of the profile's deck: how many hands, their share and the odds against."""

    name: str
    count: int
    percent: str
    odds: str


@dataclass(frozen=True)
class Glance:
    """The profile at a glance: one line per thing a player asks first."""

    deck: str
    deck_short: str
    open: str
    antes: str
    draw: str
    after: str
    raises: str
    false_openers: str


@dataclass(frozen=True)
class Summary:
    """Everything a printed rule summary says about one profile."""

    profile: Profile
    glance: Glance
    groups: tuple[RuleGroup, ...]
    left_out: tuple[tuple[str, str], ...]
    options: tuple[OptionRow, ...]
    total: int
    hands: tuple[HandRow, ...]
    opening: int
    opening_words: str


def _capped(value: int | None, capped: str, free: str) -> str:
    return free if value is None else capped.format(n=value)


def _minimum(p: Profile) -> str:
    return MINIMUM_WORDS.get(p.opening_minimum, p.opening_minimum)


def readings(p: Profile) -> dict[str, list[str]]:
    """What each option of ``p`` selects, in plain words, by the rule id it decides (a rule's
    readings in the order a summary prints them: the deck, the opening, the draw, the variant
    games, the betting after the draw, then the floor's rulings).

    >>> from rules.profiles import get_profile
    >>> readings(get_profile("pagat"))["D2"]
    ['Here a player may draw at most 3 cards.']
    """
    say: dict[str, list[str]] = {}
    for part in (_deck_readings, _opening_readings, _draw_readings, _variant_readings, _betting_readings,
                 _floor_readings):
        for rule_id, text in part(p):
            say.setdefault(rule_id, []).append(text)
    return say


def _deck_readings(p: Profile) -> Iterator[tuple[str, str]]:
    """The deck (H1), its wild cards (H2-H4) and the southern hands played (H7)."""
    deck = f"{p.deck_size} cards: {'the stripped pack, aces down to sevens, with ' if p.stripped_deck else ''}" \
           f"{DECK_WORDS.get(p.wild, p.wild)}."
    hands = ", ".join(h.replace("_", " ") for h in p.southern_hands)
    yield ("H1", f"This table plays {deck}")
    if p.wild in WILD_RULE:
        yield (WILD_RULE[p.wild], f"In force here: {DECK_WORDS[p.wild]}.")
    if hands:
        yield ("H7", f"Played here: {hands}.")


def _opening_readings(p: Profile) -> Iterator[tuple[str, str]]:
    """Openers (O1), blinds and straddles (O2, O7), the opening bet (O2), rising openers (O5), the
    button and newcomers on a throw-in (O3), the antes (O4)."""
    if p.opening_minimum == "none":
        yield ("O1", "Openers here: none. Anyone may open with any cards and there is nothing to prove "
                     "(California, or guts, draw).")
    else:
        yield ("O1", f"Openers here: a pair of {_minimum(p)} or better"
                     + (", rising after each deal nobody opens (O5)." if p.progressive_openers else "."))
    if p.blinds is not None:
        yield ("O2", f"Here the two players after the button post blinds of {p.blinds[0]} and {p.blinds[1]} before "
                     "the cards are seen; the blinds open the pot, and the big blind may raise when everyone has "
                     "only called." + (" The player after the big blind may straddle: a blind raise to "
                                       f"{2 * p.blinds[1]}." if p.straddles else ""))
    if p.blinds is not None and p.straddles > 1:
        re_straddles = p.straddles - 1
        yield ("O7", f"Here up to {re_straddles} re-straddle{'s' if re_straddles != 1 else ''} may follow the "
                     "straddle, each by the next player and each twice the one before; the betting starts after "
                     "the last.")
    if p.progressive_openers:
        yield ("O5", "In force here.")
    # O2 as the engine plays it: the tablet offers exactly these openings (the state's legal list)
    yield ("O2", "Here a player with openers opens for the minimum bet or opens with a raise of one more bet."
           if p.open_with_raise else "Here the opening bet is the minimum bet; only the others may raise it.")
    yield ("O2", "A player with openers may also declare the pot open by checking; the others are then free to bet."
           if p.check_open else "Declaring openers with a check is not played here: opening takes a bet.")
    yield ("O3", "Here the button moves one seat before the new deal." if p.button_moves_on_throw_in
           else "Here the button stays put and the same dealer deals again.")
    yield ("O3", "A player who sits down while a pot is carried over waits until that pot is won before being "
                 "dealt in." if p.newcomers_wait else
           "A player who sits down while a pot is carried over antes from the next deal and plays for the whole "
           "pot; once that pot's antes have stopped, a player who has put nothing into it waits for the next pot "
           "(unless too few would be left to play, when everyone antes again).")
    yield ("O4", _capped(p.ante_deals,
                         "Here a pot takes antes on its first {n} deals in a row; the deals after that are free.",
                         "Here every deal of a pot takes an ante: there is no cap on ante deals."))
    if p.pot_limit is not None:
        yield ("O4", f"Antes also stop once the pot holds {p.pot_limit} chips or more.")


def _draw_readings(p: Profile) -> Iterator[tuple[str, str]]:
    """The draw (D2), what the cards say at the show (H9), and the draw games: spread limits (D17),
    the Bosnian draw (D16), seven-card draw (D15), several draws (D13)."""
    yield ("D2", "Here nobody draws: the hands are played as dealt." if p.max_draw == 0
           else f"Here a player may draw at most {p.max_draw} card{'s' if p.max_draw != 1 else ''}.")
    if p.ace_draws_four:
        yield ("D2", "A player may draw four only when keeping an ace (the joker counts as one); it is checked at "
                     "the show, where such a hand without an ace is dead.")
    if p.declared_hands:
        yield ("H9", "In force here: the cards do not speak. Each player declares the hand at the show; a "
                     "declaration the cards cannot make is refused, and a hand plays as the best hand of the "
                     "declared class its cards make: four nines declared as three of a kind are three nines.")
    if p.spread is not None:
        low, high = p.spread
        yield ("D17", f"In force here: a bet, an opening or the rise of a raise is any amount from {low} to {high} "
                      f"before the draw and from {2 * low} to {2 * high} after it.")
    if p.bosnian:
        yield ("D16", "In force here: a player drawing four gets three face down, then one face up and one face "
                      "down, and keeps one of the two; a face-up card left is dead.")
    if p.seven_card_draw:
        yield ("D15", "In force here: seven cards each, one draw of up to four cards begun after the big blind, "
                      "the big bet after the draw, and each player shows the best five of the seven.")
    if p.all_for_one:
        yield ("D13", "All for one is played here: draw after draw, each followed by betting at the big bet, "
                      "while the pack holds a card for every player still in; a player stands pat, changes one "
                      "card, or changes all five when the others still to draw can each have one.")
    if p.draw_rounds > 1:
        yield ("D13", f"Here a hand has {p.draw_rounds} draws, each followed by a round of betting at the big bet.")


def _variant_readings(p: Profile) -> Iterator[tuple[str, str]]:
    """The variant games: trips to win (D9), jacks back and its low round (D10, H8, D14), the age (D11)."""
    if p.trips_to_win:
        yield ("D9", "In force here: no hand below three of a kind wins. Without one the pot stays; those who "
                     "folded before the draw are out of it, and the rest ante again and play on among "
                     "themselves; when everyone else folded, the one player left in the pot takes it.")
    if p.jacks_back:
        yield ("D10", "In force here: when nobody opens, the same hands are played for ace-to-five low, the joker "
                      "a fitter; if nobody bets for low either, the cards are thrown in."
               + (" The player after the button posts a blind bet of one small bet when the game turns to low."
                  if p.jacks_back_blind else ""))
        yield ("H8", "Played here in the low round of jacks back (D10).")
        if p.jacks_back_sevens:
            yield ("D14", "The sevens rule is played here: a player who checks a seven-low or better after the "
                          "draw and wins does not win the bets made after the check.")
        if p.jacks_back_no_check_raise:
            yield ("D14", "In force here: in the low part of the deal, a player who has checked may not raise "
                          "later in the same betting round.")
    if p.age:
        yield ("D11", "In force here: the player after the button (the age) puts up a blind of one small bet and "
                      "anyone may come in against it; when nobody does, the next deal is a jack pot (antes, "
                      "openers), and the blind game goes on once it is won.")


def _betting_readings(p: Profile) -> Iterator[tuple[str, str]]:
    """Who acts first after the draw (D4) and the raises a round allows (D5)."""
    yield ("D4", "After the draw the opener acts first, or the next player still in after the opener "
                 "if the opener has folded." if p.postdraw_first == "opener"
           else "After the draw the first player still in to the left of the button acts first.")
    yield ("D5", _capped(p.raise_cap, "Here a betting round allows a bet and at most {n} raises.",
                         "Here there is no cap on the number of raises in a round."))


def _floor_readings(p: Profile) -> Iterator[tuple[str, str]]:
    """The floor's rulings the options pick: false openers (F2-F7 or F9), the all-in false opener's
    bar (F7), retrieving discards (F11), a hand of the wrong size (D8)."""
    if p.false_openers == "foster":
        yield ("F9", "Here false openers are settled by this penalty; F2 to F7 do not apply.")
    else:
        yield ("F2", "Here false openers are settled by F2 to F7; Foster's penalty (F9) does not apply.")
        yield ("F7", "An all-in false opener's bar is the player's: leaving and buying in again, at any seat, "
                     "does not lift it until someone else has won the pot." if p.f7_follows_player else
               "Here an all-in false opener's bar is the seat's: a player who leaves and sits down again plays "
               "as a newcomer.")
    yield ("F11", {"never": "Here discards are never retrieved to prove openers.",
                   "always": "Here an opener may always have the discards retrieved to prove openers.",
                   "floor": "Here the floor person decides each case."}.get(p.discard_retrieval, p.discard_retrieval))
    yield ("D8", "Before the draw the dealer puts a wrong count right (a card dealt or taken back); after the "
                 "draw such a hand is dead." if p.wrong_count_before_draw == "correct"
           else "Here a hand of the wrong size is dead whether it is found before the draw or after it.")




def left_out(p: Profile) -> dict[str, str]:
    """Rule ids of the catalogue this profile does not play, each with the reason (small print).

    >>> from rules.profiles import get_profile
    >>> left_out(get_profile("foster"))["F5"]
    "false openers follow Foster's penalty (F9)"
    """
    out = {r.id: "the banked game against the dealer is another game" for r in catalogue.by_group("B")}
    out.update((k, why) for k, why in NOT_PLAYED.items() if k not in _variants_in_force(p))
    in_force = WILD_RULE.get(p.wild)
    for rule_id in set(WILD_RULE.values()) - {in_force}:
        out[rule_id] = f"this table plays {DECK_WORDS.get(p.wild, p.wild)}"
    if not p.southern_hands:
        out["H7"] = "no southern hands are played"
    if not p.progressive_openers:
        out["O5"] = "the opening requirement does not rise"
    if p.false_openers == "foster":
        for rule_id in ("F2", "F3", "F4", "F5", "F6", "F7"):
            out[rule_id] = "false openers follow Foster's penalty (F9)"
    else:
        out["F9"] = "false openers follow F2 to F7"
    return out


def left_out_lines(p: Profile) -> list[tuple[str, str]]:
    """:func:`left_out` for print: (ids, reason), runs of ids with one reason joined (B1 to B5).

    >>> from rules.profiles import get_profile
    >>> [ids for ids, _ in left_out_lines(get_profile("cardroom"))][-3:]
    ['D17', 'B1 to B5', 'P1']
    """
    order = list(catalogue.RULES)
    skip = left_out(p)
    lines: list[tuple[list[str], str]] = []
    for rule_id in sorted(skip, key=order.index):
        why = skip[rule_id]
        prev = lines[-1] if lines else None
        if prev and prev[1] == why and order.index(prev[0][-1]) == order.index(rule_id) - 1:
            prev[0].append(rule_id)
        else:
            lines.append(([rule_id], why))
    joined = {1: "{0}", 2: "{0} and {1}"}
    return [(joined.get(len(ids), "{0} to {last}").format(*ids, last=ids[-1]), why) for ids, why in lines]


def rule_groups(p: Profile) -> list[RuleGroup]:
    """Every group with a rule in force, in catalogue order, each rule with its readings here.

    >>> from rules.profiles import get_profile
    >>> [g.letter for g in rule_groups(get_profile("cardroom"))]
    ['H', 'O', 'F', 'S', 'D']
    """
    skip = left_out(p)
    say = readings(p)
    groups = []
    for letter, heading in catalogue.GROUPS.items():
        lines = tuple(RuleLine(r, tuple(say.get(r.id, ()))) for r in catalogue.by_group(letter) if r.id not in skip)
        if lines:
            groups.append(RuleGroup(letter, heading, lines))
    return groups


def option_rows(p: Profile) -> list[OptionRow]:
    """The options table: name, value as the TOML spells it, rule ids, meaning.

    >>> from rules.profiles import get_profile
    >>> next(r for r in option_rows(get_profile("cardroom")) if r.name == "postdraw_first").value
    '"opener"'
    >>> blinds = get_profile({"opening_minimum": "none", "blinds": [5, 10], "southern_hands": ["blaze"]})
    >>> [r.value for r in option_rows(blinds) if r.name in ("blinds", "southern_hands")]
    ['["blaze"]', '[5, 10]']
    """
    return [OptionRow(opt.name, toml_value(opt.value), ", ".join(opt.rules), opt.doc) for opt in p.options()]


def percent(count: int, total: int) -> str:
    """A share with three significant figures.

    >>> percent(1, 2), percent(1, 3459), percent(1, 2869685), percent(0, 5)
    ('50.0', '0.0289', '0.0000348', '0')
    """
    share = 100 * count / total
    if share >= 1 or share == 0:
        return f"{share:.1f}" if share else "0"
    return f"{share:.{2 - math.floor(math.log10(share))}f}"


def hand_rows(p: Profile) -> tuple[int, list[HandRow], int]:
    """(hands dealt, one row per category strongest first, hands that open as dealt) for ``p``'s deck.

    >>> from rules.profiles import get_profile
    >>> total, rows, opening = hand_rows(get_profile("foster"))
    >>> total, rows[0], opening
    (2598960, HandRow(name='Straight flush', count=40, percent='0.00154', odds='64,973 to 1'), 536100)
    """
    rules = p.hand_rules
    # wild widow: before the widow is turned up, counted over every widow card (rules.reports.counts)
    counts = odds.category_counts(rules)
    total = odds.total_hands(rules)
    rows = []
    for category in reversed(list(counts)):
        n = counts[category]
        if not n and category == "five_of_a_kind":
            continue  # cannot be dealt without a wild card
        rows.append(HandRow(category.replace("_", " ").capitalize(), n, percent(n, total),
                            odds.format_odds(n, total)))
    opening = odds.opening_count(rules, minimum=p.opening_minimum) if p.opening_minimum != "none" else total
    return total, rows, opening


def glance(p: Profile) -> Glance:
    """The profile at a glance.

    >>> from rules.profiles import get_profile
    >>> glance(get_profile("pagat")).draw
    'Up to 3 cards, in turn from the left of the button (D2).'
    """
    deck = f"{p.deck_size} cards{', stripped to aces down to sevens' if p.stripped_deck else ''}; " \
           f"{DECK_WORDS.get(p.wild, p.wild)}"
    opening = ("No openers: anyone may open with any cards (O1)" if p.opening_minimum == "none"
               else f"A pair of {_minimum(p)} or better (O1)")
    if p.blinds is not None:
        opening += f"; blinds of {p.blinds[0]} and {p.blinds[1]}" + (", a straddle allowed" if p.straddles == 1
                                                                   else f", a straddle and {p.straddles - 1} re-straddles allowed"
                                                                   if p.straddles else "") \
            + " (O2)"
    if p.progressive_openers:
        opening += "; the requirement climbs after each deal nobody opens (O5)"
    antes = _capped(p.ante_deals, "On the first {n} deals of a pot, none after that (O4)",
                    "On every deal of a pot: no ante cap (O4)")
    if p.pot_limit is not None:
        antes += f"; none once the pot holds {p.pot_limit} chips"
    return Glance(
        deck=deck + ".",
        deck_short=f"{p.deck_size} cards, {DECK_WORDS.get(p.wild, p.wild)}",
        open=opening + ".",
        antes=antes + ".",
        draw=("No draw." if p.max_draw == 0 else f"Up to {p.max_draw} cards, in turn from the left of the button (D2)."),
        after=("The opener acts first, or the next player still in after the opener (D4)."
               if p.postdraw_first == "opener" else "The first player still in left of the button acts first (D4)."),
        raises=_capped(p.raise_cap, "A bet and up to {n} raises a round; the bet after the draw is the big bet (D5).",
                       "No cap on raises; the bet after the draw is the big bet (D5)."),
        false_openers=("The false opener forfeits everything put in, and antes for everyone next deal if "
                       "others drew against them (F9)." if p.false_openers == "foster" else
                       "The hand is dead, the opening bet stays in the pot, and another player may reopen "
                       "unless the pot already plays (F2 to F7)."),
    )


def summarize(p: Profile) -> Summary:
    """Everything a printed summary of ``p`` says (the diagrams of the decision tree aside: those
    are :func:`rules.rulings.build_tree` drawn)."""
    total, hands, opening = hand_rows(p)
    return Summary(
        profile=p, glance=glance(p), groups=tuple(rule_groups(p)), left_out=tuple(left_out_lines(p)),
        options=tuple(option_rows(p)), total=total, hands=tuple(hands), opening=opening,
        opening_words=_minimum(p),
    )
