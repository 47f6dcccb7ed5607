"""An item's words (scoring's data) read exactly as the sentences scoring used to write.

tests/data/item_details.jsonl holds the worked examples E1–E8 and random records from
tests/scoring/random_rounds.py chosen so that every kind of detail appears (every pattern with and
without 报听, every way of winning, every 豆 and 鸡, both penalties), each with the `detail` strings
`manage.py settle` printed and their English before items carried words (commit afea5e9).
The records are stored, not regenerated, so the comparison survives changes to the generator.
"""
import json
from pathlib import Path

import pytest
from django.utils import translation

from calculator.presentation import detail_text, item_text, settlement_json, words_text
from calculator.scoring import Item, settle_record

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "item_details.jsonl"
CASES = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]


def test_the_golden_cases_cover_every_kind_of_item():
    reasons = {item.reason for case in CASES for item in settle_record(case["record"]).items}
    assert reasons == {"hu.discard", "hu.self_draw", "hu.hot_shot", "hu.robbed", "bao.kill", "dou.men",
                       "dou.zhuanwan", "dou.dian", "ji.yaoji", "ji.turned", "ji.chong_feng", "ji.ze_ren",
                       "ji.bao", "cha_jiao", "penalty.pass", "penalty.xiang_gong"}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["zh"][0] if case["zh"] else "none")
def test_the_api_and_settle_print_the_same_detail_as_before_words(case):
    items = settlement_json(settle_record(case["record"]))["items"]
    assert [item["detail"] for item in items] == case["zh"]
    assert all(list(item) == ["payer", "payee", "points", "reason", "rule", "detail"] for item in items)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["zh"][0] if case["zh"] else "none")
def test_english_reads_the_words_as_it_read_the_sentences(case):
    settlement = settle_record(case["record"])
    with translation.override("en"):
        assert [item_text(item) for item in settlement.items] == case["en"]
        # a round stored before words (only its Chinese sentence) reads the same as a new one
        assert [detail_text(zh) for zh in case["zh"]] == case["en"]


def test_a_stored_round_keeps_its_words_and_its_text():
    settlement = settle_record(CASES[0]["record"])
    stored = settlement_json(settlement, words=True)["items"]
    assert stored[0]["words"] == [["ping_hu", 1]] and stored[0]["detail"] == "平胡 1"
    read_back = tuple(Item.from_dict(item) for item in stored)
    assert [item.words for item in read_back] == [item.words for item in settlement.items]
    assert [item.detail for item in read_back] == [item["detail"] for item in stored]


def test_an_item_stored_before_words_reads_from_its_sentence():
    old = Item.from_dict({"payer": 1, "payee": 0, "points": 2, "reason": "dou.men", "rule": "R16",
                          "detail": "闷豆 9筒"})
    assert old.words == ()
    with translation.override("en"):
        assert item_text(old) == "Concealed kong 闷豆 9-dot"
    with translation.override("zh-hans"):
        assert item_text(old) == "闷豆 9筒"


@pytest.mark.parametrize(("words", "zh", "en"), [
    ((("qing_da_dui", 15), ("declared", 10), ("self_draw",), ("kong_bloom", 2)),
     "清大对 15 + 报听 10，自摸，杠上开花 +2",
     "One-suit triplets 清大对 15 + declaration 报听 10, self-draw 自摸, win after a kong 杠上开花 +2"),
    ((("ping_hu", 1), ("robbed_pay_all", 3)), "平胡 1，抢杠包3家",
     "Plain win 平胡 1, robbed kong 抢杠, pays for 3 players"),
    ((("turned", "6m", 2),), "翻牌鸡 6万 ×2", "Turned chicken 翻牌鸡 6-character ×2"),
    ((("bao_kill",), ("self_draw",)), "杀报，自摸", "Declaration killed 杀报, self-draw 自摸"),
    ((("wu_gu_ji_gold", 3),), "金乌骨鸡 ×3", "Gold black-bone chicken 金乌骨鸡 ×3"),
    ((("dan_diao", 10), ("self_draw",)), "单钓 10，自摸", "Single wait 单钓 10, self-draw 自摸"),  # R60
    ((("xing_qi", "3m", 2),), "星期鸡 3万 ×2", "Weekday chicken 星期鸡 3-character ×2"),  # R64
    ((("gen_zhuang", 4),), "开局跟 4", "Dealer followed 开局跟 4"),  # R63
    ((("tian_hu", 33),), "天胡 33", "Heavenly win 天胡 33"),  # R62
    ((("ping_hu", 1), ("di_hu_bonus", 10), ("self_draw",)), "平胡 1 + 地胡 10，自摸",
     "Plain win 平胡 1 + earthly win 地胡 10, self-draw 自摸"),
    ((("qing_shuang_long_qi_dui", 40),), "清双龙七对 40", "One-suit double-dragon seven pairs 清双龙七对 40"),  # R61
    ((("yaoji", 2), ("discard_pool",)), "幺鸡 ×2，没叫的合付", "1-bamboo 幺鸡 ×2, pooled by the players not ready"),  # R69
    ((("dealer", 3), ("robbed_pay_all", 3)), "庄家加番 3，抢杠包3家",
     "Dealer bonus 庄家加番 3, robbed kong 抢杠, pays for 3 players"),  # R59 on a robbed kong
])
def test_words_read_in_chinese_and_english(words, zh, en):
    with translation.override("zh-hans"):
        assert words_text(words) == zh
    with translation.override("en"):
        assert words_text(words) == en
