"""A 固定桌's season against numbers worked out by hand from the worked examples' nets.

The table: 老王, 小李, 阿珍, 张哥, three evenings.
  A (stake 1)   seats 老王 小李 阿珍 张哥: E1 [15, −2, −7, −6], E2 [−29, 59, −1, −29]
  B (stake 0.5) seats 小李 老王 张哥 阿珍: E3 [14, 3, −6, −11], E4 [−1, 2, −11, 10], E5 (荒庄) [20, 2, −11, −11]
  C (stake 2)   seats 老王 小李 阿珍 张哥: E1
"""
from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from calculator import selectors, services
from calculator.models import Evening
from calculator.selectors import Period
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db

ROSTER = ["老王", "小李", "阿珍", "张哥"]


def hand_made_table():
    a = make_evening(names=ROSTER, stake="1")
    record_rounds(a, ["E1", "E2"])
    table = services.table_from_evening(evening=a, name="周五老王家")
    b = make_evening(names=["小李", "老王", "张哥", "阿珍"], stake="0.5")
    record_rounds(b, ["E3", "E4", "E5"])
    services.table_attach_evening(table=table, address=f"http://x/e/{b.token}/")
    c = services.table_evening_open(table=table)  # one tap: B's seats, so re-seat as A
    c.delete()
    c = services.table_evening_create(table=table, names=ROSTER, stake=Decimal(2), preset="guiyang")
    record_rounds(c, ["E1"])
    # Evenings a day apart, A first, so that the trend and the periods have an order.
    now = timezone.now()
    for days, evening in ((2, a), (1, b), (0, c)):
        Evening.objects.filter(pk=evening.pk).update(created_at=now - timedelta(days=days))
    return table, (a, b, c)


def by_name(season):
    return {p.name: p for p in season.everyone}


def test_the_season_adds_up_as_worked_out_by_hand():
    table, _ = hand_made_table()
    season = selectors.table_season(table=table, period=Period.of("all"))
    p = by_name(season)
    assert season.evening_count == 3 and season.round_count == 6
    # Points: 老王 −14 + 7 + 15; 小李 57 + 33 − 2; 阿珍 −8 − 12 − 7; 张哥 −35 − 28 − 6.
    assert {n: p[n].points for n in ROSTER} == {"老王": 8, "小李": 88, "阿珍": -27, "张哥": -69}
    # Money, each evening at its own stake: 老王 −14×1 + 7×0.5 + 15×2 = 19.5 …
    assert {n: p[n].money for n in ROSTER} == {
        "老王": Decimal("19.5"), "小李": Decimal("69.5"), "阿珍": Decimal("-28"), "张哥": Decimal("-61")}
    assert [x.name for x in season.players] == ["小李", "老王", "阿珍", "张哥"]  # best net first
    assert all(p[n].rounds == 6 and p[n].evenings == 3 and p[n].draws == 1 for n in ROSTER)
    # 胡: 老王 E1 (A), E4 (B, with 阿珍), E1 (C); 小李 E2 自摸 and E3 (热炮).
    assert {n: p[n].counts["hu"] for n in ROSTER} == {"老王": 3, "小李": 2, "阿珍": 1, "张哥": 0}
    assert {n: p[n].counts["zimo"] for n in ROSTER} == {"老王": 0, "小李": 1, "阿珍": 0, "张哥": 0}
    # 点炮: E1 twice from 阿珍's seat, E3 from 阿珍 (B's seat 3), E4 from 张哥 (B's seat 2).
    assert {n: p[n].counts["pao"] for n in ROSTER} == {"老王": 0, "小李": 0, "阿珍": 3, "张哥": 1}
    assert p["阿珍"].rate("pao") == "50%" and p["老王"].rate("hu") == "50%"
    # 荒庄 E5: seats 0 and 1 of B were ready: 小李 and 老王.
    assert p["小李"].jiao_rate == "100%" and p["阿珍"].jiao_rate == "0%"
    assert p["老王"].counts["dou_men"] == 2 and p["老王"].counts["dou_dian"] == 1 and p["老王"].dou == 3
    assert p["阿珍"].counts["dou_zhuanwan"] == 1 and p["阿珍"].counts["chong_feng"] == 1
    assert p["张哥"].counts["ze_ren"] == 1 and p["张哥"].counts["ze_ren_points"] == 1
    assert p["小李"].counts["hot_won"] == 1 and p["阿珍"].counts["hot_fed"] == 1
    assert p["小李"].average == "+14.7"  # 88 / 6
    assert p["小李"].biggest_text == "+59 清大对"
    assert p["老王"].biggest[0] == 15 and p["老王"].biggest[2].number == 1
    assert p["老王"].dealer_streak == 1  # A: 老王 dealt E1 and E2


def test_head_to_head_worked_out_for_one_pair_and_every_row_sums_to_the_net():
    table, _ = hand_made_table()
    season = selectors.table_season(table=table, period=Period.of("all"))
    h2h = season.head_to_head
    i, j = h2h.names.index("老王"), h2h.names.index("小李")
    # A/E1: 小李 paid 老王 5, 老王 paid 小李 1 → +4; A/E2: −22; B/E3: 3 − 2 → −1; B/E4: +1; C/E1: +4.
    assert h2h.cells[i][j] == -14 and h2h.cells[j][i] == 14
    for row, player in zip(h2h.cells, season.everyone):
        assert sum(row) == player.points


def test_the_awards_of_the_season():
    table, _ = hand_made_table()
    awards = {a.title: a for a in selectors.table_season(table=table, period=Period.of("all")).awards}
    assert awards["点炮王"].names == ["阿珍"] and awards["点炮王"].value == "点炮 3 次"
    assert awards["豆王"].names == ["老王"] and awards["豆王"].value == "3 个豆"
    assert awards["冲锋鸡王"].names == ["阿珍"]
    assert awards["最大一手"].names == ["小李"] and awards["最大一手"].url.endswith("/rounds/2/")
    assert awards["连庄王"].names == ["老王"] and awards["连庄王"].value == "连庄 1 把"


def test_the_evening_awards_read_only_that_evening():
    _table, (a, b, _c) = hand_made_table()
    awards = {x.title: x for x in selectors.evening_awards(evening=b)}
    assert awards["点炮王"].names == ["张哥", "阿珍"]  # one each: they share it, in seat order
    assert "连庄王" not in awards  # nobody dealt twice in a row


def test_periods_and_the_minimum_rounds():
    table, (a, b, c) = hand_made_table()
    today = timezone.localdate()
    one_day = Period.of("custom", start=today, end=today)
    season = selectors.table_season(table=table, period=one_day)
    assert season.evening_count == 1 and by_name(season)["老王"].points == 15
    assert selectors.table_season(table=table, period=Period.of("all"), min_rounds=7).players == []


def test_the_rounds_behind_a_figure():
    table, (a, b, c) = hand_made_table()
    wang = next(m for m in table.roster.all() if m.name == "阿珍")
    name, refs = selectors.figure_rounds(table=table, period=Period.of("all"), key=wang.pk, figure="pao")
    assert name == "阿珍"
    assert [(r.evening_id, r.number) for r in refs] == [(a.pk, 1), (b.pk, 1), (c.pk, 1)]
    assert refs[0].url == f"/v/{a.read_token}/rounds/1/"


def test_a_season_costs_the_same_queries_for_one_evening_or_three():
    table, _ = hand_made_table()
    small = make_evening(names=ROSTER)
    record_rounds(small, ["E1"])
    other = services.table_from_evening(evening=small)
    with CaptureQueriesContext(connection) as one:
        selectors.table_season(table=other, period=Period.of("all"))
    with CaptureQueriesContext(connection) as three:
        selectors.table_season(table=table, period=Period.of("all"))
    assert len(one) == len(three) <= 5
