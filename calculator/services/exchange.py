"""An evening as a file: export to JSON data, and import it back under new addresses.

An import is anonymous and its file is at most a few megabytes, so it is checked in full before
anything is written: every round and every round the history keeps is scored again, and must
come out as the file says it did; numbers, dates and names must be within the bounds a real
evening keeps. Only what scoring rebuilt is stored (no stray keys, no long strings), and it is
written in bulk in short transactions, each of which on SQLite holds the database's only write
lock for a fraction of a second: other tables' rounds wait for one of those, and only that.
"""
from __future__ import annotations

import json
import time
import uuid
from decimal import Decimal
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone

from .. import jsonsafe, selectors
from ..models import (
    MAX_ALIASES, MAX_BY, MAX_NOTE, MAX_TITLE, Change, Evening, PaidTransfer, Player, Round, RoundConfirmation,
    RoundStats, Table, TablePlayer,
)
from ..presentation import settlement_json
from ..scoring import RecordInvalid, Settlement, ruleset_from_dict, settle_record
from ..scoring.record import MAX_NAME
from ..scoring.settle import decimal_text
from ..scoring.stats import round_stats
from .evenings import clean_names, clean_rules_name, clean_stake, clean_title
from .rounds import keep_evening_stats, snapshot
from .tables import MAX_ROSTER, clean_table_name

EXPORT_FORMAT = "zhuoji.evening/1"

# Caps no real evening meets: a long Saturday is 60–100 rounds, each recorded once and corrected
# now and then. They bound the work an anonymous upload can ask for.
MAX_ROUNDS = 2_000
MAX_HISTORY = 6_000
MAX_PAID = 500
# Round numbers and versions stay far below the columns' 2³¹−1, so that the next round (max + 1)
# or correction (version + 1) still fits; paid points stay below it summed.
MAX_NUMBER = 100_000
MAX_PAID_POINTS = 10_000_000
# Dates a page can print and do arithmetic on: none before the app, none far in the future.
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
FUTURE_SLACK = timedelta(days=2)  # another machine's clock may run ahead
WRITE_CHUNK = 50  # rows per write transaction (_write): about 350 kB of JSON
SQLITE_CHUNK_PAUSE = 0.15  # seconds between two chunks on SQLite (_let_others_write)


def _when(value: datetime) -> str:
    return value.isoformat()


def _moment(text: Any) -> datetime:
    """A time from an export, which `_when` writes with its UTC offset. One without an offset
    could be any of a day's worth of moments, so it is refused (ValueError) rather than guessed;
    so is one before the app or in the future, which pages could not print or count from."""
    value = datetime.fromisoformat(text)
    if timezone.is_naive(value):
        raise ValueError(f"a time without its UTC offset: {text!r:.40}")
    if not EARLIEST <= value <= timezone.now() + FUTURE_SLACK:
        raise ValueError(f"a time out of range: {text!r:.40}")
    return value


def _header(evening: Evening) -> dict[str, Any]:
    return {
        "format": EXPORT_FORMAT,
        "title": evening.title,
        "created_at": _when(evening.created_at),
        "stake": selectors.evening_stake_text(evening=evening),
        "rules": evening.rules,
        "rules_name": evening.rules_name,
        "first_dealer": evening.first_dealer,
        "players": [p.name for p in evening.players.order_by("seat")],
    }


def _lists(evening: Evening) -> dict[str, Iterator[dict[str, Any]]]:
    """The export's long lists, each read from the database a chunk at a time."""
    rounds = (
        {
            **snapshot(r),
            "idempotency_key": str(r.idempotency_key) if r.idempotency_key else None,
            "created_at": _when(r.created_at),
            "updated_at": _when(r.updated_at),
            "confirmations": [{"seat": c.seat, "verdict": c.verdict, "note": c.note, "at": _when(c.at), "by": c.by}
                              for c in r.confirmations.all()],
        }
        for r in evening.rounds.order_by("number").prefetch_related("confirmations").iterator(chunk_size=100)
    )
    history = (
        {"round_number": c.round_number, "kind": c.kind, "at": _when(c.at), "by": c.by,
         "before": c.before, "after": c.after}
        for c in evening.changes.order_by("at", "id").iterator(chunk_size=100)
    )
    paid = (
        {"payer": p.payer, "payee": p.payee, "points": p.points, "paid_at": _when(p.paid_at)}
        for p in evening.paid_transfers.order_by("paid_at", "id")
    )
    return {"rounds": rounds, "history": history, "paid": paid}


def evening_export(*, evening: Evening) -> dict[str, Any]:
    """The whole evening as JSON-ready data: players, rules, rounds, history and paid marks.

    The two addresses are not part of it: an imported copy gets addresses of its own.
    """
    return {**_header(evening), **{key: list(items) for key, items in _lists(evening).items()}}


def evening_export_json(*, evening: Evening) -> Iterator[str]:
    """`evening_export` as JSON text, a piece at a time: a 500-round evening (5 MB) is never held
    whole in memory, and the first bytes leave before the last round is read."""
    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    yield dumps(_header(evening))[:-1]
    for key, items in _lists(evening).items():
        yield f',{dumps(key)}:['
        for i, item in enumerate(items):
            yield ("," if i else "") + dumps(item)
        yield "]"
    yield "}\n"


# -- checking: everything below reads the file only, and writes nothing -------------------------


def _refuse(message: str, **params: Any) -> ValidationError:
    return ValidationError(message, code="damaged", params=params)


def _count(value: Any, *, low: int = 1, high: int = MAX_NUMBER) -> int:
    """An integer within bounds (no bool, no float)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"not a count from {low} to {high}: {value!r:.40}")
    return value


def _list(value: Any, cap: int, what: str) -> list:
    if not isinstance(value, list):
        raise TypeError(f"{what} is not a list")
    if len(value) > cap:
        raise _refuse("more %(what)s than an evening holds (%(cap)s)", what=what, cap=cap)
    return value


def _decided(snapshot: Mapping[str, Any]) -> tuple:
    """What a stored round decided: its settlement but for how its items are worded (a round
    stored before items carried `words` has only a `detail` sentence) and for what it says did
    not count and which tiles were chickens (words worked out from the record; rounds stored
    before them have neither), its net and dealers."""
    settlement = {k: v for k, v in snapshot["settlement"].items() if k not in ("void", "chickens")}
    settlement["items"] = [{k: v for k, v in item.items() if k not in ("words", "detail")}
                           for item in settlement["items"]]
    return settlement, snapshot["net"], snapshot["dealer"], snapshot["next_dealer"]


@dataclass
class _Scorer:
    """Scores the file's rounds again under the evening's players and stake, each distinct one
    once: the history repeats most rounds (created → after, corrected → before)."""

    names: list[str]
    stake: str
    seen: dict[str, dict[str, Any]] = field(default_factory=dict)

    def snapshot(self, data: Any, number: int | None = None) -> dict[str, Any]:
        """The round `data` (a snapshot as `rounds.snapshot` writes it) rebuilt by scoring.
        Raises ValidationError when it does not score, or not to exactly the settlement it
        says it did: a file cannot make a round pay what the rules do not."""
        if not isinstance(data, Mapping):
            raise _refuse("a round is an object")
        if number is not None and data["number"] != number:
            raise _refuse("round %(n)s: the history names another round", n=number)
        key = json.dumps([data["record"], data["rules"]], sort_keys=True, ensure_ascii=False)
        if key not in self.seen:
            self.seen[key] = self._score(data["record"], data["rules"])
        rebuilt = self.seen[key]
        if _decided(data) != _decided(rebuilt):
            raise _refuse("round %(n)s does not score as the file says", n=data["number"])
        kept = {"number": _count(data["number"]), **rebuilt, "version": _count(data["version"])}
        if "idempotency_key" in data:  # snapshots have kept their form's key since issue 14
            key = data["idempotency_key"]
            kept["idempotency_key"] = str(uuid.UUID(key)) if key is not None else None
        if number is not None and "confirmations" in data:  # a correction's before, since issue 19
            kept["confirmations"] = [
                {"seat": c.seat, "verdict": c.verdict, "note": c.note, "at": _when(c.at), "by": c.by}
                for c in _check_words(data["confirmations"], data["number"], len(self.names))]
        return kept

    def _score(self, record: Any, rules: Any) -> dict[str, Any]:
        ruleset = ruleset_from_dict(rules)
        if ruleset.to_dict() != rules:
            raise _refuse("a round's rules are not complete")
        if not isinstance(record, Mapping) or not isinstance(record.get("seats"), list) \
                or len(record["seats"]) != len(self.names):
            raise _refuse("a round of other players")
        data = {**record, "preset": ruleset.preset, "stake": self.stake,
                "options": {k: v for k, v in rules.items() if k != "preset"},
                "seats": [{**(s if isinstance(s, Mapping) else {}), "name": n}
                          for s, n in zip(record["seats"], self.names)]}
        try:
            settlement: Settlement = settle_record(data)
        except RecordInvalid as invalid:
            raise _refuse("a round breaks a rule: %(codes)s",
                          codes=", ".join(p.code for p in invalid.problems)) from None
        return {"record": settlement.record.to_dict(), "settlement": settlement_json(settlement, words=True), "rules": dict(rules),
                "net": list(settlement.net), "dealer": settlement.record.dealer,
                "next_dealer": settlement.next_dealer}


@dataclass
class _Checked:
    """An evening from a file, checked in full and ready to be written."""

    evening: Evening
    names: list[str]
    rounds: list[Round]
    changes: list[Change]
    paid: list[PaidTransfer]
    confirmations: list[RoundConfirmation] = field(default_factory=list)  # each with its round, unsaved


def _check_change(data: Any, scorer: _Scorer) -> Change:
    if not isinstance(data, Mapping) or data["kind"] not in dict(Change.KINDS):
        raise _refuse("unknown kind of change")
    number = _count(data["round_number"])
    if not isinstance(data["by"], str) or len(data["by"]) > MAX_BY:
        raise _refuse("who changed a round is a name")
    kept = {"before": data["before"], "after": data["after"]}
    needed = {Change.CREATED: ("after",), Change.CORRECTED: ("before", "after"),
              Change.DELETED: ("before",)}[data["kind"]]
    if any((kept[side] is not None) != (side in needed) for side in kept):
        raise _refuse("a change keeps the round as it was and as it became")
    rebuilt = {side: scorer.snapshot(kept[side], number) if side in needed else None for side in kept}
    return Change(round_number=number, kind=data["kind"], at=_moment(data["at"]), by=data["by"], **rebuilt)


def _check_round(data: Any, scorer: _Scorer) -> Round:
    if not isinstance(data, Mapping):
        raise _refuse("a round is an object")
    rebuilt = scorer.snapshot(data)
    key = rebuilt.pop("idempotency_key")
    return Round(**rebuilt, idempotency_key=uuid.UUID(key) if key is not None else None,
                 created_at=_moment(data["created_at"]), updated_at=_moment(data["updated_at"]))


def _check_confirmations(data: Any, round_: Round, players: int) -> list[RoundConfirmation]:
    """确认 / 有异议 of one round (files from before issue 18 have none): one per seat at most."""
    kept = _check_words(data, round_.number, players)
    for word in kept:
        word.round = round_
    return kept


def _check_words(data: Any, number: int, players: int) -> list[RoundConfirmation]:
    """Seats' words as a file has them, unsaved and without their round; `by` (代按, files from
    before issue 19 have none) is blank for a seat's own phone."""
    kept = []
    for word in _list(data, players, "confirmations of a round"):
        if not isinstance(word, Mapping) or word["verdict"] not in dict(RoundConfirmation.VERDICTS):
            raise _refuse("a confirmation is 确认 or 有异议")
        note, by = word.get("note", ""), word.get("by", "")
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise _refuse("a dispute's note is longer than a note")
        if not isinstance(by, str) or len(by) > MAX_BY:
            raise _refuse("who confirmed for a seat is a name")
        kept.append(RoundConfirmation(seat=_count(word["seat"], low=0, high=players - 1),
                                      verdict=word["verdict"], note=note, at=_moment(word["at"]), by=by))
    if len({c.seat for c in kept}) != len(kept):
        raise _refuse("round %(n)s: a seat confirmed twice", n=number)
    return kept


def _check_paid(data: Any, players: int) -> PaidTransfer:
    if not isinstance(data, Mapping):
        raise _refuse("a payment is an object")
    payer, payee = _count(data["payer"], low=0, high=players - 1), _count(data["payee"], low=0, high=players - 1)
    if payer == payee:
        raise _refuse("a payment between two seats")
    return PaidTransfer(payer=payer, payee=payee, points=_count(data["points"], high=MAX_PAID_POINTS),
                        paid_at=_moment(data["paid_at"]))


def _check(data: Mapping[str, Any]) -> _Checked:
    try:
        jsonsafe.check_storable(data)
    except jsonsafe.Unstorable as refused:
        raise _refuse("cannot be stored: %(reason)s", reason=refused.reason) from None
    parts = {part: _list(data[part], cap, part) for part, cap in
             (("rounds", MAX_ROUNDS), ("history", MAX_HISTORY), ("paid", MAX_PAID))}
    names = clean_names(list(data["players"]))
    if names != list(data["players"]):
        raise ValidationError("player names must be stored trimmed", code="name")
    if not isinstance(data["rules"], Mapping) or ruleset_from_dict(data["rules"]).to_dict() != data["rules"]:
        raise ValidationError("the rules are not complete", code="rules")
    first_dealer = data["first_dealer"]
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < len(names):
        raise ValidationError("the first dealer is not one of the seats", code="dealer")
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > MAX_TITLE:
        raise _refuse("the title is longer than a title")
    evening = Evening(title=clean_title(title), created_at=_moment(data["created_at"]),
                      stake=clean_stake(data["stake"]), rules=dict(data["rules"]), first_dealer=first_dealer,
                      rules_name=clean_rules_name(data.get("rules_name", "")))
    scorer = _Scorer(names, selectors.evening_stake_text(evening=evening))
    rounds = [_check_round(r, scorer) for r in parts["rounds"]]
    numbers = [r.number for r in rounds]
    keys = [r.idempotency_key for r in rounds if r.idempotency_key is not None]
    if len(set(numbers)) != len(numbers) or len(set(keys)) != len(keys):
        raise _refuse("two rounds share a number or a form")
    confirmations = [word for round_, data in zip(rounds, parts["rounds"])
                     for word in _check_confirmations(data.get("confirmations", []), round_, len(names))]
    changes = [_check_change(c, scorer) for c in parts["history"]]
    paid = [_check_paid(p, len(names)) for p in parts["paid"]]
    if sum(p.points for p in paid) > MAX_PAID_POINTS:
        raise _refuse("more paid than an evening holds")
    return _Checked(evening, names, rounds, changes, paid, confirmations)


# -- writing: short transactions of bulk inserts ---------------------------------------------------


def _let_others_write() -> None:
    """On SQLite, leave the write lock free between two chunks for longer than a waiting writer
    sleeps between its tries (its busy handler waits up to 100 ms): the lock is not fair, and
    chunks back to back would starve another table's round for the whole import."""
    if connection.vendor == "sqlite":
        time.sleep(SQLITE_CHUNK_PAUSE)


def _write(checked: _Checked) -> Evening:
    """Write the checked evening in chunks of WRITE_CHUNK rows, each its own transaction: on
    SQLite each holds the one write lock for a fraction of a second (a whole 8 MB evening held
    it for seconds), so other tables' rounds slip in between. Nobody can see the evening before
    the last chunk: its address is handed out only afterwards. A chunk that fails (a full disk)
    takes the whole evening back with it."""
    evening = checked.evening
    with transaction.atomic():
        evening.save()
        Player.objects.bulk_create(Player(evening=evening, seat=s, name=n) for s, n in enumerate(checked.names))
    try:
        # Confirmations and season counts last: each names its round, which has its id once inserted.
        def season_counts() -> list[RoundStats]:
            return [RoundStats(round=r, evening=evening, number=r.number, dealer=r.dealer,
                               data=round_stats(r.record, r.settlement)) for r in checked.rounds]

        for rows, model in ((checked.rounds, Round), (checked.changes, Change), (checked.paid, PaidTransfer),
                            (checked.confirmations, RoundConfirmation), (season_counts, RoundStats)):
            rows = rows() if callable(rows) else rows
            for row in rows:
                if model not in (RoundConfirmation, RoundStats):
                    row.evening = evening
            for start in range(0, len(rows), WRITE_CHUNK):
                _let_others_write()
                with transaction.atomic():
                    model.objects.bulk_create(rows[start:start + WRITE_CHUNK])
        keep_evening_stats(evening)
    except BaseException:
        Evening.objects.filter(pk=evening.pk).delete()
        raise
    return evening


def evening_import(*, data: Mapping[str, Any]) -> Evening:
    """An evening from `evening_export` data, under new addresses. Raises ValidationError, and
    then has written nothing: the whole file is checked before the first write."""
    if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
        raise ValidationError("not a Zhuoji evening export", code="format")
    try:
        checked = _check(data)
    # A damaged export can break any assumption of the code that reads it; nothing is written yet.
    except (LookupError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError) as error:
        raise ValidationError("the export is incomplete or damaged: %(error)s",
                              code="damaged", params={"error": error}) from error
    return _write(checked)


# -- a 固定桌 as a file (issue 24) ----------------------------------------------------------------

TABLE_FORMAT = "zhuoji.table/1"
MAX_TABLE_EVENINGS = 200  # a year of weekly evenings, and some; the file's size caps it sooner


def table_export(*, table: Table) -> dict[str, Any]:
    """The whole table as JSON-ready data: its name, stake and rules for a first evening, its
    roster (each name with its other names), and each evening as `evening_export` writes it, with
    `seats`: the roster entry (its index) that sat in each seat. No address is part of it."""
    roster = list(table.roster.all())
    index = {m.pk: i for i, m in enumerate(roster)}
    evenings = []
    for evening in table.evenings.order_by("created_at", "id"):
        seats = [index.get(p.member_id) for p in evening.players.order_by("seat")]
        evenings.append({**evening_export(evening=evening), "seats": seats})
    return {"format": TABLE_FORMAT, "name": table.name, "created_at": _when(table.created_at),
            "stake": decimal_text(Decimal(table.stake)), "rules": table.rules, "rules_name": table.rules_name,
            "roster": [{"name": m.name, "aliases": list(m.aliases)} for m in roster], "evenings": evenings}


def _check_roster(data: Any) -> list[TablePlayer]:
    roster = []
    for entry in _list(data, MAX_ROSTER, "roster"):
        names = clean_names_any([entry["name"], *_list(entry.get("aliases", []), MAX_ALIASES, "aliases")])
        roster.append(TablePlayer(name=names[0], aliases=names[1:]))
    if len({m.name for m in roster}) != len(roster):
        raise _refuse("two roster entries share a name")
    return roster


def clean_names_any(names: list[Any]) -> list[str]:
    """Names as a roster keeps them: each trimmed, 1 to MAX_NAME characters, no NUL."""
    cleaned = [" ".join(str(n).split()) if isinstance(n, str) else "" for n in names]
    if any(not n or len(n) > MAX_NAME or "\x00" in n for n in cleaned):
        raise _refuse("a roster name is not a name")
    return cleaned


def table_import(*, data: Mapping[str, Any]) -> Table:
    """A table from `table_export` data, under new addresses (its evenings' too). Everything is
    checked before the first write, as for one evening; a failed write takes the table back."""
    if not isinstance(data, Mapping) or data.get("format") != TABLE_FORMAT:
        raise ValidationError("not a Zhuoji table export", code="format")
    try:
        jsonsafe.check_storable(data)
        roster = _check_roster(data["roster"])
        rules = data.get("rules") or {}
        if not isinstance(rules, Mapping) or (rules and ruleset_from_dict(rules).to_dict() != rules):
            raise ValidationError("the rules are not complete", code="rules")
        table = Table(name=clean_table_name(data["name"]), created_at=_moment(data["created_at"]),
                      stake=clean_stake(data["stake"]), rules=dict(rules),
                      rules_name=clean_rules_name(data.get("rules_name", "")))
        evenings = []
        for part in _list(data["evenings"], MAX_TABLE_EVENINGS, "evenings"):
            if not isinstance(part, Mapping) or part.get("format") != EXPORT_FORMAT:
                raise _refuse("an evening of the table is not an evening export")
            checked = _check(part)
            seats = _list(part.get("seats", []), len(checked.names), "seats")
            if len(seats) != len(checked.names) or any(
                    s is not None and (isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < len(roster))
                    for s in seats) or len({s for s in seats if s is not None}) != len([s for s in seats if s is not None]):
                raise _refuse("an evening's seats do not name the roster")
            evenings.append((checked, seats))
    except ValidationError:
        raise
    except (LookupError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError) as error:
        raise ValidationError("the export is incomplete or damaged: %(error)s",
                              code="damaged", params={"error": error}) from error
    with transaction.atomic():
        table.save()
        for member in roster:
            member.table = table
        TablePlayer.objects.bulk_create(roster)
    try:
        for checked, seats in evenings:
            checked.evening.table = table
            evening = _write(checked)
            for player in evening.players.all():
                if seats[player.seat] is not None:
                    player.member = roster[seats[player.seat]]
                    player.save(update_fields=["member"])
    except BaseException:
        Evening.objects.filter(table=table).delete()
        table.delete()
        raise
    return table
