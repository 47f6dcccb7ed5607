"""Writes to the evening ledger (RULES §7). Every write is one function inside one transaction.

Functions are named `<entity>_<action>` and take keyword-only arguments. The evening row is
locked (`select_for_update`, `evenings.lock_evening`) before any round changes, so phones writing
to the same evening at once are served one after the other: round numbers stay max + 1, an
idempotency key is seen by the second submit, and a correction sees the version the last one left.

- `evenings`: open an evening (开一晚).
- `rounds`: record, correct and delete a round (R41, R42); recording consumes the draft.
- `confirmations`: a seat's 确认 / 有异议 on a stored round.
- `drafts`: the round being entered (录入中): open, save per field, throw away.
- `payments`: mark a settle-up transfer paid, or take the mark back (R43).
- `tables`: a 固定桌: make one, attach evenings, open its next evening, who sat where, merge names.
- `exchange`: an evening as JSON, out and back in.
"""
from django.core.exceptions import ValidationError

from .confirmations import SeatHasItsOwnPhone, draft_confirm, round_confirm
from .drafts import DraftEnded, DraftOvertaken, DraftSaved, Overlap, Seen, draft_discard, draft_open, draft_save, draft_seen, spent_key
from .evenings import evening_create
from .exchange import (
    EXPORT_FORMAT, TABLE_FORMAT, evening_export, evening_export_json, evening_import, table_export, table_import,
)
from .tables import (
    NotAttachable, member_merge, member_rename, seat_link, table_attach_evening, table_create,
    table_evening_create, table_evening_open, table_from_evening, table_next_setup,
)
from .payments import TransferNotInPlan, transfer_mark_paid, transfer_mark_unpaid
from .rounds import IdempotencyKeyDeleted, IdempotencyKeyReused, record_digest, RoundVersionConflict, round_correct, round_delete, round_record

__all__ = [
    "SeatHasItsOwnPhone", "draft_confirm", "record_digest", "round_confirm",
    "DraftEnded", "DraftOvertaken", "DraftSaved", "Overlap", "Seen", "draft_discard", "draft_open", "draft_save", "draft_seen", "spent_key",
    "NotAttachable", "member_merge", "member_rename", "seat_link", "table_attach_evening", "table_create",
    "table_evening_create", "table_evening_open", "table_from_evening", "table_next_setup",
    "EXPORT_FORMAT", "TABLE_FORMAT", "table_export", "table_import", "IdempotencyKeyDeleted", "IdempotencyKeyReused",
    "RoundVersionConflict", "TransferNotInPlan", "ValidationError",
    "evening_create", "evening_export", "evening_export_json", "evening_import", "round_correct", "round_delete", "round_record",
    "transfer_mark_paid", "transfer_mark_unpaid",
]
