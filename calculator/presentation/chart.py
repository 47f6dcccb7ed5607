"""走势图: each player's running total over the rounds, as an SVG drawn on the server.

Pure string building (no JavaScript, no chart library), so the same markup serves the phone,
the read-only page and the PDF. The drawing is sized for a phone held upright: 360 units wide,
scaled to the column width, with a legend above the plot so it never hides a line.
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from html import escape

from .settlement import signed

# Okabe–Ito colours: told apart by colour-blind players too, readable on white.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
WIDTH = 360
PLOT_HEIGHT = 170
LEFT, RIGHT, BOTTOM = 40, 12, 26
LEGEND_ROW = 18
LEGEND_FONT = 13
LEGEND_TEXT_LEFT = 21  # the swatch and a space before the name
LEGEND_GAP = 6  # between one entry's total and the next entry's swatch


@dataclass(frozen=True)
class Series:
    name: str
    values: list[int]  # the running total before round 1 (0), then after each round


def colour(seat: int) -> str:
    return COLOURS[seat % len(COLOURS)]


def colour_class(seat: int) -> str:
    """The class that gives a page element the seat's colour (static/calculator/evening.css
    holds the same palette): the pages allow no inline style (issue 14's CSP)."""
    return f"seat-c{seat % len(COLOURS)}"


def _nice_step(span: float, ticks: int = 4) -> int:
    """A round tick step (1, 2, 5 × 10^k) giving about `ticks` intervals over `span`."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)


def _x_ticks(rounds: int) -> list[int]:
    if rounds <= 10:
        return list(range(0, rounds + 1))
    step = _nice_step(rounds, 5)
    return list(range(0, rounds + 1, step))


def running_totals_svg(series: list[Series], *, title: str = "", x_label: str = "", empty_text: str = "") -> str:
    """The chart as an <svg> element (a string safe to mark as safe: every text is escaped)."""
    rounds = max((len(s.values) - 1 for s in series), default=0)
    lo = min([0, *(v for s in series for v in s.values)])
    hi = max([0, *(v for s in series for v in s.values)])
    step = _nice_step(hi - lo)
    lo, hi = step * math.floor(lo / step), step * math.ceil(hi / step)
    if lo == hi:
        lo, hi = -step, step
    columns = _legend_columns(len(series))
    top = 8 + LEGEND_ROW * math.ceil(len(series) / columns) + 6
    height = top + PLOT_HEIGHT + BOTTOM
    plot_w, plot_h = WIDTH - LEFT - RIGHT, PLOT_HEIGHT

    def x(i: int) -> float:
        return LEFT + (plot_w * i / rounds if rounds else 0)

    def y(v: float) -> float:
        return top + plot_h * (hi - v) / (hi - lo)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" class="running-chart" '
        f'role="img" aria-label="{escape(title)}" font-size="12">',
        f"<title>{escape(title)}</title>" if title else "",
        f'<rect x="{LEFT}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fafafa" stroke="#ddd"/>',
    ]
    for v in range(lo, hi + 1, step):
        weight = 'stroke="#888" stroke-width="1"' if v == 0 else 'stroke="#e4e4e4" stroke-width="0.8"'
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" {weight}/>')
        out.append(f'<text x="{LEFT - 4}" y="{y(v) + 4:.1f}" text-anchor="end" fill="#555">{signed(v)}</text>')
    if rounds:
        for i in _x_ticks(rounds):
            out.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 15}" text-anchor="middle" fill="#555">{i}</text>')
        if x_label:
            out.append(f'<text x="{LEFT + plot_w}" y="{height - 1}" text-anchor="end" fill="#777" '
                       f'font-size="11">{escape(x_label)}</text>')
    elif empty_text:
        out.append(f'<text x="{LEFT + plot_w / 2}" y="{top + plot_h / 2}" text-anchor="middle" '
                   f'fill="#777" font-size="14">{escape(empty_text)}</text>')
    out.append(_legend(series, columns))
    for seat, s in enumerate(series):
        out.append(_line(s, colour(seat), x, y, rounds))
    out.append("</svg>")
    return "".join(part for part in out if part)


def _legend_columns(players: int) -> int:
    """Four players in two rows of two, so that long names and totals never collide."""
    return 2 if players == 4 else max(min(players, 3), 1)


def _em(text: str) -> float:
    """About how wide `text` prints, in ems, erring wide: a CJK character or an M or W is 1 em,
    another capital ¾, anything else ⅔ (a sans-serif's letters and digits are mostly narrower)."""
    def width(c: str) -> float:
        if unicodedata.east_asian_width(c) in "WF" or c in "MWmw@":
            return 1.0
        return 0.75 if c.isupper() else 0.67

    return sum(width(c) for c in text)


def legend_name(name: str, room: float) -> str:
    """The name, or as much of it as fits `room` ems followed by "…" (so a cut name says so)."""
    name = " ".join(name.split())
    if _em(name) <= room:
        return name
    while name and _em(name) + 1 > room:
        name = name[:-1]
    return name.rstrip() + "…"


def _legend(series: list[Series], columns: int) -> str:
    """Above the plot: a colour swatch, the name and the current total per player.

    Each entry gets a column's slot: the total always shows, and the name is cut to fit the
    rest (never into the next entry), with an ellipsis where it was cut.
    """
    slot = (WIDTH - 8) / columns
    parts = ['<g class="legend">']
    for seat, s in enumerate(series):
        left = 8 + (seat % columns) * slot
        baseline = 8 + LEGEND_ROW * (seat // columns) + 13
        total = signed(s.values[-1] if s.values else 0)
        room = (slot - LEGEND_TEXT_LEFT - LEGEND_GAP) / LEGEND_FONT - _em(" " + total) * 1.1  # bold: wider
        parts.append(
            f'<rect x="{left:.1f}" y="{baseline - 7}" width="16" height="6" rx="1.5" fill="{colour(seat)}"/>'
            f'<text x="{left + LEGEND_TEXT_LEFT:.1f}" y="{baseline}" fill="#222" font-size="{LEGEND_FONT}">'
            f'{escape(legend_name(s.name, room))} <tspan font-weight="bold">{total}</tspan></text>'
        )
    parts.append("</g>")
    return "".join(parts)


# The plot is about 330 units wide: more points than that draw nothing new, and a dot per round
# stops being a dot long before. A long evening's line keeps each stretch's lowest and highest
# total (so no swing disappears), and its chart weighs the same at 100 rounds as at 1000.
MAX_POINTS = 160
MAX_DOTS = 40


def thinned(values: list[int], limit: int = MAX_POINTS) -> list[tuple[int, int]]:
    """(round, total) pairs to draw: all of them up to `limit`, else the first, the last, and the
    lowest and highest of each of limit/2 equal stretches, in order."""
    if len(values) <= limit:
        return list(enumerate(values))
    stretch = math.ceil((len(values) - 2) / (limit // 2 - 1))
    kept = {0, len(values) - 1}
    for start in range(1, len(values) - 1, stretch):
        indices = range(start, min(start + stretch, len(values) - 1))
        kept.add(min(indices, key=values.__getitem__))
        kept.add(max(indices, key=values.__getitem__))
    return [(i, values[i]) for i in sorted(kept)]


def _line(s: Series, stroke: str, x, y, rounds: int) -> str:
    drawn = thinned(s.values)
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in drawn)
    dot_r = 2.6 if rounds <= 12 else 1.6
    dots = "" if rounds > MAX_DOTS else "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="{dot_r}" fill="{stroke}"/>' for i, v in drawn if i)
    return (f'<g class="series"><title>{escape(s.name)}</title>'
            f'<polyline points="{points}" fill="none" stroke="{stroke}" stroke-width="2.2" '
            f'stroke-linejoin="round" stroke-linecap="round"/>{dots}</g>')
