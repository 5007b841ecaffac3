"""The game's knowledge: jacks-or-better five-card draw with the bug, and its relatives.

Pure Python, no Flask, no database, no I/O. ``ls rules`` is the architecture: a package per
part of the game, a few small modules every part shares.

The parts (packages):

- :mod:`rules.jackpot`     the table engine: ``replay(setup, events)``; its events, each type
  declared once (:mod:`rules.jackpot.events`, :mod:`rules.jackpot.event_base`), the immutable
  state (:mod:`rules.jackpot.table`), the working
  table and what is allowed (:mod:`rules.jackpot.state`), the play (:mod:`rules.jackpot.flow`,
  :mod:`rules.jackpot.betting`, :mod:`rules.jackpot.seating`), the pot over its deals
  (:mod:`rules.jackpot.settlement`, :mod:`rules.jackpot.pots`), rulings at the table
  (:mod:`rules.jackpot.irregularities`), the players' requests (:mod:`rules.jackpot.requests`),
  what a log answers for a dispute (:mod:`rules.jackpot.disputes`), states as data
  (:mod:`rules.jackpot.snapshot`)
- :mod:`rules.rulings`     the floor's decision tree: ``resolve(facts, profile)``; the tree as data
  (:mod:`rules.rulings.tree`, drawn by :mod:`rules.rulings.tree_drawing`), its facts and outcome
  codes (:mod:`rules.rulings.facts`, :mod:`rules.rulings.outcomes`), its disputes
  (:mod:`rules.rulings.false_openers` F2-F10, :mod:`rules.rulings.proving` F1 F7 F8 F11 F12 S1-S3,
  :mod:`rules.rulings.card_count` H6 D8 D12, :mod:`rules.rulings.showdown` D6), each kind declared once
  (:class:`rules.rulings.facts.DisputeKind`, listed in ``rules.rulings.DISPUTES``)
- :mod:`rules.hands`       variants and hands: evaluation (natural, bug, any wild rank, wild widow,
  the casino joker, the stripped deck, southern hands, ace-to-five low), its context
  :class:`rules.hands.HandRules`
- :mod:`rules.reports`     what is printed and counted: the rule summary, hand histories, exact
  counts and draw odds, FOSTER's remarks
- :mod:`rules.banked`      the banked joker game (the BANKED seed)
- :mod:`rules.tournament`  the tournament floor: structure, clock, seating, balancing, chops, results

Shared by every part (modules):

- :mod:`rules.cards`     cards, decks and their text notation
- :mod:`rules.openers`   the opening requirement and the one proof of openers (O1, O5, F1, S1-S3)
- :mod:`rules.profiles`  house-rule profiles: where the sources disagree, a named option
- :mod:`rules.bounds`    the bounds a house rule's number may take
- :mod:`rules.house`     the house's money as a profile holds it: rake, time collection, drop, kill pots
- :mod:`rules.catalogue` every rule id in the project's own words, with its sources
- :mod:`rules.parse`     seats, chips and counts read once at the edge
- :mod:`rules.memo`      what a pure function of plain data gave, remembered (a profile's options read once)
- :mod:`rules.words`     plain words for rulings (headlines, seats, chips)
- :mod:`rules.registry`  a game's event types declared once: who logs each, its rules' "may it
  happen now" and "what it does" (the banked game's; the jackpot engine keeps its own for now)

Rule ids (``O4``, ``F7``, ...) are those of the project's rule catalogue (docs/rules.md).

The exceptions every caller may meet are defined here so that the web layer can catch
them without knowing which module raised them:

>>> issubclass(IllegalAction, ValueError), issubclass(CardError, ValueError)
(True, True)
>>> str(MissingFact("opener_all_in"))
'missing fact: opener_all_in'
"""

from __future__ import annotations

__all__ = ["RulesError", "CardError", "IllegalAction", "MissingFact", "ProfileError"]


class RulesError(ValueError):
    """Base of every error the rules raise about their input."""


class CardError(RulesError):
    """Card text that cannot be read: an unknown card, a duplicate, a wrong count.

    The message names the offending card.
    """


class IllegalAction(RulesError):
    """An event the rules forbid in the current state.

    The message says what was wrong and what is allowed now (whose turn, which
    actions, which amounts).
    """


class ProfileError(RulesError):
    """A house-rule profile with an unknown option or a value out of range."""


class MissingFact(RulesError, LookupError):
    """The decision tree needs a fact the caller did not give; it never guesses.

    ``fact`` names it, ``question`` is how a floor person would be asked.
    """

    def __init__(self, fact: str, question: str = "") -> None:
        super().__init__(fact)
        self.fact = fact
        self.question = question

    def __str__(self) -> str:
        return f"missing fact: {self.fact}"
