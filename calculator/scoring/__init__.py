"""捉鸡 scoring: tiles and hands in, an itemised settlement out. Imports nothing from Django.

The public surface:
- `settle_record(data)` → `Settlement` (raises `RecordInvalid` listing every `Problem`)
- `settle_under(data, rules)`: the same record under other rules (换个规矩看看)
- `check(data)` → the parsed `RoundRecord` and each seat's `SeatAnalysis`, or `RecordInvalid`
- `parse_record`, `analyse`, `settle` for callers that need the steps apart
- `RuleSet`, `PRESETS`, `rules_for` for the rule options; `parse_tiles`, `Tile` for notation

Each `Item` of a settlement says what it was paid for as data, not a sentence: `words`, a tuple
of phrases, each a code and its arguments (ints; tiles in notation), e.g.
`(("qing_da_dui", 15), ("declared", 10), ("self_draw",))` or `(("turned", "6m", 2),)`.
`presentation.words` (PHRASES) renders them in Chinese and English; docs/CHANGING.md lists the
codes. An `Item.detail` is only ever the sentence of a round stored before words (R41).
"""
from .analysis import NOT_READY, READY, WON, SeatAnalysis, analyse
from .hands import PATTERN_HANZI, Hand, best_reading, is_complete, waits_of
from .items import GROUP_ORDER, Item
from .problems import CODES, Problem, RecordInvalid
from .record import SEAT_NAMES, FirstYaoji, Meld, Outcome, RoundRecord, SeatRecord, TableFacts, Winner, parse_record
from .rules import PRESETS, RuleSet, rules_for, ruleset_from_dict
from .settle import Settlement, check, settle, settle_record, settle_under
from .tiles import YAOJI, Tile, TileSyntaxError, format_tiles, parse_tile, parse_tiles

__all__ = [
    "CODES", "GROUP_ORDER", "NOT_READY", "PATTERN_HANZI", "PRESETS",
    "READY", "SEAT_NAMES", "WON", "YAOJI", "FirstYaoji", "Hand", "Item", "Meld", "Outcome", "Problem",
    "RecordInvalid", "RoundRecord", "RuleSet", "SeatAnalysis", "SeatRecord", "Settlement", "TableFacts", "Tile",
    "TileSyntaxError", "Winner", "analyse", "best_reading", "check", "format_tiles", "is_complete",
    "parse_record", "parse_tile", "parse_tiles", "rules_for", "ruleset_from_dict", "settle",
    "settle_record", "settle_under", "waits_of",
]
