"""The floor's decision tree drawn for a printed rule summary: one diagram per kind of dispute, as
SVG in the page itself (a PDF loads nothing from outside the document). The jackpot profiles'
summaries (:mod:`floor.prints.views`) and the banked tables' (:mod:`floor.banked.views`) print them.
"""

from __future__ import annotations

import base64
import dataclasses
import re

from markupsafe import Markup

from rules.profiles import Profile
from rules.rulings import build_tree
from rules.rulings.tree import Tree
from rules.rulings.tree_drawing import to_svg

__all__ = ["tree_diagrams"]


def tree_diagrams(p: Profile | Tree) -> list[tuple[str, Markup, int, int]]:
    """One diagram per kind of dispute: (heading, SVG as a data URI, width, height); of the profile's
    floor tree, or of a tree given (the banked tables' disputes)."""
    tree = p if isinstance(p, Tree) else build_tree(p)
    out = []
    for branch in tree.root.branches:  # type: ignore[union-attr]
        # The page heading names the dispute; the diagram's own title would only repeat it.
        sub = dataclasses.replace(tree.subtree(branch.key), title="")
        svg = to_svg(sub)
        match = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
        width, height = (int(match.group(1)), int(match.group(2))) if match else (800, 400)
        uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
        out.append((branch.label, Markup(uri), width, height))
    return out
