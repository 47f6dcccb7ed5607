"""The outcome card's one-tap answers read from the melds on the table (entry/shortcuts.py, issue 19
point 4): 热炮 offers the discarder's own kongs, 抢杠 the seat whose 碰 of the winning tile was
robbed, the first 幺鸡 the 碰 that took it; each in the live preview's answer (so a phone sees it
as soon as another phone's melds arrive), each a button over the form's own fields, which stay
the way in without JavaScript."""
import json
import re
from html import unescape

import pytest
from django.urls import reverse

from tests.round_form_data import load_example, record_to_post_data

pytestmark = pytest.mark.django_db
PREVIEW_URL = reverse("calculator:round_preview")
ROUND_URL = reverse("calculator:round_new")


def preview(client, record: dict, **fields) -> str:
    data = {**record_to_post_data(record), **fields}
    return client.post(PREVIEW_URL, data, HTTP_HX_REQUEST="true").content.decode()


def shortcuts(html: str) -> dict[str, dict]:
    """data-shortcut name -> the fields its button sets."""
    found = re.findall(r'data-shortcut="([^"]+)" data-set-fields="([^"]+)"', html)
    return {name: json.loads(unescape(fields)) for name, fields in found}


def pressed(html: str, name: str) -> bool:
    return bool(re.search(rf'data-shortcut="{name}"[^>]*aria-pressed="true"', html))


def test_hot_kong_offers_the_discarders_own_kongs_in_one_tap(client):
    record = load_example("E3")  # 北 点炮 with his 闷豆 of 5筒
    html = preview(client, record, hot_kong="")
    assert re.search(r'id="entry-ending-shortcuts"[^>]*hx-swap-oob="morph"', html)
    assert shortcuts(html) == {"hot_kong-": {"hot_kong": ""}, "hot_kong-5p": {"hot_kong": "5p"}}
    assert pressed(html, "hot_kong-") and not pressed(html, "hot_kong-5p")
    chosen = preview(client, record)  # hot_kong 5p as recorded
    assert pressed(chosen, "hot_kong-5p") and not pressed(chosen, "hot_kong-")


def test_no_hot_kong_buttons_while_the_discarder_has_no_kong_or_nobody_discarded(client):
    record = load_example("E3")
    assert not any(name.startswith("hot_kong") for name in shortcuts(preview(client, record, from_seat="1")))
    assert not any(name.startswith("hot_kong") for name in shortcuts(preview(client, record, result="self_draw")))


def test_robbed_kong_names_the_seat_whose_pong_of_the_winning_tile_was_robbed(client):
    record = load_example("E7")  # 东 wins on 6筒 that 西 was adding to his 碰
    html = preview(client, record, from_seat="", robbed="")
    assert shortcuts(html)["robbed-2"] == {"from_seat": "2", "robbed": True}
    assert "抢杠：西补杠的 6筒 被胡了" in html
    on = preview(client, record)  # robbed, from 西: the button takes it back
    assert shortcuts(on)["robbed-2"] == {"robbed": False}
    assert not any(name.startswith("robbed") for name in shortcuts(preview(client, record, win_tile="5s")))


def test_the_first_yaoji_is_offered_only_while_one_pong_of_it_says_who_took_it(client):
    record = load_example("E3")  # 东 碰 西's 幺鸡
    assert "yaoji-2-0" in shortcuts(preview(client, record, first_yaoji_seat="", first_yaoji_claimed_by=""))
    assert "yaoji-2-0" not in shortcuts(preview(client, record))  # said already
    assert "yaoji-2-0" not in shortcuts(preview(client, record, first_yaoji_seat="1", first_yaoji_claimed_by=""))


def test_without_javascript_the_fields_stay_in_the_form_and_the_buttons_are_hidden(client):
    html = client.get(ROUND_URL).content.decode()
    fold = html[html.index('class="discard-only special-cases"'):html.index("</details>", html.index("special-cases"))]
    assert 'name="hot_kong"' in fold and 'name="robbed"' in fold
    assert re.search(r'id="entry-ending-shortcuts" class="entry-shortcuts needs-js"', html)
    assert re.search(r'id="entry-yaoji-shortcut" class="entry-shortcuts needs-js"', html)
