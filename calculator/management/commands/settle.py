"""`manage.py settle FILE.json` (or `-` for stdin): score a round record and print RULES §6 JSON."""
from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from calculator.presentation import settlement_json
from calculator.scoring import RecordInvalid, settle_record
from calculator.scoring.problems import problem
from calculator.scoring.problems import gettext_noop as _

EXIT_REJECTED = 2


def score_text(text: str) -> tuple[dict, bool]:
    """The result object for one record's JSON text, and whether it was accepted."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return RecordInvalid([problem("bad_record", _("记录不是有效的 JSON。"))]).to_dict(), False
    try:
        return settlement_json(settle_record(data)), True
    except RecordInvalid as invalid:
        return invalid.to_dict(), False


class Command(BaseCommand):
    help = "Score round records (RULES §3) and print their settlement (RULES §6)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a round record as JSON, or - for standard input")
        parser.add_argument("--jsonl", action="store_true",
                            help="the file holds one record per line; print one result per line")

    def handle(self, *args, file: str, jsonl: bool, **options):
        try:
            stream = sys.stdin if file == "-" else open(file, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from error
        with stream:
            if jsonl:
                for line in stream:
                    if line.strip():
                        result, _ok = score_text(line)
                        self.stdout.write(json.dumps(result, ensure_ascii=False))
                return
            result, ok = score_text(stream.read())
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=1))
        if not ok:
            sys.exit(EXIT_REJECTED)
