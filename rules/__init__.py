"""The game's knowledge: jacks-or-better five-card draw with the bug, and its relatives.

Pure Python, no Flask, no database, no I/O. The modules, each named for what it holds:

- :mod:`rules.cards`     cards, decks and their text notation
- :mod:`rules.hands`     hand evaluation (natural, bug, deuces or any wild rank, wild widow, casino
                         joker; the stripped deck; southern hands; ace-to-five low), its context
                         :class:`rules.hands.HandRules`
- :mod:`rules.openers`   the opening requirement and the one proof of openers (O1, O5, F1, S1-S3)
- :mod:`rules.counts`    exact counts of hands for every game
- :mod:`rules.odds`      the counts and exact draw odds, printed (``python -m rules.odds``)
- :mod:`rules.profiles`  house-rule profiles: where the sources disagree, a named option
- :mod:`rules.catalogue` every rule id in the project's own words, with its sources
- :mod:`rules.parse`     seats, chips and counts read once at the edge
- :mod:`rules.events`    the log's events, read into frozen values
- :mod:`rules.jackpot`   the table engine's front door: ``replay(setup, events)``; behind it
  :mod:`rules.table` (the immutable state), :mod:`rules.state` (the working table and what is
  allowed), :mod:`rules.flow` (the play), :mod:`rules.settlement` (the pot over its deals),
  :mod:`rules.irregularities` (rulings at the table), :mod:`rules.snapshot` (states as data)
- :mod:`rules.rulings`   the floor decision tree: ``resolve(facts, profile)``; its disputes in
  :mod:`rules.false_openers` (F2-F10), :mod:`rules.proving` (F1, F7, F8, F11, F12, S1-S3),
  :mod:`rules.card_count` (H6, D8); its facts in :mod:`rules.facts`, its codes in
  :mod:`rules.outcomes`; the tree itself in :mod:`rules.tree`, drawn by :mod:`rules.tree_drawing`
- :mod:`rules.disputes`  what a table's log already answers for a dispute
- :mod:`rules.words`     plain words for rulings (headlines, seats, chips)

Rule ids (``O4``, ``F7``, ...) are those of the project's rule catalogue (RULES.md).

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
