"""The JSON objects that `--json` prints, one per command (schema: docs/json.md).

round, check and verify share the top-level fields: command, status, exit_code, stars, leftover,
score, bound, line, line_text, turns, solve_time, params, ortools.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from .certificate import Verification, make_certificate
from .commands import CheckResult
from .engine import Game, Step, realm_stars
from .line import Line
from .realms import is_solvable
from .realms.base import Realm
from .solve import ORTOOLS_VERSION, RoundResult

if TYPE_CHECKING:
    from .commands import GameResult

#: card fields shown as text, not as data
TEXT_FIELDS = ("key", "title", "aliases", "source", "provenance", "provenance_note", "usage", "scoring", "max_stars")


def resources_json(res: Any) -> dict[str, int]:
    return {"P": res.P, "H": res.H, "C": res.C}


def turns_json(game: Game, line: Line | None, steps: Sequence[Step]) -> list[dict[str, Any]]:
    """Per fully replayed turn: roll, actions (text format), resources and stars after it."""
    if line is None:
        return []
    after = {s.turn: s.state for s in steps if s.index == -1}
    out = []
    for t, turn in enumerate(line.turns):
        if t not in after:
            break
        state = after[t]
        stars = realm_stars(game, state)
        out.append({
            "turn": t + 1,
            "roll": list(turn.roll),
            "actions": [a.text() for a in turn.actions],
            "end": {k: dict(c) for k, c in turn.end},
            "resources": resources_json(state.resources),
            "stars": dict(zip((r.key for r in game.realms), stars)),
            "stars_total": sum(stars),
        })
    return out


def game_json(game: Game) -> dict[str, Any]:
    return {"realms": [r.key for r in game.realms], "rolls": [list(r) for r in game.rolls], "rules": game.rules.as_dict()}


def round_report(game: Game, result: RoundResult) -> dict[str, Any]:
    """`solve round --json`: the answer, its line and proof, and how it was obtained."""
    rep = result.replay
    cert = make_certificate(game, result)
    return {
        "command": "round",
        "status": result.status,
        "exit_code": result.exit_code,
        "question": result.question,
        "target": result.target,
        **game_json(game),
        "played_turns": result.played_turns,
        "stars": result.stars,
        "leftover": result.leftover,
        "score": result.score,
        "realm_stars": cert["realm_stars"],
        "bound": result.star_bound,
        # the stars proven the most any line scores (optimal, or unknown with only the leftover
        # tie-break open), and then a proven bound on the leftover among those lines
        "stars_proven": bool(result.stars_proven),
        "leftover_bound": (result.leftover if result.status == "optimal"
                           else result.leftover_bound if result.stars_proven else None),
        "line": cert["line"],
        "line_text": cert["line_text"],
        "turns": turns_json(game, result.line, rep.steps if rep else ()),
        "proof": result.proof,
        "solve_time": round(result.solve_time, 3),
        "deterministic_time": round(result.deterministic_time, 3),
        "params": result.params,
        "ortools": ORTOOLS_VERSION,
    }


def check_report(check: CheckResult) -> dict[str, Any]:
    """`solve check --json`: legal or not, the score, and the first illegal step."""
    game, rep = check.game, check.replay
    error = None
    if not rep.legal:
        step = None if rep.error_step is None or rep.error_step < 0 else rep.error_step + 1
        error = {"turn": (rep.error_turn or 0) + 1, "action": step, "message": rep.error}
    return {
        "command": "check",
        "status": check.status,
        "exit_code": check.exit_code,
        "legal": rep.legal,
        **game_json(game),
        "stars": rep.stars_total,
        "leftover": rep.final.resources.total(),
        "score": rep.score_tenths / 10,
        "realm_stars": list(rep.stars),
        "bound": None,
        "error": error,
        "line": check.line.to_json(),
        "line_text": check.line.to_text(),
        "turns": turns_json(game, check.line, rep.steps),
        "solve_time": None,
        "params": None,
        "ortools": ORTOOLS_VERSION,
    }


def verify_report(ver: Verification) -> dict[str, Any]:
    """`solve verify --json`: verified or not, each recomputed check, the re-run proof."""
    cert = ver.certificate
    rep = ver.replay
    return {
        "command": "verify",
        "status": ver.status,
        "exit_code": ver.exit_code,
        "verified": ver.status == "verified",
        "certificate": cert.path,
        "claim": {"question": cert.question, "status": cert.status, "target": cert.target,
                  "stars": cert.stars, "leftover": cert.leftover, "text": ver.claim},
        **game_json(cert.game),
        "stars": rep.stars_total if rep else None,
        "leftover": rep.final.resources.total() if rep else None,
        "score": rep.score_tenths / 10 if rep else None,
        "bound": verified_bound(ver),
        "line": cert.line.to_json() if cert.line else None,
        "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in ver.checks],
        "proof": ver.proof,
        "solve_time": round(ver.solve_time, 3),
        "params": ver.proof.get("params") if ver.proof else None,
        "ortools": ORTOOLS_VERSION,
        "certificate_ortools": cert.ortools,
    }


def verified_bound(ver: Verification) -> int | None:
    """The star bound a verified certificate proves (None when nothing was proven)."""
    cert = ver.certificate
    if ver.status != "verified":
        return None
    if cert.status == "optimal" and ver.replay is not None:
        return ver.replay.stars_total
    if cert.status == "unreachable" and cert.target is not None:
        return cert.target - 1
    return None


def card_data(realm: Realm) -> dict[str, Any]:
    """The card's data fields (layout, benefits, costs), without its text fields."""
    return {k: v for k, v in realm.card.items() if k not in TEXT_FIELDS}


def realm_summary(realm: Realm) -> dict[str, Any]:
    return {"key": realm.key, "title": realm.title, "provenance": realm.provenance, "aliases": realm.aliases,
            "solvable": is_solvable(realm)}


def realms_report(realms: Sequence[Realm]) -> dict[str, Any]:
    """`solve realms --json`."""
    return {"command": "realms", "realms": [realm_summary(r) for r in realms]}


def realm_report(realm: Realm) -> dict[str, Any]:
    """`solve realms NAME --json`: the whole card."""
    from .render import rules_text

    return {
        "command": "realms",
        "realm": {
            **realm_summary(realm),
            "source": realm.card.get("source"),
            "provenance_note": realm.card.get("provenance_note"),
            "usage": realm.card.get("usage"),
            "scoring": realm.card.get("scoring"),
            "max_stars": realm.card.get("max_stars", 6),
            "rules": rules_text(realm),
            "card": card_data(realm),
        },
    }


def game_report(result: "GameResult") -> dict[str, Any]:
    """A full game: status (optimal only if every round is), totals, and each round's report."""
    return {
        "status": result.status,
        "stars": result.stars,
        "leftover": result.leftover,
        "bound": result.star_bound,
        "rounds": [round_report(game, res) for game, res in result.rounds],
    }
