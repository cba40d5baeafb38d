"""Certificates: a solved round written to JSON, and re-checked later without trusting the file.

A certificate holds the question (rolls, realms, rule options), the claim (status, stars,
leftover, score), the witness line and the solver's proof. `verify_certificate` replays the line
with the engine and re-runs the proof with the installed OR-Tools; only what it recomputes counts.
Format: docs/json.md ("certificate").
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .engine import Game, Replay, replay
from .errors import InputError
from .textfile import read_text
from .line import Line, parse_line_json
from .model import ModelOptions
from .realms import get_realm
from .rules import RuleSet
from .solve import ORTOOLS_VERSION, RoundResult, prove_no_more, solve_target

FORMAT = "rolling-realms-certificate/1"
CLAIMS = ("optimal", "reachable", "unreachable", "unknown")


def make_certificate(game: Game, result: RoundResult) -> dict[str, Any]:
    """The certificate of a solver answer (written even for 'unknown', which verify rejects)."""
    rep = result.replay
    return {
        "format": FORMAT,
        "game": "rolling-realms",
        "question": result.question,
        "target": result.target,
        "realms": [r.key for r in game.realms],
        "rolls": [list(r) for r in game.rolls],
        "rules": game.rules.as_dict(),
        "status": result.status,
        "stars": result.stars,
        "leftover": result.leftover,
        "score": result.score,
        "score_tenths": rep.score_tenths if rep is not None else None,
        "realm_stars": list(rep.stars) if rep is not None else None,
        "star_bound": result.star_bound,
        "line": result.line.to_json() if result.line is not None else None,
        "line_text": result.line.to_text() if result.line is not None else None,
        "played": _played_json(result),
        "proof": result.proof,
        "ortools": ORTOOLS_VERSION,
        "params": result.params,
        "solve_time": round(result.solve_time, 3),
        "deterministic_time": round(result.deterministic_time, 3),
    }


def _played_json(result: RoundResult) -> Any:
    """The turns given as played (the witness line begins with them): the proof fixed them."""
    return result.played.to_json() if result.played is not None else None


def write_certificate(path: str, cert: dict[str, Any]) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(cert, fh, indent=2, ensure_ascii=False)
            fh.write("\n")
    except OSError as exc:
        raise InputError(f"{path}: cannot write the certificate ({exc.strerror})") from None


@dataclass(frozen=True)
class Certificate:
    """A certificate read back: the game it is about, the claim, and the line (if any)."""

    path: str
    game: Game
    question: str
    status: str
    target: int | None
    stars: int | None
    leftover: int | None
    score_tenths: int | None
    line: Line | None
    ortools: str | None
    raw: dict[str, Any] = field(repr=False, default_factory=dict)
    #: the turns given as played: the question was about the rest of the round
    played: Line | None = None


def load_certificate(path: str) -> Certificate:
    """Read and shape-check a certificate; anything malformed is an InputError (exit 2)."""
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} line {exc.lineno}: malformed JSON ({exc.msg})") from None
    return parse_certificate(data, path)


def parse_certificate(data: Any, path: str = "<certificate>") -> Certificate:
    from .commands import TURNS_PER_ROUND, parse_realm_list  # local: commands imports solve too

    if not isinstance(data, dict):
        raise InputError(f"{path}: a certificate is a JSON object")
    if data.get("format") != FORMAT:
        raise InputError(f"{path}: not a Rolling Realms certificate (format should be {FORMAT!r})")
    for name in ("question", "status", "realms", "rolls", "rules"):
        if name not in data:
            raise InputError(f"{path}: field {name!r} is missing")
    question, status = data["question"], data["status"]
    if question not in ("optimal", "target"):
        raise InputError(f"{path}: field 'question' must be 'optimal' or 'target', not {question!r}")
    if status not in CLAIMS:
        raise InputError(f"{path}: field 'status' must be one of {', '.join(CLAIMS)}, not {status!r}")
    if not isinstance(data["realms"], list):
        raise InputError(f"{path}: field 'realms' must be a list of realm keys")
    try:
        keys = parse_realm_list([str(k) for k in data["realms"]])
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    rolls = data["rolls"]
    if (
        not isinstance(rolls, list)
        or not 1 <= len(rolls) <= TURNS_PER_ROUND
        or not all(isinstance(r, list) and len(r) == 2 and all(isinstance(v, int) and 1 <= v <= 6 for v in r) for r in rolls)
    ):
        raise InputError(f"{path}: field 'rolls' must be 1-{TURNS_PER_ROUND} pairs of dice 1-6")
    rules = _rules(data["rules"], path)
    game = Game(tuple(get_realm(k) for k in keys), tuple((r[0], r[1]) for r in rolls), rules)
    target = _opt_int(data, "target", path)
    if question == "target" and target is None:
        raise InputError(f"{path}: a target certificate needs field 'target'")
    line = None
    if data.get("line") is not None:
        line = parse_line_json(data["line"], f"{path} (line)")
    played = None
    if data.get("played") is not None:
        played = parse_line_json(data["played"], f"{path} (played)")
        if not played.turns or len(played.turns) > game.turns:
            raise InputError(f"{path}: field 'played' must hold 1-{game.turns} turns")
    return Certificate(
        path=path,
        game=game,
        question=question,
        status=status,
        target=target,
        stars=_opt_int(data, "stars", path),
        leftover=_opt_int(data, "leftover", path),
        score_tenths=_opt_int(data, "score_tenths", path),
        line=line,
        ortools=str(data.get("ortools")) if data.get("ortools") is not None else None,
        raw=data,
        played=played,
    )


def _opt_int(data: dict[str, Any], name: str, path: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{path}: field {name!r} must be a whole number or null, not {value!r}")
    return value


def _rules(value: Any, path: str) -> RuleSet:
    """Rebuild the rule options through the same parser as --option (so they are validated)."""
    if not isinstance(value, dict):
        raise InputError(f"{path}: field 'rules' must be an object of rule options")
    texts = {}
    for name, v in value.items():
        if isinstance(v, bool):
            texts[name] = "on" if v else "off"
        elif v is None:
            texts[name] = "none"
        else:
            texts[name] = str(v)
    try:
        return RuleSet().with_options(texts)
    except ValueError as exc:
        raise InputError(f"{path}: field 'rules': {exc}") from None


@dataclass(frozen=True)
class Check:
    """One recomputed fact: its name, whether it holds, and what was found."""

    name: str
    ok: bool | None  # None: could not be decided (time limit)
    detail: str


@dataclass
class Verification:
    """The outcome of re-checking a certificate."""

    certificate: Certificate
    claim: str
    checks: list[Check] = field(default_factory=list)
    replay: Replay | None = None
    proof: dict[str, Any] | None = None
    solve_time: float = 0.0

    @property
    def status(self) -> str:
        if any(c.ok is False for c in self.checks):
            return "not-verified"
        if any(c.ok is None for c in self.checks):
            return "unknown"
        return "verified"

    @property
    def exit_code(self) -> int:
        return {"verified": 0, "not-verified": 1}.get(self.status, 3)


def claim_text(cert: Certificate) -> str:
    after = f" after the played {cert.played.turns_text()}" if cert.played is not None else ""
    if cert.status == "optimal":
        return f"{cert.stars} stars is the most these rolls allow{after}"
    if cert.status == "reachable":
        return f"target {cert.target} stars is reachable{after} (witness: {cert.stars} stars)"
    if cert.status == "unreachable":
        return f"target {cert.target} stars is unreachable{after}"
    return "the certificate claims no answer (status unknown: the solver hit its time limit)"


def _by(proof: dict[str, Any]) -> str:
    """How a re-run proof was obtained, for the check's text."""
    if proof.get("method") == "lp-relaxation":
        return f" (LP relaxation bound {float(proof['bound']):.3f} < {proof['question'].split('>=')[-1].strip()})"
    if proof.get("method") == "extras-split":
        region = proof["region"]
        fewer = (f"{region['status']} in each of {len(region['cases'])} star cases" if region.get("method") == "star-cases"
                 else f"CP-SAT {region['status']}")
        return (f" (split: with >= {proof['extras_at_least']} 3-pumpkin activations the LP relaxation bound "
                f"{float(proof['lp']['bound']):.3f}; with fewer {fewer})")
    return ""


def verify_certificate(cert: Certificate, time_limit: float | None = None, workers: int | None = None) -> Verification:
    """Replay the line with the engine and re-run the proof; trust nothing else in the file."""
    import time

    from .commands import require_solver_model

    ver = Verification(cert, claim_text(cert))
    add = ver.checks.append
    if cert.status == "unknown":
        add(Check("claim", False, "status 'unknown' is not an answer; there is nothing to verify"))
        return ver
    add(Check("ortools", True, f"installed {ORTOOLS_VERSION}; certificate made with {cert.ortools or 'unknown'}"
                               + ("" if cert.ortools in (None, ORTOOLS_VERSION) else " (proof re-run with the installed one)")))
    options = ModelOptions(played=cert.played)
    if cert.played is not None:
        k = len(cert.played.turns)
        rep_played = replay(cert.game, cert.played, partial=True)
        if not rep_played.legal:
            add(Check("played turns", False, f"the engine rejects the played turns: {rep_played.error}"))
            return ver
        kept = cert.line is None or tuple(cert.line.turns[:k]) == tuple(cert.played.turns)
        add(Check("played turns", kept, f"{cert.played.turns_text()} given as played: legal"
                  + ("" if cert.line is None else ", and the line begins with them" if kept else ", but the line does not begin with them")))
        if not kept:
            return ver
    needs_line = cert.status in ("optimal", "reachable")
    if cert.line is None:
        if needs_line:
            add(Check("line", False, f"a '{cert.status}' claim needs a witness line; the certificate has none"))
            return ver
    else:
        rep = replay(cert.game, cert.line)
        ver.replay = rep
        if not rep.legal:
            add(Check("line is legal", False, f"the engine rejects the line: {rep.error}"))
            return ver
        add(Check("line is legal", True, "replayed by the engine, every step legal"))
        got = (rep.stars_total, rep.final.resources.total(), rep.score_tenths)
        claimed = (cert.stars, cert.leftover, cert.score_tenths)
        same = all(c is None or c == g for c, g in zip(claimed, got)) and cert.stars is not None
        add(Check("score", same, f"replayed {got[0]} stars + {got[1]} leftover = {got[2] / 10:.1f}; "
                                 f"claimed {cert.stars} stars + {cert.leftover} leftover"))
        if not same:
            return ver
    t0 = time.perf_counter()
    if cert.status != "reachable":
        require_solver_model(cert.game)  # InputError: the proof cannot be re-run for this round
    if cert.status == "reachable":
        assert ver.replay is not None and cert.target is not None
        ok = ver.replay.stars_total >= cert.target
        add(Check("target", ok, f"{ver.replay.stars_total} stars {'≥' if ok else '<'} target {cert.target}"))
    elif cert.status == "optimal":
        assert ver.replay is not None
        stars = ver.replay.stars_total
        # the file's method only picks which proof to try first; what is recomputed is what counts
        proof_in_file = cert.raw.get("proof")
        method = proof_in_file.get("method") if isinstance(proof_in_file, dict) else None
        proof = prove_no_more(cert.game, stars, time_limit, workers, options, lp_first=method == "lp-relaxation",
                              split_first=method == "extras-split")
        ver.proof = proof
        ok = {"INFEASIBLE": True, "UNKNOWN": None}.get(proof["status"], False)
        add(Check("proof", ok, f"re-solved '{proof['question']}': {proof['status']}{_by(proof)}"
                               + (" (a better line exists)" if ok is False else "")))
    else:
        assert cert.target is not None
        res = solve_target(cert.game, cert.target, time_limit, workers, options)
        ver.proof = res.proof or {"question": f"stars >= {cert.target}", "status": res.status.upper()}
        ok = {"unreachable": True, "unknown": None}.get(res.status, False)
        detail = f"re-solved 'stars >= {cert.target}': " + {
            "unreachable": "INFEASIBLE" + _by(res.proof or {}), "unknown": "UNKNOWN",
            "reachable": f"FEASIBLE (a line with {res.stars} stars exists)"
        }[res.status]
        add(Check("proof", ok, detail))
    ver.solve_time = time.perf_counter() - t0
    return ver
