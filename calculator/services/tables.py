"""Writes of a 固定桌 (issue 24): make one (fresh or from an evening), attach an evening to it,
open its next evening, say who sat in a seat, and merge two names of one person.

A table never holds a total: its season is read from its evenings' stored rounds. What it holds
is who is who: its roster (`TablePlayer`, a name and the other names the person was entered
under) and, per evening, which roster player sat in each seat (`Player.member`).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from ..models import MAX_ALIASES, MAX_TABLE_NAME, Evening, Player, Table, TablePlayer
from ..scoring import ruleset_from_dict
from ..scoring.record import MAX_NAME
from .evenings import clean_rules_name, clean_stake, evening_create, lock_evening

# An evening's edit address as pasted: the whole link (…/e/<token>/…) or the token alone.
EDIT_LINK = re.compile(r"/e/([\w-]{16,64})(?:[/?#]|$)")
BARE_TOKEN = re.compile(r"[\w-]{16,64}")
MAX_ROSTER = 40


def _clean_name(name: Any, *, limit: int = MAX_NAME) -> str:
    name = " ".join(str(name).split())
    if not name or len(name) > limit or "\x00" in name:
        raise ValidationError("a name of 1 to %(max)s characters", code="name", params={"max": limit})
    return name


def clean_table_name(name: Any) -> str:
    return _clean_name(name, limit=MAX_TABLE_NAME)


def _member_for(table: Table, name: str, taken: set[int], roster: list[TablePlayer]) -> TablePlayer:
    """The roster player a seat named `name` is: the one with that name or alias not already
    seated this evening; else a new roster player (named apart if the name is taken)."""
    for member in roster:
        if member.pk not in taken and name in member.names():
            return member
    names = {m.name for m in roster}
    fresh, n = name, 2
    while fresh in names:
        fresh, n = f"{name}{n}", n + 1
    member = TablePlayer.objects.create(table=table, name=fresh[:MAX_NAME])
    roster.append(member)
    return member


def _link_seats(table: Table, evening: Evening) -> None:
    """Suggest by name: each seat of the evening is linked to the roster player of that name (or
    alias); a name the roster does not know yet joins it."""
    roster = list(table.roster.all())
    taken: set[int] = set()
    for player in evening.players.order_by("seat"):
        member = _member_for(table, player.name, taken, roster)
        taken.add(member.pk)
        if player.member_id != member.pk:
            player.member = member
            player.save(update_fields=["member"])


@transaction.atomic
def table_create(*, name: str, names: list[str], stake: Decimal | str = "1",
                 rules: Mapping[str, Any] | None = None, rules_name: str = "") -> Table:
    """建一个固定桌 from nothing: a name and the roster's names."""
    cleaned = []
    for raw in names:
        if str(raw).strip():
            one = _clean_name(raw)
            if one not in cleaned:
                cleaned.append(one)
    if len(cleaned) > MAX_ROSTER:
        raise ValidationError("a roster of at most %(max)s", code="roster", params={"max": MAX_ROSTER})
    table = Table.objects.create(name=clean_table_name(name), stake=clean_stake(stake), rules=dict(rules or {}),
                                 rules_name=clean_rules_name(rules_name))
    TablePlayer.objects.bulk_create(TablePlayer(table=table, name=n) for n in cleaned)
    return table


@transaction.atomic
def table_from_evening(*, evening: Evening, name: str = "") -> Table:
    """这桌常打：建一个固定桌. The evening's players become the roster, its stake and rules the
    table's; the evening is the table's first. An evening already at a table gives that table."""
    evening = lock_evening(evening)
    if evening.table_id:
        return evening.table
    names = [p.name for p in evening.players.order_by("seat")]
    title = name or evening.rules_name or "、".join(names)
    table = Table.objects.create(name=clean_table_name(title[:MAX_TABLE_NAME]), stake=evening.stake,
                                 rules=evening.rules, rules_name=evening.rules_name)
    evening.table = table
    evening.save(update_fields=["table"])
    _link_seats(table, evening)
    return table


class NotAttachable(ValidationError):
    """The address names no evening, or one at another table."""


def evening_by_edit_address(address: str) -> Evening | None:
    address = address.strip()
    match = EDIT_LINK.search(address) or BARE_TOKEN.fullmatch(address)
    if not match:
        return None
    return Evening.objects.filter(token=match.group(1) if match.re is EDIT_LINK else match.group(0)).first()


@transaction.atomic
def table_attach_evening(*, table: Table, address: str) -> Evening:
    """Attach a past evening by its edit address (only who may change the evening may put it in a
    season; a read-only address is refused). Its seats are linked by name."""
    evening = evening_by_edit_address(address)
    if evening is None:
        raise NotAttachable("no evening has this edit address", code="unknown")
    evening = lock_evening(evening)
    if evening.table_id == table.pk:
        return evening
    if evening.table_id is not None:
        raise NotAttachable("the evening belongs to another table", code="elsewhere")
    evening.table = table
    evening.save(update_fields=["table"])
    _link_seats(table, evening)
    return evening


def table_next_setup(*, table: Table) -> dict[str, Any]:
    """What the table's next evening starts with: the latest evening's seats, stake, rules and
    their name; before any evening, the roster's first four and the table's stake and rules."""
    latest = table.evenings.order_by("-created_at", "-id").first()
    if latest is not None:
        names = [p.name for p in latest.players.order_by("seat")]
        rules = ruleset_from_dict(latest.rules)
        return {"names": names, "stake": latest.stake, "rules": rules, "rules_name": latest.rules_name}
    names = [m.name for m in table.roster.all()[:4]]
    rules = ruleset_from_dict(table.rules or {"preset": "guiyang"})
    return {"names": names, "stake": table.stake, "rules": rules, "rules_name": table.rules_name}


@transaction.atomic
def table_evening_create(*, table: Table, names: list[str], stake: Decimal, preset: str,
                         options: Mapping[str, Any] | None = None, first_dealer: int = 0, title: str = "",
                         rules_name: str = "") -> Evening:
    """开一晚 at the table: the evening as `evening_create` opens it, then the table's, each seat
    linked to its roster player by name."""
    evening = evening_create(names=names, stake=stake, preset=preset, options=options, first_dealer=first_dealer,
                             title=title, rules_name=rules_name)
    evening.table = table
    evening.save(update_fields=["table"])
    _link_seats(table, evening)
    return evening


def table_evening_open(*, table: Table) -> Evening:
    """开下一晚, one tap: the latest evening's players in their seats, its stake, rules and their
    name (`table_next_setup`). Raises ValidationError when the table has fewer than 3 names."""
    setup = table_next_setup(table=table)
    rules = setup["rules"]
    return table_evening_create(table=table, names=setup["names"], stake=clean_stake(setup["stake"]),
                                preset=rules.preset, options=rules.options(), rules_name=setup["rules_name"])


@transaction.atomic
def seat_link(*, table: Table, evening: Evening, seat: int, member: TablePlayer | None) -> None:
    """Say who of the roster sat in a seat (one tap). `member` None: a new roster player under the
    seat's name. When that player sat elsewhere that evening, the two seats swap players, so a
    person never holds two seats of one evening."""
    evening = lock_evening(evening)
    if evening.table_id != table.pk:
        raise ValidationError("the evening is not this table's", code="evening")
    player = Player.objects.get(evening=evening, seat=seat)
    if member is None:
        member = _member_for(table, player.name, taken={m.pk for m in table.roster.all()},
                             roster=list(table.roster.all()))
    elif member.table_id != table.pk:
        raise ValidationError("not one of this table's players", code="member")
    other = Player.objects.filter(evening=evening, member=member).exclude(pk=player.pk).first()
    if other is not None:
        other.member = player.member
        other.save(update_fields=["member"])
    player.member = member
    player.save(update_fields=["member"])


@transaction.atomic
def member_merge(*, table: Table, keep: TablePlayer, absorb: TablePlayer) -> TablePlayer:
    """王哥 = 老王: `absorb`'s seats become `keep`'s and its names `keep`'s other names. Refused
    when both sat at one evening: two seats of one evening are two people."""
    if keep.table_id != table.pk or absorb.table_id != table.pk or keep.pk == absorb.pk:
        raise ValidationError("two different players of this table", code="member")
    both = set(Player.objects.filter(member=keep).values_list("evening_id", flat=True)) & set(
        Player.objects.filter(member=absorb).values_list("evening_id", flat=True))
    if both:
        raise ValidationError("both sat at the same evening", code="same_evening")
    names = [n for n in [*keep.aliases, absorb.name, *absorb.aliases] if n != keep.name]
    keep.aliases = list(dict.fromkeys(names))[:MAX_ALIASES]
    keep.save(update_fields=["aliases"])
    Player.objects.filter(member=absorb).update(member=keep)
    absorb.delete()
    return keep


@transaction.atomic
def member_rename(*, member: TablePlayer, name: str) -> TablePlayer:
    """What the season calls a roster player; the old name stays one of their names."""
    name = _clean_name(name)
    if name == member.name:
        return member
    if TablePlayer.objects.filter(table=member.table, name=name).exclude(pk=member.pk).exists():
        raise ValidationError("another player has this name", code="name_twice")
    member.aliases = list(dict.fromkeys(n for n in [member.name, *member.aliases] if n != name))[:MAX_ALIASES]
    member.name = name
    member.save(update_fields=["name", "aliases"])
    return member
