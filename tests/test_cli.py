"""The `solve` command line through click's CliRunner: exit codes, output, --json, bad input.

`round` and `verify` run against tests/fake_solver.py (exact answers from the engine), so these
tests check the product layer, not the CP-SAT model's speed.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import cli as cli_module
from fake_solver import FakeSolver, best_stars
from solver.commands import build_game
from solver.render import Progress

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "puzzles" / "examples"
ONE = str(EX / "round-one-turn.txt")
ROUND1 = str(EX / "round1.txt")
REALMS = "wurfelwelten,parks,libertalia"
LINE = str(EX / "line-example.txt")


def run(*args: str) -> Result:
    """Invoke `solve ARGS` with a wide console, so rich tables do not wrap the texts asserted on."""
    return CliRunner().invoke(cli_module.cli, list(args), env={"COLUMNS": "220"})


@pytest.fixture
def fake(monkeypatch) -> FakeSolver:  # type: ignore[no-untyped-def]
    return FakeSolver().install(monkeypatch)


@pytest.fixture
def fake_unknown(monkeypatch) -> FakeSolver:  # type: ignore[no-untyped-def]
    return FakeSolver("unknown").install(monkeypatch)


# ---- bad input: one line on stderr, exit 2, no traceback -------------------------------------

def _files(tmp: Path) -> dict[str, str]:
    content = {
        "nonnum.txt": "3 5\n3 x\n",
        "range.txt": "3 5\n2 7\n",
        "onedie.txt": "3 5\n4\n",
        "empty.txt": "# no rolls here\n\n",
        "badline.txt": "turn 1 roll 3 5\n  die1 => parks trail=2\n",
        "illegalplay.txt": "turn 1 roll 3 5\n  die1 -> parks trail=1\n",
    }
    for name, text in content.items():
        (tmp / name).write_text(text)
    (tmp / "binary.bin").write_bytes(b"\xff\xfe\x00turn")
    content["binary.bin"] = ""
    return {k: str(tmp / k) for k in content}


BAD = [
    # (args with {placeholders}, expected fragment of the one-line message)
    (["round", "--realms", REALMS, "--rolls", "{nonnum.txt}"], "nonnum.txt line 2: die 'x' is not a number"),
    (["round", "--realms", REALMS, "--rolls", "{range.txt}"], "range.txt line 2: die 7 is outside 1-6"),
    (["round", "--realms", REALMS, "--rolls", "{onedie.txt}"], "onedie.txt line 2: a turn needs exactly two dice, found 1"),
    (["round", "--realms", REALMS, "--rolls", "{empty.txt}"], "empty.txt: no rolls in the file"),
    (["round", "--realms", REALMS, "--rolls", "{missing.txt}"], "missing.txt: cannot read"),
    (["round", "--realms", "wurfelwelten,parks,atlantis", "--rolls", ONE], "unknown realm 'atlantis' (known: wurfelwelten, ark-nova"),
    (["round", "--realms", "wurfelwelten,parks,Würfelwelten", "--rolls", ONE], "realm 'wurfelwelten' is named twice"),
    (["round", "--realms", "wurfelwelten,parks", "--rolls", ONE], "a round has exactly 3 realms, got 2"),
    (["round", "--realms", "wurfelwelten,parks,libertalia,ark-nova", "--rolls", ONE], "a round has exactly 3 realms, got 4"),
    (["round", "--realms", REALMS, "--rolls", ONE, "--option", "nonsense=1"], "unknown rule option 'nonsense'"),
    (["round", "--realms", REALMS, "--rolls", ONE, "--option", "compensation=maybe"], "compensation must be 'choice' or 'off'"),
    (["round", "--realms", REALMS, "--rolls", ONE, "--option", "compensation"], "expected name=value"),
    (["round", "--realms", REALMS, "--rolls", ONE, "--time-limit", "0"], "--time-limit: must be positive"),
    (["check", "--realms", REALMS, "--rolls", ROUND1, "--line", "{badline.txt}"], "badline.txt line 2: expected '-> realm'"),
    (["check", "--realms", REALMS, "--rolls", ROUND1, "--line", "{missing.txt}"], "missing.txt: cannot read"),
    (["check", "--realms", REALMS, "--rolls", ROUND1, "--line", "{binary.bin}"], "binary.bin: not a text file"),
    (["round", "--realms", REALMS, "--rolls", "{binary.bin}"], "binary.bin: not a text file"),
    (["round", "--realms", REALMS, "--rolls", ROUND1, "--played", "{illegalplay.txt}"],
     "illegalplay.txt: the played turns are not legal: turn 1, action 1 (die1 -> parks trail=1)"),
    (["round", "--realms", REALMS, "--rolls", ROUND1, "--played", "{badline.txt}"], "badline.txt line 2: expected '-> realm'"),
    (["round", "--realms", REALMS, "--rolls", ONE, "--played", LINE], "the line has 9 turns but the rolls give 1"),
    (["check", "--realms", REALMS, "--rolls", "{nonnum.txt}", "--line", LINE], "nonnum.txt line 2: die 'x' is not a number"),
    (["realms", "atlantis"], "unknown realm 'atlantis' (known: wurfelwelten"),
    (["verify", "{missing.txt}"], "missing.txt: cannot read"),
    (["verify", "{badline.txt}"], "badline.txt line 1: malformed JSON"),
]


@pytest.mark.parametrize("args, message", BAD, ids=[" ".join(a[:1] + [m[:30]]) for a, m in BAD])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, fake: FakeSolver, args: list[str], message: str) -> None:
    files = _files(tmp_path)
    files["missing.txt"] = str(tmp_path / "missing.txt")
    argv = [files[a[1:-1]] if a.startswith("{") else a for a in args]
    r = run(*argv)
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "Traceback" not in r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("error: ") and message in err, err
    assert r.stdout == ""
    assert not fake.calls  # bad input never reaches the solver


def test_realm_names_with_accents_spaces_and_case(fake: FakeSolver) -> None:
    r = run("round", "--realms", "Würfelwelten, A Feast for Odin ,ARK NOVA", "--rolls", ONE, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["realms"] == ["wurfelwelten", "feast-for-odin", "ark-nova"]


def test_a_realm_without_a_solver_model_is_refused_clearly(fake: FakeSolver) -> None:
    from solver.realms import all_realms
    from solver.realms import is_solvable

    engine_only = [r.key for r in all_realms() if not is_solvable(r)]
    if not engine_only:
        pytest.skip("every registered realm has a CP-SAT model")
    r = run("round", "--realms", f"{engine_only[0]},parks,libertalia", "--rolls", ONE)
    assert r.exit_code == 2 and "cannot be solved yet (no CP-SAT model)" in r.stderr and not fake.calls


def test_check_without_line_is_a_usage_error() -> None:
    r = run("check", "--realms", REALMS, "--rolls", ROUND1)
    assert r.exit_code == 2 and "--line" in r.output


# ---- round ---------------------------------------------------------------------------------------

def test_round_optimal_prints_status_line_and_sheets(fake: FakeSolver) -> None:
    r = run("round", "--realms", REALMS, "--rolls", ONE)
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "OPTIMAL: 1 stars, proven" in out and "UNKNOWN" not in out
    assert "leftover resources: 1" in out and "score: 1.1" in out and "solve time" in out
    assert "Line, turn by turn" in out and "Final sheets" in out
    assert "die1 (3) → Würfelwelten (benefit C, world 1)" in out  # the action in words
    assert "world 1" in out and "trail 2" in out and "pirates" in out  # the realms' sheet_rows
    assert "turn 1 roll 3 5" in out  # the line in text form, ready for `solve check`


def test_round_json_fields(fake: FakeSolver) -> None:
    r = run("round", "--realms", REALMS, "--rolls", ONE, "--json")
    assert r.exit_code == 0
    obj = json.loads(r.stdout)
    for key in ("status", "stars", "leftover", "bound", "line", "solve_time", "params", "ortools", "score", "turns", "proof"):
        assert key in obj, key
    assert obj["status"] == "optimal" and obj["exit_code"] == 0
    assert (obj["stars"], obj["leftover"], obj["bound"], obj["score"]) == (1, 1, 1, 1.1)
    assert obj["stars_proven"] is True and obj["leftover_bound"] == 1
    assert obj["line"][0]["roll"] == [3, 5] and obj["turns"][0]["stars_total"] == 1
    assert obj["rules"]["compensation"] == "choice" and obj["rolls"] == [[3, 5]]


def test_round_unknown_is_never_a_success(fake_unknown: FakeSolver) -> None:
    r = run("round", "--realms", REALMS, "--rolls", ONE, "--time-limit", "5")
    assert r.exit_code == 3, r.output
    assert "UNKNOWN" in r.stdout and "NOT a proven optimum" in r.stdout and "OPTIMAL" not in r.stdout
    assert "upper bound 3 stars" in r.stdout  # the best line and the bound are shown
    obj = json.loads(run("round", "--realms", REALMS, "--rolls", ONE, "--json").stdout)
    assert obj["status"] == "unknown" and obj["exit_code"] == 3 and obj["bound"] == 3
    assert obj["stars_proven"] is False and obj["leftover_bound"] is None


def test_found_optimum_without_finished_proof_is_still_unknown(fake_unknown: FakeSolver) -> None:
    from solver.render import round_summary

    game = build_game(REALMS, ONE)
    res = fake_unknown.solve_optimal(game)
    res.star_bound = res.stars
    text = round_summary(game, res).plain
    assert text.startswith("UNKNOWN") and "did not finish" in text and "NOT a proven optimum" in text


def test_stars_proven_with_the_leftover_open_says_so_with_or_without_a_leftover_bound(fake_unknown: FakeSolver) -> None:
    from solver.render import round_summary

    game = build_game(REALMS, ONE)
    res = fake_unknown.solve_optimal(game)
    res.star_bound, res.stars_proven, res.proof = res.stars, True, None
    text = round_summary(game, res).plain
    assert text.startswith("UNKNOWN") and "is proven the most any line can score" in text
    assert "no bound proven" in text and "None" not in text
    res.leftover_bound = (res.leftover or 0) + 2
    assert f"bound {res.leftover_bound})" in round_summary(game, res).plain


def test_round_passes_limits_options_and_no_progress_when_not_a_terminal(fake: FakeSolver) -> None:
    r = run("round", "--realms", REALMS, "--rolls", ONE, "--time-limit", "7.5", "--workers", "2",
            "--option", "compensation=off", "--json")
    assert r.exit_code == 0
    call = fake.calls[-1]
    assert call["time_limit"] == 7.5 and call["workers"] == 2 and call["progress"] is None
    assert call["game"].rules.compensation == "off"
    assert json.loads(r.stdout)["rules"]["compensation"] == "off"


@pytest.mark.parametrize("target, code, word", [(1, 0, "REACHABLE"), (2, 1, "UNREACHABLE")])
def test_round_target(fake: FakeSolver, target: int, code: int, word: str) -> None:
    r = run("round", "--realms", REALMS, "--rolls", ONE, "--target", str(target))
    assert r.exit_code == code, r.output
    assert r.stdout.count(word) >= 1 and ("UNREACHABLE" in r.stdout) == (word == "UNREACHABLE")
    obj = json.loads(run("round", "--realms", REALMS, "--rolls", ONE, "--target", str(target), "--json").stdout)
    assert obj["status"] == word.lower() and obj["target"] == target
    assert fake.calls[-1]["fn"] == "target"


def test_round_target_unknown(fake_unknown: FakeSolver) -> None:
    r = run("round", "--realms", REALMS, "--rolls", ONE, "--target", "1")
    assert r.exit_code == 3 and "UNKNOWN" in r.stdout and "REACHABLE" not in r.stdout


def test_round_writes_a_certificate_that_verifies(tmp_path: Path, fake: FakeSolver) -> None:
    cert = tmp_path / "c.json"
    r = run("round", "--realms", REALMS, "--rolls", ONE, "--certificate", str(cert))
    assert r.exit_code == 0 and f"certificate written to {cert}" in r.stdout
    data = json.loads(cert.read_text())
    assert data["rolls"] == [[3, 5]] and data["realms"] == REALMS.split(",") and data["proof"]["status"] == "INFEASIBLE"
    v = run("verify", str(cert))
    assert v.exit_code == 0, v.output
    assert "VERIFIED" in v.stdout and "NOT VERIFIED" not in v.stdout
    obj = json.loads(run("verify", str(cert), "--json").stdout)
    assert obj["status"] == "verified" and obj["stars"] == 1 and obj["bound"] == 1 and "ortools" in obj


def test_verify_rejects_a_tampered_certificate(tmp_path: Path, fake: FakeSolver) -> None:
    cert = tmp_path / "c.json"
    run("round", "--realms", REALMS, "--rolls", ONE, "--certificate", str(cert))
    data = json.loads(cert.read_text())
    data["stars"] = 2
    cert.write_text(json.dumps(data))
    v = run("verify", str(cert))
    assert v.exit_code == 1 and "NOT VERIFIED" in v.stdout


def test_verify_of_an_unknown_certificate_is_not_verified(tmp_path: Path, fake_unknown: FakeSolver) -> None:
    cert = tmp_path / "c.json"
    assert run("round", "--realms", REALMS, "--rolls", ONE, "--certificate", str(cert)).exit_code == 3
    assert run("verify", str(cert)).exit_code == 1


# ---- check ---------------------------------------------------------------------------------------

def test_check_legal_line() -> None:
    r = run("check", "--realms", REALMS, "--rolls", ROUND1, "--line", LINE)
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "LEGAL: 11 stars + 4 leftover = score 11.4" in out
    assert out.count("Sheets after turn") == 9
    assert "compensate die2 (6, no legal place): gain 1 coin" in out


def test_check_illegal_line_names_turn_action_and_rule() -> None:
    r = run("check", "--realms", REALMS, "--rolls", ROUND1, "--line", str(EX / "line-illegal.txt"))
    assert r.exit_code == 1, r.output
    assert "ILLEGAL: turn 2, action 2 (die2 -> libertalia benefit=no pirate=6): libertalia was already activated" in r.stdout


def test_check_json_and_json_line_files(tmp_path: Path) -> None:
    r = run("check", "--realms", REALMS, "--rolls", ROUND1, "--line", LINE, "--json")
    obj = json.loads(r.stdout)
    for key in ("status", "stars", "leftover", "bound", "line", "solve_time", "params", "ortools", "error", "turns"):
        assert key in obj, key
    assert obj["status"] == "legal" and obj["stars"] == 11 and obj["leftover"] == 4 and obj["error"] is None
    assert len(obj["turns"]) == 9 and obj["turns"][-1]["stars_total"] == 11
    as_json = tmp_path / "line.json"
    as_json.write_text(json.dumps({"line": obj["line"]}))
    r2 = run("check", "--realms", REALMS, "--rolls", ROUND1, "--line", str(as_json), "--json")
    assert r2.exit_code == 0 and json.loads(r2.stdout)["score"] == 11.4
    bad = json.loads(run("check", "--realms", REALMS, "--rolls", ROUND1, "--line", str(EX / "line-illegal.txt"), "--json").stdout)
    assert bad["status"] == "illegal" and bad["error"]["turn"] == 2 and bad["error"]["action"] == 2


def test_check_line_with_other_rolls_is_illegal(tmp_path: Path) -> None:
    rolls = tmp_path / "r.txt"
    rolls.write_text("3 5\n1 2\n" + "1 1\n" * 7)
    r = run("check", "--realms", REALMS, "--rolls", str(rolls), "--line", LINE)
    assert r.exit_code == 1 and "the rolls file says 1 2" in r.stdout


def test_check_rule_option_changes_the_verdict() -> None:
    r = run("check", "--realms", REALMS, "--rolls", ROUND1, "--line", LINE, "--option", "compensation=off")
    assert r.exit_code == 1 and "compensation is off" in r.stdout


def test_check_pentaquest_is_a_subcommand_of_check() -> None:
    pq = EX / "pentaquest"
    r = run("check", "pentaquest", "--deck", str(pq / "small_deck.txt"), "--dice", str(pq / "small_stream.txt"),
            "--line", str(pq / "small_line.txt"))
    assert r.exit_code == 0, r.output
    assert "legal" in r.stdout
    assert "pentaquest" in cli_module.cli.commands  # and the top-level solver


# ---- realms --------------------------------------------------------------------------------------

def test_realms_lists_titles_and_provenance() -> None:
    r = run("realms")
    assert r.exit_code == 0
    for text in ("wurfelwelten", "Würfelwelten", "ark-nova", "feast-for-odin", "libertalia", "parks", "reconstructed", "printed"):
        assert text in r.stdout, text
    obj = json.loads(run("realms", "--json").stdout)
    keys = {x["key"]: x["provenance"] for x in obj["realms"]}
    assert keys["ark-nova"] == "reconstructed" and keys["wurfelwelten"] == "printed"


def test_realm_card() -> None:
    r = run("realms", "A Feast for Odin")
    assert r.exit_code == 0
    for text in ("A Feast for Odin (feast-for-odin)", "provenance", "usage", "scoring", "islands", "Rulebook"):
        assert text in r.stdout, text
    obj = json.loads(run("realms", "parks", "--json").stdout)["realm"]
    assert obj["key"] == "parks" and obj["usage"] and obj["scoring"] and obj["provenance_note"] and obj["rules"]
    assert "trails" in obj["card"] and "usage" not in obj["card"]


# ---- progress ------------------------------------------------------------------------------------

def test_progress_reports_only_when_enabled() -> None:
    assert Progress(enabled=False).callback is None
    shown: list[str] = []
    with Progress(enabled=True) as p:
        p._status = type("S", (), {"update": lambda self, m: shown.append(m.__rich__().plain), "stop": lambda self: None})()
        assert p.callback is not None and p.rounds_callback is not None
        p.callback(None, 18, "a first line")
        p.callback(3, 7, "the star bound (LP relaxation)")
        p.rounds_callback(2, 3)
    assert shown[0].startswith("solving … bound 18 ★ · a first line · ")
    assert shown[1].startswith("best 3 ★ · bound 7 ★ · the star bound (LP relaxation) · ")
    assert shown[1].endswith(" s")
    assert "2 of 3 rounds done" in shown[2]
    assert Progress(enabled=False).rounds_callback is None


def test_campaign_progress_lines_print_above_the_status_as_written() -> None:
    import io

    from rich.console import Console

    assert Progress(enabled=False).lines_callback is None
    out = io.StringIO()
    p = Progress(enabled=True, console=Console(file=out, width=100))
    assert p.lines_callback is not None
    p.lines_callback("chapter 2 [parks]: won at turn 9? impossible (1.40 det-s)")
    assert out.getvalue() == "chapter 2 [parks]: won at turn 9? impossible (1.40 det-s)\n"  # no markup eaten


def test_fake_solver_is_exact_on_the_one_turn_round() -> None:
    assert best_stars(build_game(REALMS, ONE)) == 1


# ---- README and docs -----------------------------------------------------------------------------

def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    import re

    return [b.strip() for b in re.findall(r"```\n(.*?)```", section, re.S)]


def test_readme_has_exactly_two_one_line_setup_commands_and_ci_runs_the_second() -> None:
    cmds = _setup_commands()
    assert len(cmds) == 2 and all("\n" not in c for c in cmds)
    install, tests = cmds
    assert install.startswith("python -m venv .venv && .venv/bin/pip install -e . && .venv/bin/solve round ")
    assert tests == "python -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
    ci = (ROOT / ".ci" / "run").read_text()
    assert "set -euo pipefail" in ci and tests in ci.splitlines()
    assert (ROOT / ".ci" / "run").stat().st_mode & 0o111


def test_readme_example_is_a_short_valid_round() -> None:
    args = _setup_commands()[0].split(".venv/bin/solve ", 1)[1].split()
    realms, rolls = args[args.index("--realms") + 1], args[args.index("--rolls") + 1]
    game = build_game(realms, str(ROOT / rolls))
    assert 2 <= game.turns <= 3


def test_every_rule_option_is_documented() -> None:
    from dataclasses import fields

    from solver.rules import RuleSet

    doc = (ROOT / "docs" / "rules-options.md").read_text(encoding="utf-8")
    for f in fields(RuleSet):
        assert f"| `{f.name}` |" in doc, f.name


def test_documented_files_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in ("docs/cli.md", "docs/line-format.md", "docs/json.md", "docs/rules-options.md",
                 "puzzles/examples/round1.txt", "puzzles/examples/line-example.txt"):
        assert path in readme and (ROOT / path).exists(), path


def test_realm_keys_are_never_cut_in_the_realms_table() -> None:
    """The key is what --realms takes: seen cut at 80 columns ("feast-for-od…") before."""
    import io

    from rich.console import Console

    from solver.realms import all_realms
    from solver.render import realms_table

    out = io.StringIO()
    Console(file=out, width=80).print(realms_table(all_realms()))
    text = out.getvalue()
    assert "…" not in text
    assert all(f"│ {r.key} " in text for r in all_realms())
