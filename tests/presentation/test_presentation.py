"""How numbers and settlements read: one signed format for points and money everywhere."""
from decimal import Decimal

import pytest

from calculator.presentation.chart import Series, running_totals_svg
from calculator.presentation import format_money, sign_class, signed


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (15, "+15"), (-2, "\u22122"), (0, "0"),
        (Decimal("0.5"), "+0.5"), (Decimal("-0.5"), "\u22120.5"), (Decimal("-6.50"), "\u22126.5"),
        (Decimal("16.0"), "+16"), (Decimal("-0"), "0"), (Decimal("40"), "+40"),
        ("7.5000", "+7.5"), ("-1", "\u22121"), ("0.0000", "0"),
    ],
)
def test_signed_numbers_read_as_the_table_says_them(value, text):
    assert signed(value) == text


@pytest.mark.parametrize(("amount", "text"), [(Decimal("-6.50"), "-6.5"), (Decimal("40"), "40"),
                                               (Decimal("-0.0"), "0"), (Decimal("0.5000"), "0.5")])
def test_money_is_exact_and_plain(amount, text):
    assert format_money(amount) == text


def test_the_chart_writes_totals_with_the_same_signs():
    svg = running_totals_svg([Series("东", [0, 15]), Series("南", [0, -15])])
    assert ">+15<" in svg and ">\u221215<" in svg and "-15" not in svg


@pytest.mark.parametrize(("value", "css"), [(3, "plus"), (-1, "minus"), (0, "zero"), ("0.5", "plus"),
                                            ("-0.0001", "minus"), (Decimal("-0"), "zero")])
def test_one_css_class_colours_every_signed_number(value, css):
    assert sign_class(value) == css


def test_a_draw_lists_its_ready_check_payments_under_cha_jiao_not_a_win():
    from calculator.presentation import present
    from calculator.scoring import settle_record
    from tests.round_form_data import load_example

    groups = present(settle_record(load_example("E5"))).groups  # 荒庄 查叫: nobody won

    assert [(g.key, g.title) for g in groups][:1] == [("cha_jiao", "查叫")]
    assert "hu" not in [g.key for g in groups]
    assert all(line.rule == "R33" for line in groups[0].lines)
