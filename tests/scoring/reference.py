"""A second, naive reading of RULES.md, written for the tests from the text alone.

Nothing here comes from calculator/scoring except the option values of a `RuleSet` (the §9 table
as data, itself pinned by test_rules.py). Hands are checked by brute force (R6–R8) and a round is
settled straight from §4 into a list of (payer, payee, points). The property tests settle random
rounds both ways and demand the same nets and next dealer.
"""
from __future__ import annotations

from typing import Any

KINDS = tuple(f"{rank}{suit}" for suit in "mps" for rank in range(1, 10))


def kind_index(tile: str) -> int:
    return "mps".index(tile[1]) * 9 + int(tile[0]) - 1


def tiles_of(text: str) -> list[str]:
    out: list[str] = []
    ranks: list[str] = []
    for char in text.replace(" ", ""):
        if char.isdigit():
            ranks.append(char)
        else:
            out += [rank + char for rank in ranks]
            ranks = []
    return out


def counts_of(text: str) -> list[int]:
    counts = [0] * 27
    for tile in tiles_of(text):
        counts[kind_index(tile)] += 1
    return counts


# ---------------------------------------------------------------------------------- R6–R8

def sets_readings(counts: list[int]) -> set[bool]:
    """Every way to split `counts` into sets only, as "some set is a sequence" flags."""
    first = next((k for k in range(27) if counts[k]), None)
    if first is None:
        return {False}
    found: set[bool] = set()
    if counts[first] >= 3:
        counts[first] -= 3
        found |= sets_readings(counts)
        counts[first] += 3
    if first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for k in (first, first + 1, first + 2):
            counts[k] -= 1
        if sets_readings(counts):
            found.add(True)
        for k in (first, first + 1, first + 2):
            counts[k] += 1
    return found


def naive_patterns(counts: list[int], meld_kinds: list[int]) -> set[str]:
    """Every pattern (R7) a hand of concealed counts plus melds reads as; empty if incomplete."""
    if sum(counts) + 3 * len(meld_kinds) != 14:
        return set()
    one_suit = len({k // 9 for k in range(27) if counts[k]} | {k // 9 for k in meld_kinds}) == 1
    found = set()
    for pair in range(27):
        if counts[pair] >= 2:
            counts[pair] -= 2
            for has_sequence in sets_readings(counts):
                if has_sequence:
                    found.add("qing_yi_se" if one_suit else "ping_hu")
                else:
                    found.add("qing_da_dui" if one_suit else "da_dui_zi")
            counts[pair] += 2
    if not meld_kinds and all(c % 2 == 0 for c in counts):
        if 4 in counts:
            found.add("qing_long_qi_dui" if one_suit else "long_qi_dui")
        else:
            found.add("qing_qi_dui" if one_suit else "xiao_qi_dui")
        # R61 多龙七对: two or three fours of a kind among the seven pairs
        dragons = {2: "shuang_long_qi_dui", 3: "san_long_qi_dui"}.get(counts.count(4))
        if dragons:
            found.add("qing_" + dragons if one_suit else dragons)
    if found and len(meld_kinds) == 4:  # R60 单钓: four melds, the concealed pair was the wait
        found |= {"dan_diao", "qing_dan_diao"} if one_suit else {"dan_diao"}
    return found


def pattern_values(rules) -> dict[str, int]:
    """R7's values with R60/R61's patterns where the rules play them (an absent key never scores)."""
    values = dict(rules.patterns)
    if rules.dan_diao:
        values["dan_diao"] = rules.dan_diao
    if rules.qing_dan_diao:
        values["qing_dan_diao"] = rules.qing_dan_diao
    if rules.duo_long:  # 龙七对 + 10 a further four in VARIANTS.md's numbers (20/30/40, one suit 30/40/50)
        for prefix in ("", "qing_"):
            values[prefix + "shuang_long_qi_dui"] = values[prefix + "long_qi_dui"] + rules.duo_long
            values[prefix + "san_long_qi_dui"] = values[prefix + "long_qi_dui"] + 2 * rules.duo_long
    return values


def best_value(found: set[str], values: dict[str, int]) -> int:
    return max(values[p] for p in found if p in values)


def naive_waits(counts: list[int], melds: list[tuple[int, int]], patterns) -> dict[str, int]:
    """R8: kind → best value over the patterns it completes, skipping kinds held four times."""
    out = {}
    for kind in range(27):
        if counts[kind] + sum(size for k, size in melds if k == kind) >= 4:
            continue
        counts[kind] += 1
        found = naive_patterns(counts, [k for k, _ in melds])
        counts[kind] -= 1
        if found:
            out[KINDS[kind]] = best_value(found, patterns)
    return out


# ---------------------------------------------------------------------------------- §4

def _melds(raw: dict) -> list[dict]:
    return raw.get("melds") or []


def reference_settle(data: dict[str, Any], rules) -> tuple[list[int], int]:
    """(net, next dealer) of a legal record under `rules`, straight from RULES §4."""
    seats = data["seats"]
    n = len(seats)
    out = data["outcome"]
    winners = [w["seat"] for w in out.get("winners", [])] if out["type"] == "win" else []
    source = out.get("from") if winners else None
    xg = [bool(s.get("xiang_gong")) for s in seats]
    bonus = [rules.declare[s["declared"]] if s.get("declared") else 0 for s in seats]
    value, ready = [0] * n, [False] * n

    def with_bonus(pattern: int, extra: int) -> int:  # R8, R11; R58: the bonus as a floor
        return max(pattern, extra) if rules.declare_floor else pattern + extra

    for i, raw in enumerate(seats):
        counts = counts_of(raw.get("concealed", ""))
        melds = [(kind_index(m["tile"]), 4 if m["type"] == "kong" else 3) for m in _melds(raw)]
        if i in winners:
            found = naive_patterns(counts, [k for k, _ in melds])
            value[i] = with_bonus(best_value(found, pattern_values(rules)), bonus[i])
            ready[i] = True
        elif not xg[i]:
            waits = naive_waits(counts, melds, pattern_values(rules))
            if waits:
                value[i], ready[i] = with_bonus(max(waits.values()), bonus[i]), True
    net = [0] * n
    flows = [[0] * n for _ in range(n)]

    def pay(payer: int, payee: int, points: int) -> None:
        if payer != payee:
            net[payer] -= points
            net[payee] += points
            flows[payer][payee] += points

    def capped(result: tuple[list[int], int]) -> tuple[list[int], int]:
        """R53 封顶: what one seat pays another, all told, is at most `cap`."""
        if rules.cap:
            for a in range(n):
                for b in range(n):
                    excess = flows[a][b] - flows[b][a] - rules.cap
                    if excess > 0:
                        net[a] += excess
                        net[b] -= excess
        return result

    def others(seat: int) -> list[int]:
        return [s for s in range(n) if s != seat]

    def xiang_gong() -> None:  # R37, and R63 开局跟: both in every outcome, before 封顶
        for s in range(n):
            if xg[s]:
                for o in others(s):
                    pay(s, o, value[o] if ready[o] else 2)
        if data.get("kai_ju_gen") and rules.gen_zhuang:
            for o in others(dealer):
                pay(dealer, o, rules.gen_zhuang)

    dealer = data.get("dealer", 0)
    if not winners:  # R33, R34
        ready_seats = [s for s in range(n) if ready[s]]
        if 0 < len(ready_seats) < n:
            for s in range(n):
                if not ready[s] and not xg[s]:
                    for r in ready_seats:
                        pay(s, r, value[r])
        xiang_gong()
        return capped((net, _dealer_after_draw(rules.draw_dealer, dealer, ready_seats, n)))
    if any(w.get("passed_before") for w in out["winners"]):  # R36
        for o in others(winners[0]):
            pay(winners[0], o, value[winners[0]])
        xiang_gong()
        return capped((net, dealer))

    hot, robbed = out.get("hot_kong"), bool(out.get("robbed"))
    burned = set()
    if (hot and rules.hot_shot_burn == "all") or (robbed and rules.robbed_kong_burn == "all"):
        burned = {source}

    def dou_value(kind: str) -> int:
        return 3 if rules.jian_dou_san else rules.dou_values[kind]

    def self_draw_price(v: int) -> int:  # R12, R45
        return {"plus_one": v + 1, "double": 2 * v, "plain": v, "double_plus_one": 2 * v + 1}[rules.self_draw]

    dealer_extra = rules.dealer_bonus + rules.dealer_streak_bonus * data.get("dealer_streak", 0)

    def pay_hu(payer: int, payee: int, points: int) -> None:  # R59: the dealer's win or loss moves more
        pay(payer, payee, points)
        # R66: only the dealer's win moves more, not its loss
        if points and dealer_extra and (payee == dealer or (payer == dealer and not rules.dealer_bonus_win_only)):
            # a dealer robbing a kong: the robbed seat pays for each of the N − 1 others (R14)
            pay(payer, payee, dealer_extra * (n - 1 if robbed and payee == dealer else 1))

    for w in winners:  # R11–R14
        v = value[w]
        if source is None:
            # R62 天胡 (the dealer) / 地胡: a fixed payment from each, else the pattern plus the bonus
            fixed = (rules.tian_hu if w == dealer else rules.di_hu) if out.get("first_draw") else 0
            if out.get("first_draw"):
                v += rules.tian_di_bonus
            for o in others(w):
                pay_hu(o, w, fixed or self_draw_price(v) + (rules.kong_bloom_bonus if out.get("after_kong") else 0))
        elif robbed:  # R14, R46
            pay_hu(source, w, {"pay_all": (n - 1) * self_draw_price(v), "qing_yi_se": max(v, rules.patterns["qing_yi_se"]),
                            "pay_all_plain": (n - 1) * v, "four_v": 4 * v, "v_plus_one": v + 1}[rules.robbed_kong])
        elif hot:
            kong = next(m for m in _melds(seats[source]) if m["type"] == "kong" and m["tile"] == hot)
            extra = {"one": 1, "none": 0, "double": v}.get(rules.hot_shot_bonus)
            if extra is None:
                extra = 0 if kong.get("late") else (
                    dou_value(kong["kind"]) * (1 if kong["kind"] == "dian" else n - 1))
            pay_hu(source, w, v + extra)
        else:
            pay_hu(source, w, v)
    if source is None:  # R31
        for s in others(winners[0]):
            if seats[s].get("declared"):  # R31, or R56: its own bonus
                pay(s, winners[0], bonus[s] if rules.declare_kill_by_kind else rules.declare_kill_self_draw)
    elif seats[source].get("declared"):
        for w in winners:
            pay(source, w, bonus[source])

    def collects(seat: int, who: str) -> bool:
        return seat not in burned and not xg[seat] and (who == "all" or ready[seat])

    for s, raw in enumerate(seats):  # R16–R18; R52 豆 倒赔
        owner_collects = collects(s, rules.dou_collectors)
        pays_back = (rules.dou_reverse and rules.dou_collectors == "ready" and not ready[s] and s not in burned)
        for m in _melds(raw):
            if m["type"] != "kong" or m.get("late"):
                continue
            if hot and rules.hot_shot_burn == "kong" and s == source and m["tile"] == hot:
                continue
            counterparts = [m["from"]] if m["kind"] == "dian" else others(s)
            for o in counterparts:
                if owner_collects and m["kind"] == "dian" and rules.dian_payer == "konger":  # R57
                    if collects(o, "all"):  # a burned feeder or 相公 collects nothing
                        pay(s, o, dou_value("dian"))
                elif owner_collects:
                    pay(o, s, dou_value(m["kind"]))
                elif pays_back and ready[o] and o not in burned:
                    pay(s, o, dou_value(m["kind"]))

    if rules.chui_feng and data.get("turned") == "5p":  # R55 吹风鸡: no chickens at all
        xiang_gong()
        return capped((net, _dealer_after_win(rules.multi_win_dealer, dealer, source, winners, n)))
    gold = "1s" in _turned_chickens(data, rules)
    to_ready = rules.chicken_flow in ("to_ready", "to_ready_chong_feng_all")  # R50
    collectors = [s for s in range(n) if collects(s, "ready" if to_ready else rules.chicken_collectors)]
    first = data.get("first_yaoji")
    holder = None  # whose 冲锋鸡 (R22): an unclaimed first 幺鸡's discarder; R65: "a ready claimer"
    if first and first.get("claimed_by") is None:
        holder = first["seat"]
    elif first and rules.chong_feng_claimed:
        claimer = first["claimed_by"]
        bao = rules.chicken_collectors == "ready_or_pay" and claimer not in burned  # 包鸡 pays it out
        holder = claimer if claimer in collectors or bao else first["seat"]  # else it stays the discarder's
    counted = [_chicken_worth(data, rules, s, holder) for s in range(n)]  # R19–R25, R48–R51
    worth = [c[0] for c in counted]
    cf = rules.chong_feng_gold if gold else rules.chong_feng
    for c in collectors:
        for o in others(c):
            if not (to_ready and ready[o]):
                pay(o, c, worth[c])
            elif rules.chicken_flow == "to_ready_chong_feng_all" and holder == c:
                pay(o, c, cf)  # R50's other table: every other seat pays a ready holder's 冲锋鸡
    # R50: a not-ready seat's discarded 幺鸡 (R68: and 8筒) count for every ready seat; R69: pooled
    flow_payers = [s for s in range(n) if s not in collectors and s not in burned and not ready[s]]
    own = {s: counted[s][2] + (counted[s][3] if rules.wu_gu_ji_to_ready else 0) for s in flow_payers}
    if rules.discard_pool:
        own = {s: sum(own.values()) for s in flow_payers}
    for s in range(n):
        if s in collectors or s in burned or (to_ready and ready[s]):
            continue
        for c in collectors:
            if rules.chicken_collectors == "ready_or_pay":  # R24 包鸡, or R49 only what it showed
                pay(s, c, counted[s][1] if rules.bao_ji == "shown" else worth[s])
            elif to_ready:
                pay(s, c, own[s])
            if rules.chong_feng_pays and rules.chicken_collectors != "ready_or_pay" and not ready[s]:
                if holder == s:  # R65: a not-ready holder pays out its 冲锋鸡
                    pay(s, c, rules.chong_feng_gold if gold else rules.chong_feng)
    claims = [(first["seat"], first["claimed_by"])] if first and first.get("claimed_by") is not None else []
    if rules.ze_ren_every:  # R67: a 幺鸡 claimed later, from the seat its meld names, owes one too
        claims += [(m["from"], s) for s, raw in enumerate(seats) for m in _melds(raw)
                   if m["tile"] == "1s" and m.get("from") is not None and m.get("kind") != "men"
                   and not (first and first.get("claimed_by") == s)]
    for discarder, claimer in claims:
        if claimer in collectors and not (to_ready and ready[discarder]):
            pay(discarder, claimer, rules.ze_ren * (rules.gold if gold and rules.ze_ren_gold else 1))
    first_wu = data.get("first_wu_gu_ji")  # R70: the first 8筒's 责任乌骨鸡, 责任鸡 × wu_gu_ji
    if rules.chong_feng_wu_gu_ji and rules.wu_gu_ji and first_wu and first_wu.get("claimed_by") is not None:
        discarder, claimer = first_wu["seat"], first_wu["claimed_by"]
        wu_gold = "8p" in _turned_chickens(data, rules)  # (no weekday is 8: never a 星期鸡)
        if claimer in collectors and not (to_ready and ready[discarder]):
            pay(discarder, claimer, rules.ze_ren * rules.wu_gu_ji * (rules.gold if wu_gold and rules.ze_ren_gold else 1))
    xiang_gong()
    return capped((net, _dealer_after_win(rules.multi_win_dealer, dealer, source, winners, n)))


def reference_needs_pass(data: dict[str, Any], rules) -> list[int]:
    """The winners R15 rejects (`needs_dou`), read from R15 alone: a 平胡 on an ordinary discard
    (not 热炮, not 抢杠, not a declarer's discard) without a 豆 of a kind `pass_dou` accepts. The
    winner's own declaration changes nothing: it is not a pattern."""
    out = data["outcome"]
    source = out.get("from") if out["type"] == "win" else None
    if source is None or out.get("hot_kong") or out.get("robbed") or rules.pass_dou == "off":
        return []
    if data["seats"][source].get("declared"):
        return []
    kinds = {"any": {"men", "zhuanwan", "dian"}, "men_or_zhuanwan": {"men", "zhuanwan"}}[rules.pass_dou]
    rejected = []
    for w in out["winners"]:
        raw = data["seats"][w["seat"]]
        melds = _melds(raw)
        found = naive_patterns(counts_of(raw.get("concealed", "")),
                               [kind_index(m["tile"]) for m in melds])
        # Equal points: the higher pattern of R7 (RULE-DECISIONS #2), so 平胡 only when it alone is best.
        values = pattern_values(rules)
        best = best_value(found, values)
        plain = [p for p in found if values.get(p) == best] == ["ping_hu"]
        has_pass = any(m["type"] == "kong" and m.get("kind") in kinds for m in melds)
        if plain and not has_pass:
            rejected.append(w["seat"])
    return rejected


def _turned_chickens(data: dict, rules) -> set[str]:
    turned = data.get("turned")
    if not turned:
        return set()
    rank, suit = int(turned[0]), turned[1]
    steps = {"next": (1,), "swing": (-1, 1), "none": (), "self": (0,), "self_next": (0, 1)}[rules.turned_chicken]
    return {f"{(rank - 1 + step) % 9 + 1}{suit}" for step in steps}


def _chicken_worth(data: dict, rules, seat: int, holder: int | None) -> tuple[int, int, int, int]:
    """(all its chickens, those it showed: melded and discarded 幺鸡 and its 冲锋鸡 (R49), its
    discarded 幺鸡 alone (R50), its discarded 8筒 alone (R68))."""
    raw = data["seats"][seat]
    kinds = _turned_chickens(data, rules)
    g = rules.gold if "1s" in kinds else 1
    if rules.xing_qi_ji and data.get("weekday"):  # R64 星期鸡: that rank in every suit, as 翻牌鸡 are
        kinds = kinds | {f"{data['weekday']}{suit}" for suit in "mp"} | ({f"{data['weekday']}s"} - {"1s"})
    wu = rules.wu_gu_ji  # R44 乌骨鸡: 8筒 like 幺鸡, gold when it is also a 翻牌鸡, then not one too
    wu_g = rules.gold if "8p" in kinds else 1
    worth = shown = discarded = wu_out = 0
    for tile in tiles_of(raw.get("concealed", "")):
        if wu and tile == "8p":
            worth += wu * wu_g
        else:
            worth += rules.yaoji_concealed * g if tile == "1s" else tile in kinds
    for m in _melds(raw):
        size = 4 if m["type"] == "kong" else 3
        if wu and m["tile"] == "8p":
            worth += size * wu * wu_g
            shown += size * wu * wu_g
            continue
        worth += size * g if m["tile"] == "1s" else size * (m["tile"] in kinds)
        shown += size * g if m["tile"] == "1s" else 0
    discards = tiles_of(raw.get("discards") or "")
    first = data.get("first_yaoji")
    cf = rules.chong_feng_gold if g > 1 else rules.chong_feng  # the worth that applies (RULE-DECISIONS #3)
    if holder == seat:
        if first.get("claimed_by") is None and cf > 0 and not rules.chong_feng_on_top:
            discards.remove("1s")  # the 冲锋鸡 replaces the tile's own worth; R51: on top of it
        worth += cf  # R65: a claimed one is in the claimer's meld, counted there as a 幺鸡
        shown += cf
    first_wu = data.get("first_wu_gu_ji")  # R70 冲锋乌骨鸡: the unclaimed first 8筒, 冲锋鸡 × wu_gu_ji
    if rules.chong_feng_wu_gu_ji and wu and first_wu and first_wu["seat"] == seat and first_wu.get("claimed_by") is None:
        cf_wu = (rules.chong_feng_gold if "8p" in kinds else rules.chong_feng) * wu
        if cf_wu:
            if not rules.chong_feng_on_top:
                discards.remove("8p")
            worth += cf_wu
            shown += cf_wu
    counted = {"all": kinds | {"1s"} | ({"8p"} if wu else set()), "yaoji": {"1s"}, "none": set()}[
        rules.chicken_discards]
    for tile in discards:
        if tile in counted and wu and tile == "8p":
            worth += wu * (wu_g if rules.gold_discards else 1)
            shown += wu * (wu_g if rules.gold_discards else 1)
            wu_out += wu * (wu_g if rules.gold_discards else 1)
        elif tile in counted:
            one = (g if rules.gold_discards else 1) if tile == "1s" else 1
            worth += one
            if tile == "1s":
                shown += one
                discarded += one
    return worth, shown, discarded, wu_out


def _dealer_after_draw(rule: str, dealer: int, ready: list[int], n: int) -> int:
    if rule == "stay" or len(ready) in (0, n):
        return dealer
    if len(ready) == n - 1:  # R34: "3 ready" is all but one, so two of three too
        return next(s for s in range(n) if s not in ready)
    if rule == "anshun":
        if len(ready) == 1:
            return ready[0]
        return next((dealer + step) % n for step in range(n) if (dealer + step) % n in ready)
    return (ready[0] - 1) % n if len(ready) == 1 else (dealer - 1) % n


def _dealer_after_win(rule: str, dealer: int, source: int | None, winners: list[int], n: int) -> int:
    if len(winners) == 1:
        return winners[0]
    if rule == "discarder" or (rule == "guiyang" and len(winners) == 3):
        return source
    start = dealer if rule == "guiyang" else source + 1
    return next((start + step) % n for step in range(n) if (start + step) % n in winners)
