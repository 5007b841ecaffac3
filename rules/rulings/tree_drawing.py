"""The decision tree drawn as an SVG diagram, for the printed rule summary (one dispute a page).

Questions are white boxes, leaves grey ones with their outcome code and rule ids; answers label the
lines between them.
"""

from __future__ import annotations

import textwrap
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
    line_h = font_size + 3
    small = font_size - 1
    char_w = font_size * 0.6  # DejaVu Sans runs about 0.55-0.6 em a character
    code_w = small * 0.78  # bold capitals and underscores run wider
    chars = max(12, int((box_width - 12) / char_w))
    margin = 20
    title_h = 2 * line_h + 10

    def box(node: Node) -> tuple[list[str], int, float]:
        """The lines of a box, how many are bold, and its width."""
        if isinstance(node, Leaf):
            code = str(node.outcome)
            lines = [code] + ([", ".join(node.rules)] if node.rules else []) + (
                [node.note] if node.note else [])
            width = max(box_width, len(code) * code_w + 14, max(len(t) for t in lines[1:] or [""]) * char_w + 14)
            return lines, 1, width
        return textwrap.wrap(node.short, chars)[:3], 0, float(box_width)

    # column positions: each gap fits the longest answer label leaving that column
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
    xs = [float(margin)]
    for d in range(depth_max):
        xs.append(xs[-1] + box_width + max(50.0, 24 + label_len.get(d, 0) * (small - 1) * 0.6))
    row_h = 3 * line_h + 18

    placed: list[tuple[Node, float, float, list[str], int, float]] = []
    edges: list[tuple[float, float, float, float, str]] = []
    rows = 0

    def layout(node: Node, depth: int) -> float:
        nonlocal rows
        x = xs[depth]
        lines, bold, width = box(node)
        if isinstance(node, Leaf):
            y = margin + title_h + rows * row_h + row_h / 2
            rows += 1
        else:
            ys = [layout(b.node, depth + 1) for b in node.branches]
            y = (ys[0] + ys[-1]) / 2
            for b, cy in zip(node.branches, ys):
                edges.append((x + box_width, y, xs[depth + 1], cy, b.label))
        placed.append((node, x, y, lines, bold, width))
        return y

    layout(tree.root, 0)
    width_total = max(x + w for _, x, _, _, _, w in placed) + margin
    height = 2 * margin + title_h + rows * row_h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width_total:.0f} {height:.0f}" '
        f'width="{width_total:.0f}" height="{height:.0f}" font-family="DejaVu Sans, sans-serif" '
        f'font-size="{font_size}">',
        f'<text x="{margin}" y="{margin + line_h}" font-size="{font_size + 3}" '
        f'font-weight="bold">{escape(tree.title)}</text>',
    ]
    for x1, y1, x2, y2, label in edges:
        elbow = x1 + 12
        out.append(
            f'<path d="M{x1:.0f},{y1:.0f} H{elbow:.0f} V{y2:.0f} H{x2:.0f}" fill="none" '
            f'stroke="#444" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{elbow + 4:.0f}" y="{y2 - 4:.0f}" font-size="{small - 1}" '
            f'fill="#222">{escape(label)}</text>'
        )
    for node, x, y, lines, bold, width in placed:
        h = len(lines) * line_h + 10
        top = y - h / 2
        if isinstance(node, Leaf):
            style = 'fill="#e8e8e8" stroke="#000" stroke-width="1.5"'
        else:
            style = 'fill="#fff" stroke="#000" stroke-width="1"'
        out.append(
            f'<rect x="{x:.0f}" y="{top:.0f}" width="{width:.0f}" height="{h:.0f}" rx="5" {style}/>'
        )
        for i, text in enumerate(lines):
            weight = f' font-weight="bold" font-size="{small}"' if i < bold else ""
            ty = top + 5 + (i + 1) * line_h - 3
            out.append(f'<text x="{x + 6:.0f}" y="{ty:.0f}"{weight}>{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out)
