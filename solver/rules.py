"""Rule options: every point the sources leave open is a named option with the spec's default.

See ../shared/rules/rolling-realms.md (section 1 and 6) and docs/rules-options.md.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class RuleSet:
    """Named rule options. Defaults are the spec's defaults (marked there in bold)."""

    #: a rolled die with no legal placement may be traded for 1 resource ("choice") or not ("off")
    compensation: str = "choice"
    #: resources gained in a turn may pay for later activations of the same turn
    same_turn_spending: bool = True
    #: per-kind resource cap (None = no cap, the base game)
    resource_cap: int | None = None
    #: a realm holds at most this many stars per round
    star_cap: int = 6
    #: Risky Rewards variant (#0 creatable); not modelled beyond the flag
    risky_rewards: bool = False
    #: Würfelwelten third world benefits: "CHH" (spec default) or "CHC"
    wurfelwelten_third_world: str = "CHH"
    #: Scythe: a # marks a top or a bottom cell showing it ("any") or a top cell, then may pay
    #: for the bottom cell of the same column ("same-column")
    scythe_bottom: str = "any"
    #: Viticulture grape resources: PNP v10.1 ("pnp": 1 H, 2 H, 3 C, 4 C) or OG ("og": 1 C, 2 C, 3 H, 4 H)
    viticulture: str = "pnp"
    #: Between Two Castles: the right castle's door under R2 ("pnp") or under R1 ("og")
    castles: str = "pnp"
    #: Euphoria: when the roll is a pair, a # may be marked in both areas
    euphoria_pair_both: bool = True
    #: My Little Scythe: the 6th P/H/C counts resources earned anywhere this round ("anywhere")
    #: or only those earned in My Little Scythe ("here")
    my_little_scythe_counting: str = "anywhere"
    #: Charterstone crate number: "other-die" (a rolled die or a copy of die k writes the other
    #: rolled die; a created # writes either rolled die) or "rolled-only" (only a rolled die may
    #: take a bonus and write a crate; copies and created #s may only mark crates)
    charterstone_crate: str = "other-die"

    def with_options(self, pairs: dict[str, str]) -> "RuleSet":
        """Return a copy with options set from text values (as given on the command line)."""
        known = {f.name: f for f in fields(self)}
        changes: dict[str, object] = {}
        for name, text in pairs.items():
            key = name.replace("-", "_")
            if key not in known:
                raise ValueError(f"unknown rule option {name!r} (known: {', '.join(sorted(known))})")
            current = getattr(self, key)
            changes[key] = _parse_value(key, text, current)
        ruleset = replace(self, **changes)
        ruleset.validate()
        return ruleset

    def validate(self) -> None:
        if self.compensation not in ("choice", "off"):
            raise ValueError("rule option compensation must be 'choice' or 'off'")
        if self.wurfelwelten_third_world not in ("CHH", "CHC"):
            raise ValueError("rule option wurfelwelten_third_world must be 'CHH' or 'CHC'")
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"rule option {name} must be {' or '.join(repr(a) for a in allowed)}")
        if self.risky_rewards:
            raise ValueError("rule option risky_rewards is named by the seed but has no rules text; not supported")
        if not self.same_turn_spending:
            raise ValueError("rule option same_turn_spending=off is not supported yet")
        if self.resource_cap is not None:
            raise ValueError("rule option resource_cap is not supported in the base game yet")

    def as_dict(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


#: text-valued options of the base-game realms and their allowed values (default first)
_CHOICES: dict[str, tuple[str, ...]] = {
    "scythe_bottom": ("any", "same-column"),
    "viticulture": ("pnp", "og"),
    "castles": ("pnp", "og"),
    "my_little_scythe_counting": ("anywhere", "here"),
    "charterstone_crate": ("other-die", "rolled-only"),
}


def _parse_value(key: str, text: str, current: object) -> object:
    if isinstance(current, bool):
        low = text.lower()
        if low in ("on", "true", "yes", "1"):
            return True
        if low in ("off", "false", "no", "0"):
            return False
        raise ValueError(f"rule option {key} takes on/off, not {text!r}")
    if isinstance(current, int) or current is None:
        if text.lower() in ("none", ""):
            return None
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"rule option {key} takes a whole number, not {text!r}") from None
    return text


DEFAULT_RULES = RuleSet()
