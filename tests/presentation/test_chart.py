"""The running-total chart's legend: a name too long for its slot is cut, and says so with "…";
the total beside it always shows."""
from __future__ import annotations

import re

import pytest

from calculator.presentation.chart import Series, legend_name, running_totals_svg

LONG = "阿强哥哥的表弟大明白"


def legend(names: list[str], totals: list[int] | None = None) -> list[tuple[str, str]]:
    totals = totals or [0] * len(names)
    svg = running_totals_svg([Series(n, [0, t]) for n, t in zip(names, totals)])
    return re.findall(r'font-size="13">([^<]*) <tspan font-weight="bold">([^<]*)</tspan>', svg)


def test_a_long_name_is_cut_with_an_ellipsis_and_keeps_its_total():
    entries = legend(["小王", LONG, "李姐", "老张"], [23, 8, -18, -13])
    assert [total for _, total in entries] == ["+23", "+8", "\u221218", "\u221213"]
    cut = entries[1][0]
    assert cut.endswith("…") and LONG.startswith(cut[:-1]) and len(cut) <= len(LONG)
    assert [name for name, _ in entries if name != cut] == ["小王", "李姐", "老张"]  # short names whole


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_name_is_whole_or_cut_with_an_ellipsis_and_every_total_shows(players):
    names = ["Bartholomew-Montgomery Fitzwilliam III", "东北大王" * 10, "阿珍", "W" * 40, "张哥"][:players]
    entries = legend(names, [-120] * players)
    assert len(entries) == players
    for name, (shown, total) in zip(names, entries):
        assert shown == name or (shown.endswith("…") and name.startswith(shown[:-1].rstrip())), shown
        assert total == "\u2212120"


def test_a_name_that_fits_is_left_alone():
    assert legend_name("老王", 8) == "老王"
    assert legend_name(LONG, 10) == LONG
    assert legend_name(LONG, 9) == LONG[:8] + "…"
