"""The season as a picture a phone can save or send in a chat (issue 24): the table's name, the
period, the standings and the awards, drawn with Pillow (WeasyPrint's own dependency) in the
CJK font the PDFs use, so Chinese reads as Chinese, not boxes.
"""
from __future__ import annotations

import io
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .chart import COLOURS
from .settlement import signed

WIDTH = 1080
MARGIN = 64
ROW = 84
FELT, CREAM, INK, MUTED, GOLD = "#1f7a4d", "#faf7ee", "#1d2b24", "#5b6b62", "#d9a520"
FONT_FILES = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
              "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


@lru_cache(maxsize=1)
def font_file() -> str:
    """The CJK font of the PDFs (fonts-wqy-microhei, bin/setup), found as fontconfig finds it."""
    for path in FONT_FILES:
        try:
            with open(path, "rb"):
                return path
        except OSError:
            continue
    found = subprocess.run(["fc-match", "-f", "%{file}", "WenQuanYi Micro Hei:lang=zh-cn"],
                           capture_output=True, text=True, timeout=10).stdout.strip()
    if not found:
        raise RuntimeError("no CJK font for the share card: install fonts-wqy-microhei (bin/setup)")
    return found


def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_file(), size)


@dataclass(frozen=True)
class CardRow:
    name: str
    colour: int
    points: int
    money: Decimal


@dataclass(frozen=True)
class Card:
    title: str  # the table's name
    subtitle: str  # the period, the evenings and rounds
    rows: Sequence[CardRow]  # best net first
    awards: Sequence[tuple[str, str]]  # (title, "老王 ×5")
    heading_standings: str
    heading_awards: str
    points_unit: str  # 番
    money_unit: str  # 元
    footer: str


TITLE_COLUMN = 260


def _award_lines(title: str) -> int:
    """An award whose title is wider than its column (English) puts who won it on a second line."""
    return 1 if font(38).getlength(title) < TITLE_COLUMN - 20 else 2


def _height(card: Card) -> int:
    awards = (104 + 64 * sum(_award_lines(title) for title, _who in card.awards)) if card.awards else 0
    return 240 + 96 + ROW * max(1, len(card.rows)) + awards + 120


def card_png(card: Card) -> bytes:
    image = Image.new("RGB", (WIDTH, _height(card)), CREAM)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, WIDTH, 220], fill=FELT)
    draw.rectangle([0, 220, WIDTH, 232], fill=GOLD)
    draw.text((MARGIN, 60), card.title, font=font(64), fill="#ffffff")
    draw.text((MARGIN, 150), card.subtitle, font=font(34), fill=CREAM)
    y = 272
    draw.text((MARGIN, y), card.heading_standings, font=font(40), fill=INK)
    draw.text((WIDTH - MARGIN - 300, y + 6), card.points_unit, font=font(30), fill=MUTED, anchor="ra")
    draw.text((WIDTH - MARGIN, y + 6), card.money_unit, font=font(30), fill=MUTED, anchor="ra")
    y += 80
    name_font, number_font = font(44), font(44)
    for place, row in enumerate(card.rows, start=1):
        draw.text((MARGIN, y), str(place), font=number_font, fill=MUTED)
        draw.ellipse([MARGIN + 70, y + 14, MARGIN + 98, y + 42], fill=COLOURS[row.colour % len(COLOURS)])
        draw.text((MARGIN + 120, y), row.name, font=name_font, fill=INK)
        points = signed(row.points)
        colour = FELT if row.points > 0 else "#b3261e" if row.points < 0 else INK
        draw.text((WIDTH - MARGIN - 300, y), points, font=number_font, fill=colour, anchor="ra")
        draw.text((WIDTH - MARGIN, y), signed(row.money), font=number_font, fill=MUTED, anchor="ra")
        y += ROW
    if card.awards:
        y += 32
        draw.text((MARGIN, y), card.heading_awards, font=font(40), fill=INK)
        y += 72
        for title, who in card.awards:
            draw.text((MARGIN, y), title, font=font(38), fill=GOLD)
            y += 64 * (_award_lines(title) - 1)
            draw.text((MARGIN + TITLE_COLUMN, y), who, font=font(38), fill=INK)
            y += 64
    draw.text((WIDTH - MARGIN, _height(card) - 70), card.footer, font=font(30), fill=MUTED, anchor="ra")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
