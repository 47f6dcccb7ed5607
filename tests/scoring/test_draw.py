"""R33–R34: 荒庄 — 查叫, and who deals next after a draw.

Each seat has a ready hand and a hand that is not ready, built so that any mix of them is legal:
    seat 0: 平胡 wait on 4筒, 叫 1        seat 1: 大对子 wait on 9筒, 叫 5
    seat 2: 清一色 (筒), 叫 10            seat 3: 小七对 wait on 8万, 叫 10
"""
from __future__ import annotations

import pytest

from calculator.scoring import settle_record

from .factory import draw, record, seat

READY = ["123m456m789m22p35p", "222s444s666s888s9p", "123p456p789p23p55p", "33m55m77m33s55s99s8m"]
NOT_READY = ["123m456m789m22p39p", "222s444s666s88s9p1m", "123p456p789p25p58m", "33m55m7m33s55s99s8m4p"]


def table(ready: str, players: int = 4) -> list[str]:
    """The seats, with the seats named in `ready` (e.g. "02") ready."""
    return [READY[i] if str(i) in ready else NOT_READY[i] for i in range(players)]


@pytest.mark.parametrize("ready, net", [
    ("", [0, 0, 0, 0]),            # nobody ready: nobody pays
    ("0123", [0, 0, 0, 0]),        # everybody ready: nobody pays
    ("1", [-5, 15, -5, -5]),       # seats 0, 2, 3 each pay seat 1 its 叫 5
    ("02", [2, -11, 20, -11]),     # seats 1 and 3 each pay 1 (to seat 0) + 10 (to seat 2)
    ("013", [1, 5, -16, 10]),      # seat 2 pays 1 + 5 + 10
])
@pytest.mark.parametrize("preset", ["guiyang", "anshun", "xingyi"])
def test_r33_cha_jiao(preset, ready, net):
    s = settle_record(record(table(ready), draw(), preset=preset))
    assert [h.ready for h in s.hands] == [str(i) in ready for i in range(4)]
    assert s.net == net
    assert {(i.reason, i.rule) for i in s.items} <= {("cha_jiao", "R33")}


def test_r33_three_players():
    # seat 2 ready (10): seats 0 and 1 pay it 10 each.
    assert settle_record(record(table("2", 3), draw())).net == [-10, -10, 20]


@pytest.mark.parametrize("preset, kind, jiao", [
    ("guiyang", "hard", 1 + 20), ("guiyang", "soft", 1 + 10),
    ("anshun", "hard", 1 + 10), ("xingyi", "soft", 1 + 10),
])
def test_r33_a_declarers_jiao_value_includes_its_bonus(preset, kind, jiao):
    # Seats 0 (declared) and 2 ready: seats 1 and 3 each pay jiao + 10.
    data = record(table("02"), draw(), preset=preset)
    data["seats"][0]["declared"] = kind
    assert settle_record(data).net == [2 * jiao, -jiao - 10, 20, -jiao - 10]


def test_r33_no_dou_and_no_chickens_on_a_draw():
    # Seat 1 is ready with a 闷豆 and 3 幺鸡 (a pong claimed from seat 3's first discard); seat 3 also
    # discarded a later 幺鸡. Only 查叫 is paid: seats 0, 2 and 3 each pay seat 1 its 叫 value.
    seats = [NOT_READY[0], "9p M2s P1s<3 M4s M6s", NOT_READY[2], seat(NOT_READY[3], discards="1s")]
    s = settle_record(record(seats, draw(), first_yaoji=(3, 1)))
    assert s.hands[1].ready and s.hands[1].value == 5  # 大对子 wait on 9筒
    assert {i.reason for i in s.items} == {"cha_jiao"}
    assert s.net == [-5, 15, -5, -5]


# ---------------------------------------------------------------------------------- R34 dealer

@pytest.mark.parametrize("preset, dealer, ready, expected", [
    # stay (贵阳): the dealer stays whoever is ready.
    ("guiyang", 2, "", 2),
    ("guiyang", 2, "1", 2),
    ("guiyang", 3, "012", 3),
    ("guiyang", 0, "0123", 0),
    # anshun: 0 or all ready → stays; 1 → that seat; 2 → the dealer if ready, else the ready seat
    # nearest after the dealer; 3 → the one not ready.
    ("anshun", 1, "", 1),
    ("anshun", 1, "0123", 1),
    ("anshun", 1, "2", 2),
    ("anshun", 1, "13", 1),    # dealer ready
    ("anshun", 1, "03", 3),    # after 1: 2 (not ready), 3
    ("anshun", 3, "12", 1),    # after 3: 0 (not ready), 1
    ("anshun", 2, "01", 0),    # after 2: 3 (not ready), 0 — wrapping round the table
    ("anshun", 0, "013", 2),
    ("anshun", 2, "013", 2),   # the one not ready is the dealer itself
    # xingyi: 0 or all → stays; 1 → that seat's 上家; 2 → the dealer's 上家; 3 → the one not ready.
    ("xingyi", 0, "", 0),
    ("xingyi", 2, "0123", 2),
    ("xingyi", 0, "2", 1),
    ("xingyi", 0, "0", 3),     # the 上家 of seat 0 is seat 3
    ("xingyi", 1, "23", 0),
    ("xingyi", 0, "13", 3),
    ("xingyi", 1, "023", 1),
])
def test_r34_dealer_after_a_draw(preset, dealer, ready, expected):
    assert settle_record(record(table(ready), draw(), preset=preset, dealer=dealer)).next_dealer == expected


@pytest.mark.parametrize("preset, dealer, ready, expected", [
    ("anshun", 0, "1", 1),
    # Two ready of three is "all but one ready" (R34): the seat not ready deals, under both rules.
    ("anshun", 0, "12", 0),    # the dealer itself is the one not ready
    ("anshun", 1, "12", 0),    # not the ready dealer (the two-ready rule would keep seat 1)
    ("anshun", 2, "01", 2),
    ("anshun", 0, "012", 0),   # all three ready: stays
    ("xingyi", 0, "1", 0),     # only one ready: 上家 of seat 1
    ("xingyi", 0, "2", 1),
    ("xingyi", 0, "02", 1),    # not the dealer's 上家 (seat 2)
    ("xingyi", 1, "02", 1),
    ("xingyi", 0, "12", 0),
    ("guiyang", 1, "2", 1),
])
def test_r34_dealer_after_a_draw_with_three_players(preset, dealer, ready, expected):
    data = record(table(ready, 3), draw(), preset=preset, dealer=dealer)
    assert settle_record(data).next_dealer == expected


@pytest.mark.parametrize("rule", ["stay", "anshun", "xingyi"])
def test_r34_draw_dealer_is_an_option(rule):
    data = record(table("2"), draw(), preset="guiyang", dealer=0, options={"draw_dealer": rule})
    assert settle_record(data).next_dealer == {"stay": 0, "anshun": 2, "xingyi": 1}[rule]
