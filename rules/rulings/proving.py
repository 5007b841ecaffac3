"""Proving openers in the decision tree: an opener who cannot show openers (F1, F7, F8, F9 at the
show, F12), split openers (S1-S3) and retrieving discards (F11). Every question that reads cards
asks the one proof of openers, :func:`rules.openers.proof`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import RulesError
from rules.hands import Declared, declare
from rules.rulings.facts import FACTS, DisputeKind, card_text, cards, yes_no
from rules.rulings.outcomes import Move, Outcome
from rules.profiles import Profile
from rules.rulings.tree import Facts, Leaf, Node, Question

__all__ = ["OPENER_CANNOT_SHOW", "SPLIT_OPENERS", "DISCARD_RETRIEVAL", "card_checks", "cannot_show_node",
           "split_openers_node", "retrieval_node", "declared_fact", "showdown_value", "worth_makes_trips"]

_M = Move
_O = Outcome
#: What every leaf about an opener's proof needs: the seat that opened.
_OPENER = ("opener",)


def _all_in_at_show(f: Facts) -> tuple[str, str]:
    # F7 bars an all-in false opener however it came to light. At the show the fact is taken when
    # known (the engine always knows it, a floor page asks it): left out, no bar is imposed, for a
    # penalty is never applied on a guess.
    if f.get("opener_all_in"):
        return "yes", "The opener was all in for the ante (F7)."
    if f.get("opener_all_in") is None:
        return "no", "Whether the opener was all in for the ante is not known, so no bar is imposed (F7)."
    return "no", "The opener was not all in for the ante (F7)."


def card_checks(profile: Profile) -> dict[str, Any]:
    """The derived questions that read cards, bound to the profile's wild mode and minimum.

    >>> from rules.profiles import get_profile
    >>> sorted(card_checks(get_profile("cardroom")))
    ['could_have', 'kept', 'opening_known', 'opening_qualifies', 'shows_openers']
    """
    proof = _Proof(profile)
    return {
        "shows_openers": proof.shows_openers,
        "opening_known": proof.opening_known,
        "kept": proof.kept,
        "opening_qualifies": proof.opening_qualifies,
        "could_have": proof.could_have,
    }


@dataclass(frozen=True)
class _Proof:
    """The proof of openers (:func:`rules.openers.proof`) bound to a table's game: each method
    answers one question of the tree that reads cards, with the words that say why."""

    profile: Profile

    def minimum(self, f: Facts) -> str:
        """The deal's requirement: the profile's, or the fact where openers progress (O5)."""
        return str(f["requirement"]) if self.profile.progressive_openers else self.profile.opening_minimum

    def proves(self, f: Facts, final: Any, drawn: int, escrow: Any) -> tuple[Any, ...] | None:
        """The cards kept from the opening hand that hold openers, or None (the one proof of openers)."""
        from rules.openers import proof

        return proof(cards(final), drawn, cards(escrow or ()), wild=hand_rules_of(self.profile, f),
                     minimum=self.minimum(f))

    def shows_openers(self, f: Facts) -> tuple[str, str]:
        """Whether the cards the opener shows prove openers: the opening hand (F12), or the final
        hand's kept cards with any escrow (F1)."""
        hand = f.get("opening_hand")
        if hand is not None:
            # the opening hand itself is shown (F12): it proves openers as it was dealt
            if self.proves(f, hand, 0, ()) is not None:
                return "yes", f"The opener shows the opening hand {card_text(hand)}, which opens (O1)."
            return "no", f"The opener shows the opening hand {card_text(hand)}, which does not open (O1)."
        final = f.get("final_hand")
        if final is None:
            return "no", "The opener cannot show the hand, so cannot prove openers (F1)."
        drawn, escrow = f["drawn"], f.get("discards")
        if drawn is None:
            return "no", (f"The opener shows {card_text(final)}, but how many cards were drawn is not known, so "
                          "the cards kept from the opening hand cannot be told apart (F1).")
        kept = self.proves(f, final, drawn, escrow)
        if kept is not None:
            return "yes", (f"The opener shows {card_text(final)} after drawing {drawn}: {card_text(kept)}, kept "
                           "from the opening hand, hold openers (F1, O1).")
        return "no", (f"The opener shows {card_text(final)} after drawing {drawn}: no {5 - drawn} of those cards "
                      + ("with the escrow " if escrow else "") + "hold openers, and what the draw brought "
                      "proves nothing (F1).")

    def opening_known(self, f: Facts) -> tuple[str, str]:
        """Whether the split opener's hand before the draw is known (else the escrow decides, S1)."""
        if f.get("opening_hand") is None:
            return "no", "The hand held before the draw is not known, so the escrowed discards decide (S1)."
        return "yes", f"The hand held before the draw is known: {card_text(f['opening_hand'])}."

    def kept(self, f: Facts) -> tuple[str, str]:
        """Whether the split opener kept openers after throwing the escrowed cards (S1, S3)."""
        from rules.openers import keeps_openers

        if keeps_openers(cards(f["opening_hand"]), cards(f["discards"] or ()), wild=hand_rules_of(self.profile, f),
                         minimum=self.minimum(f)):
            return "yes", f"After throwing {card_text(f['discards'] or ())} the opener still held openers (S3)."
        return "no", f"Throwing {card_text(f['discards'] or ())} broke the openers (S1)."

    def opening_qualifies(self, f: Facts) -> tuple[str, str]:
        """Whether the hand before the draw held openers (O1, S2)."""
        if self.proves(f, f["opening_hand"], 0, ()) is not None:
            return "yes", "The hand before the draw did hold openers (O1)."
        return "no", "The hand before the draw did not hold openers (S2)."

    def could_have(self, f: Facts) -> tuple[str, str]:
        """Whether cards of the final hand with the escrowed discards can make openers (S2)."""
        final, discards = f["final_hand"], f["discards"] or ()
        if final is None:
            return "no", "The final hand is gone, so nothing can be compared with the discards (S2)."
        thrown = cards(discards)
        drawn = f.get("drawn")
        if drawn is not None and drawn != len(thrown):
            return "no", (f"The opener drew {drawn} but kept {len(thrown)} under the chip: a split keeps every "
                          "discard apart (S1), so openers cannot be proved (S2).")
        words_final, words_thrown = card_text(final), card_text(discards)
        if self.proves(f, final, len(thrown), thrown) is not None:
            return "yes", f"Cards of the final hand {words_final} with the discards {words_thrown} can make openers (S2)."
        return "no", f"No cards of the final hand {words_final} with the discards {words_thrown} make openers (S2)."


def declared_fact(p: Profile) -> tuple[str, ...]:
    """H9: where cards do not speak, a question that weighs the hands shown also reads what each
    player declared (the fact ``declared``); elsewhere nothing more."""
    return ("declared",) if p.declared_hands else ()


def showdown_value(p: Profile, f: Facts, seat: int, hand: Any) -> Any:
    """A five-card hand's worth at the showdown: its cards, or where cards do not speak (H9) the
    class its holder declared, as the best hand of that class the cards make
    (:func:`rules.hands.declare`, the table's check at the show), refused when the cards cannot
    make it or when none was declared."""
    from rules.hands import evaluate

    rules = hand_rules_of(p, f)
    if not p.declared_hands:
        return evaluate(cards(hand), rules)
    declared = f["declared"].get(seat)
    if declared is None:
        raise RulesError(f"declared: seat {seat} showed {card_text(hand)} without a declared hand; where "
                         "the cards do not speak each player declares the hand (H9)")
    try:
        return declare(cards(hand), declared, rules)
    except ValueError as exc:
        raise RulesError(f"declared: seat {seat} declared {declared.replace('_', ' ')} with {card_text(hand)}: "
                         f"{exc} (H9)") from None


def worth_makes_trips(p: Profile, f: Facts, worth: Any) -> bool:
    """D9 trips to win: whether a hand's worth at the showdown (:func:`showdown_value`) is three of a
    kind or better, as declared where cards do not speak (H9)."""
    from rules.hands import trips_or_better

    rules = hand_rules_of(p, f)
    if isinstance(worth, Declared):
        return bool(worth.rank >= rules.categories.index("three_of_a_kind"))
    return bool(trips_or_better(worth, rules))


def makes_trips(p: Profile, f: Facts, seat: int, hand: Any) -> bool:
    """D9 trips to win: three of a kind or better, as declared where cards do not speak (H9)."""
    return worth_makes_trips(p, f, showdown_value(p, f, seat, hand))


def _others_make_trips(p: Profile) -> Any:
    def derive(f: Facts) -> tuple[str, str]:
        for seat, hand in f["hands"].items():
            if seat == f["opener"] or hand is None or len(cards(hand)) != 5:
                continue
            if makes_trips(p, f, seat, hand):
                said = f" declared {f['declared'][seat].replace('_', ' ')}" if p.declared_hands else ""
                return "yes", f"Seat {seat} shows {card_text(hand)}{said}, three of a kind or better (D9)."
        return "no", "No other hand shown makes three of a kind or better (D9" + (", H9)." if p.declared_hands else ").")
    return derive


def _trips_question(p: Profile, best_other: Node) -> Node:
    """With trips to win, the best other hand takes the pot only with three of a kind or better;
    otherwise the pot stays for those who showed down (D9)."""
    if not p.trips_to_win:
        return best_other
    stays = Leaf("cs_trips_pot_stays", _O.OPENER_DEAD_POT_STAYS, ("F1", "F8", "D9"),
                 (_M.OPENER_DEAD, _M.POT_STAYS, _M.SHOWDOWN_PLAYS_ON), ("opener",), "no trips: pot stays",
                 "{Opener} cannot prove openers, so {opener}'s hand is dead (F1), and no other hand shown "
                 "makes three of a kind or better: nobody may win the pot, which stays for the next deal "
                 "among the players who did not fold (D9).")
    return Question("cs_trips", "Does any other hand shown make three of a kind or better?",
                    ("opener", "hands", *_requirement(p), *declared_fact(p)), yes_no(best_other, stays),
                    derive=_others_make_trips(p),
                    title="Another hand makes trips?", rules=("D9",))


def _requirement(p: Profile) -> tuple[str, ...]:
    """The facts every question that reads cards needs besides its own: the requirement of the
    deal (progressive openers, O5) and, in wild widow, the widow card (H4)."""
    return (("requirement",) if p.progressive_openers else ()) + (("widow",) if p.wild == "widow" else ())


def hand_rules_of(p: Profile, f: Facts) -> Any:
    """How the dispute's hands are read: the profile's rules, with the widow's rank wild (H4)."""
    return p.hand_rules.with_widow(str(card_text(f["widow"]))) if p.wild == "widow" else p.hand_rules


def cannot_show_node(p: Profile) -> Node:
    """The opener is asked to show openers (F1, F8; F7 for an all-in opener; F9 in Foster's game).

    >>> from rules.profiles import get_profile
    >>> node = cannot_show_node(get_profile("cardroom"))
    >>> node.id, [b.node.id for b in node.branches]
    ('cs_shows', ['cs_proved', 'cs_folded'])
    """
    req = _requirement(p)
    proved = Leaf("cs_proved", _O.OPENER_PROVED, ("F1", "O1"), (_M.OPENER_STANDS, _M.POT_PLAYS), _OPENER,
                  "the hand stands", "{Opener} has proved openers (F1); the hand stands and play goes on.")
    not_proved = _foster_not_proved(p) if p.false_openers == "foster" else _cardroom_not_proved(p)
    return Question(
        "cs_shows", "Do the cards the opener shows prove openers: the opening hand itself, or cards of "
        "the final hand the opener kept (with any escrow)?",
        ("opening_hand", "final_hand", "drawn", "discards", *req), yes_no(proved, not_proved),
        derive=card_checks(p)["shows_openers"], title="Opener proves openers?", rules=("F1", "O1", "F12"),
        when_known=("opening_hand", "final_hand", "discards"))


def _cardroom_not_proved(p: Profile) -> Node:
    """An opener who cannot prove openers, the cardroom way: everyone else folded, the pot stays
    (F1, F8) and an all-in opener is barred (F7); otherwise the best other hand wins (F8, D9)."""
    stays_text = ("{Opener} cannot prove openers and so cannot win the pot, even though everyone "
                  "else folded (F1). The pot stays for the next deal (F8).")
    return Question(
        "cs_folded", FACTS["everyone_folded"].question, ("everyone_folded",), yes_no(
            # F7: found at the show or found before the draw, an all-in false opener is barred
            Question("cs_all_in", FACTS["opener_all_in"].question, ("opener_all_in",), yes_no(
                Leaf("cs_pot_stays_barred", _O.OPENER_DEAD_POT_STAYS, ("F1", "F8", "F7"),
                     (_M.OPENER_DEAD, _M.BAR_OPENER, _M.POT_STAYS), _OPENER, "pot stays; opener barred",
                     stays_text + " {Opener} was all in for the ante and opened without openers: "
                     "the ante money is lost and {opener} is dealt out of this pot's deals until "
                     "someone else has opened it legally and won it, even after buying more chips (F7)."),
                Leaf("cs_pot_stays", _O.OPENER_DEAD_POT_STAYS, ("F1", "F8"), (_M.OPENER_DEAD, _M.POT_STAYS),
                     _OPENER, "pot stays for next deal", stays_text)),
                derive=_all_in_at_show, title="Opener all in for the ante?", rules=("F7",),
                when_known=("opener_all_in",)),
            _trips_question(p, Leaf(
                "cs_best_other", _O.OPENER_DEAD_BEST_OTHER_WINS, ("F1", "F8", "H5", "H6"),
                (_M.OPENER_DEAD, _M.BEST_OTHER_WINS), (*_OPENER, "hands", *_requirement(p), *declared_fact(p)),
                "best other hand wins",
                "{Opener} cannot prove openers, so {opener}'s hand is dead (F1); the best of the "
                "other hands shown takes the pot (F8)."))),
        title="Everyone else folded?", rules=("F8",))


def _foster_not_proved(p: Profile) -> Node:
    """An opener who cannot prove openers in Foster's game (F9): everything put in is forfeit; the
    pot stays if everyone else folded, else the best other hand wins (D9 too); antes for all when
    drawn to."""
    return Question(
        "cs_folded", FACTS["everyone_folded"].question, ("everyone_folded",), yes_no(
            _drawn_q("cs_folded_drawn_to", _foster_forfeit("cs_forfeit_drawn", True),
                     _foster_forfeit("cs_forfeit", False)),
            # D9 holds in Foster's game too: without trips no other hand takes the pot
            _trips_question(p, _drawn_q("cs_showdown_drawn_to", _foster_best_other(p, "cs_best_drawn", True),
                                        _foster_best_other(p, "cs_best", False)))),
        title="Everyone else folded?", rules=("F9",))


def _drawn_q(qid: str, yes: Node, no: Node) -> Question:
    """Whether others drew against the false opener's hand (F9: then the opener antes for all)."""
    return Question(qid, FACTS["drawn_to"].question, ("drawn_to",), yes_no(yes, no),
                    title="Drawn to?", rules=("F9",))


def _foster_forfeit(lid: str, antes: bool) -> Leaf:
    """Foster's forfeit with everyone else folded (F9, D7): the pot stays for the next deal."""
    text = ("{Opener} cannot prove openers, so cannot take the pot even uncalled (D7); "
            "everything {opener} put in is forfeit and the pot stays for the next deal (F9).")
    return Leaf(lid, _O.FOSTER_FORFEIT, ("F9", "D7"), _foster_moves(antes, _M.POT_STAYS), _OPENER,
                "pot stays" + ("; antes for all" if antes else ""), text + (_ANTES_FOR_ALL if antes else ""))


def _foster_best_other(p: Profile, lid: str, antes: bool) -> Leaf:
    """Foster's forfeit at a showdown (F9, D7): the players who came in play for the pot (H5, H6)."""
    text = ("{Opener} cannot prove openers; the hand is dead and what {opener} put in is "
            "forfeit (F9, D7). The players who came in play for the pot (F9).")
    return Leaf(lid, _O.OPENER_DEAD_BEST_OTHER_WINS, ("F9", "D7", "H5", "H6"),
                _foster_moves(antes, _M.BEST_OTHER_WINS), (*_OPENER, "hands", *_requirement(p), *declared_fact(p)),
                "best other" + ("; antes for all" if antes else ""), text + (_ANTES_FOR_ALL if antes else ""))


#: Foster's penalty when others drew against the false opener's hand (F9).
_ANTES_FOR_ALL = " Because others drew against the hand, {opener} antes for every other player next deal (F9)."


def _foster_moves(antes: bool, then: Move) -> tuple[Move, ...]:
    """Foster's penalty as moves (F9): the hand dead, its chips forfeit, antes for all when drawn
    to, then what becomes of the pot."""
    return (_M.OPENER_DEAD, _M.OPENER_FORFEITS, *((_M.OPENER_ANTES_FOR_ALL,) if antes else ()), then)


def _foster_split_failed(lid: str, text: str) -> Node:
    """Foster's game (F9): the opener whose split proves false forfeits what it put in, loses the
    pot to the best other hand, and antes for all the others next deal when they drew against it."""
    def leaf(antes: bool) -> Leaf:
        moves = (_M.OPENER_DEAD, _M.OPENER_FORFEITS, *((_M.OPENER_ANTES_FOR_ALL,) if antes else ()), _M.POT_PLAYS)
        more = (" Because others drew against the hand, {opener} antes for every other player next deal (F9)."
                if antes else " Nobody drew against the hand, so there is no penalty ante (F9).")
        return Leaf(f"{lid}_{'drawn' if antes else 'undrawn'}", _O.SPLIT_FAILED, ("S1", "S2", "F9"), moves,
                    ("opener",), "opener loses the pot" + ("; antes for all" if antes else ""), text + more)

    return Question(f"{lid}_drawn_to", FACTS["drawn_to"].question, ("drawn_to",), yes_no(leaf(True), leaf(False)),
                    title="Drawn to?", rules=("F9",))


def split_openers_node(p: Profile) -> Node:
    """Split openers (S1-S3): kept openers is no split; the escrow proves the rest."""
    checks, req = card_checks(p), _requirement(p)
    # ---- split openers
    sp_base = ("opener",)
    verified = Leaf("sp_verified", _O.SPLIT_VERIFIED, ("S1", "S2"), (_M.OPENER_STANDS, _M.POT_PLAYS), sp_base,
                    "opener may win the pot",
                    "{Opener} split openers and the cards prove that the hand held openers (S1, S2); "
                    "the hand stands.")
    failed_text = ("{Opener} split openers but could not have held openers, so {opener} loses the pot "
                   "(S2); it goes to the best other live hand.")
    failed: Node = Leaf("sp_failed", _O.SPLIT_FAILED, ("S1", "S2"), (_M.OPENER_DEAD, _M.POT_PLAYS), sp_base,
                        "opener loses the pot", failed_text)
    failed_escrow: Node = Leaf("sp_failed_escrow", _O.SPLIT_FAILED, ("S1", "S2"), (_M.OPENER_DEAD, _M.POT_PLAYS),
                               sp_base, "opener loses the pot", failed_text)
    if p.false_openers == "foster":
        # F9: a split that could not have held openers shows a false opener, who pays Foster's
        # penalty as one found any other way (the false-openers and cannot-show branches do)
        failed, failed_escrow = (_foster_split_failed(lid, failed_text) for lid in ("sp_failed", "sp_failed_escrow"))
    split = Question(
        "sp_known", "Is the opener's hand before the draw known?", ("opening_hand",), yes_no(
            Question("sp_kept", "Do the cards the opener kept still hold openers?",
                     ("opening_hand", "discards", *req), yes_no(
                         Leaf("sp_not_splitting", _O.NOT_SPLITTING, ("S3",), (_M.OPENER_STANDS, _M.POT_PLAYS), sp_base,
                              "no split to prove",
                              "{Opener} kept openers after the discard, so this is not splitting "
                              "openers (S3); nothing more needs proving and the hand stands."),
                         Question("sp_opening_qualifies", "Did the hand before the draw hold openers?",
                                  ("opening_hand", *req), yes_no(verified, failed),
                                  derive=checks["opening_qualifies"], title="Opening hand qualifies?",
                                  rules=("O1", "S2"))),
                     derive=checks["kept"], title="Kept openers?", rules=("S3",)),
            Question("sp_could_have", "Could some cards of the final hand, with the escrowed discards, "
                     "have made openers?", ("final_hand", "discards", "drawn", *req), yes_no(
                         Leaf("sp_verified_escrow", _O.SPLIT_VERIFIED, ("S1", "S2"), (_M.OPENER_STANDS, _M.POT_PLAYS), sp_base,
                              verified.note, verified.text),
                         failed_escrow),
                     derive=checks["could_have"], title="Final hand + discards could open?",
                     rules=("S1", "S2"), when_known=("drawn",))),
        derive=checks["opening_known"], title="Opening hand known?", rules=("F12",), when_known=("opening_hand",))
    return split


def retrieval_node(p: Profile) -> Node:
    """Retrieving discards to prove openers (F11): as the house rule says, or the floor decides."""
    # ---- retrieving discards
    rd_base = ("opener",)
    retrieved = Leaf("rd_retrieved", _O.DISCARDS_RETRIEVED, ("F11",), (_M.POT_PLAYS,), rd_base, "discards come back",
                     "{Opener}'s discards are taken back from the discard pile so that openers can be "
                     "proved (F11).")
    refused = Leaf("rd_refused", _O.RETRIEVAL_REFUSED, ("F11",), (_M.POT_PLAYS,), rd_base, "no retrieval",
                   "{Opener}'s discards are not taken back (F11); openers must be proved from the cards "
                   "in hand and any escrowed split.")
    if p.discard_retrieval == "always":
        retrieval: Node = Leaf(retrieved.id, retrieved.outcome, retrieved.rules, (_M.POT_PLAYS,), rd_base,
                               "house rule: always", retrieved.text)
    elif p.discard_retrieval == "never":
        retrieval = Leaf(refused.id, refused.outcome, refused.rules, (_M.POT_PLAYS,), rd_base, "house rule: never",
                         refused.text)
    else:
        retrieval = Question("rd_allowed", FACTS["retrieval_allowed"].question, ("retrieval_allowed",),
                             yes_no(retrieved, refused), title="Floor allows retrieval?", rules=("F11",))
    return retrieval


OPENER_CANNOT_SHOW = DisputeKind("opener_cannot_show", "opener cannot show openers", "cannot show",
                                 "Opener cannot show openers", cannot_show_node,
                                 "{Opener} opened the pot and is asked to show openers.")
SPLIT_OPENERS = DisputeKind("split_openers", "split openers", "split openers", "Split openers do not add up",
                            split_openers_node, "{Opener} opened and discarded part of the opening cards.")
DISCARD_RETRIEVAL = DisputeKind("discard_retrieval", "retrieving discards", "retrieval",
                                "Opener asks to retrieve discards", retrieval_node,
                                "{Opener} asks for the discards back to prove openers.")
