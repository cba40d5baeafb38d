"""The outlined target of a Chapter card: an exact number or an inclusive range (lo, hi)."""
from __future__ import annotations


class TargetRange:
    """Mixin for chapter setups with a `target` field (chapter 1 stars, chapter 4 resources)."""

    target: int | tuple[int, int]

    @property
    def target_range(self) -> tuple[int, int]:
        if isinstance(self.target, int):
            return (self.target, self.target)
        lo, hi = self.target
        return (int(lo), int(hi))

    def target_text(self) -> str:
        lo, hi = self.target_range
        return str(lo) if lo == hi else f"{lo}-{hi}"
