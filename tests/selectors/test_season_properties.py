"""Properties of a 固定桌's season over random tables (issue 24): random legal rounds
(tests/scoring/random_rounds.py) at random evenings of a five-name roster, four seated at a time.

Every figure is checked against a computation straight from the stored rounds (their net, their
settlement's matrix, their record's outcome), which does not use the season counts at all.
"""
from __future__ import annotations

import random
from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from calculator import selectors, services
from calculator.models import Evening, Round
from calculator.scoring import RecordInvalid
from calculator.selectors import Period
from tests.factories import make_evening
from tests.scoring.random_rounds import random_record

pytestmark = pytest.mark.django_db

ROSTER = ["老王", "小李", "阿珍", "张哥", "胖子"]
SEEDS = range(6)


def four_player_record(rng: random.Random) -> dict:
    while True:
        record = random_record(rng)
        if len(record["seats"]) == 4:
            return record


def random_table(seed: int, *, evenings: int = 3, names=ROSTER):
    rng = random.Random(seed)
    made = []
    now = timezone.now()
    for i in range(evenings):
        seated = rng.sample(list(names), 4)
        evening = make_evening(names=seated, stake=rng.choice(["1", "0.5", "2"]),
                               preset=rng.choice(["guiyang", "anshun", "xingyi"]))
        stored = 0
        while stored < rng.randint(2, 6):
            try:
                services.round_record(evening=evening, record=four_player_record(rng))
                stored += 1
            except RecordInvalid:
                continue
        Evening.objects.filter(pk=evening.pk).update(created_at=now - timedelta(days=evenings - i))
        made.append(evening)
    table = services.table_from_evening(evening=made[0], name=f"随机 {seed}")
    for evening in made[1:]:
        services.table_attach_evening(table=table, address=evening.token)
    return table, made


def from_the_rounds(table) -> dict:
    """Each roster name's points, money, rounds, 胡 and 点炮, and what flowed between each pair,
    read from the rounds themselves."""
    points, money, rounds, hu, pao = (defaultdict(int), defaultdict(Decimal), defaultdict(int),
                                      defaultdict(int), defaultdict(int))
    flows = defaultdict(int)
    for evening in Evening.objects.filter(table=table).prefetch_related("players__member"):
        who = {p.seat: p.member.name for p in evening.players.all()}
        for r in Round.objects.filter(evening=evening):
            for seat, net in enumerate(r.net):
                points[who[seat]] += net
                money[who[seat]] += net * evening.stake
                rounds[who[seat]] += 1
            outcome = r.record["outcome"]
            if outcome["type"] == "win":
                for w in outcome["winners"]:
                    hu[who[w["seat"]]] += 1
                if outcome.get("from") is not None:
                    pao[who[outcome["from"]]] += 1
            for payer, row in enumerate(r.settlement["matrix"]):
                for payee, paid in enumerate(row):
                    flows[who[payer], who[payee]] += paid
    return {"points": points, "money": money, "rounds": rounds, "hu": hu, "pao": pao, "flows": flows}


def assert_season_is_the_rounds(table):
    season = selectors.table_season(table=table, period=Period.of("all"))
    truth = from_the_rounds(table)
    for p in season.everyone:
        assert p.points == truth["points"][p.name]
        assert p.money == truth["money"][p.name]
        assert p.rounds == truth["rounds"][p.name]
        assert p.counts["hu"] == truth["hu"][p.name] and p.counts["pao"] == truth["pao"][p.name]
    assert {p.name for p in season.everyone} == {n for n, r in truth["rounds"].items() if r}
    h2h = season.head_to_head
    for a, name_a in enumerate(h2h.names):
        for b, name_b in enumerate(h2h.names):
            assert h2h.cells[a][b] == -h2h.cells[b][a]
            assert h2h.cells[a][b] == truth["flows"][name_b, name_a] - truth["flows"][name_a, name_b]
    return season


@pytest.mark.parametrize("seed", SEEDS)
def test_the_season_is_what_the_rounds_say(seed):
    table, evenings = random_table(seed)
    season = assert_season_is_the_rounds(table)
    # Each player's season net is the sum of their evening nets (the evening pages' totals).
    by_evening = defaultdict(int)
    for evening in evenings:
        for total in selectors.evening_totals(evening=evening):
            by_evening[total.name] += total.points
    assert {p.name: p.points for p in season.everyone} == {n: v for n, v in by_evening.items()}
    for p, row in zip(season.everyone, season.head_to_head.cells):
        assert sum(row) == p.points
    assert sum(p.points for p in season.everyone) == 0


@pytest.mark.parametrize("seed", SEEDS)
def test_a_corrected_or_deleted_round_moves_every_figure_that_depends_on_it(seed):
    table, evenings = random_table(seed)
    rng = random.Random(1000 + seed)
    before = {p.name: (p.points, p.counts["hu"], p.counts["pao"], p.rounds)
              for p in selectors.table_season(table=table, period=Period.of("all")).everyone}
    victim = rng.choice(list(Round.objects.filter(evening__in=evenings)))
    while True:
        try:
            services.round_correct(round=victim, record=four_player_record(rng), expected_version=victim.version)
            break
        except RecordInvalid:
            continue
    assert_season_is_the_rounds(table)
    gone = rng.choice(list(Round.objects.filter(evening__in=evenings)))
    services.round_delete(round=gone)
    season = assert_season_is_the_rounds(table)
    after = {p.name: p.rounds for p in season.everyone}
    seated = {p.member.name for p in gone.evening.players.all()}
    for name in seated:
        assert after.get(name, 0) == before[name][3] - 1  # one round fewer for each seat of it
    awards = {a.title: a for a in selectors.evening_awards(evening=gone.evening)}
    assert set(awards) <= {"冲锋鸡王", "点炮王", "豆王", "最大一手", "连庄王"}


@pytest.mark.parametrize("seed", SEEDS)
def test_merging_two_names_of_one_person_adds_them_up_exactly(seed):
    # 王哥 sits only at the first evening, 老王 never there: two names that can be one person.
    rng = random.Random(seed)
    first = make_evening(names=["王哥", "小李", "阿珍", "张哥"])
    rest = []
    for _ in range(2):
        evening = make_evening(names=rng.sample(["老王", "小李", "阿珍", "张哥"], 4))
        rest.append(evening)
    for evening in [first, *rest]:
        stored = 0
        while stored < 3:
            try:
                services.round_record(evening=evening, record=four_player_record(rng))
                stored += 1
            except RecordInvalid:
                continue
    table = services.table_from_evening(evening=first)
    for evening in rest:
        services.table_attach_evening(table=table, address=evening.token)
    season = selectors.table_season(table=table, period=Period.of("all"))
    old = {p.name: p for p in season.everyone}
    h2h_old = season.head_to_head
    wang, wang_ge = table.roster.get(name="老王"), table.roster.get(name="王哥")
    services.member_merge(table=table, keep=wang, absorb=wang_ge)
    merged = selectors.table_season(table=table, period=Period.of("all"))
    new = {p.name: p for p in merged.everyone}
    assert "王哥" not in new
    one = new["老王"]
    for figure in ("points", "money", "rounds", "draws", "evenings"):
        assert getattr(one, figure) == getattr(old["老王"], figure) + getattr(old["王哥"], figure), figure
    assert one.counts == {k: old["老王"].counts[k] + old["王哥"].counts[k] for k in one.counts}
    for name in ("小李", "阿珍", "张哥"):
        assert (new[name].points, new[name].counts) == (old[name].points, old[name].counts)
    # What 小李 won from 老王 is what she won from 老王 plus from 王哥.
    i, j, k = h2h_old.names.index("小李"), h2h_old.names.index("老王"), h2h_old.names.index("王哥")
    m, n = merged.head_to_head.names.index("小李"), merged.head_to_head.names.index("老王")
    assert merged.head_to_head.cells[m][n] == h2h_old.cells[i][j] + h2h_old.cells[i][k]
    assert_season_is_the_rounds(table)
