"""录入一局: the round-entry form as one object, from the POST to the record and its problems.

`RoundEntry` binds the Django forms of `calculator.forms` (the round, and per seat its fields and
meld rows), builds the round record from them (`entry.record`), asks scoring to check
and settle it, and puts each problem, in plain words, in the slot of the page it concerns: a
seat's hand, its melds, its other fields, or the round's settings, outcome and chickens. Each
seat's forms, slots and live preview are a `SeatEntry` (`entry.seats`).
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.forms.formsets import INITIAL_FORM_COUNT, TOTAL_FORM_COUNT
from django.http import QueryDict
from django.utils.translation import gettext

from .record import melds_initial, round_initial, round_record, seat_draft, seat_initial
from .forms import MAX_MELDS, MeldForm, MeldFormSet, RoundForm, SeatForm, clean_notation
from ..presentation import ALL_TILE_CHIPS, TileChip, preset_title, problem_message
from ..scoring import (
    PRESETS, SEAT_NAMES, Problem, RecordInvalid, RuleSet, Settlement, TableFacts, TileSyntaxError, check,
    parse_tiles, settle,
)
from .seats import SeatEntry, SeatPreview, Slot, seat_preview
from .shortcuts import Button, Shortcuts, shortcuts, winner_buttons


class RoundEntry:
    """The whole round-entry form: one `RoundForm`, and per seat a `SeatForm` and a `MeldFormSet`.

    ``RoundEntry(data=None, *, players=4, names=None, rules=None, stake=None, dealer=None,
    initial=None, prefix=None, live=False, draft=False, facts=None)``

    - `data`: request.POST (bound) or None. Field names: ``[prefix-]stake``, ``[prefix-]seat0-concealed``,
      ``[prefix-]seat0-melds-0-kind``… (tests/round_form_data.py turns a record into such data).
    - `players`: 3 or 4 (ignored when `names` or `initial` say otherwise).
    - `names`, `rules` (a scoring RuleSet), `stake` (Decimal): when given, the table fixed them (an
      evening): the name, preset/options and stake fields are neither shown nor editable.
    - `dealer`: the dealer to start from (still editable).
    - `facts`: what the table knows of the round (连庄 so far, the day it is played: a scoring
      `TableFacts`), so that the preview scores the round as the ledger will store it.
    - `initial`: a round record dict (RULES §3) to pre-fill, e.g. to correct a stored round.
    - `prefix`: prefixes every field name, for more than one entry on a page.
    - `live`: the htmx preview while typing: a seat with no tiles yet is "待输入", not an error;
      a hand still being tapped in (short of its count) shows its count, not the red problem;
      the submit reports it. The preview binds the same forms as the submit: that costs 2–3 ms
      a preview (measured: 6.8 ms → about 9 ms a request), which no longer earned a second,
      hand-kept copy of Django's cleaning (issue 22).
    - `draft`: a bound entry drawn back as entered, not submitted (back from the result page to
      change something, or the table switched between four and three players): its forms are
      drawn and it is judged as leniently as the live preview. Its data is first fitted to
      `players`: seats beyond the table are dropped, with every choice of such a seat (dealer,
      winner, discarder, meld source), and a seat the data lacks starts empty.

    After `is_valid()`:
    - `record`: the validated record dict in the canonical RULES §3 shape (sorted notation, every
      key present, `options` only where they differ from the preset); None when invalid.
    - `settlement`: the scoring `Settlement`, or None.
    - `seat_previews`: per seat a `SeatPreview` (tile count, standing: status, pattern, waits; and
      the seat's problems).
    - `non_seat_problems`: messages about the round as a whole (rules, outcome, chickens, tiles).
    - `slots`: every problem slot (seat and round), for templates and the htmx preview.
    Templates: include ``calculator/partials/_entry_form.html`` with ``entry``, ``action`` (the form's
    POST URL) and optionally ``preview_url``, ``submit_label``, ``hidden_fields``; the preview view renders
    ``calculator/partials/_entry_preview.html`` with ``entry`` (out-of-band swaps of the same partials).
    """

    def __init__(self, data=None, *, players: int = 4, names: list[str] | None = None, rules: RuleSet | None = None,
                 stake: Decimal | None = None, dealer: int | None = None, initial: dict | None = None,
                 prefix: str | None = None, live: bool = False, draft: bool = False, facts: TableFacts | None = None):
        self.is_bound = data is not None
        self.prefix = prefix
        self.dom_prefix = prefix or "entry"
        self.live = live
        self.draft = draft and self.is_bound
        self.fixed_rules, self.fixed_stake, self.fixed_names = rules, stake, list(names) if names else None
        self.facts = facts
        if self.fixed_names:
            players = len(self.fixed_names)
        elif initial:
            players = len(initial.get("seats") or ())
        self.players = players if players in (3, 4) else 4
        self.data = self._fitted(data) if self.draft else data
        initial = initial or {}
        self.names = self._names(initial)
        self.fixed_fields = RoundForm.fixed_fields(fixed_rules=rules is not None, fixed_stake=stake is not None)
        self.round_form = RoundForm(self.data, prefix=prefix, initial=round_initial(initial, dealer),
                                    names=self.names, fixed_rules=rules is not None,
                                    fixed_stake=stake is not None, rules=rules)
        self.seats = [self._seat_entry(i, (initial.get("seats") or [{}] * self.players)[i], initial)
                      for i in range(self.players)]
        self.slots_round = {area: Slot(f"{self.dom_prefix}-{area}-problems")
                            for area in ("rules", "outcome", "chickens", "general")}
        self._cleaned = False
        self._record: dict | None = None
        self._settlement: Settlement | None = None
        self._meld_rows: list[list[int]] = [[] for _ in range(self.players)]

    # -- construction -------------------------------------------------------------------------

    def _key(self, name: str) -> str:
        return f"{self.prefix}-{name}" if self.prefix else name

    def seat_prefix(self, index: int) -> str:
        return self._key(f"seat{index}")

    def _fitted(self, data) -> QueryDict:
        """A draft's data fitted to this table (see `draft`), as a new QueryDict."""
        fitted = QueryDict(mutable=True)
        items = data.lists() if hasattr(data, "lists") else (
            (key, value if isinstance(value, list) else [value]) for key, value in data.items())
        gone = tuple(f"{self.seat_prefix(i)}-" for i in range(self.players, len(SEAT_NAMES)))
        for key, values in items:
            if not key.startswith(gone):
                fitted.setlist(key, list(values))
        seats = {str(i) for i in range(self.players)}
        choices = [self._key(name) for name in RoundForm.seat_fields] + [
            f"{self.seat_prefix(i)}-melds-{row}-{name}"
            for i in range(self.players) for row in range(MAX_MELDS) for name in MeldForm.seat_fields]
        for key in choices:
            if key in fitted:
                kept = [value for value in fitted.getlist(key) if value in seats]
                fitted.pop(key)
                if kept:
                    fitted.setlist(key, kept)
        if self._key("dealer") not in fitted:
            fitted[self._key("dealer")] = "0"
        for i in range(self.players):
            melds = f"{self.seat_prefix(i)}-melds"
            if f"{melds}-{TOTAL_FORM_COUNT}" not in fitted:  # a seat just added: its empty meld rows
                fitted[f"{melds}-{TOTAL_FORM_COUNT}"] = str(MAX_MELDS)
                fitted[f"{melds}-{INITIAL_FORM_COUNT}"] = "0"
        return fitted

    def _names(self, initial: dict) -> list[str]:
        if self.fixed_names:
            return self.fixed_names
        seats = initial.get("seats") or []
        names = []
        for i in range(self.players):
            name = ""
            if self.is_bound:
                name = str(self.data.get(f"{self.seat_prefix(i)}-name", "")).strip()[:40]
            elif i < len(seats):
                name = seats[i].get("name") or ""
            names.append(name or SEAT_NAMES[i])
        return names

    def _seat_entry(self, index: int, seat: dict, record: dict) -> SeatEntry:
        prefix = self.seat_prefix(index)
        return SeatEntry(
            index=index,
            name=self.names[index],
            prefix=prefix,
            form=SeatForm(self.data, prefix=prefix, initial=seat_initial(seat, index, record),
                          fixed_name=self.fixed_names is not None),
            melds=MeldFormSet(self.data, prefix=f"{prefix}-melds", initial=melds_initial(seat) or None,
                              form_kwargs={"names": self.names, "seat": index}),
            hand_slot=Slot(f"{self.dom_prefix}-seat{index}-hand-problems"),
            meld_slot=Slot(f"{self.dom_prefix}-seat{index}-melds-problems"),
            extra_slot=Slot(f"{self.dom_prefix}-seat{index}-extra-problems"),
        )

    # -- validation ---------------------------------------------------------------------------

    def _cleaned_data(self) -> tuple[dict, list[tuple[dict, list[tuple[int, dict]]]]] | None:
        """The round's cleaned fields, and per seat its own and its filled meld rows' as (row,
        cleaned data); None when a value is not one the page offers."""
        forms = [self.round_form, *(form for seat in self.seats for form in (seat.form, seat.melds))]
        if not all([form.is_valid() for form in forms]):  # a list: validate every form
            return None
        return self.round_form.cleaned_data, [
            (seat.form.cleaned_data, [(form.row, form.cleaned_data) for form in seat.melds.forms])
            for seat in self.seats]

    def is_valid(self) -> bool:
        self.full_clean()
        return self._record is not None

    def full_clean(self) -> None:
        if self._cleaned:
            return
        self._cleaned = True
        if not self.is_bound:
            return
        cleaned = self._cleaned_data()
        if cleaned is None:
            self._add(None, "general", gettext("有的选项不认识，请重新选一下。"))
            return
        round_data, seats = cleaned
        own_outcome = self._check_outcome_shape(round_data, quiet=self._still_typing(seats))
        draft = self._build_record(round_data, seats)
        try:
            record, hands = check(draft)
        except RecordInvalid as invalid:
            for problem in invalid.problems:
                if not (own_outcome and (problem.field or "").startswith("outcome")):
                    self._place(problem)
            return
        if not self.has_problems and not own_outcome:
            self._record = draft
            self._settlement = settle(record, hands)

    def _still_typing(self, seats: list[tuple[dict, list[tuple[int, dict]]]]) -> bool:
        """While the page is typed in (live preview, draft), some hand is still under 13 tiles:
        the page asks for the hands first and who won after, so it does not ask yet."""
        if not (self.live or self.draft):
            return False
        for own, melds in seats:
            if own.get("mei_jiao"):
                continue  # 没叫（没亮牌）: nothing more to type for this seat
            try:
                tiles = len(parse_tiles(clean_notation(own["concealed"])))
            except TileSyntaxError:
                continue  # the seat says 写法不对 itself
            if tiles + 3 * sum(1 for _row, meld in melds if meld.get("kind") and meld.get("tile")) < 13:
                return True
        return False

    def _check_outcome_shape(self, data: dict, *, quiet: bool = False) -> bool:
        """The form's own questions before scoring's: did they say who won, on what, from whom.
        `quiet`: find the answer (the round cannot be settled without it) but ask nothing yet."""
        add = (lambda *args: None) if quiet else self._add
        found = False
        if data["result"] != "draw":
            if not data["winners"]:
                add(None, "outcome", gettext("选一下谁胡了（没人胡就选“荒庄”）。"))
                found = True
            if not data["win_tile"]:
                add(None, "outcome", gettext("选一下胡的是哪张牌。"))
                found = True
            if data["result"] == "discard" and data["from_seat"] is None:
                add(None, "outcome", gettext("选一下谁点的炮（自己摸的就选“自摸”）。"))
                found = True
        if data["first_yaoji_claimed_by"] is not None and data["first_yaoji_seat"] is None:
            add(None, "chickens", gettext("先选第一张幺鸡是谁打出的。"))
        if data.get("first_wu_gu_ji_claimed_by") is not None and data.get("first_wu_gu_ji_seat") is None:
            add(None, "chickens", gettext("先选第一张 8筒 是谁打出的。"))
        return found

    @property
    def has_problems(self) -> bool:
        return any(slot.messages for slot in self.slots)

    def _add(self, seat: int | None, area: str, message: str) -> None:
        if seat is None:
            slot = self.slots_round[area]
        else:
            entry = self.seats[seat]
            slot = {"hand": entry.hand_slot, "melds": entry.meld_slot}.get(area, entry.extra_slot)
        slot.messages.append(message)

    def _place(self, problem: Problem) -> None:
        """Map a scoring Problem to the slot next to the field it concerns."""
        message = problem_message(problem)
        seat, name = problem.seat, (problem.field or "")
        if seat is not None and not 0 <= seat < self.players:
            seat = None
        head = name.split(".")[0]
        if seat is not None and head in ("concealed", "seat", ""):
            self._add(seat, "hand", message)
        elif seat is not None and head == "melds":
            self._add(seat, "melds", self._meld_label(seat, name) + message)
        elif seat is not None and head in SeatForm.base_fields:  # 打出的鸡, 报听, 相公, 没叫, any switch
            self._add(seat, "extra", message)
        else:
            area = {"outcome": "outcome", "first_yaoji": "chickens", "first_wu_gu_ji": "chickens",
                    "turned": "chickens", "preset": "rules",
                    "options": "rules", "stake": "rules", "dealer": "rules"}.get(head)
            if area is None:  # the round's record switches are drawn on the outcome card (开局跟 …)
                area = "outcome" if head in RoundForm.record_switches else "general"
            if seat is not None and self.names[seat] not in message:
                message = f"{self.names[seat]}：{message}"
            self._add(None, area, message)

    def _meld_label(self, seat: int, name: str) -> str:
        """"第 2 个副露：" for a problem with one meld (`melds.N` counts only filled rows)."""
        parts = name.split(".")
        if len(parts) == 2 and parts[1].isdigit() and int(parts[1]) < len(self._meld_rows[seat]):
            return gettext("第 {n} 个副露：").format(n=self._meld_rows[seat][int(parts[1])] + 1)
        return ""

    # -- the record ---------------------------------------------------------------------------

    def _build_record(self, round_data: dict, seats_data: list[tuple[dict, list[tuple[int, dict]]]]) -> dict:
        """The RULES §3 record from the cleaned fields."""
        seats = []
        for seat, (own, melds) in zip(self.seats, seats_data):
            draft = seat_draft(seat.name, own, melds)
            self._meld_rows[seat.index] = draft.meld_rows
            for message in draft.problems:
                self._add(seat.index, "melds", message)
            seats.append(draft.record)
        return round_record(round_data, seats, rules=self.fixed_rules, stake=self.fixed_stake, facts=self.facts)

    # -- results for templates and callers ----------------------------------------------------

    @property
    def record(self) -> dict | None:
        self.full_clean()
        return self._record

    @property
    def settlement(self) -> Settlement | None:
        self.full_clean()
        return self._settlement

    @property
    def slots(self) -> list[Slot]:
        self.full_clean()
        return [*self.slots_round.values(), *(slot for seat in self.seats for slot in seat.slots)]

    @property
    def non_seat_problems(self) -> list[str]:
        self.full_clean()
        return [m for slot in self.slots_round.values() for m in slot.messages]

    def _shown_slots(self) -> list[Slot]:
        """The problem slots the page shows, in its order: while typing, an untouched or short
        hand's count is not shown as a problem."""
        self.full_clean()
        seat_slots = [slot for seat, preview in zip(self.seats, self.seat_previews) for slot in seat.slots
                      if slot is not seat.hand_slot or preview.problems]
        return [self.slots_round["rules"], self.slots_round["outcome"], *seat_slots,
                self.slots_round["chickens"], self.slots_round["general"]]

    @property
    def problem_count(self) -> int:
        return sum(len(slot.messages) for slot in self._shown_slots())

    @property
    def first_problem_id(self) -> str | None:
        """Where the first problem shown is, for the net bar's "还有 N 处要改" to take the thumb
        there (the page can be 2,000 px long)."""
        return next((slot.dom_id for slot in self._shown_slots() if slot.messages), None)

    @property
    def rules(self) -> RuleSet:
        if self.fixed_rules is not None:
            return self.fixed_rules
        preset = self._value("preset") or "guiyang"
        return PRESETS.get(preset, PRESETS["guiyang"])

    @property
    def rules_label(self) -> str:
        return preset_title(self.rules.preset)

    def _value(self, name: str) -> Any:
        """A round-form field's current value (bound data, else initial)."""
        if name in self.fixed_fields:
            return None
        return self.round_form[name].value()

    @property
    def seat_cards(self) -> list[SeatEntry]:
        """The seats, each with its preview computed: what templates iterate."""
        self.seat_previews
        return self.seats

    @property
    def swap_slots(self) -> list[Slot]:
        """The problem slots the htmx preview swaps on its own (hand slots live in the seat preview)."""
        inside = [seat.hand_slot for seat in self.seats] + [self.slots_round["general"]]
        return [slot for slot in self.slots if not any(slot is other for other in inside)]

    @property
    def shortcuts(self) -> Shortcuts:
        """The one-tap answers the outcome card offers (热炮, 抢杠, the first 幺鸡's claim)."""
        if getattr(self, "_shortcuts", None) is None:
            self._shortcuts = shortcuts(self)
        return self._shortcuts

    @property
    def winner_buttons(self) -> list[Button]:
        return winner_buttons(self)

    @property
    def keyboard_tiles(self) -> list[TileChip]:
        return ALL_TILE_CHIPS

    @property
    def seat_previews(self) -> list[SeatPreview]:
        self.full_clean()
        if self.seats[0].preview is None:
            won = self._value("result") in ("discard", "self_draw")
            winners = {str(w) for w in (self._value("winners") or [])}
            undecided = self._value("result") != "draw" and not winners
            for seat in self.seats:
                seat.preview = seat_preview(
                    seat, dom_id=f"{self.dom_prefix}-seat{seat.index}-preview", rules=self.rules,
                    is_winner=won and str(seat.index) in winners,
                    win_tile=str(self._value("win_tile") or ""), undecided=undecided,
                    live=self.live, lenient=self.live or self.draft)
        return [seat.preview for seat in self.seats]

    @property
    def hidden_data(self) -> list[tuple[str, str]]:
        """The bound data as (name, value) pairs, to carry the round to the result page's 修改 button."""
        if not self.is_bound:
            return []
        items = self.data.lists() if hasattr(self.data, "lists") else (
            (key, value if isinstance(value, list) else [value]) for key, value in self.data.items())
        return [(key, str(value)) for key, values in items for value in values
                if key not in ("csrfmiddlewaretoken", "edit")]

    @property
    def fields_editable(self) -> dict[str, bool]:
        return {"rules": self.fixed_rules is None, "stake": self.fixed_stake is None,
                "names": self.fixed_names is None}
