"""The issues a table calls the floor for (the decision tree's fact ``issue``), in the words a
dealer reads on the button.

Each kind of dispute declares its words beside its branch of the tree (:data:`rules.rulings.DISPUTES`);
the dealer's call-the-floor form, the tablet's open call, and the floor's overview and its live
updates read them here.
"""

from __future__ import annotations

from rules.rulings import DISPUTES

__all__ = ["ISSUES"]

# The decision tree's issues (docs/contract.md, "Facts"), in the words a dealer reads on the button: each
# kind of dispute declares them (rules.rulings.DISPUTES).
ISSUES = {kind.issue: kind.dealer for kind in DISPUTES}
