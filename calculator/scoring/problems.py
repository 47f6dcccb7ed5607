"""Problems with a round record (RULES §5): stable codes, the seat, a message in plain words.

Messages are Chinese templates (the players' language) marked with `gettext_noop` so that
Django's makemessages finds them; the web layer translates `template` into the reader's language
and fills in `params`. This module stays free of
Django: the marker is a local identity function.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

CODES = (
    "bad_record",
    "tile_syntax",
    "tile_overflow",
    "tile_count",
    "bad_meld",
    "not_winning",
    "needs_dou",
    "bad_outcome",
    "bad_first_yaoji",
    "bad_first_wu_gu_ji",
    "declared_not_ready",
    "bad_mei_jiao",
    "bad_seat",
    "bad_option",
)


def gettext_noop(message: str) -> str:
    return message


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a record. `field` names the part of the record it concerns."""

    code: str
    template: str
    seat: int | None = None
    field: str | None = None
    params: dict[str, Any] = dataclass_field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template.format(field=self.field, seat=self.seat, **self.params)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "seat": self.seat, "field": self.field, "message": self.message}


def problem(code: str, template: str, *, seat: int | None = None, field: str | None = None, **params: Any) -> Problem:
    assert code in CODES, code
    return Problem(code, template, seat, field, params)


class RecordInvalid(ValueError):
    """A round record breaks the rules; nothing is scored. Carries every problem found."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems

    def to_dict(self) -> dict[str, Any]:
        return {"errors": [p.to_dict() for p in self.problems]}
