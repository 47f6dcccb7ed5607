"""The evening (ledger) of RULES §7: players in seats, rounds as stored records, and the history.

Nothing here holds a balance. A round stores its inputs (the record), its result (the
settlement and its net) and the rules it was scored under (R41); totals are sums over the
rounds, computed by `selectors`. Writes go through `services`, never through `save()` hooks.
"""
from __future__ import annotations

import secrets
import uuid
from datetime import datetime, timedelta

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language

MAX_TITLE = 60  # Evening.title
MAX_RULES_NAME = 40  # 老王家规矩: a name, not a description
MAX_BY = 40  # Change.by: who made a change
MAX_NOTE = 80  # RoundConfirmation.note: why a seat disputes a round
PHONE_PRESENT_SECONDS = 30  # RoundDraft.phones: a phone not seen for this long has left (its poll runs every second)


SEATS = 4  # a table has 3 or 4 players, in seats 0…3 (RULES R3); the columns are unsigned


def new_token() -> str:
    """An unguessable address: 24 random bytes (192 bits) as 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


MAX_TABLE_NAME = 40  # Table.name: 周五老王家
MAX_ALIASES = 12  # TablePlayer.aliases: other names one person was entered under


class Table(models.Model):
    """固定桌: the same friends, evening after evening. Like an evening, it has an address that can
    change it (`token`) and one that can only look (`read_token`); knowing the address is the
    permission, and nothing lists tables. Its season is read from its evenings' stored rounds.

    `stake`, `rules` and `rules_name` are what its next evening starts with until it has one
    (after that the latest evening's are)."""

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    read_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    name = models.CharField(max_length=MAX_TABLE_NAME)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    stake = models.DecimalField(max_digits=12, decimal_places=4, default=1)
    rules = models.JSONField(default=dict, blank=True,
                             help_text="RuleSet.to_dict() for a table's first evening; {} for 贵阳.")
    rules_name = models.CharField(max_length=MAX_RULES_NAME, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.CheckConstraint(condition=Q(stake__gt=0), name="table_stake_positive")]

    def __str__(self) -> str:
        return self.name


class TablePlayer(models.Model):
    """One person of a table's roster (名单): a name, and the other names the same person was
    entered under (王哥 = 老王). Each evening's seats point here (`Player.member`)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="roster")
    name = models.CharField(max_length=40)
    aliases = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["table", "id"]
        constraints = [models.UniqueConstraint(fields=["table", "name"], name="table_player_unique_name")]

    def __str__(self) -> str:
        return self.name

    def names(self) -> list[str]:
        return [self.name, *self.aliases]


class Evening(models.Model):
    """一晚: one table's evening. Its players, stake and rules are fixed when it starts (R41).

    `token` is the address that can change the evening; `read_token` is a second address that
    can only look. Neither is ever listed anywhere: knowing the address is the permission.
    """

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    read_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    title = models.CharField(max_length=MAX_TITLE, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    stake = models.DecimalField(max_digits=12, decimal_places=4)
    rules = models.JSONField(help_text="RuleSet.to_dict(): the preset and every option, in full.")
    rules_name = models.CharField(max_length=MAX_RULES_NAME, blank=True,
                                  help_text="What the table calls these rules (老王家规矩); copied with them.")
    first_dealer = models.PositiveSmallIntegerField()
    table = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="evenings",
                              help_text="The 固定桌 the evening belongs to, if any (one at most).")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(stake__gt=0), name="evening_stake_positive"),
            models.CheckConstraint(condition=Q(first_dealer__lt=SEATS), name="evening_first_dealer_seat"),
        ]

    def __str__(self) -> str:
        if self.title:
            return self.title
        when = timezone.localtime(self.created_at)
        if not (get_language() or "zh-hans").startswith("zh"):
            return date_format(when, "M j, H:i")  # Nov 30, 21:05
        return f"{when.month}月{when.day}日 {when:%H:%M}"


class Player(models.Model):
    """A seat at the evening's table (RULES R3: seats 0…N−1 in turn order)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    member = models.ForeignKey(TablePlayer, on_delete=models.SET_NULL, null=True, blank=True, related_name="seats",
                               help_text="Who of the table's roster sat here (the evening's table's).")

    class Meta:
        ordering = ["evening", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "seat"], name="player_unique_seat"),
            models.UniqueConstraint(fields=["evening", "name"], name="player_unique_name"),
            models.CheckConstraint(condition=Q(seat__lt=SEATS), name="player_seat_range"),
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    """一局: a stored round. `record` is the RULES §3 input, `settlement` the §6 output.

    `net` repeats the settlement's net (points per seat) so that totals can be summed without
    unpacking the items; services write both from the same Settlement. `version` grows by one on
    each correction and lets a correction based on an old version be refused (optimistic
    concurrency). `idempotency_key` is the hidden token of the form that recorded the round, so a
    second submit of that form finds this round instead of recording it twice.
    """

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    record = models.JSONField()
    settlement = models.JSONField()
    rules = models.JSONField()
    net = models.JSONField()
    dealer = models.PositiveSmallIntegerField()
    next_dealer = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField(default=1)
    idempotency_key = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["evening", "number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="round_unique_number"),
            models.UniqueConstraint(fields=["evening", "idempotency_key"], name="round_unique_idempotency_key"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(condition=Q(version__gte=1), name="round_version_positive"),
            models.CheckConstraint(condition=Q(dealer__lt=SEATS), name="round_dealer_seat"),
            models.CheckConstraint(condition=Q(next_dealer__lt=SEATS), name="round_next_dealer_seat"),
        ]

    def __str__(self) -> str:
        return f"#{self.number}"


class RoundStats(models.Model):
    """What a 固定桌's season counts of one round (`scoring.stats.round_stats` of its stored
    settlement), written whenever the round is stored or corrected and gone with it. A table of
    its own, narrow, so that a season reads thousands of these without reading the rounds' records
    and settlements (issue 24)."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, primary_key=True, related_name="season_stats")
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="round_stats")
    number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField()
    data = models.JSONField()

    class Meta:
        ordering = ["evening", "number"]
        indexes = [models.Index(fields=["evening", "number"])]

    def __str__(self) -> str:
        return f"stats #{self.number}"


class EveningStats(models.Model):
    """The evening's `RoundStats` added up by seat (`scoring.stats.evening_summary`), rewritten
    whenever one of its rounds is stored, corrected or deleted: a season reads one of these per
    evening, never its rounds (issue 24)."""

    evening = models.OneToOneField(Evening, on_delete=models.CASCADE, primary_key=True, related_name="season_stats")
    data = models.JSONField()

    def __str__(self) -> str:
        return f"stats of {self.evening_id}"


class Change(models.Model):
    """历史: one change to the evening's rounds (R42): what, when, who, before and after.

    `before` and `after` are whole round snapshots (record, settlement, rules, net, …) so that
    every state a round has been in can be read back, and a deleted round could be restored.
    """

    CREATED, CORRECTED, DELETED = "created", "corrected", "deleted"
    KINDS = [(CREATED, "记一局"), (CORRECTED, "改一局"), (DELETED, "删一局")]

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="changes")
    round_number = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=KINDS)
    at = models.DateTimeField(default=timezone.now)
    by = models.CharField(max_length=MAX_BY, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["evening", "at", "id"]
        indexes = [models.Index(fields=["evening", "round_number"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.round_number}"


class PaidTransfer(models.Model):
    """已付: a payment made at the table, one transfer of the settle-up as it stood then.

    A payment stays whatever rounds are recorded or corrected later: settle-up works on what each
    player still owes (the totals less the payments), so money handed over mid-evening is never
    asked for twice. The same transfer may be paid more than once in an evening.
    """

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="paid_transfers")
    payer = models.PositiveSmallIntegerField()
    payee = models.PositiveSmallIntegerField()
    points = models.PositiveIntegerField()
    paid_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["evening", "paid_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(payer=models.F("payee")), name="paid_transfer_two_seats"),
            models.CheckConstraint(condition=Q(payer__lt=SEATS, payee__lt=SEATS),
                                   name="paid_transfer_seats"),
            models.CheckConstraint(condition=Q(points__gt=0), name="paid_transfer_points_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.payer}→{self.payee} {self.points}"


class RoundDraft(models.Model):
    """录入中: the evening's next round while the table types it in, on the server so that no
    reload, Back, dropped tab or second phone loses what was typed.

    `data` holds the round form's fields as the form posts them (field name → list of values);
    `fields` says per field at which `version` it was last written, by which page (`client`, a
    random id per opened page) and whose phone (`by`, the 我是… name), so that several phones can
    merge per field and hear when two of them changed the same one. `version` grows by one with
    every save that changed something. `idempotency_key` is the key the round will be recorded
    under: every phone submits the draft with it, so the draft becomes at most one round, and
    recording it deletes the draft (`services.rounds.round_record`). One draft per evening.

    `correcting`: a draft of 改这局 on the stored round of that number, shared by the phones the
    same way (one per round); saving the correction or throwing it away deletes it, and so does
    deleting its round. None: the evening's next round.
    """

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="drafts")
    idempotency_key = models.UUIDField(default=uuid.uuid4)
    data = models.JSONField(default=dict)
    fields = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    confirmations = models.JSONField(default=dict, help_text="seat → {verdict, note, digest, by}: "
                                     "a seat's word on the draft as it scored then; `by` is the "
                                     "phone that pressed it for a seat without a phone of its own")
    phones = models.JSONField(default=dict, help_text="seat → {by, at}: the phones that said whose "
                              "they are and opened, wrote or polled this draft (`at`, last seen); while "
                              "one is present no other phone confirms for its seat")
    correcting = models.PositiveIntegerField(null=True, blank=True, help_text="改这局: the number of the "
                                             "stored round this draft corrects; empty for the next round")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["evening"], condition=Q(correcting__isnull=True),
                                    name="round_draft_one_per_evening"),
            models.UniqueConstraint(fields=["evening", "correcting"], condition=Q(correcting__isnull=False),
                                    name="round_draft_one_per_correction"),
        ]

    def __str__(self) -> str:
        return f"draft v{self.version}"

    def has_phone(self, seat: int, now=None) -> bool:
        """Whether the phone of `seat` is at this round: it said whose it is and was seen (opened,
        wrote or polled this draft) in the last PHONE_PRESENT_SECONDS. A phone that left (its tab
        closed, the phone put away) stops counting, so another phone may press for that seat (代按)."""
        phone = self.phones.get(str(seat))
        if not phone:
            return False
        try:
            seen = datetime.fromisoformat(phone.get("at", ""))
        except (TypeError, ValueError):
            return False
        return (now or timezone.now()) - seen <= timedelta(seconds=PHONE_PRESENT_SECONDS)


class RoundConfirmation(models.Model):
    """确认 / 有异议: one seat's word on a round's settlement, from that seat's phone, or pressed
    for it by another phone (`by`, 代按) when the seat has no phone of its own.

    Saving a round never waits for these; the round keeps them, its page, the evening's list and
    the report show them, and a correction that changes the round moves them into that
    correction's history (`Change.before["confirmations"]`): what was confirmed is no longer
    what the round says, and the table is asked again."""

    CONFIRMED, DISPUTED = "confirmed", "disputed"
    VERDICTS = [(CONFIRMED, "确认"), (DISPUTED, "有异议")]

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="confirmations")
    seat = models.PositiveSmallIntegerField()
    verdict = models.CharField(max_length=10, choices=VERDICTS)
    note = models.CharField(max_length=MAX_NOTE, blank=True)
    at = models.DateTimeField(default=timezone.now)
    by = models.CharField(max_length=MAX_BY, blank=True,
                          help_text="代按: who pressed it for a seat without a phone; blank when the seat's own phone did")
    own = models.BooleanField(default=False, help_text="Given by a phone that said it is this seat (我是…): no other "
                                                        "phone's 代按 replaces it. A phone that never said who it is "
                                                        "leaves a blank `by` too, so `by` cannot tell.")

    class Meta:
        ordering = ["round", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="round_confirmation_one_per_seat"),
            models.CheckConstraint(condition=Q(seat__lt=SEATS), name="round_confirmation_seat"),
            models.CheckConstraint(condition=Q(verdict__in=["confirmed", "disputed"]),
                                   name="round_confirmation_verdict"),
        ]

    def __str__(self) -> str:
        return f"{self.round} seat {self.seat} {self.verdict}"
