"""录入一局: the forms that collect one round record (RULES §3).

Forms hold input shape only. Whether the round is legal is scoring's question: `RoundEntry`
builds the record dict, asks `scoring.check`, and puts each `Problem` (in plain words, through
`problem_message`) in the slot of the page it concerns: a seat's hand, its melds, its other
fields, or the round's settings, outcome and chickens.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Column, Field, Layout, Row
from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .presentation import (
    ALL_TILE_CHIPS, TILE_NAMES, Standing, TileChip, hand_standing, problem_message, tile_chips,
)
from .scoring import (
    PRESET_HANZI, PRESETS, SEAT_NAMES, Problem, RecordInvalid, RuleSet, Settlement, Tile, TileSyntaxError,
    check, format_tiles, parse_tile, parse_tiles, settle,
)

TILE_CHOICES = [  # 1万 … 9条, or 1-character … 9-bamboo in English
    (suit_name, [(f"{rank}{suit}", format_lazy(TILE_NAMES[suit], rank=rank)) for rank in range(1, 10)])
    for suit, suit_name in (("m", _("万")), ("p", _("筒")), ("s", _("条")))
]
MELD_CHOICES = [("", "—"), ("pong", _("碰")), ("men", _("闷豆")), ("zhuanwan", _("转弯豆")), ("dian", _("点豆"))]
RESULT_CHOICES = [("discard", _("点炮")), ("self_draw", _("自摸")), ("draw", _("荒庄"))]
DECLARED_CHOICES = [("", _("没报")), ("hard", _("硬报")), ("soft", _("软报"))]
MAX_MELDS = 4
# Typed notation may use the tiles' own names: 5万 = 5m, 3筒/饼 = 3p, 7条/索 = 7s.
NOTATION_ALIASES = str.maketrans({"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s",
                                  "索": "s", "M": "m", "P": "p", "S": "s", ",": " ", "，": " "})


def _switch(label) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False,
                              widget=forms.CheckboxInput(attrs={"class": "form-check-input", "role": "switch"}))


def _tile_field(label, blank, **kw) -> forms.ChoiceField:
    # Callable choices: every form deep-copies its fields, and deep-copying these 28 grouped
    # choices was the largest cost of the live preview, which makes 16 meld forms per change.
    return forms.ChoiceField(label=label, required=False, choices=lambda: [("", blank), *TILE_CHOICES], **kw)


MAX_NOTATION = 100  # 14 tiles typed one by one with names and spaces ("1万 2万 …") is about 50


def _notation(label, **kw) -> forms.CharField:
    attrs = {"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false", "class": "tile-notation"}
    return forms.CharField(label=label, required=False, max_length=MAX_NOTATION,
                           widget=forms.TextInput(attrs=attrs), **kw)


def _helper(*layout, show_labels: bool = True) -> FormHelper:
    """A crispy helper for a form rendered inside the page's one <form> (no tag, no CSRF of its own).

    The forms build it on first use (`cached_property`): the live preview makes 21 forms per
    change and renders none of them, and building their layouts was an eighth of its time."""
    helper = FormHelper()
    helper.form_tag = False
    helper.disable_csrf = True
    helper.form_show_labels = show_labels
    helper.layout = Layout(*layout)
    return helper


def _seat_choices(names: list[str], blank: str | None = None) -> list[tuple[Any, str]]:
    choices = [(i, name) for i, name in enumerate(names)]
    return [("", blank), *choices] if blank is not None else choices


class RoundForm(forms.Form):
    """The round-level fields: rules, stake, dealer, the outcome and the chicken facts."""

    preset = forms.ChoiceField(label=_("规则"), choices=[(key, _(name)) for key, name in PRESET_HANZI.items()],
                               initial="guiyang")
    jian_dou_san = _switch(_("见豆三（每个豆都算 3）"))
    stake = forms.CharField(label=_("底注"), initial="1", max_length=20,
                            widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}))
    dealer = forms.TypedChoiceField(label=_("庄家"), coerce=int, initial=0)
    result = forms.ChoiceField(label=_("怎么结束的"), choices=RESULT_CHOICES, initial="discard",
                               widget=forms.RadioSelect(attrs={"class": "btn-check"}))
    winners = forms.TypedMultipleChoiceField(label=_("谁胡了"), coerce=int, required=False,
                                             widget=forms.CheckboxSelectMultiple(attrs={"class": "btn-check"}))
    win_tile = _tile_field(_("胡的哪张"), _("选牌"))
    from_seat = forms.TypedChoiceField(label=_("谁点的炮"), coerce=int, empty_value=None, required=False)
    hot_kong = _tile_field(_("热炮：点炮的人刚杠了"), _("不是热炮"))
    robbed = _switch(_("抢杠（胡的是点炮家补杠的牌）"))
    after_kong = _switch(_("杠上开花"))
    passed_before = _switch(_("过水（胡牌的人漏胡过，包牌）"))
    turned = _tile_field(_("翻牌"), _("没有翻牌"))
    first_yaoji_seat = forms.TypedChoiceField(label=_("第一张幺鸡谁打的"), coerce=int, empty_value=None,
                                              required=False)
    first_yaoji_claimed_by = forms.TypedChoiceField(label=_("谁碰或杠了它"), coerce=int, empty_value=None,
                                                    required=False)

    def __init__(self, *args, names: list[str], fixed_rules: bool, fixed_stake: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if fixed_rules:
            del self.fields["preset"], self.fields["jian_dou_san"]
        if fixed_stake:
            del self.fields["stake"]
        self.fields["dealer"].choices = _seat_choices(names)
        self.fields["winners"].choices = _seat_choices(names)
        self.fields["from_seat"].choices = _seat_choices(names, gettext("选人"))
        self.fields["first_yaoji_seat"].choices = _seat_choices(names, gettext("没人打出幺鸡"))
        self.fields["first_yaoji_claimed_by"].choices = _seat_choices(names, gettext("没人碰杠"))

    @cached_property
    def helper(self) -> FormHelper:
        return _helper(*self.fields)


class SeatForm(forms.Form):
    """One seat: its name, concealed tiles (notation), chicken discards, 报听 and 相公."""

    name = forms.CharField(label=_("名字"), required=False, max_length=40)
    concealed = _notation(_("手牌"))
    discards = _notation(_("打出没人要的鸡"))
    declared = forms.ChoiceField(label=_("报听"), required=False, choices=DECLARED_CHOICES)
    xiang_gong = _switch(_("相公（牌数不对）"))

    def __init__(self, *args, fixed_name: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if fixed_name:
            del self.fields["name"]

    @cached_property
    def helper(self) -> FormHelper:
        head = [name for name in ("name", "concealed", "discards") if name in self.fields]
        return _helper(*head, Row(Column("declared"), Column("xiang_gong")))


class MeldForm(forms.Form):
    """One meld: 碰 or one of the three 豆, its tile, whose discard it took, and 憨包豆."""

    kind = forms.ChoiceField(label=_("副露"), required=False, choices=MELD_CHOICES)
    tile = _tile_field(_("牌"), _("哪张"))
    from_seat = forms.TypedChoiceField(label=_("谁打的"), coerce=int, empty_value=None, required=False)
    late = forms.BooleanField(label=_("憨包豆"), required=False)

    def __init__(self, *args, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["from_seat"].choices = _seat_choices(names, gettext("谁打的"))

    @cached_property
    def helper(self) -> FormHelper:
        return _helper(Row(*(Column(Field(name)) for name in self.fields)), show_labels=False)


# Four rows per seat (a seat has at most four melds); pre-filled rows count towards the four.
MeldFormSet = forms.formset_factory(MeldForm, extra=MAX_MELDS, max_num=MAX_MELDS, validate_max=True,
                                    absolute_max=MAX_MELDS)


@dataclass
class Slot:
    """A place on the page where problems show, and the messages for it."""

    dom_id: str
    messages: list[str] = field(default_factory=list)


@dataclass
class SeatPreview:
    """What the page says about one seat while it is entered (also the htmx preview)."""

    seat: int
    name: str
    dom_id: str
    input_id: str  # the concealed-tiles input the tile keyboard writes to
    problems_id: str
    chips: list[TileChip]
    discard_chips: list[TileChip]
    tiles: int | None  # None while the notation does not parse
    expected: int
    standing: Standing
    problems: list[str]  # the hand's own problems, shown under it
    is_dealer: bool
    is_winner: bool
    has_problems: bool  # anywhere on this seat's card

    @property
    def count_text(self) -> str:
        return f"{'?' if self.tiles is None else self.tiles}/{self.expected}"

    @property
    def count_ok(self) -> bool:
        return self.tiles == self.expected


@dataclass
class SeatEntry:
    """One seat's forms and where its problems go. Templates iterate `entry.seat_cards`."""

    index: int
    name: str
    form: SeatForm
    melds: Any  # MeldFormSet
    hand_slot: Slot  # shown inside the seat's preview, under its tiles
    meld_slot: Slot
    extra_slot: Slot
    preview: SeatPreview | None = None

    @property
    def slots(self) -> tuple[Slot, Slot, Slot]:
        return self.hand_slot, self.meld_slot, self.extra_slot

    @property
    def wind(self) -> str:
        return SEAT_NAMES[self.index]

    @property
    def meld_summary(self) -> str:
        """The melds as entered, e.g. "闷豆 9筒 · 碰 1条", for the collapsed meld list."""
        labels = dict(MELD_CHOICES)
        tiles = {code: name for _suit, group in TILE_CHOICES for code, name in group}
        parts = [f"{labels[kind]} {tiles[tile]}" for kind, tile in
                 ((form["kind"].value(), form["tile"].value()) for form in self.melds.forms)
                 if kind in labels and kind and tile in tiles]
        return " · ".join(parts)

    @property
    def has_melds(self) -> bool:
        return bool(self.meld_summary)


def _clean_notation(text: str) -> str:
    """Typed notation in the form scoring reads; sorted (R2) when it parses, as typed when not."""
    text = (text or "").translate(NOTATION_ALIASES).strip()
    try:
        return format_tiles(parse_tiles(text))
    except TileSyntaxError:
        return text


def _tiles_or_none(text: str) -> list[Tile] | None:
    try:
        return parse_tiles(text)
    except TileSyntaxError:
        return None


class RoundEntry:
    """The whole round-entry form: one `RoundForm`, and per seat a `SeatForm` and a `MeldFormSet`.

    ``RoundEntry(data=None, *, players=4, names=None, rules=None, stake=None, dealer=None,
    initial=None, prefix=None, live=False)``

    - `data`: request.POST (bound) or None. Field names: ``[prefix-]stake``, ``[prefix-]seat0-concealed``,
      ``[prefix-]seat0-melds-0-kind``… (tests/round_form_data.py turns a record into such data).
    - `players`: 3 or 4 (ignored when `names` or `initial` say otherwise).
    - `names`, `rules` (a scoring RuleSet), `stake` (Decimal): when given, the table fixed them (an
      evening): the name, preset/options and stake fields are neither shown nor editable.
    - `dealer`: the dealer to start from (still editable).
    - `initial`: a round record dict (RULES §3) to pre-fill, e.g. to correct a stored round.
    - `prefix`: prefixes every field name, for more than one entry on a page.
    - `live`: the htmx preview while typing: a seat with no tiles yet is "待输入", not an error.

    After `is_valid()`:
    - `record`: the validated record dict in the canonical RULES §3 shape (sorted notation, every
      key present, `options` only where they differ from the preset); None when invalid.
    - `settlement`: the scoring `Settlement`, or None.
    - `seat_previews`: per seat a `SeatPreview` (tile count, standing: status, pattern, waits; and
      the seat's problems).
    - `non_seat_problems`: messages about the round as a whole (rules, outcome, chickens, tiles).
    - `slots`: every problem slot (seat and round), for templates and the htmx preview.
    Templates: include ``calculator/partials/_round_form.html`` with ``entry``, ``action`` (the form's
    POST URL) and optionally ``preview_url``, ``submit_label``, ``hidden_fields``; the preview view renders
    ``calculator/partials/_round_preview.html`` with ``entry`` (out-of-band swaps of the same partials).
    """

    def __init__(self, data=None, *, players: int = 4, names: list[str] | None = None, rules: RuleSet | None = None,
                 stake: Decimal | None = None, dealer: int | None = None, initial: dict | None = None,
                 prefix: str | None = None, live: bool = False):
        self.data = data
        self.is_bound = data is not None
        self.prefix = prefix
        self.dom_prefix = prefix or "entry"
        self.live = live
        self.fixed_rules, self.fixed_stake, self.fixed_names = rules, stake, list(names) if names else None
        if self.fixed_names:
            players = len(self.fixed_names)
        elif initial:
            players = len(initial.get("seats") or ())
        self.players = players if players in (3, 4) else 4
        initial = initial or {}
        self.names = self._names(initial)
        round_initial = self._round_initial(initial, dealer)
        self.round_form = RoundForm(data, prefix=prefix, initial=round_initial, names=self.names,
                                    fixed_rules=rules is not None, fixed_stake=stake is not None)
        self.seats = [self._seat_entry(i, (initial.get("seats") or [{}] * self.players)[i])
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

    def _round_initial(self, record: dict, dealer: int | None) -> dict:
        data: dict[str, Any] = {"dealer": dealer if dealer is not None else record.get("dealer", 0)}
        if not record:
            return data
        outcome = record.get("outcome") or {}
        winners = outcome.get("winners") or []
        first = record.get("first_yaoji") or {}
        data.update({
            "preset": record.get("preset", "guiyang"),
            "jian_dou_san": bool((record.get("options") or {}).get("jian_dou_san")),
            "stake": record.get("stake", "1"),
            "turned": record.get("turned") or "",
            "first_yaoji_seat": first.get("seat"),
            "first_yaoji_claimed_by": first.get("claimed_by"),
            "result": ("draw" if outcome.get("type") == "draw"
                       else "self_draw" if outcome.get("from") is None else "discard"),
            "winners": [w.get("seat") for w in winners],
            "win_tile": winners[0].get("tile", "") if winners else "",
            "from_seat": outcome.get("from"),
            "hot_kong": outcome.get("hot_kong") or "",
            "robbed": bool(outcome.get("robbed")),
            "after_kong": bool(outcome.get("after_kong")),
            "passed_before": any(w.get("passed_before") for w in winners),
        })
        return data

    def _seat_entry(self, index: int, seat: dict) -> SeatEntry:
        prefix = self.seat_prefix(index)
        seat_initial = {
            "name": seat.get("name", SEAT_NAMES[index]),
            "concealed": seat.get("concealed", ""),
            "discards": seat.get("discards", ""),
            "declared": seat.get("declared") or "",
            "xiang_gong": bool(seat.get("xiang_gong")),
        }
        melds_initial = [
            {"kind": m.get("kind") if m.get("type") == "kong" else m.get("type"), "tile": m.get("tile"),
             "from_seat": m.get("from"), "late": bool(m.get("late"))}
            for m in (seat.get("melds") or [])[:MAX_MELDS]
        ]
        return SeatEntry(
            index=index,
            name=self.names[index],
            form=SeatForm(self.data, prefix=prefix, initial=seat_initial, fixed_name=self.fixed_names is not None),
            melds=MeldFormSet(self.data, prefix=f"{prefix}-melds", initial=melds_initial or None,
                                form_kwargs={"names": self.names}),
            hand_slot=Slot(f"{self.dom_prefix}-seat{index}-hand-problems"),
            meld_slot=Slot(f"{self.dom_prefix}-seat{index}-melds-problems"),
            extra_slot=Slot(f"{self.dom_prefix}-seat{index}-extra-problems"),
        )

    # -- validation ---------------------------------------------------------------------------

    def _forms(self):
        yield self.round_form
        for seat in self.seats:
            yield seat.form
            yield seat.melds

    def is_valid(self) -> bool:
        self.full_clean()
        return self._record is not None

    def full_clean(self) -> None:
        if self._cleaned:
            return
        self._cleaned = True
        if not self.is_bound:
            return
        if not all([form.is_valid() for form in self._forms()]):  # a list: validate every form
            self._add(None, "general", gettext("有的选项不认识，请重新选一下。"))
            return
        own_outcome = self._check_outcome_shape()
        draft = self.build_record()
        try:
            record, hands = check(draft)
        except RecordInvalid as invalid:
            for problem in invalid.problems:
                if not (own_outcome and (problem.field or "").startswith("outcome")):
                    self._place(problem)
            return
        if not self.has_problems:
            self._record = draft
            self._settlement = settle(record, hands)

    def _check_outcome_shape(self) -> bool:
        """The form's own questions before scoring's: did they say who won, on what, from whom."""
        data = self.round_form.cleaned_data
        found = False
        if data["result"] != "draw":
            if not data["winners"]:
                self._add(None, "outcome", gettext("选一下谁胡了（没人胡就选“荒庄”）。"))
                found = True
            if not data["win_tile"]:
                self._add(None, "outcome", gettext("选一下胡的是哪张牌。"))
                found = True
            if data["result"] == "discard" and data["from_seat"] is None:
                self._add(None, "outcome", gettext("选一下谁点的炮（自己摸的就选“自摸”）。"))
                found = True
        if data["first_yaoji_claimed_by"] is not None and data["first_yaoji_seat"] is None:
            self._add(None, "chickens", gettext("先选第一张幺鸡是谁打出的。"))
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
        elif seat is not None and head in ("discards", "declared", "xiang_gong", "name"):
            self._add(seat, "extra", message)
        else:
            area = {"outcome": "outcome", "first_yaoji": "chickens", "turned": "chickens", "preset": "rules",
                    "options": "rules", "stake": "rules", "dealer": "rules"}.get(head, "general")
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

    def build_record(self) -> dict:
        """The RULES §3 record from the cleaned forms (call after the forms validated)."""
        data = self.round_form.cleaned_data
        rules = self.fixed_rules
        if rules is None:
            preset = data["preset"]
            options = {"jian_dou_san": True} if data["jian_dou_san"] and not PRESETS[preset].jian_dou_san else {}
        else:
            preset, options = rules.preset, rules.options()
        stake = self.fixed_stake if self.fixed_stake is not None else data["stake"].strip()
        return {
            "preset": preset,
            "options": options,
            "stake": str(stake),
            "dealer": data["dealer"],
            "seats": [self._seat_record(seat) for seat in self.seats],
            "turned": data["turned"] or None,
            "first_yaoji": ({"seat": data["first_yaoji_seat"], "claimed_by": data["first_yaoji_claimed_by"]}
                            if data["first_yaoji_seat"] is not None else None),
            "outcome": self._outcome_record(data),
        }

    def _seat_record(self, seat: SeatEntry) -> dict:
        data = seat.form.cleaned_data
        melds = []
        rows = self._meld_rows[seat.index] = []
        for row, form in enumerate(seat.melds.forms):
            meld = form.cleaned_data
            kind, tile = meld.get("kind"), meld.get("tile")
            if not kind and not tile:
                continue
            if not kind or not tile:
                self._add(seat.index, "melds", gettext("第 {n} 个副露：{what}").format(
                    n=row + 1, what=gettext("选一下是哪张牌。") if kind else gettext("选一下是碰还是哪种豆。")))
                continue
            item: dict[str, Any] = {"type": "pong", "tile": tile} if kind == "pong" else {
                "type": "kong", "tile": tile, "kind": kind}
            if meld.get("from_seat") is not None and kind != "men":
                item["from"] = meld["from_seat"]
            if meld.get("late") and kind in ("men", "zhuanwan"):
                item["late"] = True
            melds.append(item)
            rows.append(row)
        return {
            "name": seat.name,
            "concealed": _clean_notation(data["concealed"]),
            "melds": melds,
            "discards": _clean_notation(data["discards"]),
            "declared": data["declared"] or None,
            "xiang_gong": data["xiang_gong"],
        }

    @staticmethod
    def _outcome_record(data: dict) -> dict:
        if data["result"] == "draw":
            return {"type": "draw"}
        discard = data["result"] == "discard"
        winners = []
        for seat in sorted(set(data["winners"])):
            winner: dict[str, Any] = {"seat": seat, "tile": data["win_tile"] or None}
            if discard and data["passed_before"]:
                winner["passed_before"] = True
            winners.append(winner)
        return {
            "type": "win",
            "from": data["from_seat"] if discard else None,
            "winners": winners,
            "after_kong": not discard and data["after_kong"],
            "hot_kong": (data["hot_kong"] or None) if discard else None,
            "robbed": discard and data["robbed"],
        }

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

    @property
    def problem_count(self) -> int:
        """Problems the page shows (an untouched seat's count is not one while typing)."""
        self.full_clean()
        hidden = sum(len(seat.hand_slot.messages) for seat, preview in zip(self.seats, self.seat_previews)
                     if not preview.problems)
        return sum(len(slot.messages) for slot in self.slots) - hidden

    @property
    def rules(self) -> RuleSet:
        if self.fixed_rules is not None:
            return self.fixed_rules
        preset = self._value("preset") or "guiyang"
        return PRESETS.get(preset, PRESETS["guiyang"])

    @property
    def rules_label(self) -> str:
        return gettext(PRESET_HANZI[self.rules.preset])

    def _value(self, name: str) -> Any:
        """A round-form field's current value (bound data, else initial)."""
        bound = self.round_form[name] if name in self.round_form.fields else None
        return bound.value() if bound is not None else None

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
    def keyboard_tiles(self) -> list[TileChip]:
        return ALL_TILE_CHIPS

    @property
    def seat_previews(self) -> list[SeatPreview]:
        self.full_clean()
        if self.seats[0].preview is None:
            for seat in self.seats:
                seat.preview = self._preview(seat)
        return [seat.preview for seat in self.seats]

    def _preview(self, seat: SeatEntry) -> SeatPreview:
        form = seat.form
        concealed = _tiles_or_none(_clean_notation(form["concealed"].value() or ""))
        discards = _tiles_or_none(_clean_notation(form["discards"].value() or "")) or []
        melds = self._meld_tiles(seat)
        result = self._value("result")
        winners = {str(w) for w in (self._value("winners") or [])}
        is_winner = result in ("discard", "self_draw") and str(seat.index) in winners
        problems = list(seat.hand_slot.messages)
        declared = form["declared"].value() or None
        standing = hand_standing(concealed or [], melds, winner=is_winner, rules=self.rules,
                                 declared=declared if declared in ("hard", "soft") else None,
                                 xiang_gong=bool(form["xiang_gong"].value()))
        if self.live and standing.status == "empty":
            problems = []  # not entered yet: no red ink while the table is still being typed in
        if concealed is None:
            standing = Standing("syntax", gettext("写法不对"))
        tiles = None if concealed is None else len(concealed) + 3 * len(melds)
        return SeatPreview(
            seat=seat.index, name=seat.name, dom_id=f"{self.dom_prefix}-seat{seat.index}-preview",
            input_id=form["concealed"].auto_id, problems_id=seat.hand_slot.dom_id,
            chips=tile_chips(concealed or []), discard_chips=tile_chips(discards), tiles=tiles,
            expected=14 if is_winner else 13, standing=standing, problems=problems,
            is_dealer=str(self._value("dealer")) == str(seat.index), is_winner=is_winner,
            has_problems=bool(problems or seat.meld_slot.messages or seat.extra_slot.messages),
        )

    @staticmethod
    def _meld_tiles(seat: SeatEntry) -> list[tuple[Tile, int]]:
        melds = []
        for form in seat.melds.forms:
            kind, tile = form["kind"].value(), form["tile"].value()
            if kind in ("pong", "men", "zhuanwan", "dian") and tile:
                try:
                    melds.append((parse_tile(tile), 3 if kind == "pong" else 4))
                except TileSyntaxError:
                    continue
        return melds

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
