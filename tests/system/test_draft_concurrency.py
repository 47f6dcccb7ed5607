"""Four phones type into one draft at the same instant (issue 11): every field each wrote is
there, the version counts every save once, and the draft becomes one round however many phones
press 记下这一局 together. Real threads with committed transactions: PostgreSQL only (bin/test's
second run), as tests/system/test_concurrency.py."""
from __future__ import annotations

import uuid

import pytest
from django.db import connection

from calculator import selectors, services
from calculator.models import Round
from tests.factories import example_record, expected_net, make_evening
from tests.round_form_data import record_to_post_data
from tests.system.test_concurrency import together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("real concurrent writers need PostgreSQL (bin/test runs these in its second run)")


def form_values(example: str) -> dict[str, list[str]]:
    data = record_to_post_data(example_record(example))
    return {k: (v if isinstance(v, list) else [v]) for k, v in data.items()
            if not k.endswith("-name") and k not in ("players", "preset", "stake")}


def test_four_phones_saving_their_own_seats_at_once_lose_nothing():
    evening = make_evening()
    blank = {**form_values("E1"), **{f"seat{s}-concealed": [""] for s in range(4)}}
    services.draft_save(evening=evening, values=blank, changed=None, base=0, client="opener")
    hands = [example_record("E1")["seats"][s]["concealed"] for s in range(4)]
    saves = 10

    def phone(seat: int) -> None:
        for tap in range(1, saves + 1):  # the hand grows a tile at a time, each sent on its own
            typed = hands[seat][: max(2, len(hands[seat]) * tap // saves)]
            services.draft_save(evening=evening, values={**blank, f"seat{seat}-concealed": [typed]},
                                changed={f"seat{seat}-concealed"}, base=1, client=f"phone{seat}")

    together(4, phone)
    draft = selectors.evening_draft(evening=evening)
    assert [draft.data[f"seat{s}-concealed"] for s in range(4)] == [[hand] for hand in hands]
    assert draft.version == 1 + len({(s, hands[s][: max(2, len(hands[s]) * t // saves)])
                                     for s in range(4) for t in range(1, saves + 1)})


def test_two_phones_writing_one_field_at_once_end_with_one_value_and_one_is_told():
    evening = make_evening()
    services.draft_save(evening=evening, values=form_values("E1"), changed=None, base=0, client="opener")

    def phone(i: int):
        return services.draft_save(evening=evening, values={**form_values("E1"), "turned": [("6s", "7s")[i]]},
                                   changed={"turned"}, base=1, client=f"phone{i}", by=("老王", "小李")[i])

    results = together(2, phone)
    draft = selectors.evening_draft(evening=evening)
    assert draft.version == 3 and draft.data["turned"] in (["6s"], ["7s"])
    assert sorted(len(r.overlaps) for r in results) == [0, 1]  # the second to write hears of the first


def test_the_draft_becomes_one_round_when_four_phones_press_save_together():
    evening = make_evening()
    key = services.draft_open(evening=evening).idempotency_key

    def phone(_i: int) -> int:
        return services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key).pk

    assert len(set(together(4, phone))) == 1
    assert list(Round.objects.filter(evening=evening).values_list("net", flat=True)) == [expected_net("E1")]
    assert selectors.evening_draft(evening=evening) is None


def test_a_phone_still_typing_while_the_round_is_saved_never_brings_the_draft_back():
    evening = make_evening()
    key = services.draft_open(evening=evening).idempotency_key

    def work(i: int):
        if i == 0:
            return services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
        for _ in range(20):
            services.draft_save(evening=evening, values=form_values("E1"), changed={"turned"}, base=0,
                                client=str(uuid.uuid4()), key=key)
        return None

    together(2, work)
    assert Round.objects.filter(evening=evening).count() == 1
    assert selectors.evening_draft(evening=evening) is None  # every later save found the round
