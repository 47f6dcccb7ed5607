"""Round records for the benchmarks that need some: random legal ones when the project's
generator has landed (tests/scoring/random_rounds.py), the RULES examples until then."""
from __future__ import annotations

import json
import random

from .common import ROOT

EXAMPLES = ROOT / "tests" / "data" / "examples"


def random_generator():
    """`random_record(rng)`, or None while it has not landed."""
    try:
        from tests.scoring.random_rounds import random_record
    except ImportError:
        return None
    return random_record


def examples() -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.glob("E*.json"))]


def records(n: int, seed: int, players: int | None = None) -> tuple[list[dict], str]:
    """`n` records (with `players` seats, if given) and a line saying where they came from."""
    random_record = random_generator()
    if random_record is None:
        pool = [r for r in examples() if players is None or len(r["seats"]) == players]
        source = "the RULES examples, cycled (random_record has not landed)"
        return [pool[i % len(pool)] for i in range(n)], source
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < n:
        record = random_record(rng)
        if players is None or len(record["seats"]) == players:
            out.append(record)
    return out, f"random legal records (tests/scoring/random_rounds.py, seed {seed})"
