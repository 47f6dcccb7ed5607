"""RULES §5: a record that breaks a rule is rejected whole, every problem listed by code and seat."""
from __future__ import annotations

import copy

import pytest

from calculator.scoring import CODES, RecordInvalid, settle_record

from .factory import discard_win, record, seat, self_draw

FILL_A = "147m258p369s2m5m8m9p"
FILL_B = "369m147p258s4m7m3p6p"
READY_1 = "234s456s99s345p67m"
DA_DUI = "222m555m888p33p777s"
SEATS = [DA_DUI, READY_1, FILL_A, FILL_B]
BASE = record(SEATS, discard_win(2, (0, "7s")))
MEN_1S = {"type": "kong", "kind": "men", "tile": "1s"}


def problems(data: dict) -> list[tuple[str, int | None]]:
    with pytest.raises(RecordInvalid) as caught:
        settle_record(data)
    for p in caught.value.problems:
        assert p.code in CODES and p.message  # every problem has a stable code and plain words
    return [(p.code, p.seat) for p in caught.value.problems]


def edit(change, data: dict = BASE) -> dict:
    """A deep copy of `data` after `change(copy)`."""
    out = copy.deepcopy(data)
    change(out)
    return out


def test_the_base_record_is_legal():
    assert settle_record(BASE).net == [5, 0, -5, 0]


# ---------------------------------------------------------------------------------- tile_syntax

@pytest.mark.parametrize("change, expected", [
    (lambda d: d["seats"][1].update(concealed="234s456s99s345p67x"), [("tile_syntax", 1)]),
    (lambda d: d["seats"][1].update(concealed="234s456s99s345p67m8"), [("tile_syntax", 1)]),  # no suit
    (lambda d: d["seats"][1].update(concealed="234s456s99s345p60m"), [("tile_syntax", 1)]),   # no 0 rank
    (lambda d: d["seats"][3].update(discards="1s z"), [("tile_syntax", 3)]),
    (lambda d: d["seats"][1].update(melds=[{**MEN_1S, "tile": "10s"}]), [("tile_syntax", 1)]),
    (lambda d: d["seats"][1].update(melds=[{"type": "pong", "tile": "11s"}]), [("tile_syntax", 1)]),
    (lambda d: d["outcome"]["winners"][0].update(tile="7z"), [("tile_syntax", 0)]),
    (lambda d: d.update(turned="5"), [("tile_syntax", None)]),
    (lambda d: d["outcome"].update(hot_kong=7), [("tile_syntax", None)]),
])
def test_tile_syntax(change, expected):
    assert problems(edit(change)) == expected


def test_notation_accepts_spaces_and_one_tile_at_a_time():
    data = edit(lambda d: d["seats"][1].update(concealed="2s 3s 4s 456s 9s9s 345p 6m 7m"))
    assert settle_record(data).net == [5, 0, -5, 0]


# ---------------------------------------------------------------------------------- tile_overflow

def test_tile_overflow_across_seats():
    # Seat 1 holds 222万 too: 3 + 3 + seat 2's one = 7 二万.
    data = edit(lambda d: d["seats"][1].update(concealed="222m456s99s345p67m"))
    assert problems(data) == [("tile_overflow", None)]


def test_tile_overflow_counts_discards():
    data = edit(lambda d: d["seats"][3].update(discards="2m"))  # 222m + seat 2's 2m + this one
    assert problems(data) == [("tile_overflow", None)]


def test_tile_overflow_counts_the_turned_tile():
    assert problems(edit(lambda d: d.update(turned="2m"))) == [("tile_overflow", None)]


def test_tile_overflow_counts_kongs_as_four():
    # Seat 1 gets a 闷豆 of 2万 (10 concealed + kong = 13): 3 + 4 + 1.
    data = edit(lambda d: d["seats"][1].update(concealed="234s456s99s3p6m", melds=[{**MEN_1S, "tile": "2m"}]))
    assert ("tile_overflow", None) in problems(data)


# 一炮双响 on seat 2's 7条: seat 0 holds 777条, seat 3 77条 — five 7条 if each winner's were its own,
# four when they share the one discarded tile.
TWO_ON_7S = ["222m555m888p33p777s", "123468m24569p23s", "189m357p2349s M1p", "33m66m99m44p66p99s77s"]


def test_several_winners_share_one_winning_tile_not_an_overflow():
    s = settle_record(record(TWO_ON_7S, discard_win(2, (0, "7s"), (3, "7s"))))
    # 2 → 0 5 (大对子), 2 → 3 10 (小七对); seat 2's 闷豆 pays nothing (not ready).
    assert s.net == [5, 0, -15, 10]


def test_several_winners_and_one_tile_too_many_is_an_overflow():
    seats = [*TWO_ON_7S]
    seats[1] = "123468m24569p27s"  # a sixth 7条 (fifth once shared)
    assert problems(record(seats, discard_win(2, (0, "7s"), (3, "7s")))) == [("tile_overflow", None)]


# ---------------------------------------------------------------------------------- tile_count

@pytest.mark.parametrize("change, expected", [
    (lambda d: d["seats"][1].update(concealed="234s456s99s345p6m"), [("tile_count", 1)]),       # 12
    (lambda d: d["seats"][1].update(concealed="234s456s99s345p67m8m"), [("tile_count", 1)]),    # 14
    (lambda d: d["seats"][0].update(concealed="222m555m888p3p777s"), [("tile_count", 0)]),      # winner, 13
    # a kong counts as three: 10 concealed + a 闷豆 is 13, and 11 + a 闷豆 is one too many
    (lambda d: d["seats"][1].update(concealed="234s456s99s3p6m7m", melds=[MEN_1S]), [("tile_count", 1)]),
])
def test_tile_count(change, expected):
    assert problems(edit(change)) == expected


def test_a_kong_counts_as_three_tiles():
    data = edit(lambda d: d["seats"][1].update(concealed="234s456s99s3p6m", melds=[MEN_1S]))
    assert settle_record(data).hands[1].tiles == 13


# ---------------------------------------------------------------------------------- bad_meld

@pytest.mark.parametrize("meld", [
    {"type": "kong", "kind": "dian", "tile": "1m", "from": 1},               # 点豆 from itself
    {"type": "kong", "kind": "dian", "tile": "1m", "from": 0, "late": True},  # a late 点豆
    {"type": "kong", "kind": "dian", "tile": "1m"},                          # 点豆 fed by nobody
    {"type": "pong", "tile": "1m", "from": 1},                               # pong of its own discard
    {"type": "pong", "tile": "1m", "from": 0, "late": True},                 # only kongs are late
    {"type": "chow", "tile": "1m"},                                          # no 吃 (R1)
    {"type": "kong", "kind": "big", "tile": "1m"},
    "1m",
])
def test_bad_meld(meld):
    data = edit(lambda d: d["seats"][1].update(concealed="234s456s99s3p", melds=[meld]))
    assert problems(data) == [("bad_meld", 1)]


# ---------------------------------------------------------------------------------- not_winning, needs_dou

def test_not_winning():
    data = edit(lambda d: d["seats"][0].update(concealed="222m555m888p34p777s"))
    assert problems(data) == [("not_winning", 0)]


def test_needs_dou():
    data = edit(lambda d: (d["seats"][0].update(concealed="123m456p789p88m345s"),
                           d["outcome"]["winners"][0].update(tile="8m")))
    assert problems(data) == [("needs_dou", 0)]


# ---------------------------------------------------------------------------------- bad_outcome

PING_MEN = "123m456p789p88m M7s"


@pytest.mark.parametrize("data, expected", [
    # several winners on a self-draw
    (record(TWO_ON_7S, {"type": "win", "from": None, "winners": [{"seat": 0, "tile": "7s"},
                                                                  {"seat": 3, "tile": "7s"}]}),
     [("bad_outcome", None)]),
    # a winner paying itself
    (record(SEATS, discard_win(0, (0, "7s"))), [("bad_outcome", 0)]),
    # hot_kong not among the discarder's kongs
    (record(SEATS, discard_win(2, (0, "7s"), hot_kong="4s")), [("bad_outcome", 2)]),
    # hot_kong on a self-draw
    (record(SEATS, {**self_draw(0, "7s"), "hot_kong": "4s"}), [("bad_outcome", None)]),
    # a robbed seat without a pong of the winning tile
    (record(SEATS, discard_win(2, (0, "7s"), robbed=True)), [("bad_outcome", 2)]),
    # robbed with nobody robbed
    (record(SEATS, {**self_draw(0, "7s"), "robbed": True}), [("bad_outcome", None)]),
    # after_kong on a discard win
    (record([PING_MEN, READY_1, FILL_A, FILL_B], {**discard_win(2, (0, "8m")), "after_kong": True}),
     [("bad_outcome", None)]),
    # after_kong for a winner with no kong
    (record(SEATS, self_draw(0, "7s", after_kong=True)), [("bad_outcome", 0)]),
    # the winning tile is not among the winner's tiles
    (record(SEATS, discard_win(2, (0, "9s"))), [("bad_outcome", 0)]),
    # several winners on different tiles
    (record(TWO_ON_7S, discard_win(2, (0, "7s"), (3, "3m"))), [("bad_outcome", None)]),
    # the same winner twice
    (record(SEATS, discard_win(2, (0, "7s"), (0, "7s"))), [("bad_outcome", None)]),
    # passed_before with several winners (R36)
    (record(TWO_ON_7S, discard_win(2, (0, "7s"), (3, "7s"), passed_before=True)), [("bad_outcome", None)]),
    # passed_before on a self-draw (R36 bars only wins on a discard)
    (record(SEATS, {**self_draw(0, "7s"), "winners": [{"seat": 0, "tile": "7s", "passed_before": True}]}),
     [("bad_outcome", 0)]),
    # no winners, or every seat a winner
    (record(SEATS, {"type": "win", "from": 2, "winners": []}), [("bad_outcome", None)]),
    (record(SEATS, discard_win(2, (0, "7s"), (1, "7s"), (2, "7s"), (3, "7s"))), [("bad_outcome", None)]),
    # neither a win nor a draw
    (record(SEATS, {"type": "lose"}), [("bad_outcome", None)]),
])
def test_bad_outcome(data, expected):
    assert problems(data) == expected


# ---------------------------------------------------------------------------------- bad_first_yaoji

def test_bad_first_yaoji_claimer_without_a_yaoji_meld():
    data = edit(lambda d: d.update(first_yaoji={"seat": 3, "claimed_by": 1}))
    assert problems(data) == [("bad_first_yaoji", 1)]


def test_bad_first_yaoji_claimer_with_a_yaoji_meld_from_another_seat():
    seats = [DA_DUI, "2368m349p589s P1s<2", "13679m12479p269s", "1679m145689p459s"]
    assert problems(record(seats, discard_win(2, (0, "7s")), first_yaoji=(3, 1))) == [("bad_first_yaoji", 1)]
    assert settle_record(record(seats, discard_win(2, (0, "7s")), first_yaoji=(2, 1))).net == [5, 0, -5, 0]


def test_bad_first_yaoji_unclaimed_but_missing_from_the_discards():
    data = edit(lambda d: d.update(first_yaoji={"seat": 3, "claimed_by": None}))
    assert problems(data) == [("bad_first_yaoji", 3)]
    data["seats"][3]["discards"] = "1s"
    assert settle_record(data).net == [5, 0, -5, 0]


# ---------------------------------------------------------------------------------- declared_not_ready

@pytest.mark.parametrize("kind", ["hard", "soft"])
def test_declared_not_ready(kind):
    assert problems(edit(lambda d: d["seats"][2].update(declared=kind))) == [("declared_not_ready", 2)]


def test_a_ready_declarer_is_fine():
    assert settle_record(edit(lambda d: d["seats"][1].update(declared="hard"))).hands[1].ready


# ---------------------------------------------------------------------------------- bad_seat

@pytest.mark.parametrize("change, expected", [
    (lambda d: d.update(dealer=4), [("bad_seat", None)]),
    (lambda d: d.update(dealer=-1), [("bad_seat", None)]),
    (lambda d: d.update(dealer="0"), [("bad_seat", None)]),
    (lambda d: d.update(dealer=True), [("bad_seat", None)]),
    (lambda d: d["outcome"].update({"from": 4}), [("bad_seat", None)]),
    (lambda d: d["outcome"]["winners"][0].update(seat=7), [("bad_seat", None)]),
    (lambda d: d.update(first_yaoji={"seat": 5, "claimed_by": None}), [("bad_seat", None)]),
    (lambda d: d["seats"][1].update(melds=[{"type": "pong", "tile": "1m", "from": 9}]), [("bad_seat", 1)]),
    (lambda d: d.update(seats=d["seats"][:2]), [("bad_seat", None)]),                 # 2 players
    (lambda d: d.update(seats=d["seats"] + [seat(FILL_A)]), [("bad_seat", None)]),   # 5 players
])
def test_bad_seat(change, expected):
    assert problems(edit(change)) == expected


# ---------------------------------------------------------------------------------- bad_option

@pytest.mark.parametrize("change", [
    lambda d: d.update(preset="beijing"),
    lambda d: d.update(options={"self_draw": "triple"}),
    lambda d: d.update(options={"no_such_option": 1}),
    lambda d: d.update(options={"patterns": {"ping_hu": -1}}),
    lambda d: d.update(options={"patterns": {"shi_san_yao": 13}}),
    lambda d: d.update(options={"jian_dou_san": "yes"}),
    lambda d: d.update(options={"gold": 2.5}),
    lambda d: d.update(options=["jian_dou_san"]),
    lambda d: d.update(stake="0"),
    lambda d: d.update(stake="-1"),
    lambda d: d.update(stake="abc"),
    lambda d: d.update(stake="NaN"),
])
def test_bad_option(change):
    assert problems(edit(change)) == [("bad_option", None)]


# ---------------------------------------------------------------------------------- many at once

def test_every_problem_of_the_record_shape_is_reported_at_once():
    def change(d):
        d["seats"][1]["concealed"] = "234s456s99s345p67x"
        d["seats"][2]["melds"] = [{"type": "kong", "kind": "dian", "tile": "1p", "from": 2}]
        d["options"] = {"self_draw": "triple"}
        d["dealer"] = 9
    assert sorted(problems(edit(change)), key=str) == sorted(
        [("tile_syntax", 1), ("bad_meld", 2), ("bad_option", None), ("bad_seat", None)], key=str)


def test_every_game_legality_problem_is_reported_at_once():
    def change(d):
        d["seats"][1]["concealed"] = "234s456s99s345p6m"          # 12 tiles
        d["seats"][2]["declared"] = "soft"                        # not ready
        d["first_yaoji"] = {"seat": 3, "claimed_by": None}        # no 幺鸡 in its discards
        d["outcome"]["hot_kong"] = "4s"                           # seat 2 has no kong
        d["turned"] = "2m"                                        # a fifth 2万
    assert sorted(problems(edit(change)), key=str) == sorted([
        ("tile_overflow", None), ("tile_count", 1), ("bad_outcome", 2), ("bad_first_yaoji", 3),
        ("declared_not_ready", 2),
    ], key=str)


def test_problems_carry_code_seat_field_and_message():
    with pytest.raises(RecordInvalid) as caught:
        settle_record(edit(lambda d: d["seats"][2].update(declared="soft")))
    [p] = caught.value.problems
    assert p.to_dict() == {"code": "declared_not_ready", "seat": 2, "field": "declared", "message": p.message}
    assert caught.value.to_dict() == {"errors": [p.to_dict()]}


@pytest.mark.parametrize("data", [None, [], "record", 7])
def test_a_record_that_is_not_an_object(data):
    assert problems(data) == [("bad_record", None)]


def test_bad_meld_a_men_dou_from_another_seat():
    # A 闷豆 is four tiles drawn by the seat itself; naming a source is a mistake (and would let it
    # pass for a claimed first 幺鸡, R23).
    data = edit(lambda d: d["seats"][0]["melds"].append({"type": "kong", "kind": "men", "tile": "9m", "from": 1}))
    assert ("bad_meld", 0) in problems(data)


@pytest.mark.parametrize("stake", ["5.00000", "0.25", "1000000"])
def test_a_stake_is_judged_by_its_value_not_its_spelling(stake):
    assert settle_record(edit(lambda d: d.update(stake=stake))).net == [5, 0, -5, 0]


@pytest.mark.parametrize("stake", ["0.00001", "0", "-1", "abc", "1e7"])
def test_bad_stakes_are_refused(stake):
    assert problems(edit(lambda d: d.update(stake=stake))) == [("bad_option", None)]


# ---------------------------------------------------------------------------------- bad_mei_jiao

def hide(seat_index: int, **more):
    return lambda d: d["seats"][seat_index].update(concealed="", mei_jiao=True, **more)


def test_mei_jiao_a_not_ready_seat_needs_no_concealed_tiles():
    full = settle_record(BASE)
    hidden = settle_record(edit(hide(2)))
    assert hidden.items == full.items and hidden.hands[2].status == "not_ready"
    assert hidden.record.seats[2].to_dict()["mei_jiao"] is True


def test_mei_jiao_keeps_the_melds_that_count():
    # 西 fed 北's 点豆 and holds a pong of its own: hidden, 西 still pays for the 点豆.
    seats = [DA_DUI, READY_1, "147m258p369s2m P9p<1", "234s33m345p67m D8s<2"]
    data = record(seats, discard_win(2, (0, "7s")))
    full = settle_record(data)
    assert any(i.reason == "dou.dian" and (i.payer, i.payee) == (2, 3) for i in full.items)
    assert settle_record(edit(hide(2), data)).items == full.items


@pytest.mark.parametrize("option", [{"chicken_collectors": "all"}, {"chicken_collectors": "ready_or_pay"},
                                    {"dou_collectors": "all"}])
def test_mei_jiao_refused_where_hidden_tiles_could_matter(option):
    data = edit(lambda d: (d.update(options=option), hide(2)(d)))
    assert problems(data) == [("bad_mei_jiao", 2)]


@pytest.mark.parametrize("change, seat_index", [
    (hide(0), 0),                                              # the winner
    (hide(1, declared="soft"), 1),                             # a declarer must be ready (R32)
    (lambda d: d["seats"][2].update(mei_jiao=True), 2),        # tiles shown after all
])
def test_mei_jiao_refused_for_a_winner_a_declarer_or_with_tiles(change, seat_index):
    assert ("bad_mei_jiao", seat_index) in problems(edit(change))


# ------------------------------------------------------- tiles are counted before hands are analysed


@pytest.fixture
def analysed(monkeypatch):
    """The seats whose hands analysis looked at (a hand of impossible tiles could cost seconds
    and hundreds of megabytes of cache)."""
    from calculator.scoring import analysis

    seats = []
    real = analysis.analyse_seat

    def spy(record, seat):
        seats.append(seat)
        return real(record, seat)

    monkeypatch.setattr(analysis, "analyse_seat", spy)
    return seats


def test_thirteen_of_one_tile_is_refused_and_that_hand_never_analysed(analysed):
    data = edit(lambda d: d["seats"][2].update(concealed="1m" * 13))
    assert problems(data) == [("tile_overflow", None)]
    assert 2 not in analysed and sorted(analysed) == [0, 1, 3]


def test_a_hand_of_the_wrong_size_is_not_analysed_but_the_others_are(analysed):
    data = edit(lambda d: d["seats"][2].update(concealed=FILL_A + "1s2s3s"))
    assert problems(data) == [("tile_count", 2)]
    assert sorted(analysed) == [0, 1, 3]


def test_a_declared_seat_is_still_checked_beside_a_wrong_count():
    """Skipping the one bad hand's analysis leaves the other seats' problems as they were."""
    def change(d):
        d["seats"][3].update(concealed=FILL_B + "1s")
        d["seats"][2]["declared"] = "soft"

    assert problems(edit(change)) == [("tile_count", 3), ("declared_not_ready", 2)]


def test_the_hand_caches_are_bounded():
    from calculator.scoring import hands

    caches = [f for f in vars(hands).values() if hasattr(f, "cache_info")]
    assert caches and all(f.cache_info().maxsize for f in caches)
