"""Do the presets still settle as before? The scorer of an earlier commit against today's, on the
same random records with every option that commit did not know left out (issue 21).

    .venv/bin/python -m bench.unchanged [--rev 0aabb35] [-n 1000] [--seed 21]

`calculator/scoring` of REV is taken with `git archive` into a temporary directory and run in a
subprocess (it imports nothing from Django, so nothing else is needed). Records come from
tests/scoring/random_rounds.py; an option REV's RuleSet lacks, or a value its CHOICES lack, is
removed from each record's options, so both scorers read the same rules. A record that settles
differently is "intended" when it is one of the fixes made since REV (listed in INTENDED) and a
failure otherwise; the exit status is 1 on any failure.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile

from .common import ROOT

OLD_SCORER = r"""
import dataclasses, json, sys
from calculator.scoring import RecordInvalid, RuleSet, settle_record
from calculator.scoring.rules import CHOICES
records = json.load(sys.stdin)
out = []
for data in records:
    try:
        s = settle_record(data)
        out.append({"net": s.net, "next_dealer": s.next_dealer,
                    "items": sorted([i.payer, i.payee, i.points, i.reason, i.rule] for i in s.items)})
    except RecordInvalid as invalid:
        out.append({"error": str(invalid)})
print(json.dumps({"fields": [f.name for f in dataclasses.fields(RuleSet)], "choices": CHOICES, "results": out}))
"""


def _intended(data: dict) -> str | None:
    """Which fix made since 0aabb35 (issue 21) explains a difference, if any."""
    options, outcome = data.get("options", {}), data["outcome"]
    first = data.get("first_yaoji") or {}
    if options.get("chong_feng_claimed") and first.get("claimed_by") is not None:
        return "R65: a claimer that collects nothing leaves the 冲锋鸡 with its discarder"
    dealer_extra = options.get("dealer_bonus", 0) or options.get("dealer_streak_bonus", 0)
    winners = [w["seat"] for w in outcome.get("winners", [])]
    if dealer_extra and outcome.get("robbed") and data.get("dealer", 0) in winners:
        return "R59: the dealer robbing a kong is paid (N−1) × bonus"
    return None


def _settle_new(records: list[dict]) -> list[dict]:
    from calculator.scoring import RecordInvalid, settle_record

    out = []
    for data in records:
        try:
            s = settle_record(data)
            out.append({"net": s.net, "next_dealer": s.next_dealer,
                        "items": sorted([i.payer, i.payee, i.points, i.reason, i.rule] for i in s.items)})
        except RecordInvalid as invalid:
            out.append({"error": str(invalid)})
    return out


def _run_old(rev: str, records: list[dict]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", rev, "calculator/__init__.py", "calculator/scoring"],
                                 cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        done = subprocess.run([sys.executable, "-c", OLD_SCORER], cwd=tmp, input=json.dumps(records),
                              capture_output=True, text=True, check=True, env={"PYTHONPATH": tmp})
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.unchanged")
    parser.add_argument("--rev", default="0aabb35", help="the earlier commit (default: issue 21's base)")
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.scoring.random_rounds import random_record

    rng = random.Random(args.seed)
    drawn = [random_record(rng) for _ in range(args.n)]
    probe = _run_old(args.rev, [])  # what REV knows: its options and their values
    fields, choices = set(probe["fields"]), probe["choices"]

    def known(name: str, value) -> bool:
        return name in fields and (name not in choices or value in choices[name])

    records = [{**data, "options": {k: v for k, v in data["options"].items() if known(k, v)}} for data in drawn]
    stripped = sum(1 for a, b in zip(drawn, records) if a["options"] != b["options"])
    old, new = _run_old(args.rev, records)["results"], _settle_new(records)
    same = intended = 0
    failures, reasons = [], {}
    for index, (data, a, b) in enumerate(zip(records, old, new)):
        if a == b:
            same += 1
            continue
        why = _intended(data)
        if why:
            intended += 1
            reasons[why] = reasons.get(why, 0) + 1
        else:
            failures.append({"index": index, "old": a, "new": b, "record": data})
    presets_only = [i for i, data in enumerate(records) if not data["options"]]
    print(json.dumps({
        "rev": args.rev, "records": args.n, "seed": args.seed,
        "options_removed_from": stripped,
        "records_with_no_option": len(presets_only),
        "identical": same, "intended_differences": intended, "by_fix": reasons,
        "unexplained": len(failures), "first_unexplained": failures[:3],
    }, ensure_ascii=False, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
