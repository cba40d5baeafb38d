"""What a running round solve shows (solver/progress.py): the best line never goes down, the
bound is a proven bound on the round and never goes up, and each stage is named."""
from __future__ import annotations

from pathlib import Path

from solver.commands import build_game, solve_game, solve_round
from solver.progress import STAGE_FIRST_LINE, STAGE_LEFTOVER, STAGE_LP, RoundProgress

EXAMPLES = Path(__file__).resolve().parent.parent / "puzzles" / "examples"


def test_round_progress_keeps_the_best_line_and_the_lowest_proven_bound() -> None:
    seen: list[tuple[int | None, int, str]] = []
    p = RoundProgress(lambda *shown: seen.append(shown), cap=18)
    p.enter(STAGE_FIRST_LINE)  # (already the stage: nothing new to show)
    p.line(12)
    p.proven_bound(17)
    p.line(6)  # a restricted search's first line: below the best, not shown
    p.proven_bound(18)  # not lower: not shown
    p.proven_bound(None)
    p.enter("proof by cases")
    p.line(15)
    assert seen == [(12, 18, STAGE_FIRST_LINE), (12, 17, STAGE_FIRST_LINE), (12, 17, "proof by cases"),
                    (15, 17, "proof by cases")]


def test_round_progress_before_any_line_shows_the_cap() -> None:
    seen: list[tuple[int | None, int, str]] = []
    p = RoundProgress(lambda *shown: seen.append(shown), cap=18)
    p.enter("the star bound")
    assert seen == [(None, 18, "the star bound")]
    RoundProgress(None, cap=18).line(3)  # no callback: nothing to call


def _check_shown(seen: list[tuple[int | None, int, str]], stars: int, bound: int) -> None:
    assert seen, "a long solve shows progress"
    bests = [b for b, _, _ in seen if b is not None]
    bounds = [b for _, b, _ in seen]
    assert bests == sorted(bests) and bounds == sorted(bounds, reverse=True)
    assert all(best is None or best <= b for best, b, _ in seen)
    assert bests[-1] == stars and bounds[-1] == bound


def test_a_nine_turn_round_shows_its_stages_best_line_and_bound() -> None:
    game = build_game("wurfelwelten,parks,libertalia", str(EXAMPLES / "round1.txt"))
    seen: list[tuple[int | None, int, str]] = []
    result = solve_round(game, progress=lambda *shown: seen.append(shown))
    assert result.status == "optimal"
    _check_shown(seen, result.stars, result.star_bound)
    assert seen[-1][2] == STAGE_LEFTOVER  # the stars proven, the tie-break last


def test_a_game_solved_round_by_round_names_the_round() -> None:
    short = str(EXAMPLES / "round-short.txt")
    games = [build_game("wurfelwelten,parks,libertalia", short), build_game("ark-nova,parks,libertalia", short)]
    seen: list[tuple[int | None, int, str]] = []
    solve_game(games, progress=lambda *shown: seen.append(shown), jobs=1)
    stages = [stage for _, _, stage in seen]
    assert any(s.startswith("round 1/2 · ") for s in stages) and stages[-1].startswith("round 2/2 · ")


def test_a_target_question_shows_the_lp_bound_it_is_answered_by() -> None:
    game = build_game("wurfelwelten,parks,libertalia", str(EXAMPLES / "round1.txt"))
    seen: list[tuple[int | None, int, str]] = []
    result = solve_round(game, target=18, progress=lambda *shown: seen.append(shown))
    assert result.status == "unreachable" and result.star_bound == 17
    assert seen == [(None, 18, STAGE_LP), (None, 17, STAGE_LP)]
