"""The engine's cross-realm hooks (Realm.stars_in_round, Realm.observe_gain) with toy realms.

- stars_in_round gets the other realms' own stars, each capped at the star cap, and its result
  is capped again;
- observe_gain is called on every realm's sheet for every gain: the activated realm's own gain,
  other realms' gains, compensation; never for a zero gain; never for costs;
- realms that do not override the hooks score and play exactly as before.
"""
from __future__ import annotations

import random

from solver.engine import Game, RoundState, apply_action, realm_stars, replay, score_tenths, start
from solver.errors import IllegalAction
from solver.line import Activation, Compensation, Source
from solver.playout import random_line
from solver.realms import get_realm
from solver.realms.base import Effect, Realm
from solver.resources import Resources
from solver.rules import RuleSet

CARD = {"title": "toy", "provenance": "reconstructed"}


class Giver(Realm):
    """Takes only a 1..3 (to allow compensation of 4..6); gives 1 P and 1 star per #; costs 1 H on a 3."""

    key = "giver"

    def __init__(self):
        super().__init__(dict(CARD, key=self.key))

    def initial(self, rules):
        return 0

    def candidates(self, state, value, rules):
        return [()]

    def apply(self, state, use, choice, rules):
        if use.value > 3:
            raise IllegalAction("giver: only 1-3")
        return Effect(state + 1, cost=Resources(H=1) if use.value == 3 else Resources(), gain=Resources(P=1))

    def stars(self, state, rules):
        return state


class Watcher(Giver):
    """Counts every gain it is told about; scores the lowest of the other realms' stars."""

    key = "watcher"

    def initial(self, rules):
        return (0, ())  # (marks, gains observed)

    def apply(self, state, use, choice, rules):
        if use.value > 3:
            raise IllegalAction("watcher: only 1-3")
        return Effect((state[0] + 1, state[1]), gain=Resources(C=1))

    def observe_gain(self, state, gain, rules):
        return (state[0], state[1] + (str(gain),))

    def stars(self, state, rules):
        return 0

    def stars_in_round(self, state, rules, others):
        return min(others) if others else 0


def act(realm, die=0, kind="die", value=None):
    return Activation(Source(kind, die if kind != "create" else None, value), realm, ())


def test_observe_gain_sees_own_other_and_compensation_gains():
    game = Game((Watcher(), Giver()), ((1, 5),))
    s = start(game)
    s = apply_action(game, s, act("giver", 0))
    assert s.sheets[0] == (0, ("1P",))  # the other realm's gain, watcher not activated
    s = apply_action(game, s, Compensation(1, "H"))  # a 5 fits nowhere: compensated
    assert s.sheets[0] == (0, ("1P", "1H"))
    game2 = Game((Watcher(), Giver()), ((2, 2),))
    s = apply_action(game2, start(game2), act("watcher", 0))
    assert s.sheets[0] == (1, ("1C",))  # its own gain too, once


def test_observe_gain_not_called_for_costs_or_nothing():
    game = Game((Watcher(), Giver()), ((3, 6),))
    s = RoundState(0, Resources(H=1), (Watcher().initial(RuleSet()), 0))
    s = apply_action(game, s, act("giver", 0))  # costs 1 H, gains 1 P
    assert s.sheets[0][1] == ("1P",) and s.resources == Resources(P=1)


def test_stars_in_round_gets_capped_others_and_is_capped():
    game = Game((Watcher(), Giver(), Giver()), ((1, 1),))
    watcher = Watcher()
    s = RoundState(0, Resources(), ((0, ()), 9, 4))
    assert realm_stars(game, s) == (4, 6, 4)
    s = RoundState(0, Resources(), ((0, ()), 9, 8))
    assert realm_stars(game, s) == (6, 6, 6)  # others capped to 6 each, min 6
    assert watcher.stars_in_round((0, ()), RuleSet(star_cap=6), (9, 8)) == 8  # the engine caps, not the realm
    assert score_tenths(game, RoundState(0, Resources(P=3), ((0, ()), 9, 8))) == 183


def test_realms_without_hooks_unchanged():
    """For the promo realms the engine's stars are each realm's own stars, capped, as before."""
    keys = ("parks", "ark-nova", "libertalia")
    for seed in range(15):
        rng = random.Random(seed)
        game = Game(tuple(get_realm(k) for k in keys), tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(6)))
        rep = replay(game, random_line(game, rng))
        assert rep.legal, rep.error
        assert rep.stars == tuple(min(6, r.stars(sh, game.rules)) for r, sh in zip(game.realms, rep.final.sheets))
        for r, sh in zip(game.realms, rep.final.sheets):
            assert r.observe_gain(sh, Resources(P=1), game.rules) is sh
