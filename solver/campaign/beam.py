"""The end of a turn in the chapters' engine beam searches (chapter3_search, chapter4_solve).

A beam entry is (state, turns played, actions of the current turn); the state is a frozen
dataclass with the round (`round`, an engine RoundState) and the stars per realm (`stars`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Hashable, Sequence

from ..engine import Game, end_choice_sets, end_turn, realm_stars
from ..errors import IllegalAction
from ..line import Activation, TurnPlay

Entry = tuple[Any, tuple[TurnPlay, ...], tuple[Activation, ...]]


def end_turns(game: Game, beam: Sequence[Entry], t: int, key: Callable[[Any], Hashable],
              score: Callable[[Any], Any], width: int) -> list[Entry]:
    """Every entry ended with every legal set of end-of-turn choices (Ark Nova's outline, ...):
    turn t's play appended, stars re-read; one entry per distinct `key`, the `width` best by
    `score` kept."""
    ended: dict[Hashable, Entry] = {}
    for st, played, acts in beam:
        for ends in end_choice_sets(game, st.round):
            try:
                after = end_turn(game, st.round, ends)
            except IllegalAction:
                continue
            s2 = replace(st, round=after, stars=realm_stars(game, after))
            ended.setdefault(key(s2), (s2, played + (TurnPlay(game.rolls[t], acts, tuple(sorted(ends.items()))),), ()))
    return sorted(ended.values(), key=lambda x: score(x[0]), reverse=True)[:width]
