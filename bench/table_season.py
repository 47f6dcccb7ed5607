"""A 固定桌's season page at 100 evenings × 40 rounds against one of 2 evenings (issue 24): the
number of queries (the same, whatever the number of evenings) and the server time (≤ 150 ms).

    .venv/bin/python -m bench.table_season [--quick] [--json FILE]

40 rounds are stored through the services (bench/seed.py: scored, with their season counts);
each table's evenings copy them and their counts (bulk insert: a season reads what the
evenings keep, it never re-scores them), the seats rotated from evening to evening and the evenings a day apart.
Time is the median of 15 GETs (5 with --quick) of the season page in-process with Django's test
client, CPU time of this thread, and the same for the season's selector alone.
"""
from __future__ import annotations

import json
import subprocess
import sys

from .common import ROOT, main, run_id
from .site import prepared_site

TARGET_MS = 150
EVENINGS, ROUNDS = 100, 40


def _table(evenings: int, model: list, roster_names: list[str]):
    from datetime import timedelta

    from django.utils import timezone

    from calculator.models import Evening, EveningStats, Player, Round, RoundStats, Table, TablePlayer

    first = model[0].evening
    table = Table.objects.create(name=f"bench {evenings}", stake=first.stake, rules=first.rules)
    roster = TablePlayer.objects.bulk_create(TablePlayer(table=table, name=n) for n in roster_names)
    start = timezone.now() - timedelta(days=evenings)
    made = Evening.objects.bulk_create(
        Evening(title="", stake=first.stake, rules=first.rules, first_dealer=0, table=table,
                created_at=start + timedelta(days=i)) for i in range(evenings))
    Player.objects.bulk_create(
        Player(evening=e, seat=s, name=roster[(s + i) % len(roster)].name, member=roster[(s + i) % len(roster)])
        for i, e in enumerate(made) for s in range(4))
    rounds = Round.objects.bulk_create(
        (Round(evening=e, number=r.number, record=r.record, settlement=r.settlement, rules=r.rules, net=r.net,
               dealer=r.dealer, next_dealer=r.next_dealer) for e in made for r in model),
        batch_size=500)
    counts = {r.number: r.season_stats.data for r in model}
    RoundStats.objects.bulk_create((RoundStats(round=r, evening=r.evening, number=r.number, dealer=r.dealer,
                                               data=counts[r.number]) for r in rounds), batch_size=500)
    summary = EveningStats.objects.get(evening=first).data
    EveningStats.objects.bulk_create(EveningStats(evening=e, data=summary) for e in made)
    return table


def _measure(repeats: int) -> dict:
    import statistics
    import time

    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.seed import seed
    from calculator import selectors
    from calculator.models import Evening, Round

    evening = Evening.objects.get(token=seed(ROUNDS)["token"])
    model = list(Round.objects.filter(evening=evening).select_related("evening", "season_stats").order_by("number"))
    names = ["东哥", "南姐", "西西", "北北", "老王"]  # five friends, four seats an evening
    tables = {"2 evenings": _table(2, model, names), f"{EVENINGS} evenings": _table(EVENINGS, model, names)}
    client = Client(HTTP_HOST="127.0.0.1")
    out = {}
    for name, table in tables.items():
        url = f"/t/{table.token}/season/?period=all"
        client.get(url)  # warm: templates compiled, caches filled
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        query_count = len(queries)  # now: the next request empties the log the count reads
        assert response.status_code == 200, response.status_code
        page_times, selector_times = [], []
        for _ in range(repeats):
            start = time.thread_time()
            client.get(url)
            page_times.append(time.thread_time() - start)
            start = time.thread_time()
            selectors.table_season(table=table, period=selectors.Period.of("all"))
            selector_times.append(time.thread_time() - start)
        out[name] = {"rounds": Round.objects.filter(evening__table=table).count(), "queries": query_count,
                     "page_median_ms": round(statistics.median(page_times) * 1000, 1),
                     "selector_median_ms": round(statistics.median(selector_times) * 1000, 1),
                     "bytes": len(response.content)}
    return out


def run(quick: bool) -> dict:
    with prepared_site() as site:
        code = f"import json; from bench.table_season import _measure; print(json.dumps(_measure({5 if quick else 15})))"
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=site.env,
                              capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(done.stderr[-3000:])
        pages = json.loads(done.stdout.strip().splitlines()[-1])
    small, big = pages["2 evenings"], pages[f"{EVENINGS} evenings"]
    return {"id": run_id(__file__), "pages": pages, "target_ms": TARGET_MS,
            "same_queries": small["queries"] == big["queries"],
            "ok": small["queries"] == big["queries"] and big["page_median_ms"] <= TARGET_MS}


if __name__ == "__main__":
    main(run, "bench.table_season")
