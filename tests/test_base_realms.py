"""Engine tests for the base-game realms and Azul (realms.md): usage, scoring, the precise
readings, the named rule options, cross-realm scoring, and random legal lines replayed.

These realms have the engine face only (no CP-SAT encode yet), so they are not in the solver's
property suite; the random-line test here is their property test.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from solver.engine import Game, RoundState, apply_action, realm_stars, replay, start
from solver.errors import IllegalAction
from solver.line import Activation, Compensation, Source, make_choice, parse_line_text
from solver.playout import random_line
from solver.realms import MODULES, all_realms, engine_only_keys, get_realm, resolve_realm_name, solvable_keys
from solver.realms.base import Use
from solver.resources import Resources
from solver.rules import RuleSet

R = RuleSet()


def use(value, roll=(1, 2), kind="die", die=0, created=None, turn=0) -> Use:
    return Use(value, Source(kind, die if kind != "create" else None, created), roll, turn)


def run(key, steps, rules=R):
    """Apply (Use, choice-dict) steps from the initial sheet; return the sheet and total gain/cost."""
    realm = get_realm(key)
    state = realm.initial(rules)
    gain, cost = Resources(), Resources()
    for u, ch in steps:
        eff = realm.apply(state, u, make_choice(**ch), rules)
        state, gain, cost = eff.state, gain + eff.gain, cost + eff.cost
    return state, gain, cost


def illegal(key, state, u, ch, match, rules=R):
    with pytest.raises(IllegalAction, match=match):
        get_realm(key).apply(state, u, make_choice(**ch), rules)


def stars(key, state, rules=R):
    return get_realm(key).stars(state, rules)


# ---- registry and options -----------------------------------------------------------------

#: the eleven base-game realms and Azul; each is engine-only until its CP-SAT face is registered
BASE_REALMS = {"wingspan", "scythe", "between-two-cities", "charterstone", "euphoria", "viticulture", "tapestry",
               "my-little-scythe", "between-two-castles", "pendulum", "red-rising", "azul"}


def test_registry_engine_only_realms_resolve_but_stay_out_of_the_solver_registry():
    assert set(engine_only_keys()).isdisjoint(solvable_keys())
    assert BASE_REALMS <= set(MODULES)
    assert resolve_realm_name("The Society") == "red-rising"
    assert resolve_realm_name("Between Two Cities") == "between-two-cities"
    assert resolve_realm_name("My Little Scythe") == "my-little-scythe"
    assert resolve_realm_name("between two castles of mad king ludwig") == "between-two-castles"
    assert {r.key for r in all_realms()} == set(MODULES)
    assert {r.key for r in all_realms(engine_only=False)} == set(solvable_keys())
    with pytest.raises(KeyError, match="azul") as exc:
        resolve_realm_name("no such realm")
    assert "parks" in str(exc.value)


@pytest.mark.parametrize("key", sorted(engine_only_keys()))
def test_card_carries_provenance_and_engine_face_only(key):
    realm = get_realm(key)
    assert realm.card["key"] == key
    assert realm.provenance in ("pnp-v10.1", "printed", "reconstructed", "unknown")
    assert realm.card["max_stars"] == 6 and realm.card["provenance_note"]
    with pytest.raises(NotImplementedError):
        realm.encode(None)


def test_provenance_per_realms_md():
    assert get_realm("azul").provenance == "unknown"
    assert "unknown" in get_realm("azul").card["provenance_note"]
    assert get_realm("pendulum").provenance == "printed" and "OG" in get_realm("pendulum").card["provenance_note"]
    for key in ("wingspan", "scythe", "tapestry", "charterstone", "between-two-castles"):
        assert get_realm(key).provenance == "pnp-v10.1"


@pytest.mark.parametrize(
    "name,value",
    [("scythe_bottom", "same-column"), ("viticulture", "og"), ("castles", "og"), ("euphoria_pair_both", "off"),
     ("my_little_scythe_counting", "here"), ("charterstone_crate", "rolled-only")],
)
def test_options_parse_and_validate(name, value):
    rules = RuleSet().with_options({name: value})
    assert getattr(rules, name) == (False if value == "off" else value)
    if value != "off":
        with pytest.raises(ValueError, match=name):
            RuleSet().with_options({name: "nonsense"})


def test_option_defaults_are_the_specs():
    r = RuleSet()
    assert (r.scythe_bottom, r.viticulture, r.castles, r.euphoria_pair_both, r.my_little_scythe_counting, r.charterstone_crate) == (
        "any", "pnp", "pnp", True, "anywhere", "other-die")


# ---- Wingspan -----------------------------------------------------------------------------

def test_wingspan_squares_left_to_right_gain_at_once():
    state, gain, _ = run("wingspan", [(use(1), {"bird": 1}), (use(2), {"bird": 1})])
    assert state[0] == (1, 2) and gain == Resources(P=1, C=1)
    assert stars("wingspan", state) == 0  # square-3 star only when complete


def test_wingspan_complete_and_matched_scores_two_at_once():
    state, _, _ = run("wingspan", [(use(1), {"bird": 1}), (use(2), {"bird": 1}), (use(4), {"bird": 1})])
    assert stars("wingspan", state) == 2  # square-3 star + wingspan 7 matched
    state, _, _ = run("wingspan", [(use(6), {"bird": 1}), (use(6), {"bird": 1}), (use(6), {"bird": 1})])
    assert stars("wingspan", state) == 1  # complete, sum 18 != 7
    illegal("wingspan", state, use(1), {"bird": 1}, "bird 1 .* is complete")
    illegal("wingspan", state, use(1), {"bird": 4}, "choose bird")


def test_wingspan_six_stars():
    steps = [(use(v), {"bird": b}) for b, vs in ((1, (1, 2, 4)), (2, (6, 5, 1)), (3, (6, 6, 4))) for v in vs]
    state, gain, _ = run("wingspan", steps)
    assert stars("wingspan", state) == 6 and gain == Resources(2, 2, 2)


# ---- Scythe -------------------------------------------------------------------------------

def test_scythe_top_or_bottom_by_number():
    state, gain, cost = run("scythe", [(use(5), {"mark": "top"})])
    assert gain == Resources(H=1) and cost == Resources() and stars("scythe", state) == 0
    state, gain, cost = run("scythe", [(use(5), {"mark": "top"}), (use(5), {"mark": "bottom"})])
    assert cost == Resources(H=1) and stars("scythe", state) == 1  # bottom 5 is column 1: cost 1 H
    illegal("scythe", state, use(5), {"mark": "top"}, "top cell 5 is already marked")
    illegal("scythe", state, use(5), {"mark": "bottom"}, "bottom cell 5 is already marked")
    illegal("scythe", state, use(4), {"mark": "both"}, "same-column")


def test_scythe_bottom_only_when_paid():
    game = Game((get_realm("scythe"),), ((5, 1),))
    st0 = RoundState(0, Resources(), (get_realm("scythe").initial(R),))
    with pytest.raises(IllegalAction, match="cannot pay the card's cost 1H"):
        apply_action(game, st0, Activation(Source("die", 0), "scythe", make_choice(mark="bottom")))
    after = apply_action(game, RoundState(0, Resources(H=1), st0.sheets), Activation(Source("die", 0), "scythe", make_choice(mark="bottom")))
    assert after.resources == Resources() and realm_stars(game, after) == (1,)


def test_scythe_option_same_column():
    rules = RuleSet(scythe_bottom="same-column")
    state, gain, cost = run("scythe", [(use(5), {"mark": "both"})], rules)
    assert gain == Resources(H=1) and cost == Resources(C=1)  # column 5: top H, bottom costs 1 C
    assert stars("scythe", state, rules) == 1
    illegal("scythe", get_realm("scythe").initial(rules), use(5), {"mark": "bottom"}, "same-column", rules)
    assert {dict(c)["mark"] for c in get_realm("scythe").candidates(state, 3, rules)} == {"top", "both"}
    # default: the same # and mark=bottom takes column 1 (bottom 5), cost 1 H
    _, _, cost = run("scythe", [(use(5), {"mark": "bottom"})])
    assert cost == Resources(H=1)


# ---- Between Two Cities --------------------------------------------------------------------

def test_cities_adjacency_and_bonuses():
    state, gain, _ = run("between-two-cities", [(use(1), {"row": 1, "col": 1}), (use(1), {"row": 2, "col": 2})])
    assert gain == Resources()
    illegal("between-two-cities", state, use(1), {"row": 1, "col": 2}, "orthogonally adjacent")
    illegal("between-two-cities", state, use(2), {"row": 1, "col": 1}, "already filled")
    state, gain, _ = run("between-two-cities", [(use(v), {"row": 1, "col": c}) for c, v in ((1, 1), (2, 2), (3, 1))])
    assert gain == Resources(P=1, C=1)  # row 1: P + C
    steps = [(use(v), {"row": r, "col": c}) for (r, c), v in (((1, 1), 1), ((2, 1), 2), ((3, 2), 1), ((3, 3), 2), ((3, 1), 3))]
    _, gain, _ = run("between-two-cities", steps)
    assert gain == Resources(H=1, P=1) + Resources(P=2)  # the last # completes row 3 and column 1


def test_cities_stars_min_of_other_realms_and_filled():
    realm = get_realm("between-two-cities")
    state, _, _ = run("between-two-cities", [(use(v), {"row": 1, "col": c}) for c, v in ((1, 1), (2, 2), (3, 1))] + [(use(4), {"row": 2, "col": 1})])
    assert realm.stars(state, R) == 0
    assert realm.stars_in_round(state, R, (3, 5)) == 3
    assert realm.stars_in_round(state, R, (6, 6)) == 4  # no more than the squares filled
    assert realm.stars_in_round(state, R, ()) == 0
    assert realm.stars_in_round(realm.initial(R), R, (6, 6)) == 0


CITIES_LINE = """
turn 1 roll 4 4
  die1 -> euphoria area=both
  die2 -> between-two-cities row=1 col=1
turn 2 roll 1 2
  die1 -> wingspan bird=1
  die2 -> between-two-cities row=1 col=2
turn 3 roll 4 3
  die1 -> wingspan bird=1
  die2 -> between-two-cities row=1 col=3
turn 4 roll 2 5
  die1 -> wingspan bird=1
  die2 -> euphoria area=left
"""


def cities_game(rolls=((4, 4), (1, 2), (4, 3), (2, 5))):
    return Game(tuple(get_realm(k) for k in ("between-two-cities", "wingspan", "euphoria")), rolls)


def test_cities_scores_through_the_engine():
    rep = replay(cities_game(), parse_line_text(CITIES_LINE))
    assert rep.legal, rep.error
    # wingspan 1+4+2 = 7: 2 stars; euphoria 4|4 both (2) + left 9 (1): 3; cities min(2, 3 filled) = 2
    assert rep.stars == (2, 2, 3)
    assert rep.final.resources == Resources(P=2, C=2)  # wingspan P, C; row 1 of the city P + C


def test_cities_capped_by_squares_filled_and_zero_without_activation():
    one = CITIES_LINE.replace("  die2 -> between-two-cities row=1 col=2\n", "").replace("  die2 -> between-two-cities row=1 col=3\n", "")
    rep = replay(cities_game(), parse_line_text(one))
    assert rep.legal, rep.error
    assert rep.stars == (1, 2, 3)
    none = one.replace("  die2 -> between-two-cities row=1 col=1\n", "")
    rep = replay(cities_game(), parse_line_text(none))
    assert rep.legal and rep.stars == (0, 2, 3)


def test_cities_uses_the_other_realms_capped_stars():
    game = cities_game()
    full, _, _ = run("between-two-cities", [(use(v), {"row": i // 3 + 1, "col": i % 3 + 1}) for i, v in enumerate((1, 2, 1, 2, 1, 2, 1, 2, 1))])
    wing, _, _ = run("wingspan", [(use(v), {"bird": b}) for b, vs in ((1, (1, 2, 4)), (2, (6, 5, 1)), (3, (6, 6, 4))) for v in vs])
    euphoria_nine = (((1,), ()), 9)  # 9 stars on the sheet: the realm holds 6
    state = RoundState(0, Resources(), (full, wing, euphoria_nine))
    assert realm_stars(game, state) == (6, 6, 6)
    state = RoundState(0, Resources(), (full, wing, (((), ()), 0)))
    assert realm_stars(game, state) == (0, 6, 0)


# ---- Charterstone -------------------------------------------------------------------------

def test_charterstone_bonus_writes_the_other_rolled_die():
    state, gain, _ = run("charterstone", [(use(3, roll=(3, 5), die=0), {"action": "bonus"})])
    assert gain == Resources(H=1) and state[1][2] == 5
    state2, _, _ = run("charterstone", [(use(3, roll=(3, 5), die=0), {"action": "bonus"}), (use(5, roll=(5, 1)), {"action": "crates"})])
    assert stars("charterstone", state2) == 1
    illegal("charterstone", state, use(3, roll=(3, 2)), {"action": "bonus"}, "bonus 3 is already marked")
    illegal("charterstone", state, use(4, roll=(4, 2)), {"action": "crates"}, "no unmarked crate shows 4")
    illegal("charterstone", state2, use(5, roll=(5, 2)), {"action": "crates"}, "no unmarked crate shows 5")


def test_charterstone_crates_marks_every_match_and_other_die_is_as_rolled():
    # die1 rolled 3 changed to 4 by pumpkins: the other rolled die (5) is written, as rolled
    state, _, _ = run("charterstone", [(use(4, roll=(3, 5), die=0), {"action": "bonus"}), (use(1, roll=(2, 5), die=1), {"action": "bonus"})])
    assert state[1][3] == 5 and state[1][0] == 2
    state, _, _ = run("charterstone", [(use(4, roll=(4, 5)), {"action": "bonus"}), (use(6, roll=(6, 5)), {"action": "bonus"}), (use(5, roll=(5, 5)), {"action": "crates"})])
    assert stars("charterstone", state) == 2


def test_charterstone_copies_and_created_default_other_die():
    # a copy of die2 (6) in roll (2, 6) writes die1's value
    state, _, _ = run("charterstone", [(use(6, roll=(2, 6), kind="copy", die=1), {"action": "bonus"})])
    assert state[1][5] == 2
    init = get_realm("charterstone").initial(R)
    illegal("charterstone", init, use(4, roll=(2, 6), kind="create", created=4), {"action": "bonus"}, "choose crate=2 or 6")
    illegal("charterstone", init, use(4, roll=(2, 6), kind="create", created=4), {"action": "bonus", "crate": 3}, "not 3")
    illegal("charterstone", init, use(4, roll=(2, 6)), {"action": "bonus", "crate": 6}, "other rolled die")
    state, _, _ = run("charterstone", [(use(4, roll=(2, 6), kind="create", created=4), {"action": "bonus", "crate": 6})])
    assert state[1][3] == 6


def test_charterstone_option_rolled_only():
    rules = RuleSet(charterstone_crate="rolled-only")
    init = get_realm("charterstone").initial(rules)
    illegal("charterstone", init, use(6, roll=(2, 6), kind="copy", die=1), {"action": "bonus"}, "charterstone_crate=rolled-only", rules)
    illegal("charterstone", init, use(4, roll=(2, 6), kind="create", created=4), {"action": "bonus", "crate": 6}, "rolled-only", rules)
    state, _, _ = run("charterstone", [(use(2, roll=(2, 6)), {"action": "bonus"}), (use(6, roll=(2, 6), kind="copy", die=1), {"action": "crates"})], rules)
    assert stars("charterstone", state, rules) == 1  # copies may still mark crates


# ---- Euphoria -----------------------------------------------------------------------------

def test_euphoria_bonus_by_area_sum():
    state, gain, _ = run("euphoria", [(use(2), {"area": "left"}), (use(1), {"area": "left"})])
    assert gain == Resources(C=2) and stars("euphoria", state) == 0  # sums 2 and 3
    state, gain, _ = run("euphoria", [(use(2), {"area": "left"}), (use(3), {"area": "left"}), (use(6), {"area": "left", "left": "H"})])
    assert gain == Resources(C=1, H=1) and stars("euphoria", state) == 1  # sums 2 (C), 5 (star), 11 (H)
    illegal("euphoria", state, use(6), {"area": "left", "left": "P"}, "already marked in the left area")
    illegal("euphoria", state, use(5), {"area": "left"}, "sums to 16: choose left=P|H")
    illegal("euphoria", state, use(4), {"area": "right", "right": "P"}, "nothing to choose")


def test_euphoria_pair_marks_both_areas():
    state, gain, _ = run("euphoria", [(use(4, roll=(4, 4)), {"area": "both"})])
    assert state[0] == ((4,), (4,)) and stars("euphoria", state) == 2 and gain == Resources()
    illegal("euphoria", get_realm("euphoria").initial(R), use(4, roll=(4, 3)), {"area": "both"}, "only on a rolled pair")
    rules = RuleSet(euphoria_pair_both=False)
    illegal("euphoria", get_realm("euphoria").initial(rules), use(4, roll=(4, 4)), {"area": "both"}, "euphoria_pair_both is off", rules)
    assert all(dict(c)["area"] != "both" for c in get_realm("euphoria").candidates(get_realm("euphoria").initial(rules), 4, rules))


def test_euphoria_stars_past_six_capped_by_engine():
    steps = [(use(v, roll=(v, v)), {"area": "both"}) for v in (4, 5)]  # sums 4, 9: 4 stars
    steps += [(use(1, roll=(1, 1)), {"area": "both"})]  # sums 10: 2 more stars (6)
    state, _, _ = run("euphoria", steps)
    assert stars("euphoria", state) == 6
    game = Game((get_realm("euphoria"),), ((1, 1),))
    more = (state[0], 8)
    assert realm_stars(game, RoundState(0, Resources(), (more,))) == (6,)


# ---- Viticulture --------------------------------------------------------------------------

def test_viticulture_grapes_and_orders():
    state, gain, _ = run("viticulture", [(use(5), {"action": "grape"}), (use(1), {"action": "grape"})])
    assert gain == Resources(P=1, H=1)
    illegal("viticulture", state, use(5), {"action": "grape"}, "grape 5 was already circled")
    after, _, _ = run("viticulture", [(use(5), {"action": "grape"}), (use(1), {"action": "grape"}), (use(6), {"action": "order", "order": 11, "grapes": 5})])
    assert stars("viticulture", after) == 2 and after[0] == (1,) and after[1] == (5,)
    illegal("viticulture", after, use(5), {"action": "order", "order": 11, "grapes": 1}, "already filled")
    illegal("viticulture", after, use(6), {"action": "order", "order": 12, "grapes": 5}, "not circled")
    illegal("viticulture", after, use(6), {"action": "order", "order": 10, "grapes": 1}, "6 \\+ grapes 1 = 7, not 10")
    illegal("viticulture", after, use(5), {"action": "grape"}, "already circled")  # crossed off stays used


def test_viticulture_order_needs_a_grape_and_several_grapes_allowed():
    state, _, _ = run("viticulture", [(use(v), {"action": "grape"}) for v in (1, 2, 3)])
    illegal("viticulture", state, use(6), {"action": "order", "order": 10, "grapes": ""}, "grapes are numbers")
    after, _, _ = run("viticulture", [(use(v), {"action": "grape"}) for v in (1, 2, 3)] + [(use(6), {"action": "order", "order": 12, "grapes": "1+2+3"})])
    assert stars("viticulture", after) == 2
    cands = {dict(c).get("grapes") for c in get_realm("viticulture").candidates(state, 6, R)}
    assert {"1+3", "1+2+3"} <= cands  # 6+1+3 = 10, 6+1+2+3 = 12


def test_viticulture_option_og():
    _, gain, _ = run("viticulture", [(use(1), {"action": "grape"}), (use(3), {"action": "grape"})])
    assert gain == Resources(H=1, C=1)
    _, gain, _ = run("viticulture", [(use(1), {"action": "grape"}), (use(3), {"action": "grape"})], RuleSet(viticulture="og"))
    assert gain == Resources(C=1, H=1) and get_realm("viticulture").grapes(RuleSet(viticulture="og"))[:4] == ["C", "C", "H", "H"]
    _, gain, _ = run("viticulture", [(use(1), {"action": "grape"}), (use(2), {"action": "grape"})], RuleSet(viticulture="og"))
    assert gain == Resources(C=2)


# ---- Tapestry -----------------------------------------------------------------------------

def test_tapestry_shapes_prefilled_and_big_square_bonus():
    realm = get_realm("tapestry")
    init = realm.initial(R)
    assert bin(init).count("1") == 6
    illegal("tapestry", init, use(2), {"cells": "21+22"}, "cell 22 is already filled")  # (1,1) pre-filled
    illegal("tapestry", init, use(3), {"cells": "11+12"}, "not shape 3")
    illegal("tapestry", init, use(2), {"cells": "11+13"}, "not shape 2")
    # the L-tromino on the three empty cells of the top-left big square completes it: gain P
    _, gain, _ = run("tapestry", [(use(3), {"cells": "11+12+21"})])
    assert gain == Resources(P=1)
    # shapes are reusable: two dominoes
    _, gain, _ = run("tapestry", [(use(2), {"cells": "11+12"}), (use(2), {"cells": "31+41"})])
    assert gain == Resources()


def test_tapestry_rotations_and_shape_six():
    # the T-tetromino in two rotations
    run("tapestry", [(use(4), {"cells": "41+42+43+52"})])
    run("tapestry", [(use(4), {"cells": "14+24+34+25"})])
    illegal("tapestry", get_realm("tapestry").initial(R), use(4), {"cells": "41+42+43+44"}, "not shape 4")
    # the V-pentomino, and the 6: V plus its inner corner
    run("tapestry", [(use(5), {"cells": "12+13+14+24+34"})])
    _, gain, _ = run("tapestry", [(use(6), {"cells": "31+41+51+52+53+42"})])
    assert gain == Resources()
    illegal("tapestry", get_realm("tapestry").initial(R), use(5), {"cells": "31+41+51+52+53+42"}, "not shape 5")
    illegal("tapestry", get_realm("tapestry").initial(R), use(6), {"cells": "42+52+62+63+64+53"}, "cell 64 is already filled")


def test_tapestry_stars_big_rows_and_columns():
    realm = get_realm("tapestry")
    top_rows = realm.initial(R) | realm.mask((r, c) for r in range(2) for c in range(6))
    assert realm.stars(top_rows, R) == 1
    left_cols = realm.initial(R) | realm.mask((r, c) for r in range(6) for c in range(2))
    assert realm.stars(left_cols, R) == 1
    assert realm.stars(realm.mask((r, c) for r in range(6) for c in range(6)), R) == 6
    assert realm.stars(realm.initial(R), R) == 0


# ---- My Little Scythe ---------------------------------------------------------------------

def test_mls_flowers_and_pairs():
    state, gain, _ = run("my-little-scythe", [(use(3), {"flower": "left"}), (use(3), {"flower": "right"})])
    assert gain == Resources(P=1, H=1, C=1)
    illegal("my-little-scythe", state, use(3), {"flower": "left"}, "3 is already marked in the left flower")


def test_mls_counts_gains_anywhere_via_engine_incl_compensation():
    mls, scythe = get_realm("my-little-scythe"), get_realm("scythe")
    game = Game((mls, scythe), ((5, 5),))
    sc, _, _ = run("scythe", [(use(5), {"mark": "top"}), (use(5), {"mark": "bottom"})])
    start = RoundState(0, Resources(), ((((), ()), (5, 5, 0)), sc))
    # both 5s of scythe are marked: die1 into mls (H, counts) then die2 cannot go anywhere -> compensate C
    s1 = apply_action(game, start, Activation(Source("die", 0), "my-little-scythe", make_choice(flower="right")))
    assert s1.sheets[0][1] == (5, 6, 0)
    s2 = apply_action(game, s1, Compensation(1, "P"))
    assert s2.sheets[0][1] == (6, 6, 0)
    assert realm_stars(game, s2) == (4, 1)


def test_mls_counts_gains_of_other_realms_and_option_here():
    text = "\n".join(f"turn {t + 1} roll 3 4\n  die1 -> scythe mark=top\n  die2 -> wingspan bird=1" for t in range(1))
    game = Game(tuple(get_realm(k) for k in ("my-little-scythe", "scythe", "wingspan")), ((3, 4),))
    rep = replay(game, parse_line_text(text))
    assert rep.legal, rep.error
    assert rep.final.sheets[0][1] == (2, 0, 0)  # scythe top 3 gives P, wingspan square 1 gives P
    rules = RuleSet(my_little_scythe_counting="here")
    rep = replay(Game(game.realms, game.rolls, rules), parse_line_text(text))
    assert rep.final.sheets[0][1] == (0, 0, 0)
    state, _, _ = run("my-little-scythe", [(use(v), {"flower": "left"}) for v in range(1, 7)], rules)
    assert state[1] == (6, 0, 0) and stars("my-little-scythe", state, rules) == 2
    state, _, _ = run("my-little-scythe", [(use(v), {"flower": "left"}) for v in range(1, 7)])
    assert state[1] == (0, 0, 0)  # anywhere: the engine counts (observe_gain), not apply


def test_mls_stars_six_of_each():
    mls = get_realm("my-little-scythe")
    assert mls.stars((((), ()), (6, 6, 6)), R) == 6
    assert mls.stars((((), ()), (6, 5, 6)), R) == 4
    state = mls.observe_gain((((), ()), (5, 0, 0)), Resources(P=3), R)
    assert state[1] == (6, 0, 0)


# ---- Between Two Castles ------------------------------------------------------------------

def test_castles_strictly_lower_and_door():
    state, gain, _ = run("between-two-castles", [(use(3), {"tower": "L3"})])
    illegal("between-two-castles", state, use(3), {"tower": "L3"}, "lower than the # directly below \\(3 on 3")
    illegal("between-two-castles", state, use(4), {"tower": "L3"}, "lower than")
    state, gain, _ = run("between-two-castles", [(use(3), {"tower": "L3"}), (use(2), {"tower": "L3"})])
    assert gain == Resources(H=2)  # tower complete: bonus at once
    illegal("between-two-castles", state, use(1), {"tower": "L3"}, "tower L3 is complete")
    # above a door any #: L2's first square takes a 6
    state, gain, _ = run("between-two-castles", [(use(6), {"tower": "L2"}), (use(1), {"tower": "L2"})])
    assert gain == Resources(P=2)


def test_castles_rows_score():
    steps = [(use(1), {"tower": "L1"}), (use(6), {"tower": "L3"})]
    state, gain, _ = run("between-two-castles", steps)
    assert stars("between-two-castles", state) == 1 and gain == Resources(P=1)  # left bottom row: L1, L3
    steps += [(use(5), {"tower": "L3"}), (use(6), {"tower": "L2"})]
    state, _, _ = run("between-two-castles", steps)
    assert stars("between-two-castles", state) == 2  # left middle row: L2 M, L3 M
    steps += [(use(5), {"tower": "L2"}), (use(6), {"tower": "R1"}), (use(5), {"tower": "R1"}), (use(4), {"tower": "R1"})]
    steps += [(use(6), {"tower": "R2"}), (use(5), {"tower": "R2"})]
    state, gain, _ = run("between-two-castles", steps)
    assert stars("between-two-castles", state) == 6 and gain == Resources(3, 3, 3)


def test_castles_option_og_moves_the_door():
    steps = [(use(6), {"tower": "R2"}), (use(5), {"tower": "R2"})]
    _, gain, _ = run("between-two-castles", steps)
    assert gain == Resources(C=2)  # pnp: R2 = door, M, T: complete after 2
    og = RuleSet(castles="og")
    state, gain, _ = run("between-two-castles", steps, og)
    assert gain == Resources()  # og: R2 = B, M, T
    assert stars("between-two-castles", state, og) == 1  # og right bottom row is R2's B alone
    _, gain, _ = run("between-two-castles", [(use(6), {"tower": "R1"}), (use(5), {"tower": "R1"})], og)
    assert gain == Resources(C=1, H=1)


# ---- Pendulum -----------------------------------------------------------------------------

def test_pendulum_outline_then_hourglass_pays_all_outlined():
    steps = [(use(2), {"action": "outline", "space": 1}), (use(5), {"action": "outline", "space": 4})]
    state, gain, _ = run("pendulum", steps)
    assert gain == Resources() and stars("pendulum", state) == 0
    illegal("pendulum", state, use(3), {"action": "outline", "space": 1}, "space 1 is already outlined")
    state, gain, _ = run("pendulum", steps + [(use(6), {"action": "mark"})])
    assert gain == Resources(P=1, H=1) and stars("pendulum", state) == 1
    illegal("pendulum", state, use(6), {"action": "mark"}, "6 is already marked")
    state, gain, _ = run("pendulum", steps + [(use(6), {"action": "mark"}), (use(5), {"action": "mark"}), (use(4), {"action": "mark"})])
    assert gain == Resources(P=2, H=2) and stars("pendulum", state) == 2  # paid again


def test_pendulum_six_stars():
    steps = [(use(1), {"action": "outline", "space": 4}), (use(1), {"action": "outline", "space": 5})]
    steps += [(use(v), {"action": "mark"}) for v in (6, 5, 4, 3, 2, 1)]
    state, _, _ = run("pendulum", steps)
    assert stars("pendulum", state) == 6
    _, gain, _ = run("pendulum", [(use(3), {"action": "mark"}), (use(2), {"action": "mark"})])
    assert gain == Resources()


# ---- Red Rising ---------------------------------------------------------------------------

def test_red_rising_lower_than_cards_above_in_any_order():
    state, _, _ = run("red-rising", [(use(3), {"card": "F"})])
    illegal("red-rising", state, use(2), {"card": "C"}, "card F under card C must be lower")
    illegal("red-rising", state, use(3), {"card": "C"}, "must be lower")
    state, _, _ = run("red-rising", [(use(4), {"card": "C"})])
    illegal("red-rising", state, use(4), {"card": "G"}, "card G must be lower than card C")
    illegal("red-rising", state, use(3), {"card": "A"}, "card C under card A")
    run("red-rising", [(use(4), {"card": "C"}), (use(5), {"card": "A"}), (use(3), {"card": "G"})])


def test_red_rising_rows_pyramids_and_all():
    state, gain, _ = run("red-rising", [(use(6), {"card": "A"}), (use(6), {"card": "B"})])
    assert gain == Resources(H=1, C=1)
    steps = [(use(v), {"card": c}) for c, v in zip("ABCDEFGHI", (6, 6, 4, 5, 4, 2, 3, 1, 3))]
    state, gain, _ = run("red-rising", steps)
    assert gain == Resources(H=1, C=1) + Resources(P=1, H=1, C=1) + Resources(P=2, H=1, C=1)
    assert stars("red-rising", state) == 6
    part, _, _ = run("red-rising", steps[:4])  # A B C D: pyramid A/C,D only
    assert stars("red-rising", part) == 1


# ---- Azul ---------------------------------------------------------------------------------

def test_azul_lines_wall_and_gains():
    state, gain, _ = run("azul", [(use(2), {"line": 1, "cell": 1})])
    assert gain == Resources(P=1) and state[1][0] == 2 and state[0][0] == (0, 0)
    illegal("azul", state, use(2), {"line": 1, "cell": 2}, "wall row 1 already holds a 2")
    illegal("azul", state, use(3), {"line": 1}, "line 1 is full: choose the wall cell")
    state, _, _ = run("azul", [(use(3), {"line": 2})])
    illegal("azul", state, use(5), {"line": 2, "cell": 1}, "holds 3s")
    illegal("azul", state, use(3), {"line": 2}, "line 2 is full")
    illegal("azul", state, use(3), {"line": 2, "cell": 2}, "taken \\(4\\)")  # a printed number fills its cell
    illegal("azul", get_realm("azul").initial(R), use(4), {"line": 1, "cell": 2}, "column 2 already holds a 4")
    state, gain, _ = run("azul", [(use(3), {"line": 2}), (use(3), {"line": 2, "cell": 3})])
    assert gain == Resources(P=1) and state[0][1] == (0, 0)


def test_azul_pair_gives_two_tiles_and_overflow_is_lost():
    state, _, _ = run("azul", [(use(1, roll=(1, 1)), {"line": 3})])
    assert state[0][2] == (1, 2)
    state, gain, _ = run("azul", [(use(1, roll=(1, 1)), {"line": 3}), (use(1, roll=(2, 2)), {"line": 3, "cell": 2})])
    assert gain == Resources(H=1) and state[1][7] == 1
    illegal("azul", get_realm("azul").initial(R), use(1, roll=(1, 1)), {"line": 1}, "line 1 is full")


def test_azul_stars():
    steps = [(use(v), {"line": 1, "cell": c}) for v, c in ((1, 1), (2, 2), (3, 3))]
    state, gain, _ = run("azul", steps)
    assert stars("azul", state) == 1 and gain == Resources(1, 1, 1)
    steps += [(use(2, roll=(2, 2)), {"line": 2, "cell": 1}), (use(1, roll=(1, 1)), {"line": 2, "cell": 3})]
    state, _, _ = run("azul", steps)
    assert stars("azul", state) == 4  # rows 1 and 2, columns 1 (1 2 5) and 3 (3 1 6)
    illegal("azul", state, use(6, roll=(6, 6)), {"line": 2, "cell": 3}, "taken")
    almost, _, _ = run("azul", steps + [(use(2, roll=(2, 2)), {"line": 3})])
    illegal("azul", almost, use(2), {"line": 3, "cell": 2}, "column 2 already holds a 2")
    state, gain, _ = run("azul", steps + [(use(3, roll=(3, 3)), {"line": 3}), (use(3), {"line": 3, "cell": 2})])
    assert stars("azul", state) == 6 and gain == Resources(P=2, H=3, C=1)


# ---- random legal lines -------------------------------------------------------------------

RULE_VARIANTS = [
    RuleSet(),
    RuleSet(scythe_bottom="same-column", viticulture="og", castles="og", euphoria_pair_both=False,
            my_little_scythe_counting="here", charterstone_crate="rolled-only"),
]


@pytest.mark.parametrize("key", sorted(BASE_REALMS))
@settings(max_examples=25, deadline=None)
@given(rolls=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=9),
       seed=st.integers(0, 10**6), variant=st.sampled_from([0, 1]))
def test_random_lines_replay_legally_and_score_0_to_6(key, rolls, seed, variant):
    rules = RULE_VARIANTS[variant]
    game = Game(tuple(get_realm(k) for k in (key, "parks", "ark-nova")), tuple(rolls), rules)
    line = random_line(game, random.Random(seed), max_actions=4, stop=0.1)
    rep = replay(game, line)
    assert rep.legal, f"{rep.error}\n{line.to_text()}"
    assert all(0 <= s <= 6 for s in rep.stars)
    # the text line format carries every choice of these realms
    again = replay(game, parse_line_text(line.to_text()))
    assert again.legal, again.error
    assert (again.stars, again.final) == (rep.stars, rep.final)
    # this realm's gains over the line stay within its max_gain bound
    realm, prev, i, total = get_realm(key), start(game), 0, Resources()
    for t, turn in enumerate(line.turns):
        for action in turn.actions:
            if isinstance(action, Activation) and action.realm == key:
                roll = game.rolls[t]
                value = action.source.base_value(roll) + action.shift
                total = total + realm.apply(prev.sheets[0], Use(value, action.source, roll, t), action.choice, rules).gain
            prev, i = rep.steps[i].state, i + 1
        prev, i = rep.steps[i].state, i + 1
    assert realm.max_gain(rules).covers(total)
