"""Requirement matcher: does a multiset of dice meet one card requirement?

A requirement is a multiset of concrete values plus a number of ☀ and ☾ symbols. Equal symbols
show equal numbers; the dice must contain the concrete values and the symbol groups as one
sub-multiset (the seed: `2 2` = "at least two 2s", `☀☀☾☾` = two pairs or four of a kind).
With `sun_moon_may_match=False` (BGA reading) ☀ and ☾ must show different numbers.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Requirement:
    """One requirement alternative: concrete values (sorted), ☀ count, ☾ count."""

    values: tuple[int, ...]
    suns: int
    moons: int

    @property
    def size(self) -> int:
        return len(self.values) + self.suns + self.moons

    def __str__(self) -> str:
        return " ".join([str(v) for v in self.values] + ["S"] * self.suns + ["M"] * self.moons)


def matches(req: Requirement, dice: Iterable[int], sun_moon_may_match: bool = True) -> bool:
    """True if `dice` (any number of d6 values) contain what `req` asks for."""
    counts = Counter(dice)
    for v, n in Counter(req.values).items():
        if counts[v] < n:
            return False
        counts[v] -= n
    s, m = req.suns, req.moons
    if s == 0 and m == 0:
        return True
    if s == 0 or m == 0:
        need = s or m
        return any(c >= need for c in counts.values())
    for x, cx in counts.items():
        if cx < s:
            continue
        if sun_moon_may_match and cx >= s + m:
            return True
        for y, cy in counts.items():
            if y != x and cy >= m:
                return True
    return False


def card_matches(alternatives: Iterable[Requirement], dice: Iterable[int], sun_moon_may_match: bool = True) -> bool:
    """A card is met if any one of its printed alternatives is met."""
    d = tuple(dice)
    return any(matches(r, d, sun_moon_may_match) for r in alternatives)
