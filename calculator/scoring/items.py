"""Settlement items (R9): "payer pays payee N points because …", and the table they are drawn from.

An item says what it was paid for as data, never as a sentence: `words` is a tuple of phrases,
each a code followed by its arguments (ints, or tiles in notation), e.g.
`(("qing_da_dui", 15), ("self_draw",))` or `(("men", "9p"),)`. `presentation.words` renders them
in Chinese and English; scoring knows no words of either language.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .analysis import SeatAnalysis
from .record import Meld, RoundRecord

# The group an item is shown under, by the first part of its reason code.
# 查叫 has its own: on a 荒庄 nobody won, so its payments under 胡 would say what did not happen.
GROUPS = {"hu": "hu", "bao": "bao", "dou": "dou", "ji": "ji", "cha_jiao": "cha_jiao", "penalty": "fa", "cap": "cap"}
GROUP_ORDER = ("hu", "cha_jiao", "bao", "dou", "ji", "fa", "cap")


Phrase = tuple  # (code, *arguments): ("turned", "5m", 2)


@dataclass(frozen=True, slots=True)
class Item:
    """One transfer and what it was paid for (`words`).

    `detail` is the sentence a round stored before items carried words (R41: stored rounds keep
    their text); scoring never writes it."""

    payer: int
    payee: int
    points: int
    reason: str
    rule: str
    words: tuple[Phrase, ...] = ()
    detail: str = ""

    @property
    def group(self) -> str:
        return GROUPS[self.reason.split(".")[0]]

    def to_dict(self) -> dict:
        return {
            "payer": self.payer,
            "payee": self.payee,
            "points": self.points,
            "reason": self.reason,
            "rule": self.rule,
            "words": [list(phrase) for phrase in self.words],
        }

    @classmethod
    def from_dict(cls, data: dict) -> Item:
        """An item as stored: with `words`, or (rounds stored before them) only a `detail`."""
        return cls(data["payer"], data["payee"], data["points"], data["reason"], data["rule"],
                   tuple(tuple(phrase) for phrase in data.get("words", ())), data.get("detail", ""))


@dataclass
class Table:
    """A validated round being settled: the record, each seat's standing, and the items so far."""

    record: RoundRecord
    hands: tuple[SeatAnalysis, ...]
    burned: frozenset[int] = frozenset()
    dead_kong: tuple[int, Meld] | None = None  # the 热炮 kong that pays nothing (贵阳)
    items: list[Item] = field(default_factory=list)
    void: list[Phrase] = field(default_factory=list)  # what was on the table but paid nothing

    def not_counted(self, code: str, seat: int | None, why: str, *args: int | str) -> None:
        """Note a 豆 or 鸡 that pays nothing, and why: (code, seat, why, *args), e.g.
        ("chong_feng", 3, "not_ready") or ("dou", 1, "late", "men", "5m"). Words only: no item."""
        self.void.append((code, seat, why, *args))

    def why_not_collecting(self, seat: int) -> str:
        """Why a seat collects nothing: 烧光 by 热炮 or 抢杠 (R13, R14), 相公 (R37), or 没叫."""
        if seat in self.burned:
            return "robbed" if self.record.outcome.robbed else "hot_shot"
        return "xiang_gong" if self.record.seats[seat].xiang_gong else "not_ready"

    @property
    def rules(self):
        return self.record.rules

    def pay(self, payer: int, payee: int, points: int, reason: str, rule: str, *words: Phrase) -> None:
        if points and payer != payee:
            self.items.append(Item(payer, payee, points, reason, rule, words))

    def each_other_pays(self, payee: int, points: int, reason: str, rule: str, *words: Phrase) -> None:
        for payer in self.record.others(payee):
            self.pay(payer, payee, points, reason, rule, *words)

    def collects(self, seat: int, who: str) -> bool:
        """Whether a seat collects 豆 or 鸡 under a `*_collectors` option (R18, R24)."""
        if seat in self.burned or self.record.seats[seat].xiang_gong:
            return False
        return who == "all" or self.hands[seat].ready
