"""Seed the bench site's database with one evening of N rounds; print its tokens as JSON.

    DJANGO_SETTINGS_MODULE=bench.bench_settings python -m bench.seed 40   (bench/site.py runs it)

The rounds go through `round_record`, as the round form would store them. A record that the
evening's own rules refuse is skipped and counted, and another is drawn.
"""
from __future__ import annotations

import json
import sys
from decimal import Decimal

import django

SEED = 20240604


def seed(rounds: int) -> dict:
    from calculator import services
    from calculator.scoring import RecordInvalid

    from .records import records

    evening = services.evening_create(names=["东哥", "南姐", "西西", "北北"], stake=Decimal("1"),
                                      preset="guiyang", title="bench")
    pool, source = records(rounds * 20, SEED, players=4)
    stored = rejected = 0
    for record in pool:
        if stored == rounds:
            break
        try:
            services.round_record(evening=evening, record=record)
            stored += 1
        except RecordInvalid:
            rejected += 1
    if stored < rounds:
        raise SystemExit(f"only {stored} of {rounds} rounds could be stored ({rejected} refused)")
    return {"token": evening.token, "read_token": evening.read_token, "rounds": stored,
            "refused": rejected, "source": source}


if __name__ == "__main__":
    django.setup()
    print(json.dumps(seed(int(sys.argv[1]))))
