"""Game legality of a parsed record (RULES §5): every problem at once, each with its code."""
from __future__ import annotations

from collections import Counter

from .analysis import SeatAnalysis
from .problems import Problem, problem
from .problems import gettext_noop as _
from .record import RoundRecord
from .tiles import YAOJI, Tile

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
        problem("tile_overflow", _("This round has {count} × {tile}; a set has only four."),
                field="tiles", count=n, tile=tile.hanzi)
        for tile, n in sorted(counts.items()) if n > 4
    ]


def _tile_counts(record: RoundRecord, analysis: tuple[SeatAnalysis, ...]) -> list[Problem]:
    problems = []
    winners = record.outcome.winner_seats
    for seat, data in enumerate(record.seats):
        if data.xiang_gong:
            continue  # R37: a 相公's own count is not checked
        expected = 14 if seat in winners else 13
        if analysis[seat].tiles != expected:
            problems.append(problem(
                "tile_count", _("{name} has {count} tiles; it should have {expected} (a kong counts as three)."),
                seat=seat, field="concealed", name=data.name, count=analysis[seat].tiles, expected=expected,
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
        bad(_("A seat is listed as a winner twice."))
    if outcome.is_self_draw and len(seats) > 1:
        bad(_("Only one seat can win by self-draw (自摸)."))
    if source is not None and source in seats:
        bad(_("A winner cannot win on its own discard."), source)
    if len({w.tile for w in outcome.winners}) > 1 and source is not None:
        bad(_("Several winners on one discard must win on the same tile."))
    if any(w.passed_before for w in outcome.winners) and len(seats) > 1:
        bad(_("过水 (passed before) applies only when there is a single winner."))
    for winner in outcome.winners:
        data = record.seats[winner.seat]
        if winner.tile not in data.concealed:
            bad(_("The winning tile {tile} must be among the winner's concealed tiles."), winner.seat,
                tile=winner.tile.hanzi)
        if data.xiang_gong:
            bad(_("A 相公 seat cannot win."), winner.seat)
        if outcome.after_kong and not data.kongs:
            bad(_("杠上开花 needs the winner to have made a kong."), winner.seat)
    if outcome.after_kong and source is not None:
        bad(_("杠上开花 is a self-draw; it cannot come with a discard."))
    if outcome.hot_kong is not None:
        if source is None:
            bad(_("热炮 needs the seat whose discard was won on."))
        elif all(m.tile != outcome.hot_kong for m in record.seats[source].kongs):
            bad(_("热炮: the discarder has no kong of {tile}."), source, tile=outcome.hot_kong.hanzi)
        if outcome.robbed:
            bad(_("A win cannot be both 热炮 and 抢杠."))
    if outcome.robbed:
        if source is None:
            bad(_("抢杠 needs the seat whose kong was robbed."))
        else:
            pongs = {m.tile for m in record.seats[source].melds if m.type == "pong"}
            if any(w.tile not in pongs for w in outcome.winners):
                bad(_("抢杠: the robbed seat must have a pong of the winning tile."), source)
    return found


def _winning_hands(record: RoundRecord, analysis: tuple[SeatAnalysis, ...]) -> list[Problem]:
    found: list[Problem] = []
    outcome = record.outcome
    rules = record.rules
    for seat in outcome.winner_seats:
        if analysis[seat].tiles != 14:
            continue  # already a tile_count problem
        reading = analysis[seat].reading
        if reading is None:
            found.append(problem("not_winning", _("{name}'s hand is not a complete hand (four sets and a pair, or seven pairs)."),
                                 seat=seat, field="concealed", name=record.seats[seat].name))
            continue
        exempt = (
            outcome.is_self_draw or outcome.hot_kong is not None or outcome.robbed
            or record.seats[outcome.from_seat].declared is not None
            or rules.pass_dou == "off" or reading.pattern != "ping_hu"
        )
        passes = PASS_KINDS[rules.pass_dou]
        if not exempt and not any(m.kind in passes for m in record.seats[seat].kongs):
            found.append(problem("needs_dou", _("A 平胡 may win on a discard only with a 豆 (kong) as its pass; otherwise it must self-draw."),
                                 seat=seat, field="melds"))
    return found


def _first_yaoji(record: RoundRecord) -> list[Problem]:
    first = record.first_yaoji
    if first is None:
        return []
    if first.claimed_by is None:
        if YAOJI not in record.seats[first.seat].discards:
            return [problem("bad_first_yaoji", _("The first 幺鸡 was not claimed, so it must be among that seat's discards."),
                            seat=first.seat, field="first_yaoji")]
        return []
    claimer = record.seats[first.claimed_by]
    if not any(m.tile == YAOJI and m.from_seat == first.seat for m in claimer.melds) or first.claimed_by == first.seat:
        return [problem("bad_first_yaoji", _("The claimer of the first 幺鸡 needs a 幺鸡 pong or kong from the seat that discarded it."),
                        seat=first.claimed_by, field="first_yaoji")]
    return []


def _declarations(record: RoundRecord, analysis: tuple[SeatAnalysis, ...]) -> list[Problem]:
    return [
        problem("declared_not_ready", _("{name} declared ready (报听) but the hand is not ready."),
                seat=seat, field="declared", name=data.name)
        for seat, data in enumerate(record.seats)
        if data.declared and not analysis[seat].ready and analysis[seat].tiles == 13
    ]


def validate(record: RoundRecord, analysis: tuple[SeatAnalysis, ...]) -> list[Problem]:
    return [
        *_tile_overflow(record),
        *_tile_counts(record, analysis),
        *_outcome(record),
        *_winning_hands(record, analysis),
        *_first_yaoji(record),
        *_declarations(record, analysis),
    ]
