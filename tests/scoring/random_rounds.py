"""Random LEGAL round records (RULES §3), for property tests and benchmarks.

`random_record(rng)` deals from a 108-tile wall: winners get complete hands built directly (four
sets and a pair, or seven pairs) around the winning tile, the other seats 13 tiles (some of them a
complete hand minus one tile, so that they are often ready), 相公 seats a wrong count. Every
outcome of §3 appears: 荒庄, 自摸 (杠上开花 too), 点胡, 一炮多响, 热炮, 抢杠, 过水; all presets,
random options, three and four players. `rounds()` is the same as a hypothesis strategy.

Only the public scoring API is used, and only to keep declarations legal (R32: a declarer must
be ready).
"""
from __future__ import annotations

import random
from typing import Any

from calculator.scoring import PRESETS, Hand, parse_tiles, waits_of
from calculator.scoring.rules import CHOICES

KINDS = tuple(f"{rank}{suit}" for suit in "mps" for rank in range(1, 10))
YAOJI = "1s"
WU_GU_JI = "8p"
OUTCOMES = ("draw", "self_draw", "discard", "multi", "hot", "robbed")
OUTCOME_WEIGHTS = (2, 3, 4, 2, 2, 1)
STAKES = ("1", "0.5", "2", "5", "0.25", "1.5", "3")
OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    **CHOICES,  # every value of every word-valued option (RULES §9 and the variants, R45 on)
    "jian_dou_san": (True, False),
    "kong_bloom_bonus": (0, 1, 2),
    "chong_feng": (0, 2, 3),
    "chong_feng_gold": (0, 3, 4),
    "ze_ren": (0, 1, 2),
    "declare_kill_self_draw": (0, 10),
    "yaoji_concealed": (1, 2),
    "gold": (2, 3),
    "gold_discards": (True, False),
    "patterns": ({"qing_long_qi_dui": 40}, {"da_dui_zi": 6, "xiao_qi_dui": 12}),
    "dou_values": ({"zhuanwan": 1}, {"men": 3, "dian": 2}),
    "declare": ({"hard": 10}, {"soft": 20}),
    # House-rule variants (R45 on); test_properties checks that every RuleSet option is here.
    "chong_feng_on_top": (True, False),
    "dou_reverse": (True, False),
    "cap": (0, 8, 30),
    "ze_ren_gold": (True, False),
    "chui_feng": (True, False),
    "declare_kill_by_kind": (True, False),
    "declare_floor": (True, False),
    "dealer_bonus": (0, 1),
    "dealer_streak_bonus": (0, 1),
    "wu_gu_ji": (0, 1, 2),
    "dan_diao": (0, 10, 17),
    "qing_dan_diao": (0, 20),
    "duo_long": (0, 10),
    "tian_hu": (0, 33),
    "di_hu": (0, 23),
    "tian_di_bonus": (0, 10),
    "gen_zhuang": (0, 4),
    "xing_qi_ji": (True, False),
    "chong_feng_claimed": (True, False),
    "chong_feng_pays": (True, False),
    "dealer_bonus_win_only": (True, False),  # issue 21's sub-variants (R66 on)
    "ze_ren_every": (True, False),
    "wu_gu_ji_to_ready": (True, False),
    "discard_pool": (True, False),
    "chong_feng_wu_gu_ji": (True, False),
}
# Options that change nothing without others: drawn, they bring those along most of the time.
COMPANIONS: dict[str, dict[str, Any]] = {
    "dealer_bonus_win_only": {"dealer_bonus": 1},
    "wu_gu_ji_to_ready": {"wu_gu_ji": 1, "chicken_flow": "to_ready"},
    "discard_pool": {"chicken_flow": "to_ready"},
    "chong_feng_wu_gu_ji": {"wu_gu_ji": 2},
}


class NoTiles(Exception):
    """The wall cannot supply what a hand asked for; the caller tries something else."""


class Wall:
    """What is left of the 108 tiles, by kind."""

    def __init__(self) -> None:
        self.left = {kind: 4 for kind in KINDS}

    def take(self, kind: str, n: int = 1) -> None:
        if self.left[kind] < n:
            raise NoTiles(kind)
        self.left[kind] -= n

    def put(self, kind: str, n: int = 1) -> None:
        self.left[kind] += n

    def random_kind(self, rng: random.Random, at_least: int = 1, avoid: frozenset[str] = frozenset(),
                    suit: str | None = None) -> str:
        kinds = [k for k, n in self.left.items() if n >= at_least and k not in avoid and suit in (None, k[1])]
        if not kinds:
            raise NoTiles("*")
        return rng.choice(kinds)

    def snapshot(self) -> dict[str, int]:
        return dict(self.left)

    def restore(self, snapshot: dict[str, int]) -> None:
        self.left = dict(snapshot)


def _sequence(start: str) -> list[str]:
    rank, suit = int(start[0]), start[1]
    return [f"{rank + i}{suit}" for i in range(3)]


def _meld(rng: random.Random, kind: str, seat: int, players: int, *, kong: bool) -> dict[str, Any]:
    others = [s for s in range(players) if s != seat]
    if not kong:
        return {"type": "pong", "tile": kind, "from": rng.choice(others)}
    kong_kind = rng.choice(("men", "zhuanwan", "dian"))
    meld: dict[str, Any] = {"type": "kong", "kind": kong_kind, "tile": kind}
    if kong_kind == "dian" or (kong_kind == "zhuanwan" and rng.random() < 0.5):
        meld["from"] = rng.choice(others)
    if kong_kind != "dian" and rng.random() < 0.1:
        meld["late"] = True  # 憨包豆
    return meld


def _complete_hand(rng: random.Random, wall: Wall, seat: int, players: int, *, tile: str | None,
                   free: int = 0, force_pass: bool = False,
                   avoid_melds: frozenset[str] = frozenset()) -> tuple[list[str], list[dict]]:
    """A complete hand (R6) holding `tile` among its concealed tiles; `free` copies of `tile`
    come from outside the wall (the shared winning tile). With `force_pass` one set is a 闷豆 or
    转弯豆, the 通行证 of R15 in every preset. Raises NoTiles when the wall runs short."""
    concealed: list[str] = []
    melds: list[dict] = []
    if tile is not None:
        wall.put(tile, free)  # the caller took the shared copy once for every winner
    # Now and then one suit only, for the 清 patterns.
    suit = (tile[1] if tile else rng.choice("mps")) if rng.random() < 0.12 else None
    if rng.random() < 0.15 and not force_pass:
        kinds = [tile] if tile else []
        fours = 0.7 if rng.random() < 0.3 else 0.2  # now and then several fours: 双龙/三龙七对 (R61)
        for _ in range(50):
            if len(kinds) == 7:
                break
            kind = rng.choice(kinds) if kinds and rng.random() < fours / 2 else wall.random_kind(rng, 2, suit=suit)
            if kind not in kinds or (rng.random() < fours and kinds.count(kind) == 1 and wall.left[kind] >= 4):
                kinds.append(kind)
        else:
            raise NoTiles("pairs")
        for kind in kinds:
            wall.take(kind, 2)
            concealed += [kind, kind]
        return concealed, melds
    if rng.random() < 0.06 and not force_pass:  # 单钓 (R60): four melds, the pair (and its wait) concealed
        pair = tile or wall.random_kind(rng, 2, suit=suit)
        wall.take(pair, 2)
        for _ in range(4):
            kind = wall.random_kind(rng, 3, avoid_melds | {pair} | {m["tile"] for m in melds}, suit=suit)
            kong = wall.left[kind] >= 4 and rng.random() < 0.3
            wall.take(kind, 4 if kong else 3)
            melds.append(_meld(rng, kind, seat, players, kong=kong))
        return [pair, pair], melds
    wants_meld = 1 if force_pass else 0
    groups: list[tuple[str, str]] = []  # (shape, kind): shape "pair", "seq", "tri"
    if tile is not None:
        shape = rng.choice(("pair", "seq", "tri"))
        if shape == "seq":
            rank = int(tile[0])
            start = rng.choice([r for r in range(max(1, rank - 2), min(7, rank) + 1)])
            groups.append(("seq", f"{start}{tile[1]}"))
        else:
            groups.append((shape, tile))
    while sum(1 for g in groups if g[0] != "pair") < 4 or not any(g[0] == "pair" for g in groups):
        if not any(g[0] == "pair" for g in groups) and (sum(1 for g in groups if g[0] != "pair") == 4
                                                      or rng.random() < 0.2):
            groups.append(("pair", wall.random_kind(rng, 2, suit=suit)))
        elif rng.random() < 0.6:
            groups.append(("seq", f"{rng.randint(1, 7)}{suit or rng.choice('mps')}"))
        else:
            groups.append(("tri", wall.random_kind(rng, 3, suit=suit)))
    for shape, kind in groups:
        if shape == "pair":
            wall.take(kind, 2)
            concealed += [kind, kind]
        elif shape == "seq":
            for k in _sequence(kind):
                wall.take(k)
            concealed += _sequence(kind)
        else:
            as_meld = kind != tile and kind not in avoid_melds and (
                wants_meld > len(melds) or rng.random() < 0.35)
            if as_meld:
                kong = wants_meld > len(melds) or rng.random() < 0.5
                if kong and wall.left[kind] >= 4:
                    meld = _meld(rng, kind, seat, players, kong=True)
                    if force_pass and not melds:
                        meld = {"type": "kong", "kind": rng.choice(("men", "zhuanwan")), "tile": kind}
                    wall.take(kind, 4)
                    melds.append(meld)
                    continue
                if not (force_pass and not melds):
                    wall.take(kind, 3)
                    melds.append(_meld(rng, kind, seat, players, kong=False))
                    continue
            wall.take(kind, 3)
            concealed += [kind] * 3
    if force_pass and not any(m["type"] == "kong" for m in melds):
        raise NoTiles("pass")
    return concealed, melds


def _attempt(builder, wall: Wall, tries: int = 40):
    for _ in range(tries):
        snapshot = wall.snapshot()
        try:
            return builder()
        except NoTiles:
            wall.restore(snapshot)
    raise NoTiles("gave up")


def _size(concealed: list[str], melds: list[dict]) -> int:
    return len(concealed) + 3 * len(melds)


def _hand(concealed: list[str], melds: list[dict]) -> Hand:
    return Hand.of(parse_tiles("".join(concealed)),
                   [(parse_tiles(m["tile"])[0], 4 if m["type"] == "kong" else 3) for m in melds])


def _other_hand(rng: random.Random, wall: Wall, seat: int, players: int, *, size: int,
                must_kong: bool, avoid_melds: frozenset[str]) -> tuple[list[str], list[dict]]:
    """A hand of `size` tiles: often a complete hand minus one tile (so usually ready)."""
    if size == 13 and not must_kong and rng.random() < 0.45:
        concealed, melds = _complete_hand(rng, wall, seat, players, tile=None, avoid_melds=avoid_melds)
        gone = concealed.pop(rng.randrange(len(concealed)))
        wall.put(gone)
        return concealed, melds
    melds: list[dict] = []
    for i in range(rng.choice((0, 0, 1, 2)) + (1 if must_kong else 0)):
        kong = must_kong and i == 0 or rng.random() < 0.4
        kind = wall.random_kind(rng, 4 if kong else 3, avoid_melds)
        wall.take(kind, 4 if kong else 3)
        melds.append(_meld(rng, kind, seat, players, kong=kong))
    concealed = []
    while _size(concealed, melds) < size:
        kind = wall.random_kind(rng)
        wall.take(kind)
        concealed.append(kind)
    if _size(concealed, melds) != size:
        raise NoTiles("size")
    return concealed, melds


def _build(rng: random.Random) -> dict[str, Any]:
    players = rng.choice((3, 4))
    preset = rng.choice(tuple(PRESETS))
    chosen = rng.sample(sorted(OPTION_VALUES), rng.randint(0, 5))
    options = {name: rng.choice(OPTION_VALUES[name]) for name in chosen}
    for name in chosen:
        if options[name] and name in COMPANIONS and rng.random() < 0.7:
            options = {**COMPANIONS[name], **options}
    rules = PRESETS[preset]
    kind_of = rng.choices(OUTCOMES, OUTCOME_WEIGHTS)[0]
    if kind_of == "multi" and players == 3:
        kind_of = rng.choice(("multi", "discard"))
    wall = Wall()
    seats: list[dict[str, Any] | None] = [None] * players
    outcome: dict[str, Any]
    source: int | None = None
    winners: list[int] = []
    tile: str | None = None
    if kind_of != "draw":
        tile = wall.random_kind(rng, 4 if kind_of == "robbed" else 1)
        if kind_of == "self_draw":
            winners = [rng.randrange(players)]
        else:
            source = rng.randrange(players)
            others = [s for s in range(players) if s != source]
            count = rng.randint(2, players - 1) if kind_of == "multi" else (
                1 if rng.random() < 0.85 or players == 3 else 2)
            winners = sorted(rng.sample(others, count))
    # The robbed seat first: its pong holds three of the four winning tiles.
    if kind_of == "robbed":
        wall.take(tile, 3)
        pong = {"type": "pong", "tile": tile, "from": rng.choice([s for s in range(players) if s != source])}
        concealed, melds = _attempt(lambda: _other_hand(rng, wall, source, players, size=10, must_kong=False,
                                                        avoid_melds=frozenset({tile})), wall)
        seats[source] = {"concealed": concealed, "melds": [pong, *melds]}
    if tile is not None:
        wall.take(tile)  # the one winning tile all winners share
    passed = kind_of == "discard" and len(winners) == 1 and rng.random() < 0.05
    for winner in winners:
        exempt = kind_of in ("self_draw", "hot", "robbed") or options.get("pass_dou", rules.pass_dou) == "off"
        concealed, melds = _attempt(lambda: _complete_hand(
            rng, wall, winner, players, tile=tile, free=1, force_pass=not exempt), wall)
        seats[winner] = {"concealed": concealed, "melds": melds}
    for seat in range(players):
        if seats[seat] is not None:
            continue
        xiang_gong = rng.random() < 0.05
        size = rng.choice((12, 14)) if xiang_gong else 13
        must_kong = kind_of == "hot" and seat == source
        avoid = frozenset({tile} if tile else ())
        concealed, melds = _attempt(lambda: _other_hand(rng, wall, seat, players, size=size,
                                                        must_kong=must_kong, avoid_melds=avoid), wall)
        seats[seat] = {"concealed": concealed, "melds": melds, "xiang_gong": xiang_gong}
    for seat, data in enumerate(seats):
        data["discards"] = []
        for _ in range(rng.choice((0, 0, 1, 2, 3))):
            kind = YAOJI if wall.left[YAOJI] and rng.random() < 0.4 else (
                WU_GU_JI if wall.left[WU_GU_JI] and rng.random() < 0.1 else wall.random_kind(rng))
            wall.take(kind)
            data["discards"].append(kind)
        data["declared"] = None
        if not data.get("xiang_gong") and rng.random() < 0.15:
            if seat in winners or waits_of(_hand(data["concealed"], data["melds"]), rules.patterns):
                data["declared"] = rng.choice(("hard", "soft"))
    if kind_of == "draw":
        outcome = {"type": "draw"}
    else:
        outcome = {"type": "win", "from": source, "winners": [{"seat": w, "tile": tile} for w in winners],
                   "after_kong": False, "hot_kong": None, "robbed": kind_of == "robbed"}
        if kind_of == "self_draw" and any(m["type"] == "kong" for m in seats[winners[0]]["melds"]):
            outcome["after_kong"] = rng.random() < 0.4
        if kind_of == "self_draw" and rng.random() < 0.25:
            outcome["first_draw"] = True  # 天胡/地胡 (R62)
        if kind_of == "hot":
            kongs = [m["tile"] for m in seats[source]["melds"] if m["type"] == "kong"]
            outcome["hot_kong"] = rng.choice(kongs)
        if passed:
            outcome["winners"][0]["passed_before"] = True
    turned = None
    if kind_of != "draw" and rng.random() < 0.85 and any(wall.left.values()):
        turned = wall.random_kind(rng)
        wall.take(turned)
    return {
        "preset": preset,
        "options": options,
        "stake": rng.choice(STAKES),
        "dealer": rng.randrange(players),
        "seats": [{**s, "concealed": "".join(s["concealed"]), "discards": "".join(s["discards"])}
                  for s in seats],
        "turned": turned,
        "first_yaoji": _first_yaoji(rng, seats),
        **({"first_wu_gu_ji": first_wu} if (first_wu := _first_yaoji(rng, seats, WU_GU_JI)) else {}),  # R70
        "outcome": outcome,
        **({"dealer_streak": rng.choice((1, 2, 5))} if rng.random() < 0.3 else {}),
        **({"kai_ju_gen": True} if rng.random() < 0.2 else {}),  # 开局跟 (R63)
        **({"weekday": rng.randint(1, 7)} if rng.random() < 0.5 else {}),  # 星期鸡 (R64)
    }


def _first_yaoji(rng: random.Random, seats: list[dict[str, Any]], tile: str = YAOJI) -> dict[str, Any] | None:
    """Who discarded the first 幺鸡 (R70: the first 8筒): an unclaimed one in someone's discards, or
    one claimed by a meld."""
    choices: list[dict[str, Any]] = [
        {"seat": s, "claimed_by": None} for s, data in enumerate(seats) if tile in data["discards"]
    ]
    for claimer, data in enumerate(seats):
        for meld in data["melds"]:
            if meld["tile"] == tile and meld.get("from") is not None and meld.get("kind") != "men":
                choices.append({"seat": meld["from"], "claimed_by": claimer})
    if not choices or rng.random() < 0.15:
        return None
    return rng.choice(choices)


def random_record(rng: random.Random) -> dict[str, Any]:
    """One random legal round record (a JSON-shaped dict)."""
    while True:
        try:
            return _build(rng)
        except NoTiles:
            continue


def rounds():
    """The hypothesis strategy: records from seeds, so a failure prints a seed to replay."""
    from hypothesis import strategies as st

    return st.integers(min_value=0, max_value=2**32 - 1).map(lambda seed: random_record(random.Random(seed)))
