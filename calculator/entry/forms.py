"""录入一局: the Django forms that collect one round record (RULES §3), input shape only.

`RoundForm` holds the round's own fields, `SeatForm` one seat's, `MeldFormSet` a seat's up to
four melds. They check that each value is one the page offers; whether the round is legal is
scoring's question, asked by `calculator.entry.RoundEntry`, which binds these forms and
turns them into the record.
"""
from __future__ import annotations

from functools import lru_cache

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from ..forms import option_fields
from ..presentation.options import OPTIONS
from ..presentation.words import PRESET_TITLES, DECLARED_CHOICES, MELD_CHOICES, RESULT_CHOICES, TILE_CHOICES
from ..scoring import RuleSet, TileSyntaxError, format_tiles, parse_tile, parse_tiles

MAX_MELDS = 4
# Typed notation may use the tiles' own names: 5万 = 五万 = 5m, 3筒/饼 = 3p, 7条/索 = 7s
# (static/calculator/tiles.js reads the same).
NOTATION_ALIASES = str.maketrans({"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s",
                                  "索": "s", "M": "m", "P": "p", "S": "s", ",": " ", "，": " ",
                                  **{numeral: str(rank) for rank, numeral in enumerate("一二三四五六七八九", 1)}})


def _switch(label, hint="") -> forms.BooleanField:
    return forms.BooleanField(label=label, help_text=hint, required=False,
                              widget=forms.CheckboxInput(attrs={"class": "form-check-input", "role": "switch"}))


def _record_switch(label, hint="", *, played_by: str | None = None) -> forms.BooleanField:
    """A yes/no fact the round record keeps under the field's own name (RULES §3): a seat's key
    on a `SeatForm`, the round's top-level key on a `RoundForm`. Declaring it is the whole of
    the Django side: `entry.record` copies it both ways, the card draws it (`card_switches`),
    a problem with its name shows beside it, a correction names it in the history by `label`.
    `played_by`: the rule option that pays for it; an evening whose rules leave that option off
    is not asked (a switch that could change nothing only puzzles the table)."""
    field = _switch(label, hint)
    field.record_switch, field.played_by = True, played_by
    return field


def _record_switches(form_class) -> tuple[str, ...]:
    return tuple(name for name, field in form_class.base_fields.items() if getattr(field, "record_switch", False))


class SwitchesMixin:
    """`card_switches`: the form's record switches the card draws in one loop, as bound fields."""

    record_switches: tuple[str, ...] = ()
    drawn_apart: tuple[str, ...] = ()  # switches the card draws in a place of their own

    @property
    def card_switches(self) -> list[forms.BoundField]:
        return [self[name] for name in self.record_switches if name not in self.drawn_apart and name in self.fields]


TILE_CODES = frozenset(code for _suit, group in TILE_CHOICES for code, _name in group)


class TileField(forms.ChoiceField):
    """One tile (1m … 9s) or blank, picked from a menu grouped by suit.

    The menu's 28 grouped choices are a callable, which a form's copy of the field shares; and
    a value is checked against the 27 codes at once, where Django's check rebuilt the menu."""

    def valid_value(self, value) -> bool:
        return str(value) in TILE_CODES


_TILE_MENUS: dict[tuple[str | None, str], list] = {}


def _tile_menu(blank) -> list:
    """The tile menu in the current language with its labels as plain text, made once per
    language and blank label: the round page draws about twenty, and each lazy label was
    translated again for every option drawn."""
    key = (get_language(), str(blank))
    menu = _TILE_MENUS.get(key)
    if menu is None:
        groups = [(str(suit), [(code, str(name)) for code, name in group]) for suit, group in TILE_CHOICES]
        menu = _TILE_MENUS[key] = [("", key[1]), *groups]
    return menu


def _tile_field(label, blank, **kw) -> TileField:
    return TileField(label=label, required=False, choices=lambda: _tile_menu(blank), **kw)


def one_tile(text) -> str:
    """A typed tile as its code ("5筒", " 5 P ", "五筒" → "5p"); anything else as typed."""
    code = "".join(str(text or "").translate(NOTATION_ALIASES).split())
    return code if code in TILE_CODES else str(text or "").strip()


class MeldTileInput(forms.TextInput):
    """Shows a tile as its face reads (5p → 5筒), on either language's page, as the keyboard writes it."""

    def format_value(self, value):
        code = one_tile(value)
        return parse_tile(code).hanzi if code in TILE_CODES else super().format_value(value)


class OneTileField(forms.CharField):
    """One tile typed as notation (5p, 5筒), for the meld rows: four rows a seat made sixteen
    28-option menus, two thirds of the round page's markup (issue 15). The tile keyboard fills
    it with the page's script; without one, a player types the tile as he types a hand. What is
    not one tile is kept as typed, for the seat's melds to name (`record.seat_draft`)."""

    def __init__(self, **kwargs):
        attrs = {"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false",
                 "class": "meld-tile", "maxlength": "4", "size": "3", "placeholder": _("如 5筒")}
        super().__init__(required=False, max_length=8, widget=MeldTileInput(attrs=attrs), **kwargs)

    def to_python(self, value) -> str:
        return one_tile(super().to_python(value))


MAX_NOTATION = 100  # 14 tiles typed one by one with names and spaces ("1万 2万 …") is about 50


def _notation(label, **kw) -> forms.CharField:
    attrs = {"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false", "class": "tile-notation"}
    return forms.CharField(label=label, required=False, max_length=MAX_NOTATION,
                           widget=forms.TextInput(attrs=attrs), **kw)


def _buttons() -> forms.RadioSelect:
    """A choice drawn as a row of buttons (one tap, where a menu takes two: open it, pick); radios,
    so it works without JavaScript. The template draws them (_entry_choice_buttons.html)."""
    return forms.RadioSelect(attrs={"class": "btn-check"})


def _offer_seats(form: forms.Form, names: list[str]) -> None:
    """One choice per seat for each of the form's `seat_fields`, after a blank where it has one
    (`RoundEntry._fitted` drops a seat's choices by the same list)."""
    for name, blank in form.seat_fields.items():
        choices = [(i, seat_name) for i, seat_name in enumerate(names)]
        form.fields[name].choices = [("", blank), *choices] if blank is not None else choices


class RoundForm(SwitchesMixin, forms.Form):
    """The round-level fields: rules, stake, dealer, the outcome and the chicken facts."""

    preset = forms.ChoiceField(label=_("规则"), choices=list(PRESET_TITLES.items()),
                               initial="guiyang")
    stake = forms.CharField(label=_("底注"), initial="1", max_length=20,
                            widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}))
    dealer = forms.TypedChoiceField(label=_("庄家"), coerce=int, initial=0, widget=_buttons())
    result = forms.ChoiceField(label=_("怎么结束的"), choices=RESULT_CHOICES, initial="discard",
                               widget=forms.RadioSelect(attrs={"class": "btn-check"}))
    winners = forms.TypedMultipleChoiceField(label=_("谁胡了"), coerce=int, required=False,
                                             widget=forms.CheckboxSelectMultiple(attrs={"class": "btn-check"}))
    win_tile = _tile_field(_("胡的哪张"), _("选牌"))
    from_seat = forms.TypedChoiceField(label=_("谁点的炮"), coerce=int, empty_value=None, required=False,
                                       widget=_buttons())
    hot_kong = _tile_field(_("热炮：点炮的人刚杠了"), _("不是热炮"))
    robbed = _switch(_("抢杠（胡的是点炮家补杠的牌）"))
    after_kong = _switch(_("杠上开花"))
    first_draw = _switch(_("天胡/地胡"))  # R62
    kai_ju_gen = _record_switch(_("开局跟"), _("其余每家的第一张都跟庄家的第一张一样"), played_by="gen_zhuang")  # R63
    passed_before = _switch(_("过水（胡牌的人漏胡过，包牌）"))
    turned = _tile_field(_("翻牌"), _("没有翻牌"))
    first_yaoji_seat = forms.TypedChoiceField(label=_("第一张幺鸡谁打的"), coerce=int, empty_value=None,
                                              required=False, widget=_buttons())
    first_yaoji_claimed_by = forms.TypedChoiceField(label=_("谁碰或杠了它"), coerce=int, empty_value=None,
                                                    required=False, widget=_buttons())
    # 冲锋乌骨鸡 (R70): the first 8筒, asked the same way; only rules playing R70 read it.
    first_wu_gu_ji_seat = forms.TypedChoiceField(label=_("第一张 8筒 谁打的"), coerce=int, empty_value=None,
                                                 required=False, widget=_buttons())
    first_wu_gu_ji_claimed_by = forms.TypedChoiceField(label=_("谁碰或杠了这张 8筒"), coerce=int, empty_value=None,
                                                       required=False, widget=_buttons())

    # A seat field's blank choice, where it has one: 点炮's seat has none (no button checked is
    # blank, and it only matters once someone is chosen).
    seat_fields = {"dealer": None, "winners": None, "from_seat": None,
                   "first_yaoji_seat": _("没人"), "first_yaoji_claimed_by": _("没人"),
                   "first_wu_gu_ji_seat": _("没人"), "first_wu_gu_ji_claimed_by": _("没人")}

    def __init__(self, *args, names: list[str], fixed_rules: bool, fixed_stake: bool,
                 rules: RuleSet | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.fixed_fields(fixed_rules=fixed_rules, fixed_stake=fixed_stake):
            del self.fields[name]
        for name in self.record_switches:  # `rules`: an evening's, which may leave a switch moot
            played_by = self.fields[name].played_by
            held = self.initial.get(name) or self.add_prefix(name) in self.data  # a stored round's stays
            if rules is not None and played_by and not getattr(rules, played_by) and not held:
                del self.fields[name]
        _offer_seats(self, names)

    @staticmethod
    def fixed_fields(*, fixed_rules: bool, fixed_stake: bool) -> tuple[str, ...]:
        """The fields an evening fixes for the whole table (R41), and so leaves off the form."""
        return (("preset", *ROUND_OPTION_FIELDS) if fixed_rules else ()) + (("stake",) if fixed_stake else ())

    @property
    def option_fields(self) -> list[forms.BoundField]:
        """The rule options this form offers (those of presentation.options marked `round_form`)."""
        return [self[name] for name in ROUND_OPTION_FIELDS if name in self.fields]


# The rule options the stateless round form offers, built from the one OPTIONS table (a yes/no
# option is a switch). An evening fixes them, so its round form drops them with the preset.
ROUND_OPTIONS = [option for option in OPTIONS if option.round_form]
for _option in ROUND_OPTIONS:
    RoundForm.base_fields.update(option_fields(_option, switch=True))
ROUND_OPTION_FIELDS = tuple(name for option in ROUND_OPTIONS for name in option_fields(option, switch=True))
RoundForm.record_switches = _record_switches(RoundForm)


class SeatForm(SwitchesMixin, forms.Form):
    """One seat: its name, concealed tiles (notation), chicken discards, 报听, and its switches
    (相公, 没叫), each kept in the seat's record under the field's name."""

    name = forms.CharField(label=_("名字"), required=False, max_length=40)
    concealed = _notation(_("手牌"))
    discards = _notation(_("打出没人要的鸡"))
    declared = forms.ChoiceField(label=_("报听"), required=False, choices=DECLARED_CHOICES, widget=_buttons())
    xiang_gong = _record_switch(_("相公"), _("牌数不对"))
    mei_jiao = _record_switch(_("没叫（没亮牌）"))  # drawn above the hand, which it hides

    seat_fields: dict = {}
    drawn_apart = ("mei_jiao",)

    def __init__(self, *args, fixed_name: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if fixed_name:
            del self.fields["name"]


SeatForm.record_switches = _record_switches(SeatForm)


class MeldForm(forms.Form):
    """One meld: 碰 or one of the three 豆, its tile, whose discard it took, and 憨包豆."""

    kind = forms.ChoiceField(label=_("副露"), required=False, choices=MELD_CHOICES)
    tile = OneTileField(label=_("牌"))
    from_seat = forms.TypedChoiceField(label=_("谁打的"), coerce=int, empty_value=None, required=False)
    late = forms.BooleanField(label=_("憨包豆"), required=False)

    seat_fields = {"from_seat": _("谁打的")}

    def __init__(self, *args, names: list[str], seat: int | None = None, row: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.row = row  # its place among the seat's rows, from 0 (None for the formset's empty form)
        _offer_seats(self, names)
        if seat is not None:  # a meld is never taken from its own seat's discard: not offered (the
            # widget's list only: posted anyway, the record's check says why it cannot be)
            self.fields["from_seat"].widget.choices = [c for c in self.fields["from_seat"].choices if c[0] != seat]


class BaseMeldFormSet(forms.BaseFormSet):
    """A seat's meld rows; each form knows its row."""

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "row": index}


# Four rows per seat (a seat has at most four melds); pre-filled rows count towards the four.
MeldFormSet = forms.formset_factory(MeldForm, formset=BaseMeldFormSet, extra=MAX_MELDS, max_num=MAX_MELDS,
                                    validate_max=True, absolute_max=MAX_MELDS)


@lru_cache(maxsize=4096)
def clean_notation(text: str) -> str:
    """Typed notation in the form scoring reads; sorted (R2) when it parses, as typed when not.

    Kept for the last few thousand texts: the live preview reads each seat's hand and chicken
    discards for the record and again for the seat's standing, on every change."""
    text = (text or "").translate(NOTATION_ALIASES).strip()
    try:
        return format_tiles(parse_tiles(text))
    except TileSyntaxError:
        return text
