"""Named rule options for the points the seed leaves open; defaults follow the seed."""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

from .errors import PentaquestInputError


@dataclass(frozen=True)
class Options:
    """Rule readings.

    sun_moon_may_match: the seed lists 4 4 4 4 as meeting ☀☀☾☾, so ☀ and ☾ may show the same
        number (default True). False is the BGA reading (☀ ≠ ☾).
    first_turn_free_rerolls / free_rerolls: free rerolls on the game's first turn / later turns
        (seed: 2 and 1).
    """

    sun_moon_may_match: bool = True
    first_turn_free_rerolls: int = 2
    free_rerolls: int = 1


BGA = Options(sun_moon_may_match=False)


def _parse_bool(name: str, text: str) -> bool:
    low = text.strip().lower()
    if low in {"1", "true", "yes", "on"}:
        return True
    if low in {"0", "false", "no", "off"}:
        return False
    raise PentaquestInputError(f"option {name}: expected true/false, got {text!r}")


def parse_options(pairs: list[str] | tuple[str, ...], base: Options | None = None) -> Options:
    """Parse `name=value` strings (as given to --option) on top of `base`."""
    opts = base or Options()
    known = {f.name: f.type for f in fields(Options)}
    for pair in pairs:
        if "=" not in pair:
            raise PentaquestInputError(f"option {pair!r}: expected name=value")
        name, value = (s.strip() for s in pair.split("=", 1))
        name = name.replace("-", "_")
        if name not in known:
            raise PentaquestInputError(f"unknown option {name!r} (known: {', '.join(sorted(known))})")
        if known[name] in (bool, "bool"):
            opts = replace(opts, **{name: _parse_bool(name, value)})
        else:
            try:
                n = int(value)
            except ValueError:
                raise PentaquestInputError(f"option {name}: expected an integer, got {value!r}") from None
            if not 0 <= n <= 5:
                raise PentaquestInputError(f"option {name}: expected 0..5, got {n}")
            opts = replace(opts, **{name: n})
    return opts


def options_to_dict(opts: Options) -> dict[str, object]:
    return {f.name: getattr(opts, f.name) for f in fields(Options)}
