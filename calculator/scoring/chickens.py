"""鸡: chickens held, melded and discarded pay their owner (R19–R25), and the house-rule
variants of how they are counted and who pays them (R48–R51, R54, R55)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .items import Table
from .record import RoundRecord
from .tiles import WU_GU_JI, YAOJI, Tile, parse_tile

SWINGS = {"next": (1,), "swing": (-1, 1), "none": (), "self": (0,), "self_next": (0, 1)}  # self: 本鸡 (R48)
CHUI_FENG = parse_tile("5p")  # 吹风鸡 (R55)


def turned_chickens(record: RoundRecord) -> frozenset[Tile]:
    """翻牌鸡 (R19): the kinds the turned tile makes chickens; none when no tile was turned."""
    if record.turned is None:
        return frozenset()
    return frozenset(record.turned.shifted(step) for step in SWINGS[record.rules.turned_chicken])


def weekday_chickens(record: RoundRecord) -> frozenset[Tile]:
    """星期鸡 (R64): the three kinds whose rank is the round's weekday (Sunday 7), counted like
    翻牌鸡; a Monday's 1条 stays a 幺鸡."""
    if not record.rules.xing_qi_ji or not record.weekday:
        return frozenset()
    return frozenset(parse_tile(f"{record.weekday}{suit}") for suit in "mps") - {YAOJI}


def chicken_kinds(record: RoundRecord) -> tuple[tuple[Tile, str, bool], ...]:
    """Which tiles were chickens this round, as (tile, kind, gold) in tile order: 幺鸡 (R21, 金鸡
    when the 翻牌 makes it one), 乌骨鸡 where it has a worth (R44), the 翻牌's kinds (R19, R48) and
    the weekday's (R64; a kind both is a 翻牌鸡). None under 吹风鸡 (R55)."""
    rules = record.rules
    if rules.chui_feng and record.turned == CHUI_FENG:
        return ()
    turned, weekday = turned_chickens(record), weekday_chickens(record)
    kinds = {YAOJI: ("yaoji", YAOJI in turned)}
    if rules.wu_gu_ji:
        kinds[WU_GU_JI] = ("wu_gu_ji", WU_GU_JI in turned | weekday)
    for tile in turned:
        kinds.setdefault(tile, ("turned", False))
    for tile in weekday:
        kinds.setdefault(tile, ("xing_qi", False))
    return tuple((tile, kind, gold) for tile, (kind, gold) in sorted(kinds.items()))


@dataclass(frozen=True, slots=True)
class ChickenWorth:
    """A seat's chickens (R25: counted from its tiles, never typed)."""

    yaoji: int = 0
    yaoji_tiles: int = 0
    turned: Counter[Tile] | None = None
    chong_feng: int = 0
    gold: bool = False
    shown: int = 0  # melded and discarded 幺鸡 and the 冲锋鸡: what 包鸡 bills under `bao_ji: shown` (R49)
    discarded: int = 0  # the discarded 幺鸡 alone (R50)
    discarded_tiles: int = 0
    wu_gu_ji: int = 0  # 乌骨鸡 (R44)
    wu_gu_ji_tiles: int = 0
    wu_gu_ji_gold: bool = False
    chong_feng_claimed: bool = False  # R65: the 冲锋鸡 of a claimed first 幺鸡 (its claimer's or discarder's)
    wu_discarded: int = 0  # the discarded 8筒 alone, as R44 counts them (R68)
    wu_discarded_tiles: int = 0
    chong_feng_wu: int = 0  # 冲锋乌骨鸡 (R70)

    @property
    def total(self) -> int:
        return (self.yaoji + sum((self.turned or Counter()).values()) + self.chong_feng + self.wu_gu_ji
                + self.chong_feng_wu)


def chong_feng_holder(table: Table) -> int | None:
    """Whose 冲锋鸡 (R22) the first 幺鸡 is: its discarder's when unclaimed. Claimed, it is none
    but under `chong_feng_claimed` (R65), "moved to a ready claimer": the claimer's when the claimer
    collects chickens, or under 包鸡 (`ready_or_pay`) pays its own out; a claimer that does neither
    (not ready, burned, 相公) leaves it with its discarder, collected if the discarder collects."""
    record, rules = table.record, table.rules
    first = record.first_yaoji
    if first is None:
        return None
    if first.claimed_by is None:
        return first.seat
    if not rules.chong_feng_claimed:
        return None
    claimer = first.claimed_by
    flow = "ready" if rules.flows_to_ready else rules.chicken_collectors
    if table.collects(claimer, flow):
        return claimer
    if rules.chicken_collectors == "ready_or_pay" and claimer not in table.burned:
        return claimer  # 包鸡: a claimer that is not ready pays it out (a shown chicken under R49)
    return first.seat


def _chong_feng_wu_gu_ji(record: RoundRecord, seat: int, gold: bool) -> int:
    """冲锋乌骨鸡 (R70): the worth of this seat's unclaimed first 8筒, `chong_feng` × `wu_gu_ji`
    (金乌骨鸡: `chong_feng_gold` × `wu_gu_ji`); 0 where the rules do not play it."""
    rules, first = record.rules, record.first_wu_gu_ji
    if not (rules.chong_feng_wu_gu_ji and rules.wu_gu_ji) or first is None or first.claimed_by is not None:
        return 0
    if first.seat != seat:
        return 0
    return (rules.chong_feng_gold if gold else rules.chong_feng) * rules.wu_gu_ji


def chicken_worth(record: RoundRecord, seat: int, holder: int | None = None) -> ChickenWorth:
    """A seat's chickens; `holder` is the seat whose 冲锋鸡 the first 幺鸡 is (`chong_feng_holder`)."""
    rules, data = record.rules, record.seats[seat]
    gold = YAOJI in turned_chickens(record)  # 金鸡 (R21)
    kinds = turned_chickens(record) | weekday_chickens(record)
    gold_factor = rules.gold if gold else 1
    yaoji = yaoji_tiles = 0
    turned: Counter[Tile] = Counter()
    # 乌骨鸡 (R44) is counted like 幺鸡, never also as a 翻牌鸡; 金 when the turned tile makes it one.
    wu = {WU_GU_JI} if rules.wu_gu_ji else set()
    wu_each = rules.wu_gu_ji * (rules.gold if WU_GU_JI in kinds else 1)
    wu_held = wu_melded = 0

    for tile in data.concealed:
        if tile == YAOJI:
            yaoji += rules.yaoji_concealed * gold_factor
            yaoji_tiles += 1
        elif tile in wu:
            wu_held += 1
        elif tile in kinds:
            turned[tile] += 1
    shown = 0
    for meld in data.melds:
        if meld.tile == YAOJI:
            yaoji += meld.size * gold_factor
            yaoji_tiles += meld.size
            shown += meld.size * gold_factor
        elif meld.tile in wu:
            wu_melded += meld.size
        elif meld.tile in kinds:
            turned[meld.tile] += meld.size

    discards = list(data.discards)
    chong_feng = (rules.chong_feng_gold if gold else rules.chong_feng) if holder == seat else 0
    # R65: a claimed first 幺鸡 lies in its claimer's meld, not among anybody's discards
    claimed = bool(chong_feng) and record.first_yaoji.claimed_by is not None
    if chong_feng and not claimed and not rules.chong_feng_on_top:  # 冲锋鸡 replaces that 幺鸡's normal worth
        discards.remove(YAOJI)  # (R51: on top of it instead)
    chong_feng_wu = _chong_feng_wu_gu_ji(record, seat, WU_GU_JI in kinds)
    if chong_feng_wu and not rules.chong_feng_on_top:  # replaces that 8筒's own worth (R51: on top)
        discards.remove(WU_GU_JI)
    counted = {"all": kinds | {YAOJI} | wu, "yaoji": {YAOJI}, "none": set()}[rules.chicken_discards]
    discarded = discarded_tiles = wu_discarded = 0
    for tile in discards:
        if tile not in counted:
            continue
        if tile == YAOJI:
            worth = rules.gold if gold and rules.gold_discards else 1
            yaoji += worth
            yaoji_tiles += 1
            discarded += worth
            discarded_tiles += 1
        elif tile in wu:
            wu_discarded += 1
        else:
            turned[tile] += 1
    wu_gold = WU_GU_JI in wu and WU_GU_JI in kinds
    wu_out = wu_discarded * rules.wu_gu_ji * (rules.gold if wu_gold and rules.gold_discards else 1)
    wu_on_table = wu_melded * wu_each + wu_out
    return ChickenWorth(yaoji, yaoji_tiles, turned, chong_feng, gold,
                        shown=shown + discarded + chong_feng + wu_on_table + chong_feng_wu, discarded=discarded,
                        discarded_tiles=discarded_tiles, wu_gu_ji=wu_held * wu_each + wu_on_table,
                        wu_gu_ji_tiles=wu_held + wu_melded + wu_discarded, wu_gu_ji_gold=wu_gold,
                        chong_feng_claimed=claimed, wu_discarded=wu_out, wu_discarded_tiles=wu_discarded,
                        chong_feng_wu=chong_feng_wu)


def _charge(table: Table, payer: int, payee: int, worth: ChickenWorth) -> None:
    """One item per kind of chicken, so each line says what it is for."""
    rules, turned = table.rules, table.record.turned
    by_turn = turned_chickens(table.record)
    table.pay(payer, payee, worth.yaoji, "ji.yaoji", "R21",
              ("gold" if worth.gold else "yaoji", worth.yaoji_tiles))
    for tile, count in sorted((worth.turned or {}).items()):
        if tile not in by_turn:  # 星期鸡 (R64): a kind the turned tile did not make a chicken
            table.pay(payer, payee, count, "ji.xing_qi", "R64", ("xing_qi", str(tile), count))
            continue
        table.pay(payer, payee, count, "ji.turned", "R48" if tile == turned else "R19", ("turned", str(tile), count))
    table.pay(payer, payee, worth.wu_gu_ji, "ji.wu_gu_ji", "R44",
              ("wu_gu_ji_gold" if worth.wu_gu_ji_gold else "wu_gu_ji", worth.wu_gu_ji_tiles))
    rule = "R65" if worth.chong_feng_claimed else "R51" if rules.chong_feng_on_top else "R22"
    table.pay(payer, payee, worth.chong_feng, "ji.chong_feng", rule,
              ("chong_feng_gold",) if worth.gold else ("chong_feng",))
    table.pay(payer, payee, worth.chong_feng_wu, "ji.chong_feng", "R70",
              ("chong_feng_wu_gu_ji_gold",) if worth.wu_gu_ji_gold else ("chong_feng_wu_gu_ji",))


def _collectors_and_payers(table: Table) -> tuple[list[int], dict[int, list[int]]]:
    """Who collects chickens, and from whom. R50 (`chicken_flow: to_ready`): ready seats collect
    from the seats that are not ready only, and never pay each other (`to_ready_chong_feng_all`:
    but for a 冲锋鸡, see `settle_chickens`)."""
    record, rules = table.record, table.rules
    seats = range(record.players)
    if rules.flows_to_ready:
        collectors = [s for s in seats if table.collects(s, "ready")]
        payers = [s for s in seats if not table.hands[s].ready]
        return collectors, {seat: payers for seat in collectors}
    collectors = [s for s in seats if table.collects(s, rules.chicken_collectors)]
    return collectors, {seat: record.others(seat) for seat in collectors}


def settle_chickens(table: Table) -> None:
    record, rules = table.record, table.rules
    if rules.chui_feng and record.turned == CHUI_FENG:
        table.not_counted("chui_feng", None, "chui_feng", str(CHUI_FENG))
        return  # 吹风鸡 (R55): a turned 5筒 blows every chicken and 责任鸡 away
    holder = chong_feng_holder(table)
    worths = [chicken_worth(record, seat, holder) for seat in range(record.players)]
    collectors, payers_of = _collectors_and_payers(table)
    if rules.chicken_collectors != "ready_or_pay":  # under 包鸡 a seat's chickens are its to pay
        for seat in (s for s in range(record.players) if s not in collectors):
            _not_collected(table, seat, worths[seat])
    for seat in collectors:
        for payer in payers_of[seat]:
            _charge(table, payer, seat, worths[seat])
        if rules.chicken_flow == "to_ready_chong_feng_all":  # R50: a ready holder's 冲锋鸡 from every other seat
            for payer in (s for s in record.others(seat) if s not in payers_of[seat]):
                table.pay(payer, seat, worths[seat].chong_feng, "ji.chong_feng", "R50",
                          ("chong_feng_gold",) if worths[seat].gold else ("chong_feng",))
    not_collecting = [s for s in range(record.players) if s not in collectors and s not in table.burned]
    if rules.chicken_collectors == "ready_or_pay":
        shown = rules.bao_ji == "shown"
        for seat in not_collecting:
            if rules.flows_to_ready and table.hands[seat].ready:
                continue  # a ready seat that collects nothing (burned) still pays no 包鸡
            points = worths[seat].shown if shown else worths[seat].total
            for payee in collectors:  # 包鸡: a seat that is not ready pays out its own chickens
                table.pay(seat, payee, points, "ji.bao", "R49" if shown else "R24", ("bao_ji", points))
    elif rules.flows_to_ready:
        _flow_discards(table, [s for s in not_collecting if not table.hands[s].ready], collectors, worths)
    if rules.chong_feng_pays and rules.chicken_collectors != "ready_or_pay":  # (包鸡 bills it already)
        for seat in not_collecting:  # R65: a 冲锋鸡 holder that is not ready pays it to each collector
            if not table.hands[seat].ready:
                for payee in collectors:
                    table.pay(seat, payee, worths[seat].chong_feng, "ji.chong_feng", "R65",
                              ("chong_feng_gold",) if worths[seat].gold else ("chong_feng",))
    _ze_ren(table, collectors, worths)


def _discards_owed(rules, worth: ChickenWorth) -> tuple[int, int, int, int]:
    """What a not-ready seat's discards cost it per collector under R50: (幺鸡 worth, tiles), and
    (8筒 worth, tiles) under R68."""
    wu = (worth.wu_discarded, worth.wu_discarded_tiles) if rules.wu_gu_ji_to_ready else (0, 0)
    return worth.discarded, worth.discarded_tiles, *wu


def _flow_discards(table: Table, payers: list[int], collectors: list[int], worths: list[ChickenWorth]) -> None:
    """R50: a not-ready seat's discarded 幺鸡 (R68: and 8筒) count for every ready seat; each pays
    its own, or (R69 `discard_pool`) every not-ready seat pays for all of them together."""
    rules = table.rules
    owed = {seat: _discards_owed(rules, worths[seat]) for seat in payers}
    if rules.discard_pool and owed:
        pool = tuple(sum(column) for column in zip(*owed.values()))
        owed = {seat: pool for seat in payers}
    pooled = (("discard_pool",),) if rules.discard_pool else ()
    for seat in payers:
        yaoji, yaoji_tiles, wu, wu_tiles = owed[seat]
        worth = worths[seat]
        for payee in collectors:
            table.pay(seat, payee, yaoji, "ji.yaoji", "R69" if pooled else "R50",
                      ("gold" if worth.gold else "yaoji", yaoji_tiles), *pooled)
            table.pay(seat, payee, wu, "ji.wu_gu_ji", "R69" if pooled else "R68",
                      ("wu_gu_ji_gold" if worth.wu_gu_ji_gold else "wu_gu_ji", wu_tiles), *pooled)


def _not_collected(table: Table, seat: int, worth: ChickenWorth) -> None:
    """A seat that does not collect: its 冲锋鸡 and its other chickens count for nothing (R24),
    but for what it pays out itself: its 冲锋鸡 under R65, its discarded 幺鸡 under R50."""
    rules, why = table.rules, table.why_not_collecting(seat)
    paying = seat not in table.burned and not table.hands[seat].ready
    if worth.chong_feng and not (rules.chong_feng_pays and paying):
        table.not_counted("chong_feng", seat, why)
    paid_out = sum(_discards_owed(rules, worth)[::2]) if rules.flows_to_ready and paying else 0
    if rest := worth.total - worth.chong_feng - paid_out:
        table.not_counted("ji", seat, why, rest)


def _claims(table: Table) -> list[tuple[int, int, str]]:
    """(discarder, claimer, rule) of each claimed 幺鸡 that owes a 责任鸡: the first (R23), and under
    `ze_ren_every` (R67) a 幺鸡 claimed later — a 碰 or 杠 of 幺鸡 whose source is recorded."""
    record = table.record
    first = record.first_yaoji
    claims = [(first.seat, first.claimed_by, "R23")] if first is not None and first.claimed_by is not None else []
    if table.rules.ze_ren_every:
        for seat, data in enumerate(record.seats):
            if any(claimer == seat for _, claimer, _ in claims):
                continue  # its 幺鸡 meld is the first one's, paid above
            claims += [(meld.from_seat, seat, "R67") for meld in data.melds
                       if meld.tile == YAOJI and meld.from_seat is not None and meld.kind != "men"]
    return claims


def _ze_ren(table: Table, collectors: list[int], worths: list[ChickenWorth]) -> None:
    """责任鸡 (R23): the first 幺鸡's discarder pays its claimer more (R67: any claimed 幺鸡's;
    R70: the first 8筒's, × `wu_gu_ji`)."""
    rules, first_wu = table.rules, table.record.first_wu_gu_ji
    claims = [(discarder, claimer, rule, 1, worths[claimer].gold, "ze_ren")
              for discarder, claimer, rule in _claims(table)]
    if rules.chong_feng_wu_gu_ji and rules.wu_gu_ji and first_wu is not None and first_wu.claimed_by is not None:
        claims.append((first_wu.seat, first_wu.claimed_by, "R70", rules.wu_gu_ji,
                       worths[first_wu.claimed_by].wu_gu_ji_gold, "ze_ren_wu_gu_ji"))
    for discarder, claimer, rule, each, gold, phrase in claims:
        if claimer not in collectors:
            continue
        if rules.flows_to_ready and table.hands[discarder].ready:
            continue  # R50: ready seats do not pay each other's chickens
        doubled = gold and rules.ze_ren_gold  # R54: some tables never double it
        points = rules.ze_ren * each * (rules.gold if doubled else 1)
        if rule == "R23" and gold and not doubled:
            rule = "R54"
        table.pay(discarder, claimer, points, "ji.ze_ren", rule, (f"{phrase}_gold",) if doubled else (phrase,))
