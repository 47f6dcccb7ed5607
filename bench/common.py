"""What every benchmark part shares: its command line and the machine it ran on."""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_id(file: str) -> str:
    return f"bench.{Path(file).stem}"


def main(run: Callable[[bool], dict], module: str) -> None:
    """`python -m bench.PART [--quick] [--json FILE]`: run one part, print or write its JSON."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}")
    parser.add_argument("--quick", action="store_true", help="a smaller run, for a quick look")
    parser.add_argument("--json", metavar="FILE", help="write the result here instead of stdout")
    args = parser.parse_args()
    result = run(args.quick)
    result["command"] = f".venv/bin/python -m {module}" + (" --quick" if args.quick else "")
    text = json.dumps(result, ensure_ascii=False, indent=1)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    sys.exit(0 if result.get("ok", True) else 1)


def machine() -> dict:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": model or platform.processor(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100), nearest-rank on sorted data; exact enough at these counts."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")
