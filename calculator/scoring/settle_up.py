"""散场结账: the fewest transfers that bring every player's net to zero (R43), exactly.

Pure Python on whole points. A plan of transfers is a graph on the players; each connected part
of it must sum to zero, and a connected part of k players needs at least k − 1 transfers. So
the minimum is n − g, where g is the largest number of disjoint zero-sum groups that partition
the players. g is found by dynamic programming over subsets (n ≤ 8 gives 256 subsets):

    best[mask] = max over i in mask of best[mask − i], plus 1 if mask sums to zero

which counts the zero-sum prefixes of the best ordering of the players; the prefixes cut the
players into the groups. Inside a group that has no smaller zero-sum part, matching the largest
debtor with the largest creditor settles at least one player per transfer and never two before
the last (two at once would close a smaller zero-sum part), so it takes exactly k − 1.
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_PLAYERS = 8


@dataclass(frozen=True, order=True)
class Transfer:
    """`payer` pays `payee` `points` (seat numbers, whole points)."""

    payer: int
    payee: int
    points: int


def _subset_sums(nets: list[int]) -> list[int]:
    sums = [0] * (1 << len(nets))
    for mask in range(1, len(sums)):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + nets[low]
    return sums


def zero_sum_groups(nets: list[int]) -> list[list[int]]:
    """The players cut into the largest number of disjoint groups whose nets sum to zero."""
    n = len(nets)
    if n > MAX_PLAYERS:
        raise ValueError(f"settle-up is exact for at most {MAX_PLAYERS} players")
    if sum(nets) != 0:
        raise ValueError("nets must sum to zero")
    sums = _subset_sums(nets)
    full = (1 << n) - 1
    best = [0] * (full + 1)
    last = [-1] * (full + 1)  # the player whose removal gave best[mask]
    for mask in range(1, full + 1):
        for i in range(n):
            bit = 1 << i
            if mask & bit and (last[mask] < 0 or best[mask ^ bit] > best[mask]):
                best[mask], last[mask] = best[mask ^ bit], i
        best[mask] += sums[mask] == 0
    # Walk the ordering back from the full set; each zero-sum prefix closes a group.
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        if sums[mask] == 0 and current:
            groups.append(sorted(current))
            current = []
        i = last[mask]
        current.append(i)
        mask ^= 1 << i
    if current:
        groups.append(sorted(current))
    return sorted(groups)


def _settle_group(group: list[int], nets: list[int]) -> list[Transfer]:
    """k − 1 transfers for one zero-sum group with no smaller zero-sum part."""
    debtors = [[-nets[p], p] for p in group if nets[p] < 0]
    creditors = [[nets[p], p] for p in group if nets[p] > 0]
    transfers = []
    while debtors and creditors:
        debtors.sort(key=lambda d: (-d[0], d[1]))
        creditors.sort(key=lambda c: (-c[0], c[1]))
        debt, creditor = debtors[0], creditors[0]
        points = min(debt[0], creditor[0])
        transfers.append(Transfer(debt[1], creditor[1], points))
        debt[0] -= points
        creditor[0] -= points
        debtors = [d for d in debtors if d[0]]
        creditors = [c for c in creditors if c[0]]
    return transfers


def minimum_transfers(nets: list[int]) -> list[Transfer]:
    """The fewest transfers (payer → payee, points) after which every net is zero.

    Deterministic for given nets, so a recomputed plan names the same transfers again.
    """
    transfers: list[Transfer] = []
    for group in zero_sum_groups(list(nets)):
        transfers.extend(_settle_group(group, nets))
    return sorted(transfers, key=lambda t: (t.payer, t.payee))
