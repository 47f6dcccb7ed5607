"""Issue 21's options change nothing when off: on 1,000 fixed-seed random records, settling with
the new options absent and with each written out at its off value gives the same items, void and
next dealer. (The worked examples E1–E8 are test_examples'; `python -m bench.unchanged` compares
today's scorer with the one before issue 21 on the same kind of records.)"""
from __future__ import annotations

import random

from calculator.scoring import PRESETS, settle_record

from .random_rounds import random_record

# Each new option (R66–R70) at the value every preset has; and R50's new value, `to_ready_chong_feng_all`.
OFF = {"dealer_bonus_win_only": False, "ze_ren_every": False, "wu_gu_ji_to_ready": False, "discard_pool": False,
       "chong_feng_wu_gu_ji": False}


def test_the_off_values_are_every_presets():
    for rules in PRESETS.values():
        assert {name: getattr(rules, name) for name in OFF} == OFF
        assert rules.chicken_flow == "all"


def test_a_thousand_random_records_settle_alike_with_the_new_options_absent_or_off():
    rng = random.Random(21)
    compared = 0
    for _ in range(1000):
        data = random_record(rng)
        options = {k: v for k, v in data["options"].items() if k not in OFF and v != "to_ready_chong_feng_all"}
        absent = settle_record({**data, "options": options})
        off = settle_record({**data, "options": {**options, **OFF}})
        assert (off.items, off.void, off.next_dealer) == (absent.items, absent.void, absent.next_dealer), data
        compared += 1
    assert compared == 1000
