"""`{% tile_chips chips %}`: tiles as chips, each kind's markup rendered once and then reused.

A chip's markup depends only on its tile kind (and the page's language), and a live preview
draws about 56 chips on every change: through an `{% include %}` each, resolving eight
variables per chip, they were the largest part of the preview's template time. Now each of the
27 kinds is rendered once per language from `calculator/partials/_entry_tile_chip.html`, the one
template of a chip, and a chip list is a join of those strings.
"""
from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from ..presentation import ALL_TILE_CHIPS, TileChip

CHIP_TEMPLATE = "calculator/partials/_entry_tile_chip.html"

register = template.Library()
_rendered: dict[tuple[str, str | None], str] = {}


def chip_html(chip: TileChip, language: str | None) -> str:
    """One chip's markup, from its template; rendered once per kind and language (every time
    with DEBUG on, so that an edit of the template shows at once)."""
    key = (chip.code, language)
    html = _rendered.get(key)
    if html is None:
        html = render_to_string(CHIP_TEMPLATE, {"chip": chip}).strip()
        if not settings.DEBUG:
            _rendered[key] = html
    return html


@register.simple_tag
def tile_chips(chips: Iterable[TileChip]) -> SafeString:
    """The chips of a list of `TileChip`s, in its order, with nothing between them."""
    language = get_language()
    return mark_safe("".join(chip_html(chip, language) for chip in chips))  # each from its template


@register.simple_tag
def tile_chip_of(code) -> SafeString:
    """One tile's chip from its code ("5p", as a tile menu's value), or nothing for a blank."""
    chip = next((c for c in ALL_TILE_CHIPS if c.code == code), None)
    return mark_safe(chip_html(chip, get_language()) if chip else "")  # from its template
