"""PDFs with WeasyPrint: a Django template in, the bytes of a PDF out.

Every PDF of the app goes through `render_pdf`, which hands WeasyPrint a URL fetcher that serves
the app's own static files and nothing else. WeasyPrint's default fetcher would follow any
`http(s)://` or `file://` URL it meets, so a player name that slipped past autoescaping (or a
careless template) could make the server read its own files or call other hosts.

Chinese glyphs come from an installed CJK font (Debian's fonts-wqy-microhei, see bin/setup)
named in static/calculator/pdf.css; WeasyPrint embeds the subset it uses, which is fast when
libharfbuzz-subset0 is installed (../shared/STACK.md).
"""
from __future__ import annotations

import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unicodedata import east_asian_width
from urllib.parse import unquote, urljoin, urlsplit
from urllib.request import url2pathname

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils._os import safe_join
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from . import selectors
from .presentation import chinese_page, outcome_text, present, tile_name, words_text
from .presentation.options import changed_in_words
from .presentation.words import DECLARED_CHOICES, MEI_JIAO_TITLE
from .scoring import WON
from .scoring.tiles import SUIT_HANZI

# The base URL documents are rendered against. `.invalid` never resolves (RFC 2606), and the
# fetcher never goes to the network anyway: it only maps this origin's STATIC_URL to files.
BASE_URL = "https://zhuoji.invalid/"


class URLRefused(ValueError):
    """The PDF asked for a resource that is not one of the app's static files."""


def static_roots() -> list[Path]:
    """The directories static files may come from: every finder's roots and STATIC_ROOT."""
    roots: list[Path] = []
    for finder in finders.get_finders():
        for _prefix, root in getattr(finder, "locations", []):
            roots.append(Path(root))
        for storage in getattr(finder, "storages", {}).values():
            if getattr(storage, "location", None):
                roots.append(Path(storage.location))
    if settings.STATIC_ROOT:
        roots.append(Path(settings.STATIC_ROOT))
    return list(dict.fromkeys(root.resolve() for root in roots))


def _inside_static(path: Path) -> Path | None:
    """`path` with symlinks resolved, if it is a file under a static root; otherwise None."""
    real = path.resolve()
    if real.is_file() and any(real.is_relative_to(root) for root in static_roots()):
        return real
    return None


def find_static(name: str) -> Path | None:
    """A static file by its name under STATIC_URL (e.g. `calculator/pdf.css`), or None.

    The finders serve the source tree (development, tests); STATIC_ROOT serves what
    collectstatic wrote, including the hashed names of the manifest storage (production).
    """
    if not name or "\x00" in name or ".." in name.split("/") or name.startswith("/"):
        return None
    try:
        found = finders.find(name)
        candidates = [Path(found)] if found else []
        if settings.STATIC_ROOT:
            candidates.append(Path(safe_join(settings.STATIC_ROOT, name)))
    except (SuspiciousFileOperation, ValueError):
        return None
    for candidate in candidates:
        real = _inside_static(candidate)
        if real is not None:
            return real
    return None


class StaticFileFetcher(URLFetcher):
    """Serves `data:` URLs and the app's static files; refuses every other URL.

    Static files are asked for as BASE_URL + STATIC_URL + name (what `{% static %}` gives,
    resolved against BASE_URL), as an absolute STATIC_URL, or as a `file://` path inside a
    static directory. Nothing is ever fetched over the network.
    """

    def fetch(self, url, headers=None):
        if url[:5].lower() == "data:":
            return super().fetch(url, headers)
        path = self.static_path(url)
        if path is None:
            raise URLRefused(f"not one of the app's static files: {url[:200]}")
        content_type, _encoding = mimetypes.guess_type(path.name)
        content_type = content_type or "application/octet-stream"
        if content_type.startswith("text/"):
            content_type += "; charset=utf-8"
        return URLFetcherResponse(
            path.as_uri(), body=path.read_bytes(), headers={"Content-Type": content_type}
        )

    @staticmethod
    def static_path(url: str) -> Path | None:
        try:
            return StaticFileFetcher._static_path(url)
        except (OSError, ValueError):  # e.g. a NUL byte or a malformed port in the URL
            return None

    @staticmethod
    def _static_path(url: str) -> Path | None:
        parts = urlsplit(url)
        if parts.scheme.lower() == "file":
            if parts.netloc not in ("", "localhost"):
                return None
            return _inside_static(Path(url2pathname(unquote(parts.path))))
        prefix = urljoin(BASE_URL, settings.STATIC_URL)
        without_query = url.split("#", 1)[0].split("?", 1)[0]
        if not without_query.startswith(prefix):
            return None
        return find_static(unquote(without_query[len(prefix):]))


def render_pdf(template_name: str, context: dict, *, request=None) -> bytes:
    """Render a Django template to PDF. Links resolve against BASE_URL, so a template links
    its stylesheet with `{% static 'calculator/pdf.css' %}`."""
    html = render_to_string(template_name, context, request=request)
    return HTML(string=html, base_url=BASE_URL, url_fetcher=StaticFileFetcher()).write_pdf()


# -- the single-round receipt -----------------------------------------------------------------


def tiles_hanzi(tiles) -> str:
    """Concealed tiles grouped by suit the way players say them: 234567万 11345条."""
    by_suit: dict[str, list[int]] = {}
    for tile in sorted(tiles):
        by_suit.setdefault(tile.suit, []).append(tile.rank)
    suit_names = SUIT_HANZI if chinese_page() else {suit: suit for suit in SUIT_HANZI}  # 123万 or 123m
    return " ".join(
        "".join(map(str, ranks)) + suit_names[suit] for suit, ranks in by_suit.items()
    )


def meld_hanzi(meld, names: list[str]) -> str:
    """碰 1条 ← 北, 闷豆 9筒, 点豆 5条 ← 西."""
    text = words_text([(meld.code, str(meld.tile))])
    if meld.from_seat is not None:
        text += f" ← {names[meld.from_seat]}"
    return text


def two_columns(groups: list) -> tuple[list, list]:
    """Split the item groups, in reading order, into two columns of about equal height.

    CSS `columns` would balance them itself, but WeasyPrint lays a balanced column box out
    over and over: it took most of a 1-2 s render. A flex row of two lists costs nothing."""
    heights = [len(group.lines) + 2 for group in groups]  # the title counts about two lines

    def taller_side(split: int) -> int:
        return max(sum(heights[:split]), sum(heights[split:]))

    # On a tie the left column takes more: a round with one group prints it on the left.
    split = min(range(len(groups) + 1), key=lambda split: (taller_side(split), -split))
    return groups[:split], groups[split:]


def receipt_context(settlement) -> dict:
    """What templates/calculator/pdf/receipt.html shows, on top of `present(settlement)` (which
    gives it, in the result page's words, the 翻牌's chickens and what did not count)."""
    record = settlement.record
    view = present(settlement)
    names = view.names
    seats = []
    for row, seat, hand, entered in zip(view.seats, record.seats, settlement.hands, view.hands, strict=True):
        seats.append({
            "row": row,
            "won": hand.status == WON,
            "win_tile": next((tile_name(w.tile) for w in record.outcome.winners if w.seat == row.seat), ""),
            # 没叫（没亮牌）: no concealed tiles were entered, and the receipt says so as the result page does
            "concealed": tiles_hanzi(seat.concealed) if entered.shown else "",
            "not_shown": "" if entered.shown else str(MEI_JIAO_TITLE),
            "melds": [meld_hanzi(m, names) for m in seat.melds],
            "discards": " ".join(tile_name(t) for t in seat.discards),
            "declared": str(dict(DECLARED_CHOICES)[seat.declared]) if seat.declared else "",
            "xiang_gong": seat.xiang_gong,
        })
    matrix = [
        (payer, ["—" if payee == i else (str(points) if points else "") for payee, points in enumerate(row)])
        for i, (payer, row) in enumerate(view.matrix)
    ]
    return {
        "view": view,
        "seats": seats,
        "matrix": matrix,
        "columns": two_columns(view.groups),
        "dealer": names[record.dealer],
        "outcome": outcome_text(record.to_dict(), settlement.to_dict(), names),
        "options": changed_in_words(record.rules),
    }


# -- the evening report's layout --------------------------------------------------------------


# How many em of the report's item text surely fit on one line of a column: half the A4 text
# width less the gap (48 % of 182 mm) at 8 pt is 31 em (templates/calculator/pdf/evening_report.html).
ITEM_COLUMN_EMS = 29.5


def _ems(text: str) -> float:
    """A generous guess at how wide `text` sets in the report's font, in em: Chinese characters
    and full-width forms 1, a space 0.3, anything else 0.62 (WenQuanYi's digits are 0.55)."""
    return sum(1.0 if east_asian_width(c) in "WF" else 0.3 if c == " " else 0.62 for c in text)


@dataclass(frozen=True)
class ReportRound:
    row: selectors.RoundRow
    view: Any  # presentation.SettlementView

    @property
    def item_lines(self) -> list[str]:
        """Each item as one line of plain text: "豆 · 南姐 付 东哥 2 番：闷豆 9筒 R16"."""
        return [f"{group.title} · {line.text} {line.rule}"
                for group in self.view.groups for line in group.lines]

    @property
    def nets_text(self) -> str:
        """Each player's net for the round: "东哥 +39　南姐 −13　西西 −13　北北 −13", a no-break
        space inside each pair."""
        return "\u3000".join(f"{net.name}\u00a0{net.text}" for net in self.row.nets)

    @property
    def item_halves(self) -> tuple[list[str], list[str]]:
        """The item lines in reading order, split for two columns (the left one as long as the
        right or one line longer)."""
        lines = self.item_lines
        half = (len(lines) + 1) // 2
        return lines[:half], lines[half:]

    @property
    def item_columns(self) -> tuple[str, str]:
        """The two columns as text, a line per item. The report prints each as one block of
        text: a box per line, or CSS columns, cost WeasyPrint most of its time on a long
        evening."""
        left, right = self.item_halves
        return "\n".join(left), "\n".join(right)

    @property
    def items_fit(self) -> bool:
        """Whether every item line surely fits on one line of its column. When one may not (long
        names; English), the report sets each item as a paragraph with a hanging indent, so that
        a line that wraps cannot be read as the start of another item."""
        return all(_ems(line) <= ITEM_COLUMN_EMS for line in self.item_lines)


def report_rounds(*, evening, latest: int | None = None) -> list[ReportRound]:
    """The evening's rounds in order with their items, laid out for the evening report: every
    round, or only the `latest` so many."""
    names = selectors.evening_names(evening=evening)
    rounds = selectors.evening_rounds_queryset(evening=evening)
    if latest is not None:
        rounds = reversed(rounds.reverse()[:latest])
    return [ReportRound(selectors.round_row(r, names), present(selectors.stored_settlement(r))) for r in rounds]


# -- the evening report ------------------------------------------------------------------------


# WeasyPrint's time grows faster than the rounds (200 rounds ≈ 2 s, 1,000 ≈ 20 s), and the
# read-only address may ask: the report prints at most this much, the latest first kept. A long
# Saturday is 60–100 rounds; all of any evening is in its export.
MAX_REPORT_ROUNDS = 300
MAX_REPORT_CHANGES = 600


def report_context(evening) -> dict:
    """What templates/calculator/pdf/evening_report.html prints."""
    rounds = report_rounds(evening=evening, latest=MAX_REPORT_ROUNDS)
    history = selectors.evening_history(evening=evening)
    return {
        "evening": evening,
        "board": selectors.evening_board(evening=evening),
        "rounds": rounds,
        "rounds_left_out": selectors.evening_rounds_queryset(evening=evening).count() - len(rounds),
        "settle": selectors.evening_settle_up(evening=evening),
        "history": history[:MAX_REPORT_CHANGES],
        "history_left_out": max(0, len(history) - MAX_REPORT_CHANGES),
        "printed_at": timezone.now(),
    }


def render_report_pdf(evening) -> bytes:
    """The evening report, in the active language (a task of calculator/tasks.py runs it)."""
    return render_pdf("calculator/pdf/evening_report.html", report_context(evening))
