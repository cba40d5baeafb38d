"""Lines played through the engine: random legal lines and exhaustive search (small rounds).

Both use only the engine, so they judge the CP-SAT model independently: a random legal line must
be accepted by the model with the same score, and on short rounds the model's optimum must equal
the exhaustive optimum.
"""
from __future__ import annotations

import random
from functools import lru_cache

from .engine import Game, RoundState, apply_action, end_choice_sets, end_turn, legal_actions, replay, score_tenths, start, turn_play
from .line import Action, Line, TurnPlay


def after_played(game: Game, played: Line | None) -> tuple[RoundState, list[TurnPlay]]:
    """The state the played turns (legal; none: the round's start) end in, and those turns."""
    if played is None:
        return start(game), []
    rep = replay(game, played, partial=True)
    assert rep.legal, rep.error
    return rep.final, list(played.turns)


def random_line(game: Game, rng: random.Random, max_actions: int = 4, stop: float = 0.25) -> Line:
    """A random legal line: each turn takes random legal actions, then a random end choice."""
    state = start(game)
    turns: list[TurnPlay] = []
    for t in range(game.turns):
        actions: list[Action] = []
        while len(actions) < max_actions and rng.random() > stop:
            options = legal_actions(game, state)
            if not options:
                break
            action = rng.choice(options)
            state = apply_action(game, state, action)
            actions.append(action)
        end = rng.choice(end_choice_sets(game, state))
        turns.append(turn_play(game.rolls[t], actions, end))
        state = end_turn(game, state, end)
    return Line(tuple(turns))


def exhaustive_best(game: Game, max_actions: int | None = None, played: Line | None = None) -> tuple[int, Line]:
    """The best score (tenths) over every legal line, and one line reaching it.

    Plain memoised search over engine states; exponential, so only for a few turns. With
    max_actions set, turns are limited to that many actions (a restriction, for speed).
    `played`: only the lines that begin with these turns (legal), searched from where they end."""

    @lru_cache(maxsize=None)
    def best(state: RoundState, n_actions: int) -> tuple[int, tuple]:
        if state.turn >= game.turns:
            return score_tenths(game, state), ()
        top: tuple[int, tuple] = (-1, ())
        for end in end_choice_sets(game, state):
            after = end_turn(game, state, end)
            value, rest = best(after, 0)
            if value > top[0]:
                top = (value, (("end", tuple(sorted(end.items()))),) + rest)
        if max_actions is None or n_actions < max_actions:
            for action in legal_actions(game, state):
                value, rest = best(apply_action(game, state, action), n_actions + 1)
                if value > top[0]:
                    top = (value, (("act", action),) + rest)
        return top

    first, turns = after_played(game, played)
    value, steps = best(first, 0)
    actions: list[Action] = []
    for kind, item in steps:
        if kind == "act":
            actions.append(item)
        else:
            turns.append(TurnPlay(game.rolls[len(turns)], tuple(actions), item))
            actions = []
    best.cache_clear()
    return value, Line(tuple(turns))


def greedy_line(game: Game, played: Line | None = None) -> Line:
    """A quick legal line: each turn, place rolled dice (unchanged) where they add the most
    score now, compensate a die that fits nowhere. Never optimal, always legal; a fallback and a
    first hint for the solver. `played`: the turns already played (legal), kept as they are."""
    from .engine import realm_stars
    from .line import Activation, Compensation

    def value(st: RoundState) -> int:
        return 10 * sum(realm_stars(game, st)) + st.resources.total()

    state, turns = after_played(game, played)
    for t in range(len(turns), game.turns):
        actions: list[Action] = []
        while True:
            options = [
                a for a in legal_actions(game, state)
                if (isinstance(a, Activation) and a.source.kind == "die" and a.shift == 0 and not a.extra) or isinstance(a, Compensation)
            ]
            if not options:
                break
            best = max(options, key=lambda a: (value(apply_action(game, state, a)), isinstance(a, Activation)))
            state = apply_action(game, state, best)
            actions.append(best)
        end = end_choice_sets(game, state)[0]
        turns.append(turn_play(game.rolls[t], actions, end))
        state = end_turn(game, state, end)
    return Line(tuple(turns))
