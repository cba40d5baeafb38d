"""Same input, same answer: the CP-SAT model of a round must not depend on the process.

Python randomises string hashing per process (PYTHONHASHSEED), so iterating a set of strings
while building a model gives a different variable or constraint order in another process, and
CP-SAT (one worker, deterministic time) then searches differently: measured on a 9-turn round
(bench seed 24) that was "unknown" in one process and "optimal" in another, until Würfelwelten
iterated `sorted(set(...))`. This test builds every realm's model in processes with different
hash seeds and compares them."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import hashlib, sys
sys.path.insert(0, sys.argv[1])
from solver.engine import Game
from solver.model import ModelOptions, RoundModel
from solver.realms import get_realm, solvable_keys
from solver.rules import RuleSet
keys = sorted(solvable_keys())
rolls = ((1, 1), (3, 5), (6, 2))
digest = hashlib.md5()
for i in range(0, len(keys), 3):
    trio = keys[i:i + 3] if i + 3 <= len(keys) else keys[-3:]
    game = Game(tuple(get_realm(k) for k in trio), rolls, RuleSet())
    for options in (ModelOptions(), ModelOptions(max_total_extras=1)):
        digest.update(str(RoundModel(game, options).model.proto).encode())
print(digest.hexdigest())
"""


def _model_digest(hash_seed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", SCRIPT, root], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_every_realm_s_model_is_the_same_in_every_process() -> None:
    digests = {_model_digest(seed) for seed in ("0", "1", "7")}
    assert len(digests) == 1
