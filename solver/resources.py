"""The three resources of Rolling Realms (pumpkins, hearts, coins) as an immutable value."""
from __future__ import annotations

from dataclasses import dataclass

KINDS = ("P", "H", "C")
KIND_NAMES = {"P": "pumpkin", "H": "heart", "C": "coin"}


@dataclass(frozen=True, order=True)
class Resources:
    """A bundle of pumpkins, hearts and coins (never negative in a legal state)."""

    P: int = 0
    H: int = 0
    C: int = 0

    def __add__(self, other: "Resources") -> "Resources":
        return Resources(self.P + other.P, self.H + other.H, self.C + other.C)

    def __sub__(self, other: "Resources") -> "Resources":
        return Resources(self.P - other.P, self.H - other.H, self.C - other.C)

    def covers(self, cost: "Resources") -> bool:
        return self.P >= cost.P and self.H >= cost.H and self.C >= cost.C

    def get(self, kind: str) -> int:
        return getattr(self, kind)

    def total(self) -> int:
        return self.P + self.H + self.C

    @staticmethod
    def of(kind: str, n: int = 1) -> "Resources":
        if kind not in KINDS:
            raise ValueError(f"unknown resource {kind!r} (use P, H or C)")
        return Resources(**{kind: n})

    def __str__(self) -> str:
        parts = [f"{getattr(self, k)}{k}" for k in KINDS if getattr(self, k)]
        return " ".join(parts) if parts else "-"


NOTHING = Resources()
