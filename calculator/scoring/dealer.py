"""下一庄: who deals next (R34 after a draw, R35 after a win, R36 after a passed win)."""
from __future__ import annotations

from .analysis import SeatAnalysis
from .record import RoundRecord


def _in_turn_from(start: int, players: int) -> list[int]:
    return [(start + step) % players for step in range(players)]


def _after_draw(record: RoundRecord, hands: tuple[SeatAnalysis, ...]) -> int:
    rule, dealer, players = record.rules.draw_dealer, record.dealer, record.players
    ready = [h.seat for h in hands if h.ready]
    if rule == "stay" or len(ready) in (0, players):
        return dealer
    if len(ready) == players - 1:  # all but one ready, also at three seats: the odd one out deals
        return next(s for s in range(players) if s not in ready)
    if rule == "anshun":
        if len(ready) == 1:
            return ready[0]
        return next(s for s in _in_turn_from(dealer, players) if s in ready)
    # xingyi: 1 ready → that seat's 上家; 2 ready → the dealer's 上家
    anchor = ready[0] if len(ready) == 1 else dealer
    return (anchor - 1) % players


def _after_multi_win(record: RoundRecord) -> int:
    outcome, players = record.outcome, record.players
    rule, winners = record.rules.multi_win_dealer, outcome.winner_seats
    if rule == "discarder" or (rule == "guiyang" and len(winners) == 3):
        return outcome.from_seat
    start = record.dealer if rule == "guiyang" else (outcome.from_seat + 1) % players
    return next(s for s in _in_turn_from(start, players) if s in winners)


def next_dealer(record: RoundRecord, hands: tuple[SeatAnalysis, ...]) -> int:
    outcome = record.outcome
    if outcome.is_draw:
        return _after_draw(record, hands)
    if any(w.passed_before for w in outcome.winners):
        return record.dealer
    if len(outcome.winners) == 1:
        return outcome.winners[0].seat
    return _after_multi_win(record)
