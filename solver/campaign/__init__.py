"""Campaign "Beyond the Realmiverse" (seed 003): chapter checkers layered over the base engine.

Only chapter 1 is done; see docs/campaign.md."""
from .chapter1 import (
    MAX_PUMPKINS,
    MAX_UNSPENT,
    Chapter1,
    Chapter1Verdict,
    apply_chapter1_activation,
    check_activation,
    check_chapter1,
    die_placements,
    die_usable,
    judge_end,
)

__all__ = [
    "MAX_PUMPKINS",
    "MAX_UNSPENT",
    "Chapter1",
    "Chapter1Verdict",
    "apply_chapter1_activation",
    "check_activation",
    "check_chapter1",
    "die_placements",
    "die_usable",
    "judge_end",
]
