"""Game legality of a parsed record (RULES §5): every problem at once, each with its code."""
from __future__ import annotations

from collections import Counter

from .analysis import SeatAnalysis, expected_tiles
from .problems import Problem, problem
from .problems import gettext_noop as _
from .record import RoundRecord
from .tiles import WU_GU_JI, YAOJI, Tile

PASS_KINDS = {"any": {"men", "zhuanwan", "dian"}, "men_or_zhuanwan": {"men", "zhuanwan"}, "off": set()}


def _tile_overflow(record: RoundRecord) -> list[Problem]:
    counts: Counter[Tile] = Counter()
    for seat in record.seats:
        counts.update(seat.concealed)
        counts.update(seat.discards)
        for meld in seat.melds:
            counts[meld.tile] += meld.size
    if record.turned:
        counts[record.turned] += 1
    outcome = record.outcome
    if len(outcome.winners) > 1:
        # 一炮多响: every winner holds the one discarded tile.
        counts[outcome.winners[0].tile] -= len(outcome.winners) - 1
    return [
        problem("tile_overflow", _("这局有 {count} 张{tile}，一副牌每种只有四张。"),
                field="tiles", count=n, tile=tile.hanzi)
        for tile, n in sorted((tile, n) for tile, n in counts.items() if n > 4)
    ]


def _tile_counts(record: RoundRecord) -> list[Problem]:
    problems = []
    for seat, data in enumerate(record.seats):
        expected = expected_tiles(record, seat)
        count = data.hand().size
        if expected is not None and count != expected:
            problems.append(problem(
                "tile_count", _("{name} 有 {count} 张牌，应该是 {expected} 张（杠按三张算）。"),
                seat=seat, field="concealed", name=data.name, count=count, expected=expected,
            ))
    return problems


def _outcome(record: RoundRecord) -> list[Problem]:
    outcome = record.outcome
    if outcome.is_draw:
        return []
    found: list[Problem] = []

    def bad(template: str, seat: int | None = None, **params: object) -> None:
        found.append(problem("bad_outcome", template, seat=seat, field="outcome", **params))

    seats = outcome.winner_seats
    source = outcome.from_seat
    if len(set(seats)) != len(seats):
        bad(_("同一家被记成胡了两次。"))
    if outcome.is_self_draw and len(seats) > 1:
        bad(_("自摸只能一家胡。"))
    if source is not None and source in seats:
        bad(_("不能胡自己打出的牌。"), source)
    if len({w.tile for w in outcome.winners}) > 1 and source is not None:
        bad(_("一炮多响时，各家胡的必须是同一张牌。"))
    if any(w.passed_before for w in outcome.winners) and len(seats) > 1:
        bad(_("过水包牌只适用于一家胡牌。"))
    if any(w.passed_before for w in outcome.winners) and outcome.is_self_draw:
        # R36 bars only a win on a discard; a passed-over seat may still self-draw.
        bad(_("过水只限胡别人打的牌，自摸不受过水限制。"), seats[0])
    for winner in outcome.winners:
        data = record.seats[winner.seat]
        if winner.tile not in data.concealed:
            bad(_("胡的那张 {tile} 要算在胡牌者的手牌里。"), winner.seat,
                tile=winner.tile.hanzi)
        if data.xiang_gong:
            bad(_("相公不能胡牌。"), winner.seat)
        if outcome.after_kong and not data.kongs:
            bad(_("杠上开花要胡牌者有杠。"), winner.seat)
    if outcome.after_kong and source is not None:
        bad(_("杠上开花是自摸，不能是点炮。"))
    if outcome.first_draw and source is not None:
        bad(_("天胡、地胡是起手或第一次摸牌自摸，不能是点炮。"))
    if outcome.hot_kong is not None:
        if source is None:
            bad(_("热炮要写明点炮的是谁。"))
        elif all(m.tile != outcome.hot_kong for m in record.seats[source].kongs):
            bad(_("热炮：点炮者没有 {tile} 的杠。"), source, tile=outcome.hot_kong.hanzi)
        if outcome.robbed:
            bad(_("一次胡牌不能既是热炮又是抢杠。"))
    if outcome.robbed:
        if source is None:
            bad(_("抢杠要写明被抢杠的是谁。"))
        else:
            pongs = {m.tile for m in record.seats[source].melds if m.type == "pong"}
            if any(w.tile not in pongs for w in outcome.winners):
                bad(_("抢杠：被抢的一家要有胡的那张牌的碰。"), source)
    return found


def _winning_hands(record: RoundRecord, analysis: tuple[SeatAnalysis, ...]) -> list[Problem]:
    found: list[Problem] = []
    outcome = record.outcome
    rules = record.rules
    for seat in outcome.winner_seats:
        if analysis[seat] is None or analysis[seat].tiles != 14:
            continue  # already a tile_count or tile_overflow problem
        reading = analysis[seat].reading
        if reading is None:
            found.append(problem("not_winning", _("{name} 的牌没有胡（要四组加一对，或七对）。"),
                                 seat=seat, field="concealed", name=record.seats[seat].name))
            continue
        exempt = (
            outcome.is_self_draw or outcome.hot_kong is not None or outcome.robbed
            or record.seats[outcome.from_seat].declared is not None
            or rules.pass_dou == "off" or reading.pattern != "ping_hu"
        )  # a declaration is not a pattern: a declared 平胡 still needs its pass (R15)
        passes = PASS_KINDS[rules.pass_dou]
        if not exempt and not any(m.kind in passes for m in record.seats[seat].kongs):
            found.append(problem("needs_dou", _("平胡要有豆（杠）作通行证才能胡别人打的牌，不然只能自摸。"),
                                 seat=seat, field="melds"))
    return found


# The round's first discarded 幺鸡 (R22, R23) and, for 冲锋乌骨鸡, its first 8筒 (R70): the record's
# field, the tile, the problem's code, and its words when nobody claimed it / when someone did.
FIRST_DISCARDS = (
    ("first_yaoji", YAOJI, "bad_first_yaoji", _("第一张幺鸡没人碰杠，那它要加在打出的那家的“打出的鸡”里。"),
     _("碰杠第一张幺鸡的一家，要有从打出者那里碰或杠来的幺鸡。")),
    ("first_wu_gu_ji", WU_GU_JI, "bad_first_wu_gu_ji", _("第一张 8筒 没人碰杠，那它要加在打出的那家的“打出的鸡”里。"),
     _("碰杠第一张 8筒 的一家，要有从打出者那里碰或杠来的 8筒。")),
)


def _first_discards(record: RoundRecord) -> list[Problem]:
    """Unclaimed, the tile is among its discarder's discards; claimed, the claimer has a meld of it
    from the discarder (and is not the discarder)."""
    found = []
    for field, tile, code, unclaimed, claimed in FIRST_DISCARDS:
        first = getattr(record, field)
        if first is None:
            continue
        if first.claimed_by is None:
            if tile not in record.seats[first.seat].discards:
                found.append(problem(code, unclaimed, seat=first.seat, field=field))
        elif first.claimed_by == first.seat or not any(
                m.tile == tile and m.from_seat == first.seat for m in record.seats[first.claimed_by].melds):
            found.append(problem(code, claimed, seat=first.claimed_by, field=field))
    return found


def _declarations(record: RoundRecord, analysis: tuple[SeatAnalysis, ...]) -> list[Problem]:
    return [
        problem("declared_not_ready", _("{name} 报听了，但牌没有叫。"),
                seat=seat, field="declared", name=data.name)
        for seat, data in enumerate(record.seats)
        if data.declared and analysis[seat] is not None and not analysis[seat].ready and analysis[seat].tiles == 13
    ]


def _mei_jiao(record: RoundRecord) -> list[Problem]:
    """没叫（没亮牌） only where a not-ready seat's hidden tiles cannot change any payment."""
    found: list[Problem] = []
    for seat, data in enumerate(record.seats):
        if not data.mei_jiao:
            continue
        reasons = [
            (not record.rules.allows_mei_jiao,
             _("{name} 要亮牌：这套规则下没叫的人也收豆或收鸡（或包鸡），手里的牌会影响算账。")),
            (seat in record.outcome.winner_seats, _("{name} 胡了，不能记成没叫。")),
            (bool(data.declared), _("{name} 报听了就要有叫，不能记成没叫。")),
            (bool(data.concealed), _("{name} 记成没叫（没亮牌），就不要再填手牌。")),
        ]
        found += [problem("bad_mei_jiao", template, seat=seat, field="mei_jiao", name=data.name)
                  for broken, template in reasons if broken]
    return found


def validate(record: RoundRecord, analysis: tuple[SeatAnalysis | None, ...]) -> list[Problem]:
    """Every problem of the record. A seat whose tiles no hand could hold was not analysed (None,
    `analysis.analyse_possible`): its count or its fifth tile is the problem reported for it."""
    return [
        *_tile_overflow(record),
        *_tile_counts(record),
        *_outcome(record),
        *_winning_hands(record, analysis),
        *_first_discards(record),
        *_declarations(record, analysis),
        *_mei_jiao(record),
    ]
