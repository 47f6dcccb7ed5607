"""The round record (RULES §3): typed, immutable, read from JSON-shaped data.

`parse_record` checks the record's shape, notation and seat numbers and reports every problem
at once; the game-legality checks that need hand analysis live in `validate`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from .hands import Hand
from .problems import Problem, RecordInvalid, problem
from .problems import gettext_noop as _
from .rules import RuleSet, rules_for
from .tiles import Tile, TileSyntaxError, format_tiles, parse_tile, parse_tiles

SEAT_NAMES = ("东", "南", "西", "北")
KONG_KINDS = ("men", "zhuanwan", "dian")
MELD_HANZI = {"pong": "碰", "men": "闷豆", "zhuanwan": "转弯豆", "dian": "点豆", "late": "憨包豆"}
MAX_NAME = 40
MAX_TILES_TEXT = 200
MAX_STAKE = Decimal("1000000")


@dataclass(frozen=True, slots=True)
class Meld:
    """碰 (pong) or 杠 (kong, a 豆). `kind` is men/zhuanwan/dian for kongs; `late` is 憨包豆."""

    type: str
    tile: Tile
    kind: str | None = None
    from_seat: int | None = None
    late: bool = False

    @property
    def is_kong(self) -> bool:
        return self.type == "kong"

    @property
    def size(self) -> int:
        return 4 if self.is_kong else 3

    @property
    def code(self) -> str:
        """pong, men, zhuanwan, dian, or late (憨包豆): the meld's word in `presentation.words`."""
        if self.late:
            return "late"
        return self.kind if self.is_kong else "pong"

    @property
    def hanzi(self) -> str:
        return MELD_HANZI[self.code]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "tile": str(self.tile)}
        if self.is_kong:
            data["kind"] = self.kind
        if self.from_seat is not None:
            data["from"] = self.from_seat
        if self.late:
            data["late"] = True
        return data


@dataclass(frozen=True, slots=True)
class SeatRecord:
    name: str
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    discards: tuple[Tile, ...] = ()
    declared: str | None = None
    xiang_gong: bool = False
    mei_jiao: bool = False  # 没叫（没亮牌）: not ready, concealed tiles not shown

    def hand(self) -> Hand:
        return Hand.of(self.concealed, [(m.tile, m.size) for m in self.melds])

    @property
    def kongs(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.melds if m.is_kong)

    def to_dict(self) -> dict[str, Any]:
        data = {
            "name": self.name,
            "concealed": format_tiles(self.concealed),
            "melds": [m.to_dict() for m in self.melds],
            "discards": format_tiles(self.discards),
            "declared": self.declared,
            "xiang_gong": self.xiang_gong,
        }
        if self.mei_jiao:  # only when set, so records written before the field read the same
            data["mei_jiao"] = True
        return data


@dataclass(frozen=True, slots=True)
class Winner:
    seat: int
    tile: Tile
    passed_before: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """荒庄 (`draw`) or a win: `from_seat` None is 自摸; otherwise the discarder (or robbed seat)."""

    type: str
    from_seat: int | None = None
    winners: tuple[Winner, ...] = ()
    after_kong: bool = False
    hot_kong: Tile | None = None
    robbed: bool = False
    first_draw: bool = False  # 天胡/地胡 (R62): the dealer's first 14, or a non-dealer's first draw

    @property
    def is_draw(self) -> bool:
        return self.type == "draw"

    @property
    def is_self_draw(self) -> bool:
        return not self.is_draw and self.from_seat is None

    @property
    def winner_seats(self) -> tuple[int, ...]:
        return tuple(w.seat for w in self.winners)

    def to_dict(self) -> dict[str, Any]:
        if self.is_draw:
            return {"type": "draw"}
        winners = []
        for w in self.winners:
            item: dict[str, Any] = {"seat": w.seat, "tile": str(w.tile)}
            if w.passed_before:
                item["passed_before"] = True
            winners.append(item)
        return {
            "type": "win",
            "from": self.from_seat,
            "winners": winners,
            "after_kong": self.after_kong,
            "hot_kong": str(self.hot_kong) if self.hot_kong else None,
            "robbed": self.robbed,
            # Only when set, so records from before R62 read (and digest) as they did.
            **({"first_draw": True} if self.first_draw else {}),
        }


@dataclass(frozen=True, slots=True)
class FirstYaoji:
    """The round's first discarded 幺鸡 (or, `first_wu_gu_ji`, 8筒): who discarded it, who (if
    anyone) claimed it."""

    seat: int
    claimed_by: int | None = None


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What a ledger knows of a round that its form does not (R41): which seat dealt the rounds
    just before it and how many in a row (连庄, R59), and the day it is played (星期鸡, R64). The
    preview and the stored round take them from here alike, so what the table sees scored (and
    confirms) is what is stored."""

    last_dealer: int | None = None
    run: int = 0
    weekday: int | None = None

    def fields(self, dealer: Any, rules: RuleSet) -> dict[str, int]:
        """The record's `dealer_streak` and `weekday` for a round dealt by `dealer`, where played."""
        return {
            **({"dealer_streak": self.run} if rules.dealer_streak_bonus and dealer == self.last_dealer and self.run
               else {}),
            **({"weekday": self.weekday} if rules.xing_qi_ji and self.weekday else {}),
        }


@dataclass(frozen=True, slots=True)
class RoundRecord:
    rules: RuleSet
    stake: Decimal
    dealer: int
    seats: tuple[SeatRecord, ...]
    turned: Tile | None
    first_yaoji: FirstYaoji | None
    outcome: Outcome
    dealer_streak: int = 0  # rounds the dealer has dealt in a row before this one (连庄, R59): the evening's
    kai_ju_gen: bool = False  # 开局跟 (R63): every other seat's first discard followed the dealer's
    weekday: int | None = None  # 星期鸡 (R64): the day the round was played, 1 Monday … 7 Sunday: the evening's
    first_wu_gu_ji: FirstYaoji | None = None  # 冲锋乌骨鸡 (R70): the round's first discarded 8筒

    @property
    def players(self) -> int:
        return len(self.seats)

    def others(self, seat: int) -> list[int]:
        return [s for s in range(self.players) if s != seat]

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (tiles sorted); parsing it gives back an equivalent record."""
        return {
            "preset": self.rules.preset,
            "options": self.rules.options(),
            "stake": str(self.stake),
            "dealer": self.dealer,
            "seats": [s.to_dict() for s in self.seats],
            "turned": str(self.turned) if self.turned else None,
            "first_yaoji": (
                {"seat": self.first_yaoji.seat, "claimed_by": self.first_yaoji.claimed_by}
                if self.first_yaoji
                else None
            ),
            "outcome": self.outcome.to_dict(),
            # Only when there is one, so records from before R59 read (and digest) as they did.
            **({"dealer_streak": self.dealer_streak} if self.dealer_streak else {}),
            **({"kai_ju_gen": True} if self.kai_ju_gen else {}),  # likewise, only when set (R63)
            **({"weekday": self.weekday} if self.weekday else {}),  # R64
            **({"first_wu_gu_ji": {"seat": self.first_wu_gu_ji.seat, "claimed_by": self.first_wu_gu_ji.claimed_by}}
               if self.first_wu_gu_ji else {}),  # R70, likewise only when there is one
        }


def _decimals(amount: Decimal) -> int:
    """Decimal places the value needs: "5.00000" needs none, "0.25" two."""
    return max(0, -amount.normalize().as_tuple().exponent)


MAX_STREAK = 1000  # rounds in a row one dealer can have dealt, far above any evening


class _Reader:
    """Reads one record, collecting problems instead of stopping at the first."""

    def __init__(self, data: Mapping[str, Any]):
        self.data = data
        self.problems: list[Problem] = []
        self.players = 0

    def add(self, code: str, template: str, **kw: Any) -> None:
        self.problems.append(problem(code, template, **kw))

    def seat_index(self, value: Any, *, field: str, seat: int | None = None, optional: bool = False) -> int | None:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < self.players:
            self.add("bad_seat", _("{value} 不是这桌的座位（0–{last}）。"),
                     seat=seat, field=field, value=value, last=self.players - 1)
            return None
        return value

    def tiles(self, value: Any, *, field: str, seat: int | None = None) -> tuple[Tile, ...]:
        if value is None:
            return ()
        if not isinstance(value, str) or len(value) > MAX_TILES_TEXT:
            self.add("tile_syntax", _("牌要写成 123m55p 这样。"), seat=seat, field=field)
            return ()
        try:
            return tuple(parse_tiles(value))
        except TileSyntaxError as error:
            self.add("tile_syntax", _("“{text}” 不是牌的写法（请写成 123m55p 这样）。"),
                     seat=seat, field=field, text=error.text)
            return ()

    def tile(self, value: Any, *, field: str, seat: int | None = None) -> Tile | None:
        if not isinstance(value, str):
            self.add("tile_syntax", _("这里要填一张牌，例如 4s。"), seat=seat, field=field)
            return None
        try:
            return parse_tile(value)
        except TileSyntaxError:
            self.add("tile_syntax", _("“{text}” 不是一张牌（请写一张牌，例如 4s）。"),
                     seat=seat, field=field, text=value[:20])
            return None

    def flag(self, value: Any, *, field: str, seat: int | None = None) -> bool:
        if value is None:
            return False
        if not isinstance(value, bool):
            self.add("bad_record", _("{field} 只能是 true 或 false。"), seat=seat, field=field)
            return False
        return value

    def mapping(self, value: Any, *, field: str, seat: int | None = None) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.add("bad_record", _("缺少 {field}，或格式不对。"), seat=seat, field=field)
            return {}
        return value

    # -- sections -----------------------------------------------------------------------------

    def rules(self) -> RuleSet | None:
        preset = self.data.get("preset", "guiyang")
        options = self.data.get("options") or {}
        if not isinstance(preset, str) or not isinstance(options, Mapping):
            self.add("bad_option", _("规则预设要写名称，选项要写成对象。"), field="options")
            return None
        rules, problems = rules_for(preset, options)
        self.problems.extend(problems)
        return rules

    def stake(self) -> Decimal:
        raw = self.data.get("stake", "1")
        try:
            if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
                raise InvalidOperation
            stake = Decimal(str(raw).strip())
            if not stake.is_finite() or stake <= 0 or stake > MAX_STAKE or _decimals(stake) > 4:
                raise InvalidOperation
        except (InvalidOperation, ValueError):
            self.add("bad_option", _("底注要是正数，例如 0.5 或 5。"), field="stake")
            return Decimal(1)
        return stake

    def meld(self, raw: Any, seat: int, index: int) -> Meld | None:
        field = f"melds.{index}"
        if not isinstance(raw, Mapping):
            self.add("bad_meld", _("副露要写成对象。"), seat=seat, field=field)
            return None
        kind_of = raw.get("type")
        tile = self.tile(raw.get("tile"), field=field, seat=seat)
        from_seat = self.seat_index(raw.get("from"), field=field, seat=seat, optional=True)
        late = self.flag(raw.get("late"), field=field, seat=seat)
        if kind_of == "pong":
            meld = Meld("pong", tile, None, from_seat, False) if tile else None
            if late:
                self.add("bad_meld", _("只有杠才能是憨包豆。"), seat=seat, field=field)
        elif kind_of == "kong" and raw.get("kind") in KONG_KINDS:
            meld = Meld("kong", tile, raw["kind"], from_seat, late) if tile else None
        else:
            self.add("bad_meld", _("副露只能是碰，或闷豆、转弯豆、点豆三种杠。"), seat=seat, field=field)
            return None
        if meld is None:
            return None
        if meld.kind == "dian" and late:
            self.add("bad_meld", _("点豆不能算憨包豆：只有闷豆和转弯豆才会是憨包豆。"), seat=seat, field=field)
        if meld.type == "pong" or meld.kind == "dian":
            if from_seat == seat:
                self.add("bad_meld", _("{meld}不能碰杠自己打出的牌。"),
                         seat=seat, field=field, meld=meld.hanzi)
        if meld.kind == "men" and raw.get("from") is not None:
            self.add("bad_meld", _("闷豆是自己摸齐的四张，不是从别人那里来的。"), seat=seat, field=field)
        if meld.kind == "dian" and raw.get("from") is None:
            self.add("bad_meld", _("点豆要写明是谁打出的牌。"), seat=seat, field=field)
        return meld

    def seat(self, raw: Any, index: int) -> SeatRecord | None:
        if not isinstance(raw, Mapping):
            self.add("bad_record", _("每个座位要写成对象。"), seat=index, field="seat")
            return None
        name = raw.get("name") or SEAT_NAMES[index]
        if not isinstance(name, str) or len(name) > MAX_NAME:
            self.add("bad_record", _("名字最多 {max} 个字。"), seat=index, field="name", max=MAX_NAME)
            name = SEAT_NAMES[index]
        melds_raw = raw.get("melds") or []
        if not isinstance(melds_raw, list) or len(melds_raw) > 4:
            self.add("bad_meld", _("一家最多四个副露。"), seat=index, field="melds")
            melds_raw = []
        melds = [self.meld(m, index, i) for i, m in enumerate(melds_raw)]
        declared = raw.get("declared")
        if declared not in (None, "hard", "soft"):
            self.add("bad_record", _("报听只能是硬报（hard）、软报（soft）或不报（null）。"), seat=index, field="declared")
            declared = None
        return SeatRecord(
            name=name.strip() or SEAT_NAMES[index],
            concealed=self.tiles(raw.get("concealed", ""), field="concealed", seat=index),
            melds=tuple(m for m in melds if m),
            discards=self.tiles(raw.get("discards", ""), field="discards", seat=index),
            declared=declared,
            xiang_gong=self.flag(raw.get("xiang_gong"), field="xiang_gong", seat=index),
            mei_jiao=self.flag(raw.get("mei_jiao"), field="mei_jiao", seat=index),
        )

    def first_yaoji(self, name: str = "first_yaoji") -> FirstYaoji | None:
        """`first_yaoji`, or (R70) `first_wu_gu_ji`: the same shape for the first 8筒."""
        raw = self.data.get(name)
        if raw is None:
            return None
        raw = self.mapping(raw, field=name)
        seat = self.seat_index(raw.get("seat"), field=name)
        claimed = self.seat_index(raw.get("claimed_by"), field=name, optional=True)
        return FirstYaoji(seat, claimed) if seat is not None else None

    def winner(self, raw: Any, index: int) -> Winner | None:
        raw = self.mapping(raw, field=f"outcome.winners.{index}")
        seat = self.seat_index(raw.get("seat"), field="outcome")
        tile = self.tile(raw.get("tile"), field="outcome", seat=seat)
        passed = self.flag(raw.get("passed_before"), field="outcome", seat=seat)
        if seat is None or tile is None:
            return None
        return Winner(seat, tile, passed)

    def outcome(self) -> Outcome:
        raw = self.mapping(self.data.get("outcome"), field="outcome")
        kind = raw.get("type")
        if kind == "draw":
            return Outcome("draw")
        if kind != "win":
            self.add("bad_outcome", _("结果只能是胡牌或荒庄。"), field="outcome")
            return Outcome("draw")
        winners_raw = raw.get("winners")
        if not isinstance(winners_raw, list) or not 1 <= len(winners_raw) < self.players:
            self.add("bad_outcome", _("胡牌要有 1 到 {most} 家胡。"), field="outcome", most=self.players - 1)
            winners_raw = []
        hot = raw.get("hot_kong")
        return Outcome(
            type="win",
            from_seat=self.seat_index(raw.get("from"), field="outcome", optional=True),
            winners=tuple(w for w in (self.winner(r, i) for i, r in enumerate(winners_raw)) if w),
            after_kong=self.flag(raw.get("after_kong"), field="outcome"),
            hot_kong=self.tile(hot, field="outcome") if hot is not None else None,
            robbed=self.flag(raw.get("robbed"), field="outcome"),
            first_draw=self.flag(raw.get("first_draw"), field="outcome"),
        )

    def read(self) -> RoundRecord:
        rules = self.rules()
        stake = self.stake()
        seats_raw = self.data.get("seats")
        if not isinstance(seats_raw, list) or len(seats_raw) not in (3, 4):
            self.add("bad_seat", _("一局要有 3 或 4 家。"), field="seats")
            raise RecordInvalid(self.problems)
        self.players = len(seats_raw)
        dealer = self.seat_index(self.data.get("dealer", 0), field="dealer")
        seats = [self.seat(raw, i) for i, raw in enumerate(seats_raw)]
        turned_raw = self.data.get("turned")
        turned = self.tile(turned_raw, field="turned") if turned_raw is not None else None
        first_yaoji = self.first_yaoji()
        first_wu_gu_ji = self.first_yaoji("first_wu_gu_ji")
        outcome = self.outcome()
        streak = self.data.get("dealer_streak", 0)
        if isinstance(streak, bool) or not isinstance(streak, int) or not 0 <= streak <= MAX_STREAK:
            self.add("bad_record", _("dealer_streak 要是 0 到 1000 的整数（庄家连庄了几局）。"), field="dealer_streak")
        kai_ju_gen = self.flag(self.data.get("kai_ju_gen"), field="kai_ju_gen")
        weekday = self.data.get("weekday")
        if weekday is not None and (isinstance(weekday, bool) or weekday not in range(1, 8)):
            self.add("bad_record", _("weekday 要是 1 到 7 的整数（星期一到星期日）。"), field="weekday")
        if self.problems or rules is None or dealer is None or None in seats:
            raise RecordInvalid(self.problems)
        return RoundRecord(rules, stake, dealer, tuple(seats), turned, first_yaoji, outcome, streak, kai_ju_gen,
                           weekday, first_wu_gu_ji)


def parse_record(data: Any) -> RoundRecord:
    """Read a round record (a JSON object); raises `RecordInvalid` listing every problem."""
    if not isinstance(data, Mapping):
        raise RecordInvalid([problem("bad_record", _("牌局记录必须是一个 JSON 对象。"))])
    return _Reader(data).read()
