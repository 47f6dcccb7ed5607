"""Reads of a 固定桌 (issue 24): look-ups by address, its season (per player, head-to-head, trend,
awards) over any dates, and the rounds behind each figure.

Every figure is a sum of what the stored rounds keep (`RoundStats`, written with each round's
settlement: `scoring.stats.round_stats`), so nothing is re-scored and a season costs the same few queries
however many evenings it spans: the evenings with their seats, the roster, and one list of every
round's (evening, number, dealer, counts). Money is each evening's points × its own stake.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..models import Evening, EveningStats, Player, RoundStats, Table, TablePlayer
from ..presentation import format_money, sign_class, signed
from ..presentation.chart import Series, colour_class, running_totals_svg
from ..presentation.words import ALL_PATTERN_TITLES
from ..scoring.stats import DOU_KINDS

Key = Hashable  # who a figure is about: a roster player's id at a table, a seat in one evening

# -- look-ups ----------------------------------------------------------------------------------


def table_for_editing(*, token: str) -> Table:
    """The table at its edit address; raises Table.DoesNotExist."""
    return Table.objects.get(token=token)


def table_for_reading(*, read_token: str) -> Table:
    """The table at its read-only address; raises Table.DoesNotExist."""
    return Table.objects.get(read_token=read_token)


def table_roster(*, table: Table) -> list[TablePlayer]:
    return list(table.roster.all())


def seat_link_target(*, table: Table, evening_id: int, seat: int, member_id: int | None
                     ) -> tuple[Evening, TablePlayer | None] | None:
    """这个座位是谁: the table's evening and roster member a seat link names, or None when the
    evening is not the table's, has no such seat, or the member is not on its roster."""
    evening = table.evenings.filter(pk=evening_id).first()
    member = table.roster.filter(pk=member_id).first() if member_id else None
    if evening is None or (member_id and member is None) or not evening.players.filter(seat=seat).exists():
        return None
    return evening, member


def table_evenings(*, table: Table) -> QuerySet[Evening]:
    """The table's evenings, the latest first, with their seats and who sat in them."""
    return (Evening.objects.filter(table=table).order_by("-created_at", "-id")
            .prefetch_related("players__member"))


# -- the period --------------------------------------------------------------------------------

PERIODS = ("month", "year", "all", "custom")


@dataclass(frozen=True)
class Period:
    kind: str  # one of PERIODS
    start: date | None  # inclusive; None: from the first evening
    end: date | None  # inclusive; None: up to now

    @classmethod
    def of(cls, kind: str, *, start: date | None = None, end: date | None = None,
           today: date | None = None) -> Period:
        today = today or timezone.localdate()
        if kind == "month":
            return cls(kind, today.replace(day=1), None)
        if kind == "year":
            return cls(kind, today.replace(month=1, day=1), None)
        if kind == "custom":
            return cls(kind, start, end)
        return cls("all", None, None)

    def evenings(self, queryset: QuerySet, field: str = "created_at") -> QuerySet:
        """The rows of the evenings opened within the period (`field`: the evening's opening
        time; the site's time zone decides the day)."""
        if self.start:
            queryset = queryset.filter(**{f"{field}__gte": _midnight(self.start)})
        if self.end:
            queryset = queryset.filter(**{f"{field}__lt": _midnight(self.end + timedelta(days=1))})
        return queryset

    def query(self) -> str:
        """The period as the season page's query string, for links that keep it."""
        parts = [f"period={self.kind}"]
        if self.kind == "custom":
            parts += [f"start={self.start.isoformat()}" if self.start else "",
                      f"end={self.end.isoformat()}" if self.end else ""]
        return "&".join(p for p in parts if p)


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


# -- one player's figures ----------------------------------------------------------------------

COUNTED = ("hu", "zimo", "pao", "jiao", "chong_feng", "ze_ren", "ze_ren_points", "hot_won", "hot_fed",
           "rob_won", "rob_lost", *(f"dou_{k}" for k in DOU_KINDS))
# Figures whose rounds a page can list (`figure_rounds`): a count's name, or one of these.
FIGURES = (*COUNTED, "rounds", "draw", "dou", "hot", "rob", "dealer_streak")


@dataclass(frozen=True)
class RoundRef:
    """A round a figure comes from: which evening, its number, and its read-only page."""

    evening_id: int
    number: int
    url: str
    when: str
    points: int = 0

    @property
    def points_text(self) -> str:
        return signed(self.points)

    @property
    def sign(self) -> str:
        return sign_class(self.points)


@dataclass
class PlayerStats:
    key: Key
    name: str
    colour: int = 0
    rounds: int = 0
    points: int = 0
    money: Decimal = Decimal(0)
    draws: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTED, 0))
    evening_points: dict[int, int] = field(default_factory=dict)  # evening id → points that evening
    biggest: tuple[int, str | None, RoundRef] | None = None  # points, pattern key, the round
    streak: tuple[int, RoundRef] | None = None  # the longest run of rounds dealt in a row, its first round

    @property
    def evenings(self) -> int:
        return len(self.evening_points)

    @property
    def dou(self) -> int:
        return sum(self.counts[f"dou_{k}"] for k in DOU_KINDS)

    def rate(self, count: str, of: int | None = None) -> str:
        """A count as a share of the rounds (or of `of`), in whole percent; — when there are none."""
        whole = self.rounds if of is None else of
        return f"{round(100 * self.counts[count] / whole)}%" if whole else "—"

    @property
    def rate_hu(self) -> str:
        return self.rate("hu")

    @property
    def rate_zimo(self) -> str:
        return self.rate("zimo")

    @property
    def rate_pao(self) -> str:
        return self.rate("pao")

    @property
    def jiao_rate(self) -> str:
        return self.rate("jiao", self.draws)

    @property
    def average(self) -> str:
        if not self.rounds:
            return "—"
        return signed((Decimal(self.points) / self.rounds).quantize(Decimal("0.1")))

    @property
    def points_text(self) -> str:
        return signed(self.points)

    @property
    def money_text(self) -> str:
        return signed(format_money(self.money))

    @property
    def sign(self) -> str:
        return sign_class(self.points)

    @property
    def colour_class(self) -> str:
        return colour_class(self.colour)

    @property
    def biggest_text(self) -> str:
        if self.biggest is None:
            return "—"
        points, pattern, _ref = self.biggest
        title = ALL_PATTERN_TITLES.get(pattern or "")
        return f"{signed(points)}" + (f" {title}" if title else "")

    @property
    def dealer_streak(self) -> int:
        """连庄: the most times in a row the player kept the deal (a run of k rounds dealt is k − 1)."""
        return self.streak[0] - 1 if self.streak else 0


@dataclass(frozen=True)
class Award:
    title: str
    names: list[str]
    value: str
    url: str = ""  # the round (最大一手) or the rounds behind the figure
    number: int = 0  # 最大一手: the round's number (an evening's page links it at its own address)


@dataclass(frozen=True)
class HeadToHead:
    names: list[str]
    keys: list[Key]
    cells: list[list[int]]  # cells[a][b]: what a received from b, net (− when a paid b more)

    def rows(self) -> list[tuple[str, Key, list[tuple[Key, int, str, str]], str]]:
        """(name, key, [(other key, points, text, sign class)], row total text) for the template."""
        return [(name, key, [(self.keys[b], cell, "" if a == b else signed(cell), sign_class(cell))
                             for b, cell in enumerate(self.cells[a])], signed(sum(self.cells[a])))
                for a, (name, key) in enumerate(zip(self.names, self.keys))]


@dataclass(frozen=True)
class Season:
    table: Table | None
    period: Period | None
    min_rounds: int
    players: list[PlayerStats]  # the shown ones (at least `min_rounds`), best net first
    everyone: list[PlayerStats]
    head_to_head: HeadToHead
    awards: list[Award]
    evening_count: int
    round_count: int
    chart_svg: str
    evenings: list[Evening]  # oldest first


# -- adding up ---------------------------------------------------------------------------------

RoundRow = tuple[int, int, list[int], int, dict]  # evening id, number, net, dealer, stats


def _round_url(evening: Evening, number: int) -> str:
    return reverse("calculator:evening_follow_round", args=[evening.read_token, number])


def _evening_day(evening: Evening) -> str:
    """The evening as a list of rounds names it: its title, else its day (12月2日, Dec 2)."""
    if evening.title:
        return evening.title
    when = timezone.localtime(evening.created_at)
    if not (get_language() or "zh-hans").startswith("zh"):
        return date_format(when, "M j")
    return f"{when.month}月{when.day}日"


@dataclass
class _Tally:
    players: dict[Key, PlayerStats]
    flows: dict[tuple[Key, Key], int]  # (payer, payee) → points, summed over the rounds


def _add_up(summaries: Iterable[tuple[int, dict]], evenings: dict[int, Evening], key_of: Callable[[int, int], Key],
            name_of: Callable[[Key], str]) -> _Tally:
    """Every figure of every player: each evening's sums by seat (`EveningStats`, see
    `scoring.stats.evening_summary`) added to the players who sat there. Evenings in order."""
    players: dict[Key, PlayerStats] = {}
    flows: dict[tuple[Key, Key], int] = defaultdict(int)
    best: dict[Key, tuple[int, str | None, int, int]] = {}  # points, pattern, evening id, number
    streaks: dict[Key, tuple[int, int, int]] = {}  # rounds dealt in a row, evening id, first number
    for evening_id, summary in summaries:
        if not summary.get("rounds"):
            continue
        stake = evenings[evening_id].stake
        keys = [key_of(evening_id, seat) for seat in range(summary["n"])]
        for seat, key in enumerate(keys):
            who = players.get(key)
            if who is None:
                who = players[key] = PlayerStats(key=key, name=name_of(key), colour=len(players))
            points = summary["net"][seat]
            who.rounds += summary["rounds"]
            who.draws += summary["draws"]
            who.points += points
            who.money += points * stake
            who.evening_points[evening_id] = who.evening_points.get(evening_id, 0) + points
            for name, values in summary["c"].items():
                who.counts[name] += values[seat]
            big = summary["big"][seat]
            if big is not None and (key not in best or big[0] > best[key][0]):
                best[key] = (big[0], big[1], evening_id, big[2])
            run = summary["run"][seat]
            if run is not None and (key not in streaks or run[0] > streaks[key][0]):
                streaks[key] = (run[0], evening_id, run[1])
        for payer, payee, points in summary["m"]:
            flows[keys[payer], keys[payee]] += points
    for key, (points, pattern, at, number) in best.items():
        players[key].biggest = (points, pattern, _ref(evenings[at], number, points))
    for key, (length, at, number) in streaks.items():
        players[key].streak = (length, _ref(evenings[at], number))
    return _Tally(players, flows)


def _figure_refs(rows: Iterable[RoundRow], evenings: dict[int, Evening], key_of: Callable[[int, int], Key],
                 key: Key, figure: str) -> list[RoundRef]:
    """The rounds behind one figure of one player, oldest first, from the rounds' own counts."""
    refs = []
    for evening_id, number, net, _dealer, stats in rows:
        keys = [key_of(evening_id, seat) for seat in range(len(net))]
        if key in keys and _counts_toward(figure, stats, keys.index(key), keys):
            refs.append(_ref(evenings[evening_id], number, net[keys.index(key)]))
    return refs


def _ref(evening: Evening, number: int, points: int = 0) -> RoundRef:
    return RoundRef(evening.pk, number, _round_url(evening, number), _evening_day(evening), points)


def _counts_toward(name: str, stats: dict, seat: int, keys: list[Key]) -> bool:
    """Whether one round counts toward figure `name` of the player in `seat`."""
    counts = stats.get("c", {})

    def has(count: str) -> bool:
        return bool(counts.get(count, ())[seat:seat + 1] and counts[count][seat])

    if name == "rounds":
        return True
    if name == "draw":
        return bool(stats.get("draw"))
    if name == "dou":
        return any(has(f"dou_{k}") for k in DOU_KINDS)
    if name == "hot":
        return has("hot_won") or has("hot_fed")
    if name == "rob":
        return has("rob_won") or has("rob_lost")
    if name.startswith("vs:"):
        others = {b for b, key in enumerate(keys) if str(key) == name[3:] and b != seat}
        return any((payer == seat and payee in others) or (payee == seat and payer in others)
                   for payer, payee, _points in stats.get("m", ()))
    return name in COUNTED and has(name)


def awards_of(players: list[PlayerStats], *, rounds_url: Callable[[Key, str], str] | None = None) -> list[Award]:
    """冲锋鸡王, 点炮王, 豆王, 最大一手, 连庄王: the players with the most of each (ties share it);
    an award nobody earned (all zero) is left out."""
    def most(title: str, value: Callable[[PlayerStats], int], text: Callable[[int], str], figure: str) -> Award | None:
        best = max((value(p) for p in players), default=0)
        if best <= 0:
            return None
        winners = [p for p in players if value(p) == best]
        url = rounds_url(winners[0].key, figure) if rounds_url and len(winners) == 1 else ""
        return Award(title, [p.name for p in winners], text(best), url)

    awards = [
        most(_("冲锋鸡王"), lambda p: p.counts["chong_feng"], lambda n: _("{n} 次冲锋鸡").format(n=n), "chong_feng"),
        most(_("点炮王"), lambda p: p.counts["pao"], lambda n: _("点炮 {n} 次").format(n=n), "pao"),
        most(_("豆王"), lambda p: p.dou, lambda n: _("{n} 个豆").format(n=n), "dou"),
    ]
    big = [p for p in players if p.biggest is not None]
    if big:
        best = max(p.biggest[0] for p in big)
        top = [p for p in big if p.biggest[0] == best]
        awards.append(Award(_("最大一手"), [p.name for p in top], top[0].biggest_text, top[0].biggest[2].url,
                            top[0].biggest[2].number))
    awards.append(most(_("连庄王"), lambda p: p.dealer_streak, lambda n: _("连庄 {n} 把").format(n=n),
                       "dealer_streak"))
    return [a for a in awards if a is not None]


def _head_to_head(players: list[PlayerStats], flows: dict[tuple[Key, Key], int]) -> HeadToHead:
    keys = [p.key for p in players]
    cells = [[flows.get((b, a), 0) - flows.get((a, b), 0) for b in keys] for a in keys]
    return HeadToHead([p.name for p in players], keys, cells)


def _trend(players: list[PlayerStats], evenings: list[Evening]) -> str:
    """Each player's running net after each evening, drawn by the evening chart's code."""
    series = []
    for p in players:
        running, values = 0, [0]
        for evening in evenings:
            running += p.evening_points.get(evening.pk, 0)
            values.append(running)
        series.append(Series(p.name, values))
    return running_totals_svg(series, title=_("每人累计走势（按晚）"), x_label=_("晚"), empty_text=_("这段时间没有打"))


# -- a table's season --------------------------------------------------------------------------


def _season_rounds(table: Table, period: Period) -> QuerySet[RoundStats]:
    rounds = period.evenings(RoundStats.objects.filter(evening__table=table), field="evening__created_at")
    return rounds.order_by("evening__created_at", "evening_id", "number")


def _load(table: Table, period: Period):
    """The period's evenings (oldest first, without their rules), who sat where, the roster, and
    each evening's sums by seat (`EveningStats`): four queries, whatever the number of evenings."""
    evenings = list(period.evenings(Evening.objects.filter(table=table)).order_by("created_at", "id")
                    .only("id", "token", "read_token", "title", "created_at", "stake", "table_id"))
    members = {m.pk: m.name for m in table.roster.all()}
    seats = period.evenings(Evening.objects.filter(table=table)).values_list(
        "id", "players__seat", "players__name", "players__member_id")
    seat_key: dict[tuple[int, int], Key] = {
        (evening_id, seat): member if member in members else f"name:{name}"
        for evening_id, seat, name, member in seats if seat is not None}
    summaries = dict(period.evenings(EveningStats.objects.filter(evening__table=table), field="evening__created_at")
                     .values_list("evening_id", "data"))
    by_id = {e.pk: e for e in evenings}

    def name_of(key: Key) -> str:
        return members[key] if key in members else str(key).removeprefix("name:") if str(key).startswith("name:") else ""

    return evenings, by_id, (lambda e, s: seat_key[e, s]), name_of, [(e.pk, summaries.get(e.pk, {})) for e in evenings]


def _round_rows(table: Table, period: Period) -> list[RoundRow]:
    """Every round of the period: (evening, number, net, dealer, counts), evening by evening."""
    return [(evening_id, number, stats["net"], dealer, stats) for evening_id, number, dealer, stats
            in _season_rounds(table, period).values_list("evening_id", "number", "dealer", "data")]


def table_season(*, table: Table, period: Period, min_rounds: int = 0,
                 rounds_url: Callable[[Key, str], str] | None = None) -> Season:
    """The season page: every figure of every player over the period's evenings, the
    head-to-head of everyone, the trend and the awards of the players with `min_rounds` rounds
    or more. Five queries, whatever the number of evenings."""
    evenings, by_id, key_of, name_of, summaries = _load(table, period)
    tally = _add_up(summaries, by_id, key_of, name_of)
    everyone = sorted(tally.players.values(), key=lambda p: (-p.points, p.name))
    shown = [p for p in everyone if p.rounds >= min_rounds]
    return Season(
        table=table, period=period, min_rounds=min_rounds, players=shown, everyone=everyone,
        head_to_head=_head_to_head(everyone, tally.flows), awards=awards_of(shown, rounds_url=rounds_url),
        evening_count=len(evenings), round_count=sum(summary.get("rounds", 0) for _e, summary in summaries),
        chart_svg=_trend(shown, evenings), evenings=evenings,
    )


def figure_rounds(*, table: Table, period: Period, key: Key, figure: str) -> tuple[str, list[RoundRef]]:
    """The rounds behind one figure of one player (the season page links every figure here):
    the player's name and the rounds, oldest first."""
    evenings, by_id, key_of, name_of, summaries = _load(table, period)
    if figure == "dealer_streak":
        streak = _add_up(summaries, by_id, key_of, name_of).players.get(key)
        return name_of(key), [streak.streak[1]] if streak and streak.streak else []
    return name_of(key), _figure_refs(_round_rows(table, period), by_id, key_of, key, figure)


def member_key(value: str) -> Key:
    """A player's key as a link writes it: a roster id, or name:<name> for a seat of no roster player."""
    return int(value) if value.isdigit() else value


# -- one evening -------------------------------------------------------------------------------


def evening_awards(*, evening: Evening) -> list[Award]:
    """The evening's awards, by seat: the season's figures over its rounds only (one query)."""
    names = [p.name for p in evening.players.all()]
    summary = EveningStats.objects.filter(evening=evening).values_list("data", flat=True).first() or {}
    tally = _add_up([(evening.pk, summary)], {evening.pk: evening}, lambda _e, seat: seat, lambda seat: names[seat])
    return awards_of(list(tally.players.values()))


def evening_seats(*, evenings: Iterable[Evening]) -> list[tuple[Evening, list[Player]]]:
    return [(e, list(e.players.all())) for e in evenings]


# -- CSV ---------------------------------------------------------------------------------------

CSV_COUNTS = (("hu", "胡"), ("zimo", "自摸"), ("pao", "点炮"), ("jiao", "荒庄有叫"), ("dou_men", "闷豆"),
              ("dou_zhuanwan", "转弯豆"), ("dou_dian", "点豆"), ("chong_feng", "冲锋鸡"), ("ze_ren", "责任鸡"),
              ("ze_ren_points", "责任鸡番数"), ("hot_won", "热炮胡"), ("hot_fed", "放热炮"), ("rob_won", "抢杠胡"),
              ("rob_lost", "被抢杠"))


def _csv_evening(evening: Evening) -> list[str]:
    return [timezone.localtime(evening.created_at).date().isoformat(), evening.title]


def season_csv(*, table: Table, period: Period, per: str = "evening") -> list[list[str]]:
    """The season as rows for a spreadsheet, one header row first: one row per player per evening
    (`per="evening"`) or per player per round (`per="round"`). The same stored counts as the page."""
    evenings, by_id, key_of, name_of, summaries = _load(table, period)
    counts = [c for c, _title in CSV_COUNTS]
    titles = [t for _c, t in CSV_COUNTS]
    if per == "round":
        out = [["日期", "这一晚", "局", "座位", "玩家", "庄家", "番", "元", "底注", *titles]]
        for evening_id, number, net, dealer, stats in _round_rows(table, period):
            evening = by_id[evening_id]
            for seat, points in enumerate(net):
                out.append([*_csv_evening(evening), str(number), str(seat), name_of(key_of(evening_id, seat)),
                            "1" if seat == dealer else "0", str(points),
                            format_money(Decimal(points) * evening.stake), format_money(evening.stake),
                            *(str(stats.get("c", {}).get(c, [0] * len(net))[seat]) for c in counts)])
        return out
    tally = _add_up(summaries, by_id, lambda e, s: (e, key_of(e, s)), lambda key: name_of(key[1]))
    out = [["日期", "这一晚", "玩家", "局数", "番", "元", "底注", *titles]]
    order = {e.pk: i for i, e in enumerate(evenings)}
    for who in sorted(tally.players.values(), key=lambda p: (order[p.key[0]], p.colour)):
        evening = by_id[who.key[0]]
        out.append([*_csv_evening(evening), who.name, str(who.rounds), str(who.points), format_money(who.money),
                    format_money(evening.stake), *(str(who.counts[c]) for c in counts)])
    return out
