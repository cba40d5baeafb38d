"""The upper concave hull of a table of integers: the rows a realm adds for "at most most[x] stars
with x of something" (Azul's filled cells; the #s of Pendulum and Feast for Odin). Each hull segment's line lies above
every point of the table, so it keeps every integer solution; the LP can no longer take the best
rate of a long line at a small count."""
from __future__ import annotations

from typing import Sequence


def upper_hull(curve: Sequence[int]) -> list[tuple[int, int]]:
    """The upper concave hull of the points (x, curve[x]), left to right (monotone chain)."""
    hull: list[tuple[int, int]] = []
    for p in enumerate(curve):
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            # drop the middle point when it lies on or below the segment from hull[-2] to p
            if (y2 - y1) * (p[0] - x1) <= (p[1] - y1) * (x2 - x1):
                hull.pop()
            else:
                break
        hull.append(p)
    return hull
