"""Polyomino helpers shared by the realms that place shapes (A Feast for Odin, Tapestry)."""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction

Cell = tuple[int, int]


def orientations(cells: Iterable[Cell], mirror: bool = True) -> set[tuple[Cell, ...]]:
    """Every rotation (and, with mirror, mirror image) of a shape, normalised to start at (0, 0)."""
    out = set()
    pts = list(cells)
    for flip in ((False, True) if mirror else (False,)):
        cur = [(r, -c) if flip else (r, c) for r, c in pts]
        for _ in range(4):
            cur = [(c, -r) for r, c in cur]
            mr = min(r for r, _ in cur)
            mc = min(c for _, c in cur)
            out.add(tuple(sorted((r - mr, c - mc) for r, c in cur)))
    return out


def cells_text(cells: Iterable[Cell]) -> str:
    """Cells as 1-based row-column digit pairs joined by '+', like 11+12."""
    return "+".join(f"{r + 1}{c + 1}" for r, c in sorted(cells))


def parse_cells(text: object, realm: str, merge_repeats: bool = False) -> tuple[Cell, ...]:
    """The inverse of cells_text; a malformed text is an IllegalAction naming the realm."""
    out = []
    for p in str(text).split("+"):
        if len(p) != 2 or not p.isdigit():
            raise IllegalAction(f"{realm}: cells are row-column digit pairs joined by '+', like 11+12 (got {text!r})")
        out.append((int(p[0]) - 1, int(p[1]) - 1))
    return tuple(sorted(set(out) if merge_repeats else out))
