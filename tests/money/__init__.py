"""Who gets each chip: a money model of the jacks-or-better table written apart from ``rules/``
(:mod:`tests.money.model`), and a bounded, exhaustive search over combinations of the mistakes the
seeds name, played with real cards, each state checked against the model
(:mod:`tests.money.search`; ``make search`` runs the long one, ``tests/test_money_search.py`` a
short one)."""
