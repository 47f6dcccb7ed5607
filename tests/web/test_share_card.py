"""分享图片 (issue 24): the season as a PNG a phone can save or send in a chat — the table's name,
the period, the standings and the awards, with Chinese drawn as Chinese (the CJK font of the
PDFs), at both addresses; the read-only one changes nothing."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.urls import reverse
from PIL import Image, ImageChops

from calculator import services
from calculator.presentation.share_card import font
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


@pytest.fixture
def table():
    evening = make_evening(stake="0.5")
    record_rounds(evening, ["E1", "E2", "E5"])
    return services.table_from_evening(evening=evening, name="周五老王家")


def test_the_share_card_is_a_png_of_the_season_at_both_addresses(client, table):
    season = reverse("calculator:table_season", args=[table.token])
    assert reverse("calculator:table_share_card", args=[table.token]) in client.get(season).content.decode()
    edit = client.get(reverse("calculator:table_share_card", args=[table.token]), {"period": "all"})
    read = client.get(reverse("calculator:table_follow_share_card", args=[table.read_token]), {"period": "all"})
    for response in (edit, read):
        assert response.status_code == 200 and response["Content-Type"] == "image/png"
        with Image.open(io.BytesIO(response.content)) as image:
            assert image.format == "PNG" and image.width == 1080 and image.height > 600
    assert edit.content == read.content  # the same season, whichever address asks
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "share-card.png").write_bytes(edit.content)  # looked at by a person, too


def test_a_players_standing_changes_the_picture(client, table):
    url = reverse("calculator:table_share_card", args=[table.token])
    before = client.get(url).content
    record_rounds(table.evenings.get(), ["E3"])
    assert client.get(url).content != before


def test_the_card_draws_chinese_with_a_font_that_has_it():
    """A font without the glyph draws the same empty box for every character: 鸡 and 王 would
    then look alike."""
    card_font = font(40)
    masks = [Image.frombytes("L", card_font.getmask(text).size, bytes(card_font.getmask(text)))
             for text in ("鸡", "王")]
    assert masks[0].size != (0, 0) and masks[0].getbbox()
    assert masks[0].size != masks[1].size or ImageChops.difference(masks[0], masks[1]).getbbox()


def test_a_wrong_address_has_no_picture(client):
    assert client.get(reverse("calculator:table_follow_share_card", args=["x" * 32])).status_code == 404


def test_the_english_card_fits_its_longer_words(table):
    from django.test import Client

    english = Client(HTTP_COOKIE="django_language=en")
    response = english.get(reverse("calculator:table_share_card", args=[table.token]))
    assert response.status_code == 200
    (SHOTS / "share-card-en.png").write_bytes(response.content)
