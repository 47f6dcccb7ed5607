"""Reads of the evening ledger, ready to show; nothing here writes and nothing lays out a PDF.

- `evenings`: look-ups by address, totals, the next round, the evening page's board, what a
  correction would do to the totals.
- `rounds`: one stored round's row (with each seat's 确认 / 有异议) and its settlement read back (R41).
- `settle_up`: what is still owed after the payments made, and the fewest transfers (R43).
- `history`: every change to the evening's rounds (R42).
- `what_if`: a round, a correction or the whole evening under other rules (换个规矩看看).
- `season`: a 固定桌's season (per player, head-to-head, trend, awards) and an evening's awards.
- `drafts`: the round being entered (录入中) and what changed in it since a phone last looked.
"""
from .drafts import (
    correction_draft, corrections_open, corrections_version, draft_changes, draft_mark, draft_version, evening_draft,
    evening_words_version, round_live_version,
)
from .evenings import (
    ROUNDS_PER_PAGE, EveningBoard, NetChange, PlayerTotal, evening_board, evening_by_any_address,
    evening_for_editing, evening_for_reading,
    evening_names, evening_rounds_queryset, evening_stake, evening_stake_text, evening_total_points,
    evening_totals, evening_version, next_dealer, next_round_number, round_correction_preview,
    round_exists, round_get, round_recorded_as, round_was_deleted,
)
from .history import (
    AskAgain, EarlierWords, HistoryRow, evening_history, evening_history_page, round_earlier_words,
    rounds_to_confirm_again,
)
from .rounds import RoundRow, SeatNet, SeatWord, round_row, seat_words, stored_settlement, table_facts
from .season import (
    Award, Period, PlayerStats, Season, evening_awards, figure_rounds, member_key, season_csv, table_evenings,
    seat_link_target, table_for_editing, table_for_reading, table_roster, table_season,
)
from .settle_up import (
    SettleUp, TransferRow, evening_payment_count, evening_report_version, evening_settle_up, evening_still_owed,
)
from .what_if import evening_what_if, round_what_if

__all__ = [
    "AskAgain", "EarlierWords", "round_earlier_words", "rounds_to_confirm_again",
    "Award", "Period", "PlayerStats", "Season", "evening_awards", "figure_rounds", "member_key", "season_csv",
    "table_evenings", "table_for_editing", "table_for_reading", "table_roster", "table_season",
    "ROUNDS_PER_PAGE", "correction_draft", "corrections_open", "corrections_version", "draft_changes", "draft_mark", "draft_version", "evening_draft", "evening_words_version", "round_live_version",
    "EveningBoard", "HistoryRow", "NetChange", "PlayerTotal", "RoundRow", "SeatNet", "SeatWord", "seat_words", "SettleUp",
    "TransferRow", "evening_board", "evening_by_any_address", "evening_for_editing", "evening_for_reading",
    "evening_history", "evening_history_page",
    "evening_names", "evening_payment_count", "evening_report_version", "evening_rounds_queryset", "evening_settle_up",
    "evening_stake", "evening_stake_text", "evening_still_owed", "evening_total_points",
    "evening_totals", "evening_version", "evening_what_if", "next_dealer", "next_round_number",
    "round_correction_preview", "round_exists", "round_get", "round_recorded_as", "seat_link_target", "round_row", "round_was_deleted", "round_what_if",
    "stored_settlement", "table_facts",
]
