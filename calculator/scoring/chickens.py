"""鸡: chickens held, melded and discarded pay their owner (R19–R25)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .items import Table
from .record import RoundRecord
from .tiles import YAOJI, Tile

SWINGS = {"next": (1,), "swing": (-1, 1), "none": ()}


def turned_chickens(record: RoundRecord) -> frozenset[Tile]:
    """翻牌鸡 (R19): the kinds the turned tile makes chickens; none when no tile was turned."""
    if record.turned is None:
        return frozenset()
    return frozenset(record.turned.shifted(step) for step in SWINGS[record.rules.turned_chicken])


@dataclass(frozen=True, slots=True)
class ChickenWorth:
    """A seat's chickens (R25: counted from its tiles, never typed)."""

    yaoji: int = 0
    yaoji_tiles: int = 0
    turned: Counter[Tile] | None = None
    chong_feng: int = 0
    gold: bool = False

    @property
    def total(self) -> int:
        return self.yaoji + sum((self.turned or Counter()).values()) + self.chong_feng


def _chong_feng_worth(record: RoundRecord, seat: int, gold: bool) -> int:
    """冲锋鸡 (R22): the worth of this seat's unclaimed first 幺鸡; 0 where there is none (兴义)."""
    first, rules = record.first_yaoji, record.rules
    if first is None or first.seat != seat or first.claimed_by is not None:
        return 0
    return rules.chong_feng_gold if gold else rules.chong_feng


def chicken_worth(record: RoundRecord, seat: int) -> ChickenWorth:
    rules, data = record.rules, record.seats[seat]
    kinds = turned_chickens(record)
    gold = YAOJI in kinds  # 金鸡 (R21)
    gold_factor = rules.gold if gold else 1
    yaoji = yaoji_tiles = 0
    turned: Counter[Tile] = Counter()

    for tile in data.concealed:
        if tile == YAOJI:
            yaoji += rules.yaoji_concealed * gold_factor
            yaoji_tiles += 1
        elif tile in kinds:
            turned[tile] += 1
    for meld in data.melds:
        if meld.tile == YAOJI:
            yaoji += meld.size * gold_factor
            yaoji_tiles += meld.size
        elif meld.tile in kinds:
            turned[meld.tile] += meld.size

    discards = list(data.discards)
    chong_feng = _chong_feng_worth(record, seat, gold)
    if chong_feng:  # 冲锋鸡 replaces that one 幺鸡's normal worth
        discards.remove(YAOJI)
    counted = {"all": kinds | {YAOJI}, "yaoji": {YAOJI}, "none": set()}[rules.chicken_discards]
    for tile in discards:
        if tile not in counted:
            continue
        if tile == YAOJI:
            yaoji += rules.gold if gold and rules.gold_discards else 1
            yaoji_tiles += 1
        else:
            turned[tile] += 1
    return ChickenWorth(yaoji, yaoji_tiles, turned, chong_feng, gold)


def _charge(table: Table, payer: int, payee: int, worth: ChickenWorth) -> None:
    """One item per kind of chicken, so each line says what it is for."""
    table.pay(payer, payee, worth.yaoji, "ji.yaoji", "R21",
              ("gold" if worth.gold else "yaoji", worth.yaoji_tiles))
    for tile, count in sorted((worth.turned or {}).items()):
        table.pay(payer, payee, count, "ji.turned", "R19", ("turned", str(tile), count))
    table.pay(payer, payee, worth.chong_feng, "ji.chong_feng", "R22",
              ("chong_feng_gold",) if worth.gold else ("chong_feng",))


def settle_chickens(table: Table) -> None:
    record, rules = table.record, table.rules
    worths = [chicken_worth(record, seat) for seat in range(record.players)]
    collectors = [s for s in range(record.players) if table.collects(s, rules.chicken_collectors)]
    for seat in collectors:
        for payer in record.others(seat):
            _charge(table, payer, seat, worths[seat])
    if rules.chicken_collectors == "ready_or_pay":
        for seat in range(record.players):
            if seat in collectors or seat in table.burned or not worths[seat].total:
                continue
            for payee in collectors:  # 包鸡: a seat that is not ready pays out its own chickens
                table.pay(seat, payee, worths[seat].total, "ji.bao", "R24", ("bao_ji", worths[seat].total))
    _ze_ren(table, collectors, worths)


def _ze_ren(table: Table, collectors: list[int], worths: list[ChickenWorth]) -> None:
    """责任鸡 (R23): the first 幺鸡's discarder pays its claimer more."""
    first, rules = table.record.first_yaoji, table.rules
    if first is None or first.claimed_by is None or first.claimed_by not in collectors:
        return
    gold = worths[first.claimed_by].gold
    points = rules.ze_ren * (rules.gold if gold else 1)
    table.pay(first.seat, first.claimed_by, points, "ji.ze_ren", "R23",
              ("ze_ren_gold",) if gold else ("ze_ren",))
