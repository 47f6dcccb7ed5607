"""A 固定桌 as a file (RULES §6, issue 24): exported with its roster, its evenings and who sat where,
imported under new addresses with the same season; a damaged file writes nothing; an evening's
file still imports on its own."""
from __future__ import annotations

import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from calculator import selectors, services
from calculator.models import Evening, Table, TablePlayer
from calculator.selectors import Period
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db


def a_table():
    first = make_evening(names=["王哥", "小李", "阿珍", "张哥"], stake="0.5")
    record_rounds(first, ["E1", "E2"])
    table = services.table_from_evening(evening=first, name="周五老王家")
    second = services.table_evening_create(table=table, names=["老王", "小李", "阿珍", "张哥"], stake="2",
                                           preset="guiyang")
    record_rounds(second, ["E3", "E5"])
    services.member_merge(table=table, keep=table.roster.get(name="老王"), absorb=table.roster.get(name="王哥"))
    return table


def figures(table):
    season = selectors.table_season(table=table, period=Period.of("all"))
    return ({p.name: (p.points, p.money, p.rounds, p.evenings, dict(p.counts)) for p in season.everyone},
            season.head_to_head.cells, [(a.title, a.names, a.value) for a in season.awards])


def test_a_table_goes_out_and_back_in_with_the_same_season():
    table = a_table()
    data = json.loads(json.dumps(services.table_export(table=table)))
    assert data["format"] == "zhuoji.table/1" and table.token not in json.dumps(data)
    # the roster: 小李, 阿珍, 张哥, 老王 (王哥 merged into him): both evenings seat 老王 first
    assert [e["seats"] for e in data["evenings"]] == [[3, 0, 1, 2], [3, 0, 1, 2]]
    copy = services.table_import(data=data)
    assert copy.pk != table.pk and copy.token != table.token
    assert [(m.name, m.aliases) for m in copy.roster.all()] == [(m.name, m.aliases) for m in table.roster.all()]
    assert copy.evenings.count() == 2
    assert figures(copy) == figures(table)


def test_a_damaged_table_file_writes_nothing():
    table = a_table()
    data = services.table_export(table=table)
    before = (Table.objects.count(), TablePlayer.objects.count(), Evening.objects.count())
    for damage in (lambda d: d["evenings"][1]["rounds"][0].update(net=[9, 9, 9, -27]),
                   lambda d: d["evenings"][0].update(seats=[0, 0, 1, 2]),
                   lambda d: d["roster"].append({"name": "老王"}),
                   lambda d: d.pop("name")):
        broken = json.loads(json.dumps(data))
        damage(broken)
        with pytest.raises(ValidationError):
            services.table_import(data=broken)
        assert (Table.objects.count(), TablePlayer.objects.count(), Evening.objects.count()) == before


def test_the_import_page_takes_a_table_file_and_an_evening_file(client):
    table = a_table()
    exported = client.get(reverse("calculator:table_export", args=[table.token]))
    assert exported.status_code == 200
    upload = io.BytesIO(exported.content)
    upload.name = "zhuoji-table.json"
    response = client.post(reverse("calculator:evening_import"), {"file": upload})
    copy = Table.objects.exclude(pk=table.pk).get()
    assert response["Location"] == reverse("calculator:table_detail", args=[copy.token])
    evening = services.evening_export(evening=table.evenings.first())  # an evening's file, as before
    upload = io.BytesIO(json.dumps(evening).encode())
    upload.name = "zhuoji.json"
    response = client.post(reverse("calculator:evening_import"), {"file": upload})
    assert response.status_code == 302 and "/e/" in response["Location"]
