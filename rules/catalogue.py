"""The rule catalogue as data: every rule id of the project's catalogue, in the project's words.

Each :class:`Rule` has its id (``F2``), a short title, a paraphrase for printed rule summaries and
rulings, and the sources that state it (:class:`Source`). Rulings cite these ids.

>>> rule("F2").title
'False openers found before the draw'
>>> [s.value for s in rule("f7").sources]
['CARDROOM', 'GUIDE']
>>> rule("Z9")
Traceback (most recent call last):
...
rules.RulesError: unknown rule id 'Z9'
>>> len(RULES), [r.id for r in by_group("S")]
(54, ['S1', 'S2', 'S3'])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from rules import RulesError

__all__ = ["Source", "Rule", "RULES", "GROUPS", "rule", "rules", "by_group", "lookup"]


class Source(str, Enum):
    """The source texts behind the catalogue (tags as the project names them)."""

    GUIDE = "GUIDE"  # a players' guide to jacks or better with a bug
    CARDROOM = "CARDROOM"  # a modern cardroom rulebook, the floor's usual authority
    BANKED = "BANKED"  # a house-banked draw poker with a joker, played against the dealer
    PAGAT = "PAGAT"  # a survey of five-card draw and its variants
    FOSTER = "FOSTER"  # an 1897 Hoyle

    def __str__(self) -> str:
        return self.value


#: Group letter -> heading, in catalogue order.
GROUPS: dict[str, str] = {
    "H": "Cards and hands",
    "O": "Opening",
    "F": "False openers and proving openers",
    "S": "Splitting openers",
    "D": "Deal, draw, betting, showdown",
    "B": "The banked joker game",
    "P": "Odds and counts",
}


@dataclass(frozen=True)
class Rule:
    """One rule of the catalogue."""

    id: str
    title: str
    text: str
    sources: tuple[Source, ...]

    @property
    def group(self) -> str:
        """The group letter (``F`` for ``F2``)."""
        return self.id.rstrip("0123456789")

    @property
    def number(self) -> int:
        """The number within the group, for sorting (``10`` for ``D10``)."""
        return int(self.id[len(self.group):])

    def cite(self) -> str:
        """``F2 (CARDROOM, GUIDE): False openers found before the draw``."""
        return f"{self.id} ({', '.join(s.value for s in self.sources)}): {self.title}"


G, C, B, P, F = Source.GUIDE, Source.CARDROOM, Source.BANKED, Source.PAGAT, Source.FOSTER


def _r(rid: str, title: str, sources: Iterable[Source], text: str) -> Rule:
    return Rule(rid, title, " ".join(text.split()), tuple(sources))


_ALL: tuple[Rule, ...] = (
    # ---- H: cards and hands
    _r("H1", "The deck", (G, C, P, F, B), """
        A full pack of 52, or 53 when the joker is in play. The survey also knows a stripped pack of
        32 cards, aces down to sevens."""),
    _r("H2", "The bug", (G, P, C), """
        The joker is a bug, not a free wild card: it stands for an ace, or for whatever card finishes
        a straight or a flush. Nines, sevens and the bug make two pair with an ace beside them. In a
        flush the bug takes the highest rank of that suit the hand lacks. Four aces with the bug make
        five aces, the top hand, above a straight flush."""),
    _r("H3", "The casino joker", (B,), """
        In the banked game the joker becomes whatever card makes the best hand, except that in a
        flush it counts as a deuce; in a straight it makes the highest straight it can; and a hand
        using it is not beaten by an equal hand without it. This is a different wild mode, not the
        bug."""),
    _r("H4", "Deuces and other wild ranks", (P,), """
        All four deuces, or another agreed rank (in wild widow, the rank of a card turned up during
        the deal), are fully wild. Five of a kind ranks top. Except for five of a kind, a wild card
        may not copy a card the hand already holds, which only matters for flushes."""),
    _r("H5", "Ranking and ties", (F, P), """
        From the top: straight flush, four of a kind, full house, flush, straight, three of a kind,
        two pair, one pair, high card. Equal classes are settled by ranks, card by card; hands that
        stay equal share the pot. The wheel, ace to five, is the lowest straight."""),
    _r("H6", "Foul hand", (F, G), """
        At the showdown a hand holding more or fewer than five cards is foul and cannot win."""),
    _r("H7", "Southern hands", (F,), """
        Optional extra hands some old games allowed: the skip straight (every other rank, like
        2-4-6-8-T), the tiger or dog (no pair, straight or flush within a narrow span of ranks), the
        round-the-corner straight (ace joining king and deuce) and the blaze (five picture cards).
        Foster gives both their customary place and the place the odds call for. Off unless a
        profile turns them on."""),
    _r("H8", "Lowball with the fitter", (P,), """
        For low hands (jacks back) the ace ranks at the bottom and straights and flushes are ignored,
        which makes ace-to-five the lowest and winning hand. The joker there is a fitter: the lowest rank missing from the hand."""),
    _r("H9", "Declared hands", (P,), """
        Where wild cards are played at home, players often declare their own hands instead of letting
        the cards speak: the hand is what its holder says it is, and a player who says less than the
        cards hold gets only what was said."""),
    # ---- O: opening
    _r("O1", "Openers", (G, C, P, F), """
        Only a player holding jacks or better may open: any hand stronger than a pair of tens, so two
        small pairs open while tens with ace, king, queen do not. With the bug, an ace and the bug
        count as a pair of aces."""),
    _r("O2", "How the pot is opened", (C, G, P), """
        When it is a player's turn, the choices are a check, an opening bet of the minimum, or an
        opening that already raises. The guide also lets a
        player with openers announce the pot open while checking. Without openers a player can only
        pass until someone opens; after that, anyone may call or raise on any cards."""),
    _r("O3", "Nobody opens", (C, G), """
        When no one opens, the hands are thrown in, the button moves one seat, everyone antes again
        into the same pot and a new deal follows. Whether the button moves is a house option."""),
    _r("O4", "The ante cap", (C, G), """
        Antes stop once one pot has gone through a set number of deals in a row, three as a rule;
        later deals of that pot are free. The guide counts the three as redeals and also stops the
        antes when the game's pot limit is reached. Both are options of the profile."""),
    _r("O5", "Progressive openers", (P,), """
        After a deal nobody opened, the next deal needs more: queens, then kings, then aces, then
        down again through kings and queens to jacks, and so on. A house option."""),
    _r("O6", "Opening when all in for the ante", (C, G), """
        A player whose stack went into all or part of the ante may still announce the pot open when
        the cards qualify."""),
    # issue 22: seed items the given catalogue left without an id of their own (docs/rules.md)
    _r("O7", "Re-straddles", (P,), """
        Where blinds are played, the player after the big blind may post a blind raise of twice it
        (a straddle), and the next player may double that again (a re-straddle), and so on as far as
        the house allows; the betting starts after the last of them, who keeps the option to raise."""),
    # ---- F: false openers and proving openers
    _r("F1", "Openers must be proved", (C, G, P), """
        The opener wins the pot only after showing that the hand qualified. The survey applies this
        even when nobody called the opener."""),
    _r("F2", "False openers found before the draw", (C, G), """
        The false opener's hand is dead and the opening bet is left in the pot. Any later bets the
        false opener made may be taken back as long as the betting before the draw is still going
        on."""),
    _r("F3", "Reopening", (C, G), """
        Once the false opener's hand is dead, any other player still in may announce the pot open,
        except a player who passed earlier in the same deal."""),
    _r("F4", "Nobody reopens", (C, G), """
        Every bet goes back except the false opener's opening bet. That bet and the antes remain for
        the next deal, and everyone who played this deal may ante and take part in it."""),
    _r("F5", "When the pot plays regardless", (C, G), """
        Whatever the opener held, play continues if anyone raised, if at least two players called
        the opening bet, or if all the betting before the draw had finished."""),
    _r("F6", "No taking bets back", (C, G), """
        After the betting before the draw is over, the opener cannot withdraw any bet, whether or
        not the hand held openers."""),
    _r("F7", "An all-in false opener", (C, G), """
        A player all in for the ante who opens without openers loses the ante money and sits out
        every later deal of that pot until somebody else has opened it properly and won it; buying
        more chips does not change this."""),
    _r("F8", "A dead opener at the end", (P,), """
        An opener unable to show a qualifying hand cannot win. If there is a showdown the best of the
        other hands takes the pot; if everyone else folded, the pot waits for the next deal."""),
    _r("F9", "Foster's penalty", (F,), """
        A false opener loses everything put into the pot. If other players drew cards against the
        false opener, the false opener pays the ante for every other player on the next deal.
        Players who came in against the false opener keep playing for the pot."""),
    _r("F10", "Calling cannot be undone", (C,), """
        A player who calls the opener's bet after the draw and cannot beat openers does not get the
        call back: seeing the opener's cards has a price."""),
    _r("F11", "Getting discards back", (C, G), """
        The house may let an opener recover discarded cards to prove openers. It is the house's
        choice; where the profile leaves it to the floor, the floor person decides each case."""),
    _r("F12", "Holding the opening hand", (C, G), """
        Any player may ask the opener to keep the opening cards and show them once the pot has been
        decided."""),
    # ---- S: splitting openers
    _r("S1", "Declare and protect the split", (C, G, P), """
        An opener who throws away part of the openers has to announce it and keep those discards
        apart, under a chip, away from the other discards; they are shown once the hand is over."""),
    _r("S2", "A split that cannot add up", (C, G), """
        When the final hand and the protected discards together show that the opener could not have
        held openers, the opener loses the pot."""),
    _r("S3", "Keeping openers is not a split", (C,), """
        A player who still holds openers after discarding is not splitting. Holding the ace, king and
        queen of spades with the bug and the ten of clubs, throwing the ten keeps ace and bug, a pair
        of aces, while drawing at a royal flush."""),
    # ---- D: deal, draw, betting, showdown
    _r("D1", "Order", (G, C, P, F), """
        Dealing and the first round of betting begin with the player to the left of the button."""),
    _r("D2", "The draw", (G, C, P, F), """
        In turn from the first active player left of the button, each player discards and gets the
        same number of new cards, or stands pat. The most one may draw differs: three in the survey
        (four with an ace kept, five in some games), five in Foster, the house's choice in the
        guide."""),
    _r("D3", "When the deck runs short", (P, F), """
        The cards already thrown by players who have drawn are shuffled to finish the draw, never the
        protected split openers; the bottom card of the stub is not dealt."""),
    _r("D4", "Who starts the second round", (C, P, F, G), """
        The opener starts the betting after the draw, or the next player still in going clockwise if
        the opener folded. The guide starts it with the first active player after the dealer. A house
        option."""),
    _r("D5", "Limits", (C, P), """
        In a limit game the bet after the draw is double the bet before it. The survey allows a bet
        and up to four raises a round; an option."""),
    _r("D6", "Who shows first", (P,), """
        The last player to bet or raise in the final round shows first; if that round was all checks,
        the opener shows first."""),
    _r("D7", "An uncalled bet", (F,), """
        A last bet nobody calls wins without showing, except that the opener of a jack pot still has
        to show openers."""),
    _r("D8", "Wrong number of cards", (G, F), """
        After the draw a hand of more or fewer than five cards is dead. Before the draw the sources
        say nothing and rooms differ (deal the missing card, let the player draw it, or kill the
        hand): a house option."""),
    _r("D9", "Trips to win", (P,), """
        The pot can only be won with three of a kind or better. Otherwise it stays; players who
        folded before the draw drop out of it, and the rest ante again and play a fresh deal among
        themselves."""),
    _r("D10", "Jacks back", (P,), """
        When nobody opens, the same hands are played for ace-to-five low with a fresh round of
        betting."""),
    _r("D11", "The age (blind game)", (F,), """
        In the plain game the player on the dealer's left, the age, posts a blind ante, and after the
        draw the betting starts on the age's left (in a jack pot, with the opener). When no one comes
        in against the age, the next deal is played as a jack pot. A game mode, not part of the
        jacks-or-better profiles."""),
    _r("D12", "A card turned up in the draw", (F,), """
        A card exposed while the draw is being dealt is not given back at once: the player gets a
        replacement only after every other player has been helped. A matter for the floor when it
        happens."""),
    _r("D13", "More than one draw", (G, P), """
        Under dealer's choice a hand may have several draws, each followed by a round of betting; in
        all for one, players keep drawing one card or all five until the pack is nearly used up.
        House options."""),
    _r("D14", "No check-raise for low", (P,), """
        Some jacks back games forbid a player who checked from raising later in the same betting
        round, in the low part of the deal; some also play the sevens rule of California lowball.
        House options."""),
    _r("D15", "Seven-card draw", (P,), """
        A novelty game for few players: blinds instead of openers, seven cards to each player, one draw
        of up to four cards starting after the big blind (the discards reshuffled if the pack runs
        short), a second round of betting at twice the stakes, and each player shows the best five
        of the seven."""),
    _r("D16", "The Bosnian exchange", (P,), """
        A regional way of drawing four: the player first gets three cards face down, then one card face
        up and one face down, and keeps one of those two. A face-up card left behind has been seen; a
        face-down one left behind goes to the discards unseen."""),
    _r("D17", "Spread limit", (P,), """
        Instead of fixed amounts, any bet or raise between a smallest and a largest amount the house
        sets; after the draw the amounts are usually higher, typically twice, and the cap on raises
        applies as in fixed limit."""),
    # ---- B: the banked joker game
    _r("B1", "Banked game: the ante", (B,), """
        Each player plays against the dealer; the ante is a multiple of a set unit (0.3 in the
        source) between a minimum and a maximum."""),
    _r("B2", "Banked game: first decision", (B,), """
        After the deal the player folds and loses the ante, pays one more ante to exchange any number
        of cards, or bets twice the ante and stands."""),
    _r("B3", "Banked game: later decisions", (B,), """
        After a first exchange: fold, pay one initial ante to change one card, or bet. After a second
        exchange: fold or bet."""),
    _r("B4", "Banked game: the dealer's draw", (B,), """
        The dealer needs a pair of jacks to qualify and always exchanges once, in this order of
        priority: with trips, change two; with four to a flush, change one even holding a pair; with
        four to an open-ended straight, change one; with a pair, change the other three; with four to
        an inside straight, change one; else change all five."""),
    _r("B5", "Banked game: payouts", (B,), """
        If the dealer does not qualify, the ante is paid at 2 to 3 as the source gives it. A better
        dealer hand takes the ante and the bet; a worse one pays the ante at evens and the bet by the
        paytable for the player's hand. The paytable and the bonus bet are not in the source and are
        set by configuration."""),
    # ---- P: odds and counts
    _r("P1", "Hand counts and drawing odds", (F,), """
        Foster lists how many hands of each class there are and the odds against improving each hand
        by drawing; some figures are rough or wrong. The project computes exact values and shows
        Foster's beside them where they differ."""),
)

#: Every rule by id, in catalogue order.
RULES: dict[str, Rule] = {r.id: r for r in _ALL}


def rule(rule_id: str) -> Rule:
    """The rule with this id (case-insensitive); :class:`rules.RulesError` for an unknown id."""
    key = rule_id.strip().upper()
    try:
        return RULES[key]
    except KeyError:
        raise RulesError(f"unknown rule id {rule_id!r}") from None


lookup = rule


def rules(ids: Iterable[str]) -> list[Rule]:
    """The rules for several ids, in the order given.

    >>> [r.id for r in rules(["F5", "F2"])]
    ['F5', 'F2']
    """
    return [rule(i) for i in ids]


def by_group(group: str) -> list[Rule]:
    """The rules of one group letter, in order."""
    return [r for r in _ALL if r.group == group.upper()]
