"""What the game's knowledge prints and counts: the floor's papers and the odds.

- :mod:`rules.reports.summary`         the house rules' summary, every option in the project's words
- :mod:`rules.reports.history`         a pot's log read back as a hand history
- :mod:`rules.reports.hand_history`    the hand histories' text format, written and read
- :mod:`rules.reports.hand_text`       one hand in words (the history's lines)
- :mod:`rules.reports.promotions`      whether a hand of the log wins a promotion (high hand, bad beat)
- :mod:`rules.reports.counts`          exact counts of hands for every game
- :mod:`rules.reports.odds`            the counts and exact draw odds, printed (``python -m rules.reports.odds``)
- :mod:`rules.reports.foster_remarks`  FOSTER's remarks (F19, F23), computed from the counts
"""
