"""Part 3's live preview phase by phase: where the CPU of one `POST /round/preview/` goes.

    .venv/bin/python -m bench.preview_phases [--quick] [--json FILE]

Not one of bench/run's parts: a look inside the preview's figure in bench.web, for whoever works
on it next. The same 300 random records as bench.web's in-process timing (100 with --quick), in
the production-like settings (bench/site.py), go through the steps of the preview view one by
one, each timed with the thread's CPU clock; the median of 3 passes over all records counts.
The garbage collector is off while timing, since a collection lands in whichever step happens to
trigger it; bench.web's CPU per request (collections included) is the figure to quote.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time

from .common import ROOT, main, median, run_id
from .records import records
from .site import prepared_site
from .web import SEED, _form_body

PASSES = 3
STEPS = ("parse the POST", "set up the entry", "clean the fields and score", "of which scoring",
         "seat previews", "present the settlement", "render the partial")


def _phases_inside(n: int) -> dict[str, float]:
    import gc

    import django

    django.setup()
    from django.http import QueryDict
    from django.template.loader import render_to_string
    from django.utils import translation

    from calculator.entry import entry as round_entry
    from calculator.presentation import present
    from tests.round_form_data import record_to_post_data

    translation.activate("zh-hans")
    bodies = [_form_body(record_to_post_data(r)) for r in records(n, SEED)[0]]
    spent: dict[str, float] = {}

    def timed(step, work):
        start = time.thread_time()
        value = work()
        spent[step] = spent.get(step, 0.0) + time.thread_time() - start
        return value

    def scoring(function):
        return lambda *args, **kwargs: timed("of which scoring", lambda: function(*args, **kwargs))

    round_entry.check, round_entry.settle = scoring(round_entry.check), scoring(round_entry.settle)
    passes = []
    gc.disable()
    for _ in range(PASSES):
        spent.clear()
        for body in bodies:
            data = timed("parse the POST", lambda: QueryDict(body))
            players = 3 if data.get("players") == "3" else 4
            entry = timed("set up the entry", lambda: round_entry.RoundEntry(data, players=players, live=True))
            valid = timed("clean the fields and score", entry.is_valid)
            timed("seat previews", lambda: entry.seat_previews)
            result = timed("present the settlement", lambda: present(entry.settlement) if valid else None)
            timed("render the partial", lambda: render_to_string(
                "calculator/partials/_entry_preview.html", {"entry": entry, "result": result}))
        passes.append({step: seconds / len(bodies) * 1e3 for step, seconds in spent.items()})
    gc.enable()
    return {step: median([p[step] for p in passes]) for step in STEPS}


def run(quick: bool) -> dict:
    n = 100 if quick else 300
    code = ("import json; from bench.preview_phases import _phases_inside;"
            f" print(json.dumps(_phases_inside({n})))")
    with prepared_site() as site:
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=site.env,
                              capture_output=True, text=True, check=False)
    if done.returncode:
        return {"part": "preview_phases", "ok": False, "failures": [done.stderr[-2000:]]}
    phases = json.loads(done.stdout.strip().splitlines()[-1])
    total = sum(ms for step, ms in phases.items() if step != "of which scoring")
    return {
        "part": "preview_phases", "ok": True, "records": n, "passes": PASSES,
        "rows": [{"step": step, "cpu_ms": round(ms, 3)} for step, ms in phases.items()],
        "summary": [{"figure": "preview view, steps summed, GC off", "value": f"{total:.2f} ms CPU"}],
    }


if __name__ == "__main__":
    main(run, run_id(__file__))
