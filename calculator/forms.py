"""Forms of the evening ledger: opening an evening, the paid mark, confirming a change.

Input shape only. The rules are checked by `scoring.rules_for` and the evening itself by
`services.evening_create`; these forms map what they find to words on the right field.
"""
from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import jsonsafe
from .models import MAX_NOTE, MAX_RULES_NAME, MAX_TABLE_NAME, MAX_TITLE, RoundConfirmation
from .presentation import preset_title
from .presentation.words import PRESET_TITLES
from .presentation.options import OPTIONS, SECTIONS, Option, places_with
from .scoring import PRESETS, RuleSet, rules_for
from .scoring.record import MAX_NAME, MAX_STAKE, SEAT_NAMES
from .scoring.rules import MAX_POINTS

AS_PRESET = ""  # "keep what the region's preset says"
BOOL_VALUES = {"yes": True, "no": False}


def _with_places(option: Option, value: Any) -> str:
    """The value in words with the places whose preset uses it: 每家付 牌型+1（贵阳、兴义）."""
    words = option.text(value)
    if places := places_with(option.name, value):
        words = gettext("{words}（{places}）").format(words=words, places=gettext("、").join(places))
    return capfirst(words)


def _preset_values(option: Option, key: str | None = None) -> str:
    """What each preset says, for a number field left blank: 按地方规则：贵阳 1、安顺 0、兴义 1."""
    values = gettext("、").join(
        f"{preset_title(place)} {getattr(rules, option.name)[key] if key else getattr(rules, option.name)}"
        for place, rules in PRESETS.items())
    return gettext("空着就按地方规则：{values}").format(values=values)


def option_fields(option: Option, *, switch: bool = False) -> dict[str, forms.Field]:
    """The form fields asking for one option (presentation.options.OPTIONS), by field name.

    A blank (or 按地方规则) keeps the preset's value. Options of a few values are a menu, each
    value in words with the places that play it; yes/no options likewise (or, with `switch`, one
    switch); numbers are a number field, one per key for a map (牌型番数：平胡, …)."""
    number = {"required": False, "min_value": 0, "max_value": MAX_POINTS,
              "widget": forms.NumberInput(attrs={"inputmode": "numeric"})}
    if option.keys:
        return {f"{option.name}__{key}": forms.IntegerField(
                    label=format_lazy(_("{name}：{words}"), name=option.title, words=name),
                    help_text=lazy(_preset_values, str)(option, key), **number)
                for key, name in option.keys.items()}
    if callable(option.words):
        help_text = lazy(_preset_values, str)(option)
        if option.help:
            help_text = format_lazy("{} {}", option.help, help_text)
        return {option.name: forms.IntegerField(label=option.title, help_text=help_text, **number)}
    if switch:
        return {option.name: forms.BooleanField(
            label=format_lazy(_("{name}：{words}"), name=option.title, words=option.words[True]), required=False,
            help_text=option.help or "",
            widget=forms.CheckboxInput(attrs={"class": "form-check-input", "role": "switch"}))}
    values = list(option.words)
    keys = [key for key, value in BOOL_VALUES.items() if value in values] if values == [True, False] else values
    return {option.name: forms.ChoiceField(
        label=option.title, required=False, help_text=option.help or "",
        choices=[(AS_PRESET, _("按地方规则")), *((key, lazy(_with_places, str)(option, BOOL_VALUES.get(key, key)))
                                            for key in keys)])}


def option_value(option: Option, data: dict[str, Any]) -> Any:
    """What the fields of `option_fields` say, as the option's value; None for "as the preset"."""
    if option.keys:
        value = {key: data[f"{option.name}__{key}"] for key in option.keys
                 if data.get(f"{option.name}__{key}") is not None}
        return value or None
    value = data.get(option.name)
    if value in (None, AS_PRESET):
        return None
    return BOOL_VALUES.get(value, value) if isinstance(value, str) else value


class EveningForm(forms.Form):
    """开一晚: who sits where, the stake, the rules, the first dealer."""

    title = forms.CharField(label=_("这一晚叫什么"), required=False, max_length=MAX_TITLE,
                            help_text=_("可以不填，默认用日期。"))
    player_0 = forms.CharField(label=_("第一位（东）"), max_length=MAX_NAME)
    player_1 = forms.CharField(label=_("第二位（南）"), max_length=MAX_NAME)
    player_2 = forms.CharField(label=_("第三位（西）"), max_length=MAX_NAME)
    player_3 = forms.CharField(label=_("第四位（北）"), max_length=MAX_NAME, required=False,
                               help_text=_("三个人打就空着。"))
    stake = forms.DecimalField(label=_("底注：一番多少钱"), initial=Decimal("1"), min_value=Decimal("0.0001"),
                               max_value=MAX_STAKE, max_digits=11, decimal_places=4,
                               widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}))
    preset = forms.ChoiceField(label=_("哪里的规则"), initial="guiyang", widget=forms.RadioSelect(attrs={"class": "btn-check"}),
                               choices=list(PRESET_TITLES.items()))
    rules_name = forms.CharField(label=_("这套规矩叫什么"), required=False, max_length=MAX_RULES_NAME,
                                 help_text=_("可以不填。起个名字（比如“老王家规矩”），下次开一晚可以照搬。"))
    first_dealer = forms.TypedChoiceField(label=_("第一局谁坐庄"), coerce=int, initial=0,
                                          choices=[(s, format_lazy(_("第{n}位（{seat}）"), n=s + 1, seat=SEAT_NAMES[s]))
                                                   for s in range(4)])

    NAME_FIELDS = ("player_0", "player_1", "player_2", "player_3")

    def option_sections(self) -> list[tuple[str, list[tuple[forms.BoundField, bool]]]]:
        """The option fields by part of the rules (胡, 豆, 鸡, 报听, 坐庄), each with whether the
        player changed it from the preset, for the template."""
        sections: dict[str, list[tuple[forms.BoundField, bool]]] = {}
        for option in OPTIONS:
            fields = [self[name] for name in option_fields(option)]
            sections.setdefault(str(SECTIONS[option.section]), []).extend(
                (field, field.value() not in (None, AS_PRESET)) for field in fields)
        return list(sections.items())

    def changed_options(self) -> int:
        """How many option fields the player filled in."""
        return sum(changed for _title, fields in self.option_sections() for _field, changed in fields)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        names = [" ".join((data.get(f) or "").split()) for f in self.NAME_FIELDS]
        if not names[3]:
            names = names[:3]
        seen: dict[str, str] = {}
        for field, name in zip(self.NAME_FIELDS, names):
            if name and name in seen:
                self.add_error(field, _("和{other}重名了，换个叫法吧。").format(other=self.fields[seen[name]].label))
            seen.setdefault(name, field)
        dealer = data.get("first_dealer")
        if dealer is not None and dealer >= len(names):
            self.add_error("first_dealer", _("三个人打，没有第四位。"))
        if data.get("preset"):
            _rules, problems = rules_for(data["preset"], self.options())
            for problem in problems:
                self.add_error(None, problem.message)
        data["names"] = names
        return data

    def options(self) -> dict[str, Any]:
        """The rule options chosen on top of the preset."""
        values = {option.name: option_value(option, self.cleaned_data) for option in OPTIONS}
        return {name: value for name, value in values.items() if value is not None}

    def evening_fields(self) -> dict[str, Any]:
        """What `services.evening_create` (or a 固定桌's next evening) takes from the form."""
        data = self.cleaned_data
        return {"names": data["names"], "stake": data["stake"], "preset": data["preset"], "options": self.options(),
                "first_dealer": data["first_dealer"], "title": data["title"], "rules_name": data["rules_name"]}

    def preview_rules(self) -> RuleSet | None:
        """The rules as chosen so far (the rest of the form need not be filled in), for the
        rules text shown beside the form."""
        if not hasattr(self, "cleaned_data"):
            self.is_valid()
        rules, _problems = rules_for(self.cleaned_data.get("preset") or "guiyang", self.options())
        return rules

    @classmethod
    def initial_from(cls, rules: RuleSet, *, names: list[str], stake: str, rules_name: str) -> dict[str, Any]:
        """开一晚 again with an earlier evening's players, stake and rules (照搬规矩): every option
        that differs from the preset is filled in, as the player would have."""
        initial: dict[str, Any] = {f"player_{seat}": name for seat, name in enumerate(names)}
        initial.update(stake=stake, preset=rules.preset, rules_name=rules_name)
        for name, value in rules.options().items():
            initial.update(option_initial(OPTION_BY_NAME[name], value))
        return initial


def option_initial(option: Option, value: Any) -> dict[str, Any]:
    """The initial values of `option_fields(option)` that state `value` (the reverse of `option_value`)."""
    if option.keys:
        return {f"{option.name}__{key}": value[key] for key in option.keys if key in value}
    if isinstance(value, bool):
        return {option.name: next(key for key, v in BOOL_VALUES.items() if v is value)}
    return {option.name: value}


OPTION_BY_NAME = {option.name: option for option in OPTIONS}


# Every option of RULES §9, blank (the preset's) unless changed: built from the OPTIONS table.
for _option in OPTIONS:
    EveningForm.base_fields.update(option_fields(_option))
EveningForm.OPTION_FIELDS = tuple(name for option in OPTIONS for name in option_fields(option))


class WhatIfForm(forms.Form):
    """换个规矩看看: another preset and options, the evening form's own rule fields (prefixed, so
    that they never mix with the round form's fields on the same POST). Nothing is stored."""

    prefix = "what_if"
    RULE_FIELDS = ("preset", *EveningForm.OPTION_FIELDS)
    OPTION_FIELDS = EveningForm.OPTION_FIELDS

    def __init__(self, data=None, *, current: RuleSet, **kwargs):
        super().__init__(data, **kwargs)
        self.fields.update({name: copy.deepcopy(EveningForm.base_fields[name]) for name in self.RULE_FIELDS})
        self.fields["preset"].required = False
        self.current = current

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("preset"):
            data["preset"] = self.current.preset
        _rules, problems = rules_for(data["preset"], self.options())
        for problem in problems:
            self.add_error(None, problem.message)
        return data

    options = EveningForm.options

    def rules(self) -> RuleSet | None:
        """The rules asked for; None before anything is asked (a preset picked or an option
        set) or when what was asked is not valid (the form then shows why)."""
        asked = self.is_bound and any(self.data.get(self.add_prefix(name)) for name in self.RULE_FIELDS)
        if not asked or not self.is_valid():
            return None
        rules, _problems = rules_for(self.cleaned_data["preset"], self.options())
        return rules

    def quick_presets(self) -> list[tuple[str, str]]:
        """One tap each: (field value, 按兴义算) for every preset but the one the rules already are."""
        return [(key, gettext("按{place}算").format(place=preset_title(key)))
                for key, preset in PRESETS.items() if preset.to_dict() != self.current.to_dict()]


class PaidForm(forms.Form):
    """已付 / 撤回: 已付 names one transfer of the settle-up by its seats and points; 撤回 names
    the payment it takes back by its id (`payment`)."""

    payer = forms.IntegerField(min_value=0, max_value=7, widget=forms.HiddenInput)
    payee = forms.IntegerField(min_value=0, max_value=7, widget=forms.HiddenInput)
    points = forms.IntegerField(min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)
    paid = forms.BooleanField(required=False, widget=forms.HiddenInput)
    payment = forms.IntegerField(min_value=1, max_value=2**63 - 1, required=False, widget=forms.HiddenInput)

    def clean(self):
        data = super().clean()
        if not data.get("paid") and data.get("payment") is None:
            raise forms.ValidationError("撤回 names the payment it takes back", code="payment")
        return data


class MeForm(forms.Form):
    """这部手机是…: which seat holds this phone; blank forgets it. `seats`: how many players."""

    seat = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)

    def __init__(self, *args, seats: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [("", ""), *((str(i), str(i)) for i in range(seats))]


class ImportForm(forms.Form):
    """导入: a file this app exported (an evening, or a whole 固定桌), read as JSON.
    `cleaned_data["file"]` is the parsed data, not the upload."""

    MAX_BYTES = 8 * 1024 * 1024  # an evening of 100 corrected rounds is well under 2 MB
    NOT_OURS = _("这个文件不是捉鸡算账导出的一晚，或者已经损坏。")

    file = forms.FileField(error_messages={"required": NOT_OURS, "empty": NOT_OURS, "invalid": NOT_OURS})

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:  # bodies over settings.MAX_REQUEST_BYTES never get here
            raise forms.ValidationError(_("这个文件太大了。"), code="too_big")
        try:
            return jsonsafe.loads(upload.read().decode("utf-8"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            raise forms.ValidationError(self.NOT_OURS, code="not_ours") from None


class ConfirmForm(forms.Form):
    """确认 / 有异议 of one seat on a stored round, as the round page posts it."""

    seat = forms.IntegerField(min_value=0, max_value=3)
    verdict = forms.ChoiceField(choices=RoundConfirmation.VERDICTS)
    note = forms.CharField(required=False, max_length=MAX_NOTE)
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class LenientForm(forms.Form):
    """A form of what a page sends beside the real input: a value it would not send counts as absent."""

    def value(self, name: str, default: Any = None) -> Any:
        self.is_valid()
        value = self.cleaned_data.get(name)
        return default if value in (None, "") else value


class DraftPostForm(LenientForm):
    """What an evening's round form posts about its draft (录入中) beside the round: the version
    its page was drawn from, the page's own writer id, the fields it changed and has not saved
    yet (names, comma-separated), the round's idempotency key and, for 改这局, the stored round's
    version the page was drawn from. A value the page would not write counts as absent; the round
    itself is checked by the round form."""

    draft_base = forms.IntegerField(min_value=0, max_value=999_999_999, required=False)
    draft_client = forms.CharField(max_length=40, required=False)
    draft_changed = forms.CharField(required=False)
    idempotency_key = forms.UUIDField(required=False)
    version = forms.IntegerField(min_value=0, max_value=999_999_999, required=False)

    @property
    def saves(self) -> bool:
        """Sent by a page that keeps the draft (draft.js): without JavaScript a form saves nothing."""
        return "draft_client" in self.data

    @property
    def base(self) -> int:
        return self.value("draft_base", 0)

    @property
    def client(self) -> str:
        return self.value("draft_client", "")

    @property
    def changed(self) -> set[str]:
        return {name for name in self.value("draft_changed", "").split(",") if name}

    @property
    def key(self):
        return self.value("idempotency_key")


class DraftPollForm(DraftPostForm):
    """The draft poll's query: the round form's own hidden fields (the version and key the page
    has, its writer id, whose own changes are left out of the answer; htmx includes them) and, for
    改这局, the round's version the page was drawn from."""


class DraftConfirmForm(forms.Form):
    """确认 / 有异议 on the round being entered: for this phone's own seat (`confirm_seat`, or the
    seat the phone said it is), or 代按 for a seat with no phone (`proxy_seat`)."""

    proxy_seat = forms.IntegerField(min_value=0, max_value=3, required=False)
    confirm_seat = forms.IntegerField(min_value=0, max_value=3, required=False)
    verdict = forms.ChoiceField(choices=RoundConfirmation.VERDICTS)
    confirm_note = forms.CharField(required=False, max_length=MAX_NOTE)

    def seat(self, mine: int | None) -> int | None:
        """Whose word it is; None when the page named no seat the table has."""
        self.is_valid()
        if "proxy_seat" in self.errors or "confirm_seat" in self.errors:
            return None
        data = self.cleaned_data
        return next((s for s in (data.get("proxy_seat"), data.get("confirm_seat"), mine) if s is not None), None)

    @property
    def from_proxy_menu(self) -> bool:
        """The page has the 代按 menu (it posts its choice, even 按我自己的): a word taken resets it."""
        return "proxy_seat" in self.data


class PreviewForm(forms.Form):
    """The live preview's query: ?round=<number> when a stored round is corrected (R42)."""

    round = forms.IntegerField(min_value=1, max_value=999_999_999, required=False)


class VersionForm(forms.Form):
    """The round's version the page was based on (optimistic concurrency)."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class RecordField(forms.JSONField):
    """A round record in a hidden field: a JSON object.

    The page writes it from the previewed record, so anything else was made by hand. json.loads
    raises RecursionError (not a decode error) on deep nesting: that is refused here too. What
    is stored is the record as scoring rebuilds it, so stray keys or text never reach the
    database.
    """

    default_error_messages = {"invalid": _("修改没有保存：表单不完整，请重新改一次。")}

    def to_python(self, value):
        try:
            record = super().to_python(value)
        except RecursionError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
        if record is not None and not isinstance(record, dict):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return record


class CorrectionConfirmForm(VersionForm):
    """确认修改: the corrected record, exactly as previewed, the version it was based on, and 改这局's
    draft the preview was drawn from (its key and version) with this page's writer id: another
    phone's later change to the correction refuses it, so does its end (thrown away)."""

    record = RecordField(widget=forms.HiddenInput)
    draft_key = forms.UUIDField(required=False, widget=forms.HiddenInput)
    draft_base = forms.IntegerField(min_value=0, max_value=999_999_999, required=False, widget=forms.HiddenInput)
    draft_client = forms.CharField(max_length=40, required=False, widget=forms.HiddenInput)


# -- 固定桌 (issue 24) ---------------------------------------------------------------------------


class TableForm(forms.Form):
    """建一个固定桌 from nothing: what the table is called and who plays at it."""

    name = forms.CharField(label=_("这桌叫什么"), max_length=MAX_TABLE_NAME, help_text=_("比如“周五老王家”。"))
    names = forms.CharField(label=_("常来的人"), widget=forms.Textarea(attrs={"rows": 5}),
                            help_text=_("一行一个名字，按平常的座位顺序写（开下一晚时前几位就这样坐）。"))

    def clean_names(self) -> list[str]:
        names = [" ".join(line.split()) for line in self.cleaned_data["names"].splitlines()]
        names = list(dict.fromkeys(n for n in names if n))
        if len(names) < 3:
            raise forms.ValidationError(_("至少写三个人。"), code="few")
        if any(len(n) > MAX_NAME for n in names):
            raise forms.ValidationError(_("名字最多 {max} 个字。").format(max=MAX_NAME), code="long")
        return names


class AttachForm(forms.Form):
    """把以前的一晚加进来: by the evening's edit address (its link, or the code in it)."""

    address = forms.CharField(label=_("那一晚的改账链接"), max_length=300,
                              help_text=_("打开那一晚，复制地址栏里的链接贴过来（只读链接不行）。"))


class SeatLinkForm(forms.Form):
    """这个座位是谁: one tap on a roster name (or 新的人) for one seat of one evening."""

    evening = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    seat = forms.IntegerField(min_value=0, max_value=3, widget=forms.HiddenInput)
    member = forms.IntegerField(min_value=0, required=False)  # 0 or blank: a new roster player


class MergeForm(forms.Form):
    """王哥 = 老王: two names of one person become one (the first keeps its name)."""

    keep = forms.TypedChoiceField(label=_("留下的名字"), coerce=int)
    absorb = forms.TypedChoiceField(label=_("也是这个人"), coerce=int)

    def __init__(self, *args, roster=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(m.pk, m.name) for m in roster]
        self.fields["keep"].choices = choices
        self.fields["absorb"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("keep") is not None and data.get("keep") == data.get("absorb"):
            raise forms.ValidationError(_("选两个不同的名字。"), code="same")
        return data


class SeasonForm(forms.Form):
    """The season's dates and the fewest rounds a player needs to be listed (a GET form)."""

    period = forms.ChoiceField(label=_("时间"), required=False, initial="all",
                               choices=[("month", _("这个月")), ("year", _("今年")), ("all", _("全部")),
                                        ("custom", _("自己选"))],
                               widget=forms.RadioSelect(attrs={"class": "btn-check"}))
    start = forms.DateField(label=_("从"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("到"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    min_rounds = forms.IntegerField(label=_("至少打了几局才列出"), required=False, min_value=0, max_value=100_000,
                                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}))

    def values(self) -> tuple[str, Any, Any, int]:
        """(period, start, end, min_rounds); what is not valid falls back to all and 0."""
        if not self.is_valid():
            return "all", None, None, 0
        data = self.cleaned_data
        return data["period"] or "all", data["start"], data["end"], data["min_rounds"] or 0



class FigureForm(forms.Form):
    """Which rounds of the season a page lists: whose (`who`, a roster id, or name:<name> for a
    seat no roster player took) behind which figure (one of `figures`, or vs:<key> head to head)."""

    who = forms.CharField(max_length=MAX_NAME + 5)
    figure = forms.CharField(max_length=MAX_NAME + 10)

    def __init__(self, *args, figures: tuple[str, ...] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.figures = figures

    def clean_figure(self) -> str:
        figure = self.cleaned_data["figure"]
        if figure not in self.figures and not figure.startswith("vs:"):
            raise forms.ValidationError("unknown figure", code="unknown")
        return figure


class CsvForm(forms.Form):
    """The season as a spreadsheet: a row per evening (anything else asked) or per round."""

    per = forms.ChoiceField(choices=[("evening", "evening"), ("round", "round")], required=False)

    def rows_per(self) -> str:
        return self.cleaned_data["per"] if self.is_valid() and self.cleaned_data["per"] else "evening"
