"""What a correction changed, field by field (R42): the history and the confirm page say it."""
import copy

from calculator.presentation.changes import record_changes
from tests.round_form_data import load_example

NAMES = ["老王", "小李", "阿珍", "张哥"]


def changed(change) -> list[str]:
    before = load_example("E1")
    after = copy.deepcopy(before)
    change(after)
    return record_changes(before, after, NAMES)


def test_the_same_record_has_no_changes():
    assert changed(lambda r: None) == []


def test_a_turned_tile_and_the_dealer_are_named_with_before_and_after():
    def change(r):
        r["turned"] = "6s"
        r["dealer"] = 2
    before = load_example("E1")
    lines = changed(change)
    assert lines[0] == f"庄家：{NAMES[before['dealer']]} → 阿珍"
    assert lines[1].startswith("翻牌：") and lines[1].endswith("→ 6条")


def test_a_seats_hand_discards_melds_and_declaration_each_get_a_line():
    def change(r):
        seat = r["seats"][1]
        seat["concealed"] = "123m456p789s1122s"
        seat["discards"] = "1s"
        seat["declared"] = "hard"
        seat["melds"] = [{"type": "pong", "tile": "3m", "from": 2}]
    lines = changed(change)
    assert "小李 的手牌：" in lines[0] and lines[0].endswith("→ 123万 456筒 1122789条")
    assert lines[1].endswith("→ 碰 3万（阿珍）")
    assert lines[2] == "小李 打出的鸡：6万 → 1条"
    assert lines[3] == "小李 报听：无 → 硬报"
    assert len(lines) == 4


def test_who_threw_the_first_yaoji_is_said_in_words():
    assert changed(lambda r: r.update(first_yaoji=None)) == ["第一张幺鸡：张哥 打出，没人碰杠 → 无"]
    assert changed(lambda r: r.update(first_yaoji={"seat": 3, "claimed_by": 1})) == [
        "第一张幺鸡：张哥 打出，没人碰杠 → 张哥 打出，小李 碰杠"]
