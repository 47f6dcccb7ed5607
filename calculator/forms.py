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

from .models import MAX_NOTE, MAX_TITLE, RoundConfirmation
from .presentation import preset_title
from .presentation.rules_text import CHOICE_WORDS, OPTION_NAMES
from .scoring import PRESET_HANZI, PRESETS, RuleSet, rules_for
from .scoring.record import MAX_NAME, MAX_STAKE, SEAT_NAMES
from .scoring.rules import CHOICES

AS_PRESET = ""  # "keep what the region's preset says"


def _with_places(option: str, value: str) -> str:
    """The value in words with the places whose preset uses it: 每家付 牌型+1（贵阳、兴义）."""
    words = str(CHOICE_WORDS[option][value])
    places = [preset_title(key) for key, rules in PRESETS.items() if getattr(rules, option) == value]
    if places:
        words = gettext("{words}（{places}）").format(words=words, places=gettext("、").join(places))
    return capfirst(words)


def option_choices(option: str) -> list[tuple[str, Any]]:
    """按地方规则, then every value of the option (in words, built when the page is shown)."""
    return [(AS_PRESET, _("按地方规则"))] + [(value, lazy(_with_places, str)(option, value))
                                              for value in CHOICES[option]]


def _option_field(option: str, label=None) -> forms.ChoiceField:
    return forms.ChoiceField(label=label or OPTION_NAMES[option], required=False, choices=option_choices(option))


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
                               choices=[(key, _(hanzi)) for key, hanzi in PRESET_HANZI.items()])
    jian_dou_san = forms.BooleanField(label=_("见豆三：每个豆都算 3"), required=False)
    self_draw = _option_field("self_draw")
    turned_chicken = _option_field("turned_chicken")
    chicken_discards = _option_field("chicken_discards")
    chicken_collectors = _option_field("chicken_collectors")
    # 家规 (R45–R56): the house-rule variants, off in every preset.
    hot_shot_bonus = _option_field("hot_shot_bonus")
    robbed_kong = _option_field("robbed_kong")
    bao_ji = _option_field("bao_ji", _("包鸡"))
    chicken_flow = _option_field("chicken_flow", _("鸡怎么流"))
    chong_feng_on_top = forms.BooleanField(label=_("冲锋鸡另加，不代替那张幺鸡（R51）"), required=False)
    dou_reverse = forms.BooleanField(label=_("豆倒赔：没叫的人的豆反赔有叫的（R52）"), required=False)
    ze_ren_gold_off = forms.BooleanField(label=_("金鸡时责任鸡不翻倍（R54）"), required=False)
    chui_feng = forms.BooleanField(label=_("吹风鸡：翻到 5筒 这局不算鸡（R55）"), required=False)
    declare_kill_by_kind = forms.BooleanField(label=_("别人自摸时，报听的人按自己报的番数付（R56）"), required=False)
    dian_payer = _option_field("dian_payer", _("点豆谁付"))
    declare_floor = forms.BooleanField(label=_("报听保底：牌型和报听取大的，不相加（R58）"), required=False)
    dealer_bonus = forms.IntegerField(label=_("庄家加番：庄家胡或付胡牌钱每家多几番（R59）"), required=False,
                                      min_value=0, max_value=10_000, initial=0)
    dealer_streak_bonus = forms.IntegerField(label=_("连庄：庄家每多连一庄再多几番（R59）"), required=False,
                                             min_value=0, max_value=10_000, initial=0)
    cap = forms.IntegerField(label=_("封顶：一局一家最多付另一家几番（0 = 不封顶，R53）"), required=False,
                             min_value=0, max_value=10_000, initial=0)
    first_dealer = forms.TypedChoiceField(label=_("第一局谁坐庄"), coerce=int, initial=0,
                                          choices=[(s, format_lazy(_("第{n}位（{seat}）"), n=s + 1, seat=SEAT_NAMES[s]))
                                                   for s in range(4)])

    NAME_FIELDS = ("player_0", "player_1", "player_2", "player_3")
    OPTION_FIELDS = ("self_draw", "turned_chicken", "chicken_discards", "chicken_collectors")
    HOUSE_CHOICE_FIELDS = ("hot_shot_bonus", "robbed_kong", "bao_ji", "chicken_flow", "dian_payer")
    HOUSE_FLAGS = ("chong_feng_on_top", "dou_reverse", "chui_feng", "declare_kill_by_kind", "declare_floor")
    HOUSE_NUMBERS = ("cap", "dealer_bonus", "dealer_streak_bonus")
    HOUSE_FIELDS = (*HOUSE_CHOICE_FIELDS, *HOUSE_FLAGS, "ze_ren_gold_off", *HOUSE_NUMBERS)

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
        data = self.cleaned_data
        chosen = (*self.OPTION_FIELDS, *EveningForm.HOUSE_CHOICE_FIELDS)
        options: dict[str, Any] = {name: data[name] for name in chosen if data.get(name)}
        for name in ("jian_dou_san", *EveningForm.HOUSE_FLAGS):
            if data.get(name):
                options[name] = True
        if data.get("ze_ren_gold_off"):
            options["ze_ren_gold"] = False
        for name in EveningForm.HOUSE_NUMBERS:
            if data.get(name):
                options[name] = data[name]
        return options


class WhatIfForm(forms.Form):
    """换个规矩看看: another preset and options, the evening form's own rule fields (prefixed, so
    that they never mix with the round form's fields on the same POST). Nothing is stored."""

    prefix = "what_if"
    RULE_FIELDS = ("preset", "jian_dou_san", *EveningForm.OPTION_FIELDS, *EveningForm.HOUSE_FIELDS)
    OPTION_FIELDS = EveningForm.OPTION_FIELDS
    HOUSE_FIELDS = EveningForm.HOUSE_FIELDS

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


class ConfirmForm(forms.Form):
    """确认 / 有异议 of one seat on a stored round, as the round page posts it."""

    seat = forms.IntegerField(min_value=0, max_value=3)
    verdict = forms.ChoiceField(choices=RoundConfirmation.VERDICTS)
    note = forms.CharField(required=False, max_length=MAX_NOTE)
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


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
    """确认修改: the corrected record, exactly as previewed, and the version it was based on."""

    record = RecordField(widget=forms.HiddenInput)
