"""固定桌 pages without JavaScript (issue 24): made from an evening or fresh, the next evening in one
tap, a past evening attached by its edit address, a seat changed in one tap, two names merged,
the season read at both addresses, its CSV."""
from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from calculator import services
from calculator.models import Evening, Player, TablePlayer
from calculator.scoring import ruleset_from_dict
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db


def table_url(name, table, **kwargs):
    return reverse(f"calculator:{name}", kwargs={"table_token": table.token, **kwargs})


def test_a_table_is_made_from_an_evening_once(client):
    evening = make_evening(stake="0.5", options={"jian_dou_san": True})
    page = client.get(reverse("calculator:evening_detail", args=[evening.token])).content.decode()
    assert "这桌常打：建一个固定桌" in page
    response = client.post(reverse("calculator:evening_make_table", args=[evening.token]))
    evening.refresh_from_db()
    table = evening.table
    assert response.status_code == 302 and response["Location"] == table_url("table_detail", table)
    assert [m.name for m in table.roster.all()] == ["老王", "小李", "阿珍", "张哥"]
    assert all(p.member.name == p.name for p in evening.players.all())
    # again: the same table, not a second one
    client.post(reverse("calculator:evening_make_table", args=[evening.token]))
    assert TablePlayer.objects.count() == 4
    page = client.get(reverse("calculator:evening_detail", args=[evening.token])).content.decode()
    assert "这桌常打：建一个固定桌" not in page and table.token in page


def test_the_next_evening_opens_in_one_tap_as_the_last_one_was(client):
    evening = make_evening(names=["甲", "乙", "丙"], stake="2.5", options={"jian_dou_san": True})
    evening.rules_name = "老王家规矩"
    evening.save()
    table = services.table_from_evening(evening=evening)
    page = client.get(table_url("table_detail", table)).content.decode()
    assert "甲、乙、丙" in page and "老王家规矩" in page
    response = client.post(table_url("table_start", table))
    new = Evening.objects.exclude(pk=evening.pk).get()
    assert response["Location"] == reverse("calculator:evening_detail", args=[new.token])
    assert new.table == table and [p.name for p in new.players.all()] == ["甲", "乙", "丙"]
    assert str(new.stake.normalize()) == "2.5" and new.rules_name == "老王家规矩"
    assert ruleset_from_dict(new.rules) == ruleset_from_dict(evening.rules)
    assert [p.member_id for p in new.players.all()] == [p.member_id for p in evening.players.all()]


def test_the_next_evening_with_changes_goes_through_the_evening_form(client):
    table = services.table_create(name="周五", names=["甲", "乙", "丙", "丁", "戊"])
    form = client.get(table_url("table_setup", table)).content.decode()
    assert 'value="甲"' in form and 'value="丁"' in form and 'value="戊"' not in form
    response = client.post(table_url("table_setup", table), {
        "player_0": "戊", "player_1": "乙", "player_2": "丙", "player_3": "丁", "stake": "1", "preset": "guiyang",
        "first_dealer": "0"})
    evening = Evening.objects.get()
    assert response["Location"] == reverse("calculator:evening_detail", args=[evening.token])
    assert evening.table == table and evening.players.get(seat=0).member.name == "戊"


def test_a_past_evening_is_attached_by_its_edit_address_only(client):
    table = services.table_create(name="周五", names=["老王", "小李", "阿珍"])
    past = make_evening(names=["王哥", "小李", "阿珍", "张哥"])
    read = client.post(table_url("table_attach", table), {"address": f"http://h/v/{past.read_token}/"})
    assert read.status_code == 400 and "找不到这一晚" in read.content.decode()
    past.refresh_from_db()
    assert past.table is None
    response = client.post(table_url("table_attach", table), {"address": f"http://h/e/{past.token}/rounds/1/"})
    past.refresh_from_db()
    assert response.status_code == 302 and past.table == table
    assert [p.member.name for p in past.players.all()] == ["王哥", "小李", "阿珍", "张哥"]  # new names join
    other = services.table_create(name="别的", names=["甲", "乙", "丙"])
    taken = client.post(table_url("table_attach", other), {"address": past.token})
    assert taken.status_code == 400 and "别的固定桌" in taken.content.decode()


def test_a_seat_is_changed_in_one_tap_and_two_names_merge(client):
    table = services.table_create(name="周五", names=["老王", "小李", "阿珍"])
    past = make_evening(names=["王哥", "小李", "阿珍"])
    services.table_attach_evening(table=table, address=past.token)
    wang = table.roster.get(name="老王")
    wang_ge = table.roster.get(name="王哥")
    seat = Player.objects.get(evening=past, seat=0)
    client.post(table_url("table_seat", table), {"evening": past.pk, "seat": 0, "member": wang.pk})
    seat.refresh_from_db()
    assert seat.member == wang
    # one tap on a name already seated that evening swaps the two seats
    client.post(table_url("table_seat", table), {"evening": past.pk, "seat": 0, "member": table.roster.get(name="小李").pk})
    assert Player.objects.get(evening=past, seat=1).member == wang
    client.post(table_url("table_seat", table), {"evening": past.pk, "seat": 0, "member": wang.pk})
    response = client.post(table_url("table_merge", table), {"keep": wang.pk, "absorb": wang_ge.pk})
    assert response.status_code == 302
    wang.refresh_from_db()
    assert wang.aliases == ["王哥"] and not TablePlayer.objects.filter(pk=wang_ge.pk).exists()
    # the next evening that seats 王哥 finds 老王
    nxt = services.table_evening_create(table=table, names=["王哥", "小李", "阿珍"], stake="1", preset="guiyang")
    assert nxt.players.get(seat=0).member == wang


def test_two_names_that_sat_at_one_evening_do_not_merge(client):
    evening = make_evening()
    table = services.table_from_evening(evening=evening)
    a, b = list(table.roster.all())[:2]
    response = client.post(table_url("table_merge", table), {"keep": a.pk, "absorb": b.pk})
    assert response.status_code == 400 and "是两个人" in response.content.decode()
    assert TablePlayer.objects.filter(table=table).count() == 4


def test_the_season_at_both_addresses_and_its_csv(client):
    evening = make_evening(stake="0.5")
    record_rounds(evening, ["E1", "E2", "E5"])
    table = services.table_from_evening(evening=evening, name="周五老王家")
    edit = client.get(table_url("table_season", table), {"period": "all"}).content.decode()
    read = client.get(reverse("calculator:table_follow", args=[table.read_token]), {"period": "month"}).content.decode()
    for page in (edit, read):
        assert "周五老王家 · 战绩" in page and "+59" in page and "+29.5" in page  # 小李 −2 + 59 + 2, × 0.5
        assert "最大一手" in page and "谁赢了谁多少" in page and "running-chart" in page
    assert table.token not in read and "只能看" in read
    rows = list(csv.reader(io.StringIO(client.get(table_url("table_csv", table)).content.decode("utf-8-sig"))))
    assert rows[0][:6] == ["日期", "这一晚", "玩家", "局数", "番", "元"] and len(rows) == 1 + 4
    assert sum(int(r[4]) for r in rows[1:]) == 0
    per_round = client.get(reverse("calculator:table_follow_csv", args=[table.read_token]), {"per": "round"})
    rows = list(csv.reader(io.StringIO(per_round.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["日期", "这一晚", "局"] and len(rows) == 1 + 3 * 4
    assert sum(1 for r in rows if r[0] == "日期") == 1


def test_a_figure_lists_the_rounds_behind_it(client):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2", "E1"])
    table = services.table_from_evening(evening=evening)
    wang = table.roster.get(name="老王")
    page = client.get(table_url("table_figure", table), {"period": "all", "who": wang.pk, "figure": "hu"}).content.decode()
    assert f"/v/{evening.read_token}/rounds/1/" in page and f"/v/{evening.read_token}/rounds/3/" in page
    assert f"/v/{evening.read_token}/rounds/2/" not in page
    assert client.get(table_url("table_figure", table), {"who": wang.pk, "figure": "nope"}).status_code == 404
    assert client.get(table_url("table_figure", table), {"who": "999999", "figure": "hu"}).status_code == 404


def test_a_fresh_table_from_the_home_page(client):
    assert reverse("calculator:table_new") in client.get("/").content.decode()
    response = client.post(reverse("calculator:table_new"), {"name": "周五", "names": "老王\n小李\n\n阿珍\n老王"})
    table = TablePlayer.objects.first().table
    assert response["Location"] == table_url("table_detail", table)
    assert [m.name for m in table.roster.all()] == ["老王", "小李", "阿珍"]
    assert client.post(reverse("calculator:table_new"), {"name": "x", "names": "甲\n乙"}).status_code == 400


def test_the_evening_page_shows_its_awards(client):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    page = client.get(reverse("calculator:evening_detail", args=[evening.token])).content.decode()
    assert "今晚的奖" in page and "最大一手" in page and "连庄王" in page
    assert reverse("calculator:evening_round", args=[evening.token, 2]) in page  # 小李's 59, at this address


def test_the_table_pages_read_in_english(client):
    from tests.system.test_i18n import untranslated

    evening = make_evening(names=["Ann", "Bo", "Cy", "Dee"])
    record_rounds(evening, ["E1", "E2", "E3", "E5"])
    table = services.table_from_evening(evening=evening, name="Fridays")
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    ann = table.roster.get(name="Ann")
    for url in [table_url("table_detail", table), table_url("table_season", table), table_url("table_share", table),
                table_url("table_setup", table), reverse("calculator:table_new"),
                reverse("calculator:table_follow", args=[table.read_token]),
                f"{table_url('table_figure', table)}?who={ann.pk}&figure=rounds",
                reverse("calculator:evening_detail", args=[evening.token])]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert untranslated(response.content.decode(), names=["Ann", "Bo", "Cy", "Dee"]) == set(), url


def test_the_evening_report_prints_its_awards(client, tmp_path):
    import subprocess

    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    pdf = client.get(reverse("calculator:evening_report_pdf", args=[evening.token])).content
    (tmp_path / "report.pdf").write_bytes(pdf)
    text = subprocess.run(["pdftotext", str(tmp_path / "report.pdf"), "-"], check=True, capture_output=True,
                          text=True).stdout
    assert "今晚的奖" in text and "最大一手" in text and "清大对" in text
