"""The evening report and a stored round's receipt as PDFs (WeasyPrint).

pdftotext proves the words and amounts are there; pdffonts proves a CJK font is embedded
(pdftotext extracts the right characters even from empty boxes). test-artifacts/ gets the PDF
and a PNG of each page for a human to look at.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from calculator import selectors, services
from calculator.pdf import report_rounds
from tests.factories import GUIYANG_FOUR, NAMES, example_record, make_evening, record_rounds

pytestmark = pytest.mark.django_db

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CJK_FONT = re.compile(r"WenQuanYi|Noto ?Sans ?CJK|NotoSansSC", re.IGNORECASE)


def poppler(tool: str, pdf: Path, *args: str) -> str:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} not found: run bin/setup (installs poppler-utils)")
    command = [tool, *args, str(pdf)] + (["-"] if tool == "pdftotext" else [])
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def save(content: bytes, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    path.write_bytes(content)
    return path


@pytest.fixture
def long_evening():
    """30 rounds at stake 0.5, round 2 corrected, round 8 deleted, one transfer paid."""
    evening = make_evening(stake="0.5", title="周五晚上")
    rounds = record_rounds(evening, [GUIYANG_FOUR[i % 5] for i in range(30)])
    services.round_correct(round=rounds[1], record=example_record("E3"), expected_version=1, by="老王")
    services.round_delete(round=rounds[7], by="小李")
    first = selectors.evening_settle_up(evening=evening).transfers[0]
    services.transfer_mark_paid(evening=evening, payer=first.payer, payee=first.payee, points=first.points)
    return evening


def test_the_evening_report_names_every_player_and_amount(client, long_evening):
    response = client.get(reverse("calculator:evening_report_pdf", args=[long_evening.token]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    path = save(response.content, "evening-report.pdf")

    text = poppler("pdftotext", path, "-layout")  # one table row per line
    flat = squeeze(text)
    for total in selectors.evening_totals(evening=long_evening):
        row = rf"{total.name}\s+{re.escape(total.points_text)}\s+{re.escape(total.money_text)}\b"
        assert re.search(row, text), row
    for t in selectors.evening_settle_up(evening=long_evening).transfers:
        row = rf"{t.payer_name}\s*→\s*{t.payee_name}\s+{re.escape(t.money)}\s+{t.points}\s*番"
        assert re.search(row, text), row
    assert "第30局" in flat and "第8局" in flat  # the last round, and the deleted one in the history
    assert "已付" in text and "改了" in text and "删了" in text
    assert "见豆三" not in flat and "贵阳" in text  # the rules in force
    assert re.search(r"第\s*1\s*页\s*/\s*共\s*\d+\s*页", text)  # page numbers


def test_the_evening_report_itemises_every_round(client, long_evening):
    """Every payment of every round, with who pays whom, why and the rule, as on the round's page."""
    response = client.get(reverse("calculator:evening_report_pdf", args=[long_evening.token]))
    flat = squeeze(poppler("pdftotext", save(response.content, "evening-report.pdf")))
    rounds = report_rounds(evening=long_evening)
    assert len(rounds) == 29  # 30 recorded, one deleted
    for r in rounds:
        assert squeeze(r.row.summary) in flat, r.row.summary
        for net in r.row.nets:
            assert squeeze(f"{net.name} {net.text}") in flat
        for group in r.view.groups:
            for line in group.lines:
                assert squeeze(f"{group.title} · {line.text} {line.rule}") in flat, line.text


def test_long_names_give_each_item_its_own_paragraph_and_every_item_is_printed(client):
    """Item lines that may wrap in their column (long names, English) are set one paragraph per
    item with a hanging indent, so a wrapped line is not read as another item; short ones are a
    block of plain lines. Both print every item."""
    short = make_evening()
    record_rounds(short, ["E1"])
    assert all(r.items_fit for r in report_rounds(evening=short))
    long = make_evening(names=["Bartholomew-Montgomery Fitzwilliam III", "东北大王" * 5, "阿珍", "张哥"])
    record_rounds(long, list(GUIYANG_FOUR))
    rounds = report_rounds(evening=long)
    assert not any(r.items_fit for r in rounds if r.item_lines)

    response = client.get(reverse("calculator:evening_report_pdf", args=[long.token]))
    text = poppler("pdftotext", save(response.content, "evening-report-long-names.pdf"))
    flat = squeeze(text).replace("-", "")  # pdftotext drops a hyphen where a line broke after it
    for r in rounds:
        for line in r.item_lines:
            assert squeeze(line).replace("-", "") in flat, line


def test_no_page_of_the_evening_report_is_left_nearly_empty(client):
    """A section that may not break must not push everything after its heading onto the next
    page: with a history longer than a page (once a table that must not break), one page held
    its heading and nothing else."""
    long_evening = make_evening(title="周六晚上")
    record_rounds(long_evening, [GUIYANG_FOUR[i % 5] for i in range(48)])
    response = client.get(reverse("calculator:evening_report_pdf", args=[long_evening.token]))
    pages = poppler("pdftotext", save(response.content, "evening-report.pdf")).split("\f")
    pages = [page for page in pages if page.strip()]
    assert len(pages) >= 3
    for number, page in enumerate(pages[:-1], start=1):  # the last page may be short
        body = [line for line in page.splitlines() if line.strip()
                and line.strip() != long_evening.title and not re.search(r"第\s*\d+\s*页", line)]
        assert len(body) > 10, (number, body)


def words_with_boxes(pdf: Path) -> list[tuple[str, float, float, float]]:
    """Each word on the first page with its left, top and width in points (pdftotext -bbox)."""
    page = poppler("pdftotext", pdf, "-bbox", "-f", "1", "-l", "1")
    return [(m["w"], float(m["x0"]), float(m["y0"]), float(m["x1"]) - float(m["x0"]))
            for m in re.finditer(r'<word xMin="(?P<x0>[\d.]+)" yMin="(?P<y0>[\d.]+)" '
                                 r'xMax="(?P<x1>[\d.]+)" yMax="[\d.]+">(?P<w>[^<]*)</word>', page)]


def test_the_charts_legend_prints_at_about_the_bodys_size(client):
    """The chart is drawn for a phone; printed too wide, its legend came out bigger than the
    headings. A CJK character is one em wide, so a two-character name's width is twice its size."""
    evening = make_evening(names=["小王", "阿强哥哥的表弟大明白", "李姐", "老张"])
    record_rounds(evening, ["E1", "E2", "E3"])
    response = client.get(reverse("calculator:evening_report_pdf", args=[evening.token]))
    words = words_with_boxes(save(response.content, "evening-report-chart.pdf"))
    chart_top = next(y for w, _, y, _ in words if w.startswith("（每人每局后的累计番数"))
    in_table = next(width for w, _, y, width in words if w == "小王" and y < chart_top)  # the totals
    in_legend = next(width for w, _, y, width in words if w == "小王" and y > chart_top)
    assert 0.85 <= in_legend / in_table <= 1.1, (in_legend / 2, in_table / 2)  # sizes in pt
    legend = " ".join(w for w, _, y, _ in words if chart_top < y < chart_top + 40)
    assert re.search(r"阿强哥哥\S*…", legend), legend  # cut, and saying so


def test_the_evening_report_embeds_a_chinese_font(client, long_evening):
    response = client.get(reverse("calculator:evening_report_pdf", args=[long_evening.token]))
    path = save(response.content, "evening-report.pdf")
    fonts = poppler("pdffonts", path)
    assert CJK_FONT.search(fonts), fonts
    assert all(line.split()[-5] == "yes" for line in fonts.splitlines()[2:] if line.strip())  # embedded
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "70", str(path), str(ARTIFACTS / "evening-report")], check=True)


def test_the_read_only_address_downloads_the_same_report(client, long_evening):
    response = client.get(reverse("calculator:evening_follow_report_pdf", args=[long_evening.read_token]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


def test_a_stored_rounds_receipt_shows_its_players_and_amounts(client):
    evening = make_evening(stake="2")
    record_rounds(evening, ["E1"])
    response = client.get(reverse("calculator:evening_round_receipt_pdf", args=[evening.token, 1]))
    assert response.status_code == 200
    path = save(response.content, "evening-round-receipt.pdf")
    flat = squeeze(poppler("pdftotext", path))
    for name in NAMES:
        assert name in flat
    assert "+30" in flat and ("-14" in flat or "\u221214" in flat)  # 15 and −7 points at stake 2


def test_an_unknown_address_has_no_report(client):
    assert client.get(reverse("calculator:evening_report_pdf", args=["x" * 32])).status_code == 404


def test_a_stored_rounds_receipt_says_what_did_not_count_and_shows_every_hand(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    response = client.get(reverse("calculator:evening_round_receipt_pdf", args=[evening.token, 1]))
    flat = squeeze(poppler("pdftotext", save(response.content, "evening-round-receipt-void.pdf")))
    assert "翻牌5万→鸡：6万" in flat
    assert f"{NAMES[3]}的冲锋鸡不算：没叫" in flat  # E1: seat 3 is not ready
    assert "234567万11345条" in flat and "闷豆9筒" in flat  # seat 0's hand as entered
