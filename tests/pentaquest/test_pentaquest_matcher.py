"""Every requirement example of seed 002, matching and non-matching, plus the BGA reading."""
from __future__ import annotations

import pytest

from solver.pentaquest.deck import parse_requirement
from solver.pentaquest.matcher import matches

F = "⚀⚁⚂⚃⚄⚅"


def dice(faces: str) -> tuple[int, ...]:
    return tuple(F.index(ch) + 1 for ch in faces if ch in F)


def req(text: str):
    return parse_requirement(text, "test", 1)


# (requirement as printed in the seed, dice as printed in the seed)
SEED_MATCHING = [
    ("⚁ ⚁", "⚁ ⚁ ⚀ ⚃ ⚅"),
    ("⚁ ⚁", "⚁ ⚁ ⚁ ⚄ ⚅"),
    ("⚁ ⚁", "⚁ ⚁ ⚁ ⚁ ⚁"),
    ("⚃ ⚃ ⚄", "⚃ ⚃ ⚄ ⚀ ⚂"),
    ("⚃ ⚃ ⚄", "⚃ ⚃ ⚄ ⚄ ⚅"),
    ("☀ ☀", "⚀ ⚀"),
    ("☀ ☀", "⚂ ⚂"),
    ("☀ ☀", "⚅ ⚅"),
    ("☀ ☀ ☀", "⚁ ⚁ ⚁"),
    ("☀ ☀ ☀", "⚄ ⚄ ⚄"),
    ("☀ ☀ ☾ ☾", "⚁ ⚁ ⚄ ⚄"),
    ("☀ ☀ ☾ ☾", "⚀ ⚀ ⚅ ⚅"),
    ("☀ ☀ ☾ ☾", "⚃ ⚃ ⚃ ⚃"),
    ("☀ ☀ ☾ ☾ ☾", "⚁ ⚁ ⚄ ⚄ ⚄"),
    ("☀ ☀ ☾ ☾ ☾", "⚀ ⚀ ⚃ ⚃ ⚃"),
    ("☀ ☀ ☾ ☾ ☾", "⚅ ⚅ ⚅ ⚅ ⚅"),
]
# The seed's explicit counter-example, and non-matches that follow from its wording
# ("at least two 2s", "at least two 4s and one 5", "any pair/three", "pair and three").
SEED_NOT_MATCHING = [
    ("☀ ☀ ☾ ☾", "⚁ ⚁ ⚁ ⚄"),          # explicit in the seed: no second pair
    ("⚁ ⚁", "⚁ ⚀ ⚃ ⚅ ⚄"),            # derived: only one 2
    ("⚃ ⚃ ⚄", "⚃ ⚄ ⚄ ⚀ ⚂"),          # derived: only one 4
    ("⚃ ⚃ ⚄", "⚃ ⚃ ⚃ ⚀ ⚂"),          # derived: no 5
    ("☀ ☀", "⚀ ⚁ ⚂ ⚃ ⚄"),            # derived: no pair
    ("☀ ☀ ☀", "⚁ ⚁ ⚄ ⚄ ⚀"),          # derived: no three of a kind
    ("☀ ☀ ☾ ☾ ☾", "⚁ ⚁ ⚄ ⚄ ⚀"),      # derived: two pairs is not a full house
    ("☀ ☀ ☾ ☾ ☾", "⚁ ⚁ ⚁ ⚁ ⚄"),      # derived: four of a kind + 1 is not a full house
]


@pytest.mark.parametrize("r,d", SEED_MATCHING)
def test_seed_example_matches(r: str, d: str) -> None:
    assert matches(req(r), dice(d))


@pytest.mark.parametrize("r,d", SEED_NOT_MATCHING)
def test_seed_example_does_not_match(r: str, d: str) -> None:
    assert not matches(req(r), dice(d))


def test_ascii_symbols_equal_unicode() -> None:
    assert req("S S M M") == req("☀☀☾☾") == req("SSMM")
    assert req("4 4 5") == req("⚃⚃⚄") == req("445")


@pytest.mark.parametrize("r,d", [("☀ ☀ ☾ ☾", "⚃ ⚃ ⚃ ⚃"), ("☀ ☀ ☾ ☾ ☾", "⚅ ⚅ ⚅ ⚅ ⚅")])
def test_bga_reading_sun_differs_from_moon(r: str, d: str) -> None:
    assert matches(req(r), dice(d), sun_moon_may_match=True)
    assert not matches(req(r), dice(d), sun_moon_may_match=False)


@pytest.mark.parametrize("r,d", [pp for pp in SEED_MATCHING if pp[1] not in ("⚃ ⚃ ⚃ ⚃", "⚅ ⚅ ⚅ ⚅ ⚅")])
def test_bga_keeps_other_seed_examples(r: str, d: str) -> None:
    assert matches(req(r), dice(d), sun_moon_may_match=False)


def test_bga_alternative_four_of_a_kind() -> None:
    from solver.pentaquest.matcher import card_matches
    alts = (req("S S M M"), req("S S S S"))
    assert card_matches(alts, (4, 4, 4, 4, 1), sun_moon_may_match=False)
    assert not card_matches((req("S S M M"),), (4, 4, 4, 4, 1), sun_moon_may_match=False)


def test_concrete_values_and_symbols_mixed() -> None:
    r = req("6 S S")
    assert matches(r, (6, 2, 2, 1, 3))
    assert matches(r, (6, 6, 6, 1, 3))      # the pair may be 6s besides the required 6
    assert not matches(r, (6, 6, 1, 2, 3))  # the 6 cannot serve twice
