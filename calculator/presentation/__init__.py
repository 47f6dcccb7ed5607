"""How things read: words, sentences and pictures for pages, receipts and reports. No queries.

- `words`: the one vocabulary of the game's terms (reason codes, patterns, melds, presets, tiles,
  the phrases of an item's words) and the round form's choice lists drawn from it.
- `settlement`: a settlement as the table reads it (groups, lines, nets, money, problems) and a
  seat's standing while its hand is typed in.
- `options`: every RuleSet option in words (a house rule's rule text and item words too).
- `rules_text`: the rules page (RULES.md filled in from a RuleSet).
- `changes`: what a correction changed, field by field (R42).
- `chart`: the evening's running totals as SVG.

Imports run one way: views → entry/forms/services/selectors → presentation → scoring.
"""
from .settlement import (
    ALL_TILE_CHIPS, Standing, TileChip, chinese_page, detail_text, format_money, hand_standing,
    item_text, outcome_text, present, preset_title, problem_message, round_summary, rules_url,
    settlement_json, sign_class, signed, tile_chips, tile_name,
)
from . import options  # noqa: F401  (its house rules add their words to words.PHRASES and REASON_TITLES)
from .words import words_text

__all__ = [
    "ALL_TILE_CHIPS", "Standing", "TileChip", "chinese_page", "detail_text", "format_money",
    "hand_standing", "item_text", "outcome_text", "present", "preset_title", "problem_message",
    "round_summary", "rules_url", "settlement_json", "sign_class", "signed", "tile_chips", "tile_name",
    "words_text",
]
