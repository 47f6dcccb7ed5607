"""走势图: each player's running total over the rounds, as an SVG drawn on the server.

Pure string building (no JavaScript, no chart library), so the same markup serves the phone,
the read-only page and the PDF. The drawing is sized for a phone held upright: 360 units wide,
scaled to the column width, with a legend above the plot so it never hides a line.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

from .presentation import signed

# Okabe–Ito colours: told apart by colour-blind players too, readable on white.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
WIDTH = 360
PLOT_HEIGHT = 170
LEFT, RIGHT, BOTTOM = 40, 12, 26
LEGEND_ROW = 18


@dataclass(frozen=True)
class Series:
    name: str
    values: list[int]  # the running total before round 1 (0), then after each round


def colour(seat: int) -> str:
    return COLOURS[seat % len(COLOURS)]


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


def _legend(series: list[Series], columns: int) -> str:
    """Above the plot: a colour swatch, the name and the current total per player."""
    slot = (WIDTH - 8) / columns
    parts = ['<g class="legend">']
    for seat, s in enumerate(series):
        left = 8 + (seat % columns) * slot
        baseline = 8 + LEGEND_ROW * (seat // columns) + 13
        total = s.values[-1] if s.values else 0
        parts.append(
            f'<rect x="{left:.1f}" y="{baseline - 7}" width="16" height="6" rx="1.5" fill="{colour(seat)}"/>'
            f'<text x="{left + 21:.1f}" y="{baseline}" fill="#222" font-size="13">{escape(s.name[:8])} '
            f'<tspan font-weight="bold">{signed(total)}</tspan></text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _line(s: Series, stroke: str, x, y, rounds: int) -> str:
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s.values))
    dot_r = 2.6 if rounds <= 12 else 1.6
    dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="{dot_r}" fill="{stroke}"/>'
                   for i, v in enumerate(s.values) if i)
    return (f'<g class="series"><title>{escape(s.name)}</title>'
            f'<polyline points="{points}" fill="none" stroke="{stroke}" stroke-width="2.2" '
            f'stroke-linejoin="round" stroke-linecap="round"/>{dots}</g>')
