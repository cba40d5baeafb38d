"""Find a legal order for a turn's actions (the model relaxes the order across realms).

Each realm's own activations keep their order; compensations may go anywhere. The engine judges
every step, so an order found here is legal by the rules, not by the model.
"""
from __future__ import annotations

from .engine import Game, RoundState, apply_action
from .errors import IllegalAction
from .line import Action, Activation, Compensation


def order_turn(game: Game, state: RoundState, per_realm: list[list[Activation]], comps: list[Compensation]) -> list[Action] | None:
    """A legal order of the turn's actions from this state, or None if there is none."""
    queues = [list(q) for q in per_realm if q]
    seen: set = set()

    def dfs(st: RoundState, heads: tuple[int, ...], left: tuple[Compensation, ...], done: list[Action]) -> list[Action] | None:
        if all(h == len(q) for h, q in zip(heads, queues)) and not left:
            return done
        key = (heads, left, st)
        if key in seen:
            return None
        seen.add(key)
        for qi, q in enumerate(queues):
            if heads[qi] < len(q):
                try:
                    nxt = apply_action(game, st, q[heads[qi]])
                except IllegalAction:
                    continue
                found = dfs(nxt, heads[:qi] + (heads[qi] + 1,) + heads[qi + 1 :], left, done + [q[heads[qi]]])
                if found is not None:
                    return found
        for ci, c in enumerate(left):
            try:
                nxt = apply_action(game, st, c)
            except IllegalAction:
                continue
            found = dfs(nxt, heads, left[:ci] + left[ci + 1 :], done + [c])
            if found is not None:
                return found
        return None

    return dfs(state, tuple(0 for _ in queues), tuple(comps), [])
