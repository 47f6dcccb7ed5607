"""The share page's QR code: an SVG that scales with the page and still reads as a QR code."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from calculator.qr import QUIET_ZONE, qr_svg

SVG = "{http://www.w3.org/2000/svg}svg"
ADDRESS = "https://zhuoji.example/v/Jmie-1ZTkfsXnooQrmbs1VuCkebIM8xt/"


def dark_modules(svg: str) -> tuple[int, set[tuple[int, int]]]:
    """The code's width in modules (from the viewBox) and its dark modules as (x, y)."""
    root = ET.fromstring(svg)
    _x, _y, width, _height = (int(float(v)) for v in root.get("viewBox").split())
    path = root.find("{http://www.w3.org/2000/svg}path").get("d")
    return width, {(int(x), int(y)) for x, y in re.findall(r"M(\d+),(\d+)H", path)}


def is_finder(dark: set[tuple[int, int]], left: int, top: int) -> bool:
    """A finder pattern: a dark 7×7 ring, a light ring inside it, a dark 3×3 centre."""
    for dy in range(7):
        for dx in range(7):
            ring = max(abs(dx - 3), abs(dy - 3))
            if ((left + dx, top + dy) in dark) != (ring != 2):
                return False
    return True


def test_the_code_has_no_fixed_size_and_is_named_for_screen_readers():
    root = ET.fromstring(qr_svg(ADDRESS))
    assert root.tag == SVG
    assert root.get("width") is None and root.get("height") is None
    assert root.get("viewBox") and root.get("class") == "qr"
    assert root.get("role") == "img" and root.get("aria-label")


def test_the_code_has_its_three_finder_patterns_inside_the_quiet_zone():
    width, dark = dark_modules(qr_svg(ADDRESS))
    far = width - QUIET_ZONE - 7
    assert all(is_finder(dark, x, y) for x, y in [(QUIET_ZONE, QUIET_ZONE), (far, QUIET_ZONE), (QUIET_ZONE, far)])
    assert not any(x < QUIET_ZONE or y < QUIET_ZONE or x >= width - QUIET_ZONE or y >= width - QUIET_ZONE
                   for x, y in dark)


def test_different_addresses_give_different_codes():
    assert dark_modules(qr_svg(ADDRESS)) != dark_modules(qr_svg(ADDRESS.replace("Jmie", "Kmie")))
