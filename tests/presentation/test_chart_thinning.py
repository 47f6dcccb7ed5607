"""A long evening's chart keeps its shape with a bounded number of points (issue 15)."""
import random

from calculator.presentation.chart import MAX_POINTS, Series, running_totals_svg, thinned


def test_a_short_line_is_drawn_point_by_point():
    values = [0, 3, -2, 5]
    assert thinned(values) == list(enumerate(values))


def test_a_long_line_keeps_its_ends_and_every_swing_within_a_bounded_count():
    rng = random.Random(7)
    values = [0]
    for _ in range(1000):
        values.append(values[-1] + rng.randint(-30, 30))
    kept = thinned(values)
    assert len(kept) <= MAX_POINTS + 2
    assert kept[0] == (0, values[0]) and kept[-1] == (1000, values[-1])
    assert min(v for _, v in kept) == min(values) and max(v for _, v in kept) == max(values)
    assert [i for i, _ in kept] == sorted({i for i, _ in kept})  # in order, no repeats


def test_the_chart_of_1000_rounds_weighs_what_the_chart_of_200_does():
    def svg(rounds: int) -> str:
        rng = random.Random(rounds)
        series = []
        for name in "东南西北":
            values = [0]
            for _ in range(rounds):
                values.append(values[-1] + rng.randint(-20, 20))
            series.append(Series(name, values))
        return running_totals_svg(series)

    assert len(svg(1000)) <= 1.1 * len(svg(200))
