"""House-rule profiles: every place the sources disagree is an option here, never a silent pick.

A profile is an immutable value. The named ones:

- ``cardroom`` (the default): the modern cardroom rulebook, filled in by the players' guide where the
  rulebook is silent.
- ``pagat``: the survey of five-card draw (no ante cap, draw at most three, ...).
- ``foster``: the 1897 Hoyle (false openers forfeit everything, see F9).

>>> p = get_profile("cardroom")
>>> p.ante_deals, p.false_openers, p.wild
(3, 'cardroom', 'bug')
>>> get_profile({"base": "cardroom", "name": "Lucky 7s", "ante_deals": 2}).ante_deals
2
>>> get_profile({"ante_deals": 0})
Traceback (most recent call last):
...
rules.ProfileError: ante_deals: must be at least 1 or null (no cap), not 0

Each option names the rule ids it decides (``Profile.options()``), so a printed rule summary can
say which reading the table plays.

The options that decide how hands are read (``wild``, ``wild_rank``, ``stripped_deck``,
``southern_hands``, ``southern_placement``) are checked together, and give the evaluator its
:class:`~rules.hands.HandRules` (``Profile.hand_rules``):

>>> fives = get_profile({"wild": "rank", "wild_rank": "5"})
>>> fives.wild_rank, fives.deck_size, fives.hand_rules
('5', 52, HandRules(wild='rank', wild_rank=5))
>>> get_profile({"wild": "rank"})
Traceback (most recent call last):
...
rules.ProfileError: wild_rank: required when wild = 'rank': the rank whose four cards are wild, such as "5"
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules import bounds
from rules import CardError, ProfileError, RulesError
from rules.cards import JOKER_MODES, WILD_MODES, Wild, parse_rank, rank_plural, rank_text
from rules.hands import SOUTHERN_HANDS, HandRules, Placement
from rules.house import Drop, Kill, Rake, TimeCharge, read_drop, read_kill, read_rake, read_time_charge
from rules.memo import remembered

__all__ = ["Profile", "Option", "PROFILES", "NO_SOURCE", "get_profile", "from_toml", "toml_value", "DEFAULT", "house_rules", "game_words"]

MINIMUMS = ("J", "Q", "K", "A")
#: The opening minimums a profile may name: a pair of jacks or better up to aces, or none at all
#: (California / guts: no requirement, nothing to prove).
OPENING_MINIMUMS = (*MINIMUMS, "none")
PLACEMENTS = tuple(p.value for p in Placement)
#: The options no source of the catalogue rules on (issue 32): the house's money (its business, not
#: a rule of play) and kill pots (a card-room custom the seeds do not describe). Every other option
#: names the rule ids it decides.
NO_SOURCE = ("rake", "time_charge", "drop", "kill")


def _opt(rules: tuple[str, ...], doc: str, choices: tuple[Any, ...] | None = None) -> dict[str, Any]:
    return {"rules": rules, "doc": doc, "choices": choices}


@dataclass(frozen=True)
class Profile:
    """A table's house rules. Build one with :func:`get_profile`; fields are documented options."""

    name: str = "cardroom"
    title: str = "Cardroom rules (the default)"

    # Cards and hands
    wild: str = field(default="bug", metadata=_opt(
        ("H2", "H3", "H4"),
        "What the joker or wild cards do: 'bug' (ace, or fills a straight or flush), 'none' (52 cards), "
        "'deuces' (deuces fully wild), 'joker' (the banked game's fully wild joker), 'rank' (the four cards "
        "of wild_rank fully wild, as deuces are), 'widow' (wild widow: a card turned up in the deal makes the "
        "other three of its rank fully wild). The joker is in the deck only with 'bug' and 'joker'.",
        WILD_MODES))
    wild_rank: str | None = field(default=None, metadata=_opt(
        ("H4",), "The wild rank when wild = 'rank' (a rank: '5', 'T', 'A'; required then, refused with every "
        "other mode: deuces are the wild rank 2 already, and wild widow's rank is the widow card's, known "
        "only in the deal). With wild = 'rank' and wild_rank = '2' the game plays as 'deuces'."))
    stripped_deck: bool = field(default=False, metadata=_opt(
        ("H1", "H5"), "Play with the 32-card deck (ace down to seven; 33 cards with the joker) instead of the "
        "full deck, ranked as stripped-deck poker ranks it: a flush beats a full house (and stays below four "
        "of a kind), and A-7-8-9-T is the lowest straight. No deuces wild, no wild rank below the seven, and "
        "of the southern hands only the blaze can be played with it."))
    southern_hands: tuple[str, ...] = field(default=(), metadata=_opt(
        ("H7",), "Extra hands recognised at the showdown, ranked as southern_placement says.",
        SOUTHERN_HANDS))
    southern_placement: str = field(default="odds", metadata=_opt(
        ("H7",), "Where the southern hands rank: 'odds' (where FOSTER's calculated odds put them: skip straight "
        "between straight and flush, tiger between flush and full house, round-the-corner straight and "
        "then blaze between full house and four of a kind) or 'as_played' (where FOSTER says the South played "
        "them: skip straight and then blaze between two pair and three of a kind, tiger between straight and "
        "flush, round-the-corner straight just above the five-high straight).", PLACEMENTS))

    # Opening and antes
    opening_minimum: str = field(default="J", metadata=_opt(
        ("O1",), "The lowest pair that opens (any hand that beats the pair below it also opens); 'none' "
        "is California or guts draw: anyone may open, and there is nothing to prove.", OPENING_MINIMUMS))
    progressive_openers: bool = field(default=False, metadata=_opt(
        ("O5",), "After a deal nobody opens, the requirement climbs J, Q, K, A and then back down."))
    button_moves_on_throw_in: bool = field(default=True, metadata=_opt(
        ("O3",), "When nobody opens, the button moves one seat before the cards are dealt again."))
    ante_deals: int | None = field(default=3, metadata=_opt(
        ("O4",), "How many consecutive deals of one pot take an ante (the three-deal cap); "
        "none (null in the JSON API) means every deal antes."))
    pot_limit: int | None = field(default=None, metadata=_opt(
        ("O4",), "Antes also stop once the pot holds at least this many chips; none (null in the JSON API) means no such limit."))

    open_with_raise: bool = field(default=True, metadata=_opt(
        ("O2",), "A player with openers may open for the minimum or open with a raise (an opening bet of "
        "two small bets), as the cardroom rulebook has it; false means the opening bet is the minimum."))
    check_open: bool = field(default=False, metadata=_opt(
        ("O2",), "A player with openers may declare the pot open while checking (the players' guide): the "
        "pot is open and the others may bet; false means opening always takes a bet."))

    blinds: tuple[int, int] | None = field(default=None, metadata=_opt(
        ("O2",), "Blind bets [small, big] posted by the two players after the button before the cards are "
        "seen; the betting starts after the big blind, who may raise when everyone has only called. "
        "Only with opening_minimum 'none' (the basic game): a blind is an opening no one proves."))
    straddle: bool | int = field(default=False, metadata=_opt(
        ("O2", "O7"), "With blinds, the player after the big blind may straddle: a blind raise of twice the big "
        "blind, posted before the cards are seen; the betting then starts after the straddler. A number "
        f"({bounds.words('straddle')}) also allows that many re-straddles, each by the next player, each twice "
        "the last (true plays as 0: a straddle and no re-straddle)."))
    age: bool = field(default=False, metadata=_opt(
        ("D11",), "Foster's blind game: the player after the button (the age) puts up a blind of one small "
        "bet and anyone may come in against it with any cards; when nobody comes in, the next deal is "
        "a jack pot (antes from everyone, openers needed), and after it is won the blind game goes on."))
    jacks_back: bool = field(default=False, metadata=_opt(
        ("D10",), "Jacks back: when nobody opens, the same hands are played for ace-to-five low (the joker "
        "a fitter) with a fresh betting round begun after the button; if nobody bets then either, the "
        "cards are thrown in."))
    jacks_back_no_check_raise: bool = field(default=False, metadata=_opt(
        ("D10", "D14"), "With jacks back, in the low part of the deal a player who checked may not raise "
        "later in the same betting round (calling or folding stays open)."))
    jacks_back_sevens: bool = field(default=False, metadata=_opt(
        ("D10", "D14"), "With jacks back, the sevens rule of California lowball: a player who checks after the "
        "draw holding a seven-low or better and then wins the pot does not win the bets made after that "
        "check; they go back to whoever made them."))
    jacks_back_blind: bool = field(default=False, metadata=_opt(
        ("D10",), "With jacks back, the player after the button must post a blind bet when the game turns "
        "to low; the betting starts after the blind, who may raise when everyone has only called."))
    trips_to_win: bool = field(default=False, metadata=_opt(
        ("D9",), "Trips to win: no hand below three of a kind wins. Without one the pot stays: those who "
        "folded before the draw are out of it, the rest ante again and play a fresh deal among themselves."))

    seven_card_draw: bool = field(default=False, metadata=_opt(
        ("D15",), "Seven-card draw: seven cards each, blinds, one draw of 0 to 4 cards begun after the big "
        "blind, and each hand shown as its best five (the other two discarded). Needs blinds (so "
        "opening_minimum 'none') and max_draw 4 or less; after the draw the bet is the big bet."))

    declared_hands: bool = field(default=False, metadata=_opt(
        ("H9",), "Cards do not speak: at the show each player declares the hand (its class: a pair, a "
        "flush, ...); a declaration the cards cannot make is refused, and a hand plays as the best hand of "
        "the declared class its cards make (four nines declared as three of a kind are three nines)."))
    all_for_one: bool = field(default=False, metadata=_opt(
        ("D13",), "All for one and one for all: draw after draw, each followed by a round of betting, while "
        "the pack holds a card for every player still in; in each draw a player stands pat, changes one "
        "card or all five (all five only if every player still to draw can then have one); each draw "
        "begins one seat further round than the one before."))
    bosnian: bool = field(default=False, metadata=_opt(
        ("D16",), "The Bosnian exchange: a player drawing four gets three face down, then one face up and one "
        "face down, and keeps one of those two; a face-up card left is dead, a face-down one goes unseen to "
        "the discards. Needs max_draw 4 or more."))

    # Betting and drawing
    betting: str = field(default="fixed", metadata=_opt(
        ("D5", "D17"), "'fixed' limit (a bet is the small bet before the draw, the big bet after), 'spread' "
        "limit (a bet, an opening or a raise is any amount within spread, doubled after the draw), 'pot' "
        "limit (a bet or an opening up to the pot, a raise up to the pot after the call) or 'no_limit' (up "
        "to the stack); in pot and no limit a bet is at least the limit's bet and a raise at least the "
        "last bet or raise of the round. Openers, antes and the draw are the same in all four.",
        ("fixed", "spread", "pot", "no_limit")))
    spread: tuple[int, int] | None = field(default=None, metadata=_opt(
        ("D17",), "With spread betting, the smallest and largest bet [min, max] before the draw."))
    raise_cap: int | None = field(default=4, metadata=_opt(
        ("D5",), "Raises allowed after the bet (or the opening) in one betting round; none (null in the JSON API) means no cap. "
        "The cardroom text is silent; 4 follows the survey's 'a bet and four raises'."))
    postdraw_first: str = field(default="opener", metadata=_opt(
        ("D4",), "Who acts first after the draw: 'opener' (or the next active player after the opener) or "
        "'left_of_button' (the first active player after the button, as the players' guide has it).",
        ("opener", "left_of_button")))
    max_draw: int = field(default=5, metadata=_opt(
        ("D2",), f"The most cards one player may draw ({bounds.words('max_draw')})."))
    ace_draws_four: bool = field(default=False, metadata=_opt(
        ("D2",), "With max_draw 3, a player may draw four when keeping an ace (the joker counts as one); "
        "checked at the show, where such a hand without an ace is dead."))
    draw_rounds: int = field(default=1, metadata=_opt(
        ("D13",), f"How many draws a hand has ({bounds.words('draw_rounds')}, the players' guide's dealer's "
        "choice), each followed by a round of betting at the big bet."))

    # The house's money (issue 32; docs/house.md)
    rake: Rake | None = field(default=None, metadata=_opt(
        (), "The rake {percent, cap, min_pot}: percent of a pot won (whole chips, rounded down), at most cap, "
        "nothing from a pot under min_pot, never from a carried deal; off the pot before it is split, main pot "
        "first."))
    time_charge: TimeCharge | None = field(default=None, metadata=_opt(
        (), "Time collection {amount, minutes}: each seat pays amount for each period of minutes (event time); "
        "a seat that has not paid for the period in play is dealt out until it does."))
    drop: Drop | None = field(default=None, metadata=_opt(
        (), "A drop {amount, pool}: amount set aside from each pot won (after the rake, from pots the rake's "
        "min_pot admits) for the pool, 'high_hand' or 'bad_beat'."))
    kill: Kill | None = field(default=None, metadata=_opt(
        (), "Kill pots {after, times}: once a player has won after pots in a row alone, the next pot's bets are "
        "times the table's and the killer puts in a kill of one of its small bets; openers and antes stay."))

    # Players who come and go
    newcomers_wait: bool = field(default=False, metadata=_opt(
        ("O3",), "A player who sits down while a pot is carried over waits until that pot is won before "
        "being dealt in; false means the newcomer antes from the next deal and plays for the whole pot."))
    f7_follows_player: bool = field(default=True, metadata=_opt(
        ("F7",), "An all-in false opener barred from the pot stays barred after leaving and sitting down "
        "again, at any seat and with any buy-in, until someone else has won the pot (the card room's "
        "words: even after buying in again); false bars the seat only, as a newcomer is not barred."))

    # Irregularities
    false_openers: str = field(default="cardroom", metadata=_opt(
        ("F2", "F3", "F4", "F5", "F6", "F7", "F9"),
        "How false openers are punished: 'cardroom' (dead hand, opening bet stays, others may reopen, "
        "the pot plays after a raise, two calls or completed action; an all-in opener is barred) or "
        "'foster' (the false opener forfeits all they put in and antes for everyone if drawn to).",
        ("cardroom", "foster")))
    discard_retrieval: str = field(default="floor", metadata=_opt(
        ("F11",), "Whether an opener may have the discards retrieved to prove openers: 'never', 'always', "
        "or 'floor' (the floor person decides each case).", ("never", "floor", "always")))
    wrong_count_before_draw: str = field(default="correct", metadata=_opt(
        ("D8", "H6"), "A hand of the wrong size found before the draw: 'correct' (the dealer completes it or "
        "takes back the extra card) or 'dead'. After the draw such a hand is always dead.",
        ("correct", "dead")))

    # ------------------------------------------------------------------ helpers
    @property
    def deck_size(self) -> int:
        """Cards in the deck the profile deals.

        >>> get_profile("cardroom").deck_size, get_profile({"wild": "none"}).deck_size
        (53, 52)
        """
        base = 32 if self.stripped_deck else 52
        return base + (1 if self.wild in JOKER_MODES else 0)

    @property
    def straddles(self) -> int:
        """How many blind raises may follow the big blind: the straddle and the re-straddles (O2, O7).

        >>> get_profile().straddles, get_profile({"opening_minimum": "none", "blinds": [5, 10],
        ...                                      "straddle": 2}).straddles
        (0, 3)
        """
        if isinstance(self.straddle, bool):
            return int(self.straddle)
        return self.straddle + 1

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player.

        >>> get_profile("cardroom").hand_size
        5
        """
        return 7 if self.seven_card_draw else 5

    @property
    def hand_rules(self) -> HandRules:
        """How this table reads hands: the evaluator's context (:class:`rules.hands.HandRules`).
        In wild widow the rank is not known yet: ``profile.hand_rules.with_widow(card)``.

        >>> get_profile({"wild": "none", "stripped_deck": True}).hand_rules
        HandRules(wild='none', stripped=True)
        """
        return HandRules.from_profile(self)

    def options(self) -> Iterator["Option"]:
        """Every option with its value, the rule ids it decides and what it means."""
        for f in dataclasses.fields(self):
            if f.metadata:
                yield Option(f.name, getattr(self, f.name), f.metadata["rules"], f.metadata["doc"])

    def to_dict(self) -> dict[str, Any]:
        """The profile as plain JSON-able data (what a TOML file or an API client gives back).

        >>> get_profile(get_profile("foster").to_dict()) == get_profile("foster")
        True
        """
        data = dataclasses.asdict(self)
        data["southern_hands"] = list(self.southern_hands)
        data["blinds"] = list(self.blinds) if self.blinds is not None else None
        data["spread"] = list(self.spread) if self.spread is not None else None
        return data


@dataclass(frozen=True)
class Option:
    """One house-rule option of a profile, for printing."""

    name: str
    value: Any
    rules: tuple[str, ...]
    doc: str


PROFILES: dict[str, Profile] = {
    "cardroom": Profile(),
    "pagat": Profile(
        name="pagat", title="The five-card draw survey (PAGAT)",
        ante_deals=None, raise_cap=4, max_draw=3, discard_retrieval="never", open_with_raise=False,
    ),
    "foster": Profile(
        name="foster", title="Foster's 1897 Hoyle",
        wild="none", ante_deals=None, raise_cap=None, max_draw=5, false_openers="foster", open_with_raise=False,
        discard_retrieval="never", wrong_count_before_draw="dead",
    ),
}
DEFAULT = PROFILES["cardroom"]
_FIELDS = {f.name: f for f in dataclasses.fields(Profile)}  # each option's field, for _check
_READ: dict[Any, Profile] = {}  # the mappings of options read, by their plain data (rules.memo)


#: The options of the house's take, each read by its own reader of rules.house.
_HOUSE_READERS: dict[str, Callable[[Any], Any]] = {
    "rake": read_rake, "time_charge": read_time_charge, "drop": read_drop, "kill": read_kill}


def _check(name: str, value: Any) -> Any:
    """Validate one option's value, returning it normalised; raise ProfileError naming the option."""
    fields = _FIELDS
    if name not in fields:
        raise ProfileError(f"unknown option {name!r}; the options are: {', '.join(sorted(fields))}")
    meta = fields[name].metadata
    choices = meta.get("choices") if meta else None
    if name == "wild_rank":
        if value is None:
            return None
        try:
            return rank_text(parse_rank(value))
        except CardError as exc:
            raise ProfileError(f"wild_rank: {exc}") from None
    if name in ("name", "title"):
        if not isinstance(value, str) or not value.strip():
            raise ProfileError(f"{name}: must be a non-empty text")
        return value.strip()
    if name == "southern_hands":
        return _southern_hands(value)
    if name == "straddle":  # true or false, or how many (bounds.check): a bool is an int
        if not isinstance(value, int):
            raise ProfileError(f"straddle: true, false, or the number of re-straddles allowed "
                               f"({bounds.words('straddle')}), not {value!r}")
        return value
    default = fields[name].default
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ProfileError(f"{name}: must be true or false, not {value!r}")
        return value
    if name in ("ante_deals", "pot_limit", "raise_cap"):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ProfileError(f"{name}: must be at least 1 or null (no cap), not {value!r}")
        return value
    if name in ("max_draw", "draw_rounds"):
        # how many is rules/bounds.py's to say (bounds.check, after the type checks), naming the bound
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProfileError(f"{name}: must be a whole number ({bounds.words(name)}), not {value!r}")
        return value
    if name in _HOUSE_READERS:  # the house's take (rules.house reads each)
        return _HOUSE_READERS[name](value)
    if name in ("spread", "blinds"):  # two amounts of chips, the lower first
        if value is None or value == "none":
            return None
        low, high = ("min", "max") if name == "spread" else ("small", "big")
        if (isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or len(value) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in value) or value[0] > value[1]):
            raise ProfileError(f"{name}: must be [{low}, {high}], two numbers of chips with {low} <= {high}, "
                               f"not {value!r}")
        return (value[0], value[1])
    if choices is not None and value not in choices:
        raise ProfileError(f"{name}: must be one of {', '.join(map(str, choices))}, not {value!r}")
    return str(value) if isinstance(value, str) else value  # a StrEnum member is kept as its text


def _southern_hands(value: Any) -> tuple[str, ...]:
    """The southern hands played (H7): a list drawn from SOUTHERN_HANDS, kept in their order."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ProfileError("southern_hands: must be a list drawn from " + ", ".join(SOUTHERN_HANDS))
    bad = [v for v in value if v not in SOUTHERN_HANDS]
    if bad:
        raise ProfileError(f"southern_hands: unknown hand {bad[0]!r}; choose from " + ", ".join(SOUTHERN_HANDS))
    return tuple(h for h in SOUTHERN_HANDS if h in value)


def _check_hands(profile: Profile) -> Profile:
    """The options that read hands, checked together (a ProfileError names the option)."""
    wild, rank = profile.wild, profile.wild_rank
    if wild == Wild.RANK and rank is None:
        raise ProfileError('wild_rank: required when wild = \'rank\': the rank whose four cards are wild, such as "5"')
    if wild != Wild.RANK and rank is not None:
        raise ProfileError(f"wild_rank: only with wild = 'rank' (deuces are the wild rank 2; wild widow's rank is "
                           f"the widow card's), not with wild = {wild!r}")
    if profile.stripped_deck:
        if wild == Wild.DEUCES:
            raise ProfileError("stripped_deck: the 32-card deck has no deuces to be wild (wild = 'deuces')")
        if rank is not None and parse_rank(rank) < 7:
            raise ProfileError(f"wild_rank: the 32-card deck has no {rank_plural(parse_rank(rank))}: with "
                               "stripped_deck the wild rank "
                               "is a seven to an ace")
        lacking = [h for h in profile.southern_hands if h != "blaze"]
        if lacking:
            raise ProfileError(f"southern_hands: {lacking[0]!r} needs cards below the seven, which the 32-card "
                               "deck lacks; only 'blaze' is played with stripped_deck")
    try:
        profile.hand_rules
    except RulesError as exc:  # pragma: no cover - the checks above say it first, by option name
        raise ProfileError(str(exc)) from None
    return profile


def get_profile(spec: str | Profile | Mapping[str, Any] | None = None) -> Profile:
    """The profile a table plays: a name, a Profile, or a mapping of overrides.

    A mapping starts from ``base`` (a named profile; by default its own ``name`` if that is a named
    profile, else ``cardroom``) and overrides the options it lists. Unknown names and options, and
    values out of range, raise :class:`rules.ProfileError` naming them.

    >>> get_profile().name
    'cardroom'
    >>> get_profile("foster").false_openers
    'foster'
    >>> get_profile("poker night")
    Traceback (most recent call last):
    ...
    rules.ProfileError: unknown profile 'poker night'; the named profiles are: cardroom, pagat, foster
    """
    if spec is None or isinstance(spec, Profile):
        return DEFAULT if spec is None else spec
    if isinstance(spec, str):
        try:
            return PROFILES[spec]
        except KeyError:
            raise ProfileError(f"unknown profile {spec!r}; the named profiles are: " + ", ".join(PROFILES)) from None
    if not isinstance(spec, Mapping):
        raise ProfileError(f"a profile is a name or a table of options, not {type(spec).__name__}")
    return remembered(_READ, spec, _read)  # a profile is a value: read once (rules/memo.py)


def _read(spec: Mapping[str, Any]) -> Profile:
    overrides = dict(spec)
    base_name = overrides.pop("base", None)
    if base_name is None:
        base_name = overrides.get("name") if overrides.get("name") in PROFILES else "cardroom"
    base = get_profile(base_name)
    if "name" in overrides and overrides["name"] != base.name and "title" not in overrides:
        overrides["title"] = str(overrides["name"])
    checked = {key: _check(key, value) for key, value in overrides.items()}
    bounds.check(checked)  # values no card room plays (rules/bounds.py), each refusal naming its bound
    if "wild" in checked and checked["wild"] != Wild.RANK and "wild_rank" not in checked:
        checked["wild_rank"] = None  # the base's wild rank goes with the base's wild mode
    return _coherent(_check_hands(dataclasses.replace(base, **checked)))


def _coherent(p: Profile) -> Profile:
    """Options that only make sense together are checked together, each refusal naming both.

    >>> get_profile({"blinds": [5, 10]})
    Traceback (most recent call last):
    ...
    rules.ProfileError: blinds: only with opening_minimum 'none' (a blind opens the pot without openers)
    """
    if p.blinds is not None and p.opening_minimum != "none":
        raise ProfileError("blinds: only with opening_minimum 'none' (a blind opens the pot without openers)")
    if p.straddles and p.blinds is None:
        raise ProfileError("straddle: only with blinds (a straddle raises the big blind)")
    if p.age and (p.blinds is not None or p.opening_minimum == "none"):
        raise ProfileError("age: the blind game alternates with jack pots, which need an opening_minimum, "
                           "and has its own blind (no blinds)")
    if p.jacks_back and p.opening_minimum == "none":
        raise ProfileError("jacks_back: only when opening needs openers (opening_minimum J, Q, K or A)")
    if p.jacks_back_blind and not p.jacks_back:
        raise ProfileError("jacks_back_blind: only with jacks_back")
    if p.jacks_back_sevens and not p.jacks_back:
        raise ProfileError("jacks_back_sevens: only with jacks_back")
    if p.jacks_back_no_check_raise and not p.jacks_back:
        raise ProfileError("jacks_back_no_check_raise: only with jacks_back")
    if p.progressive_openers and p.opening_minimum == "none":
        raise ProfileError("progressive_openers: only when opening needs openers (opening_minimum J to A)")
    if p.kill is not None and p.betting == "spread":
        raise ProfileError("kill: not with spread limit (a kill pot multiplies the small and big bets)")
    if (p.betting == "spread") != (p.spread is not None):
        raise ProfileError("spread: give [min, max] exactly when betting is 'spread'")
    if p.seven_card_draw and p.blinds is None:
        raise ProfileError("seven_card_draw: played with blinds (and so opening_minimum 'none')")
    if p.seven_card_draw and p.max_draw > 4:
        raise ProfileError(f"seven_card_draw: a player draws 0 to 4 cards (max_draw 4 or less, not {p.max_draw})")
    if p.all_for_one and (p.draw_rounds > 1 or p.seven_card_draw or p.bosnian or p.ace_draws_four):
        raise ProfileError("all_for_one: has its own draws (one card or five, until the pack runs low), not with "
                           "draw_rounds, seven_card_draw, bosnian or ace_draws_four")
    if p.bosnian and p.max_draw < 4 and not p.ace_draws_four:
        raise ProfileError(f"bosnian: the exchange is a four-card draw (max_draw 4 or more, not {p.max_draw})")
    if p.ace_draws_four and p.max_draw != 3:
        raise ProfileError("ace_draws_four: only with max_draw 3 (four cards when keeping an ace)")
    return p


_MINIMUM_WORDS = {"J": "jacks", "Q": "queens", "K": "kings", "A": "aces"}
_WILD_WORDS = {"none": "no joker", "bug": "the joker as the bug", "deuces": "deuces wild",
               "joker": "the joker fully wild", "rank": "one rank wild", "widow": "wild widow"}


def game_words(profile: Profile) -> str:
    """The game a profile plays, in a line for the head of a printed ruling.

    >>> game_words(get_profile("cardroom"))
    'Five-card draw, jacks or better to open, 53 cards with the joker as the bug'
    """
    deck = f"{profile.deck_size} cards" + (" (stripped deck)" if profile.stripped_deck else "")
    rising = ", rising when nobody opens" if profile.progressive_openers else ""
    wild = _WILD_WORDS.get(profile.wild, profile.wild)
    return (f"Five-card draw, {_MINIMUM_WORDS.get(profile.opening_minimum, profile.opening_minimum)} or better "
            f"to open{rising}, {deck} with {wild}")


def house_rules(spec: str | Profile | Mapping[str, Any] | None) -> tuple[Profile, str, dict[str, Any]]:
    """The profile a table really plays, the named profile it starts from, and every option that
    differs from that one (a house profile's own choices and a table's inline overrides).

    >>> p, base, changed = house_rules({"base": "cardroom", "name": "Main room", "ante_deals": 2})
    >>> p.name, base, changed
    ('Main room', 'cardroom', {'ante_deals': 2})
    >>> house_rules("foster")[1:]
    ('foster', {})
    """
    profile = get_profile(spec)
    if isinstance(spec, Mapping):
        base = spec.get("base") or (spec.get("name") if spec.get("name") in PROFILES else "cardroom")
    else:
        base = profile.name if profile.name in PROFILES else "cardroom"
    base = base if base in PROFILES else "cardroom"
    reference = PROFILES[str(base)]
    changed = {o.name: o.value for o in profile.options() if o.value != getattr(reference, o.name)}
    return profile, str(base), changed


def toml_value(value: object) -> str:
    """An option's value as a profile's TOML spells it (the director's house-rule file, the printed
    options table, a ruling's house-rules line); None, which TOML cannot write, as ``none`` (an
    option left out of the file keeps its default).

    >>> toml_value(True), toml_value("bug"), toml_value((5, 10)), toml_value(["a", 2]), toml_value(None)
    ('true', '"bug"', '[5, 10]', '["a", 2]', 'none')
    >>> toml_value(Rake(5, 4, 20))
    '{ percent = 5, cap = 4, min_pot = 20 }'
    >>> from_toml("rake = " + toml_value(Rake(5, 4, 20))).rake
    Rake(percent=5, cap=4, min_pot=20)
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (tuple, list)):  # each item as itself: the blinds' chips are numbers, not texts
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # the rake: an inline table
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in dataclasses.asdict(value).items()) + " }"
    return str(value)


def from_toml(text: str) -> Profile:
    """A card room's own profile from TOML text (the web layer reads the file from ``instance/``).

    >>> from_toml('name = "Main room"\\nbase = "cardroom"\\nante_deals = 2').ante_deals
    2
    >>> from_toml('ante_deals = "none"').ante_deals is None
    True
    >>> from_toml('ante_deals = "three"')
    Traceback (most recent call last):
    ...
    rules.ProfileError: ante_deals: must be at least 1 or "none" (no cap), not 'three'
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"not valid TOML: {exc}") from None
    except RecursionError:  # arrays or tables nested thousands deep: no profile looks like that
        raise ProfileError("not valid TOML: it is nested too deep for a profile") from None
    # TOML has no null: the text "none" stands for "no cap" in the capped options.
    for key in ("ante_deals", "pot_limit", "raise_cap", "rake", "time_charge", "drop", "kill"):
        if data.get(key) == "none":
            data[key] = None
    try:
        return get_profile(data)
    except ProfileError as exc:  # say it the way a TOML file writes it
        raise ProfileError(str(exc).replace("or null (no cap)", 'or "none" (no cap)')) from None
