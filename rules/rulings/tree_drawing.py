"""The decision tree drawn as an SVG diagram, for the printed rule summary (one dispute a page).

Questions are white boxes, leaves grey ones with their outcome code and rule ids; answers label the
lines between them.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import NamedTuple
from xml.sax.saxutils import escape

from rules.rulings.tree import Leaf, Node, Question, Tree

__all__ = ["to_svg"]


def to_svg(tree: Tree, box_width: int = 170, font_size: int = 12) -> str:
    """A left-to-right diagram as an SVG string: questions as white boxes, leaves as grey ones.

    Every leaf takes a row of its own; a question sits level with the middle of its children.
    Leaf boxes grow to fit the outcome code (nothing lies to their right); the gap after each
    column fits its longest answer label. Sizes are user units; the ``viewBox`` lets a printer
    scale the drawing to the page (for A4, one issue per page: :meth:`rules.rulings.tree.Tree.subtree`).

    >>> import xml.etree.ElementTree as ET
    >>> from rules.rulings.tree import Branch, FactSpec, Leaf, Question
    >>> t = Tree("t", Question("q", "Fine?", ("ok",), (
    ...     Branch("yes", "yes", Leaf("a", "A", ("R1",))), Branch("no", "no", Leaf("b", "B", ())))),
    ...     {"ok": FactSpec("ok", "Fine?", "bool")})
    >>> ET.fromstring(to_svg(t)).tag
    '{http://www.w3.org/2000/svg}svg'
    """
    m = _Measures(box_width, font_size)
    placed, edges, rows = _layout(tree, m, _columns(tree, m))
    width_total = max(b.x + b.width for b in placed) + m.margin
    height = 2 * m.margin + m.title_h + rows * m.row_h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width_total:.0f} {height:.0f}" '
        f'width="{width_total:.0f}" height="{height:.0f}" font-family="DejaVu Sans, sans-serif" '
        f'font-size="{font_size}">',
        f'<text x="{m.margin}" y="{m.margin + m.line_h}" font-size="{font_size + 3}" '
        f'font-weight="bold">{escape(tree.title)}</text>',
    ]
    for edge in edges:
        out += _edge_svg(edge, m)
    for box in placed:
        out += _box_svg(box, m)
    out.append("</svg>")
    return "\n".join(out)


@dataclass(frozen=True)
class _Measures:
    """The drawing's measures, all from the box width and the font size."""

    box_width: int
    font_size: int
    margin: int = 20

    @property
    def line_h(self) -> int:
        return self.font_size + 3

    @property
    def small(self) -> int:
        return self.font_size - 1

    @property
    def char_w(self) -> float:
        return self.font_size * 0.6  # DejaVu Sans runs about 0.55-0.6 em a character

    @property
    def code_w(self) -> float:
        return self.small * 0.78  # bold capitals and underscores run wider

    @property
    def chars(self) -> int:
        return max(12, int((self.box_width - 12) / self.char_w))

    @property
    def title_h(self) -> int:
        return 2 * self.line_h + 10

    @property
    def row_h(self) -> int:
        return 3 * self.line_h + 18


class _Box(NamedTuple):
    """A node placed: its column and middle, its lines (the first ``bold`` of them bold), its width."""

    node: Node
    x: float
    y: float
    lines: list[str]
    bold: int
    width: float


class _Edge(NamedTuple):
    """An answer's line, from a question's right side to its child's left side."""

    x1: float
    y1: float
    x2: float
    y2: float
    label: str


def _lines(node: Node, m: _Measures) -> tuple[list[str], int, float]:
    """The lines of a node's box, how many are bold, and its width: a leaf's outcome code, rules
    and note; a question's short form, wrapped."""
    if isinstance(node, Leaf):
        code = str(node.outcome)
        lines = [code] + ([", ".join(node.rules)] if node.rules else []) + (
            [node.note] if node.note else [])
        width = max(m.box_width, len(code) * m.code_w + 14, max(len(t) for t in lines[1:] or [""]) * m.char_w + 14)
        return lines, 1, width
    return textwrap.wrap(node.short, m.chars)[:3], 0, float(m.box_width)


def _columns(tree: Tree, m: _Measures) -> list[float]:
    """The x of each column (a depth of the tree): each gap fits the longest answer label leaving
    the column before it."""
    label_len: dict[int, int] = {}
    depth_max = 0

    def scan(node: Node, depth: int) -> None:
        nonlocal depth_max
        depth_max = max(depth_max, depth)
        if isinstance(node, Question):
            longest = max(len(b.label) for b in node.branches)
            label_len[depth] = max(label_len.get(depth, 0), longest)
            for b in node.branches:
                scan(b.node, depth + 1)

    scan(tree.root, 0)
    xs = [float(m.margin)]
    for d in range(depth_max):
        xs.append(xs[-1] + m.box_width + max(50.0, 24 + label_len.get(d, 0) * (m.small - 1) * 0.6))
    return xs


def _layout(tree: Tree, m: _Measures, xs: list[float]) -> tuple[list[_Box], list[_Edge], int]:
    """Every node placed (leaves one a row, a question level with the middle of its children),
    the answers' lines, and the number of rows."""
    placed: list[_Box] = []
    edges: list[_Edge] = []
    rows = 0

    def layout(node: Node, depth: int) -> float:
        nonlocal rows
        x = xs[depth]
        lines, bold, width = _lines(node, m)
        if isinstance(node, Leaf):
            y = m.margin + m.title_h + rows * m.row_h + m.row_h / 2
            rows += 1
        else:
            ys = [layout(b.node, depth + 1) for b in node.branches]
            y = (ys[0] + ys[-1]) / 2
            for b, cy in zip(node.branches, ys):
                edges.append(_Edge(x + m.box_width, y, xs[depth + 1], cy, b.label))
        placed.append(_Box(node, x, y, lines, bold, width))
        return y

    layout(tree.root, 0)
    return placed, edges, rows


def _edge_svg(e: _Edge, m: _Measures) -> list[str]:
    """An answer's elbowed line and its label."""
    elbow = e.x1 + 12
    return [
        f'<path d="M{e.x1:.0f},{e.y1:.0f} H{elbow:.0f} V{e.y2:.0f} H{e.x2:.0f}" fill="none" '
        f'stroke="#444" stroke-width="1"/>',
        f'<text x="{elbow + 4:.0f}" y="{e.y2 - 4:.0f}" font-size="{m.small - 1}" '
        f'fill="#222">{escape(e.label)}</text>',
    ]


def _box_svg(b: _Box, m: _Measures) -> list[str]:
    """A node's box (a leaf grey and heavier) and its lines of text."""
    h = len(b.lines) * m.line_h + 10
    top = b.y - h / 2
    if isinstance(b.node, Leaf):
        style = 'fill="#e8e8e8" stroke="#000" stroke-width="1.5"'
    else:
        style = 'fill="#fff" stroke="#000" stroke-width="1"'
    out = [f'<rect x="{b.x:.0f}" y="{top:.0f}" width="{b.width:.0f}" height="{h:.0f}" rx="5" {style}/>']
    for i, text in enumerate(b.lines):
        weight = f' font-weight="bold" font-size="{m.small}"' if i < b.bold else ""
        ty = top + 5 + (i + 1) * m.line_h - 3
        out.append(f'<text x="{b.x + 6:.0f}" y="{ty:.0f}"{weight}>{escape(text)}</text>')
    return out
