"""The PDF receipt (POST /api/receipt.pdf) and the safe URL fetcher behind every PDF.

Text is checked with poppler's pdftotext, but pdftotext extracts the right characters even when
every glyph prints as an empty box (../shared/STACK.md), so the embedded CJK font is checked
with pdffonts too, and test-artifacts/receipt-E1.png is written for a human to look at.
"""
import ctypes.util
import shutil
import subprocess
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from weasyprint import HTML

from calculator.pdf import BASE_URL, StaticFileFetcher, URLRefused, receipt_context
from calculator.scoring import settle_record
from tests.pdf_tools import poppler, squeeze
from tests.round_form_data import load_example

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
EXPECTED = json.loads((EXAMPLES / "expected.json").read_text())
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
RECEIPT = reverse("calculator:api_receipt_pdf")
PDF_CSS = Path(settings.BASE_DIR) / "static" / "calculator" / "pdf.css"
CJK_FONT = re.compile(r"WenQuanYi|NotoSansCJK|Noto ?Sans ?CJK|NotoSansSC", re.IGNORECASE)


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def receipt(client, record) -> bytes:
    response = client.post(RECEIPT, json.dumps(record, ensure_ascii=False), content_type="application/json")
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return response.content


# -- the receipt ------------------------------------------------------------------------------


def test_the_receipt_shows_the_players_and_their_net_points(client, tmp_path):
    pdf = receipt(client, example("E1"))

    assert pdf.startswith(b"%PDF-")
    text = poppler("pdftotext", pdf, tmp_path, "-layout")
    assert "捉鸡算账 · 单局结算" in text
    for name in "东南西北":
        assert name in text
    for net in ("+15", "\u22122", "\u22127", "\u22126"):  # a true minus sign, as on the pages
        assert re.search(rf"(?<![\d+\u2212]){re.escape(net)}(?!\d)", text), net
    assert "下一局庄家：东" in text
    assert "第1页/共1页" in squeeze(text)  # the page number in the @page margin box


def test_the_receipt_embeds_a_cjk_font_and_every_font_it_uses(client, tmp_path):
    fonts = poppler("pdffonts", receipt(client, example("E1")), tmp_path).splitlines()[2:]

    assert fonts, "no fonts in the PDF"
    assert any(CJK_FONT.search(line) for line in fonts), fonts
    for line in fonts:
        emb = line.split()[-5]  # name type encoding | emb sub uni object ID
        assert emb == "yes", line


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_worked_example_fits_on_one_page(client, tmp_path, name):
    info = poppler("pdfinfo", receipt(client, example(name)), tmp_path)

    assert re.search(r"^Pages:\s+1$", info, re.MULTILINE), info


def test_the_receipt_is_rendered_to_a_png_for_people_to_look_at(client, tmp_path):
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm not found: run bin/setup")
    pdf = tmp_path / "receipt.pdf"
    pdf.write_bytes(receipt(client, example("E1")))
    ARTIFACTS.mkdir(exist_ok=True)

    command = ["pdftoppm", "-png", "-r", "80", "-singlefile", str(pdf), str(ARTIFACTS / "receipt-E1")]
    subprocess.run(command, check=True)

    assert (ARTIFACTS / "receipt-E1.png").stat().st_size > 10_000


def test_options_that_differ_from_the_preset_are_printed_in_words(client, tmp_path):
    record = example("E1")
    record["options"] = {"jian_dou_san": True, "self_draw": "double"}

    text = poppler("pdftotext", receipt(client, record), tmp_path)

    assert "改过的选项：自摸：每家付 牌型×2；见豆三：每个豆都算 3 番" in text
    assert "jian_dou_san" not in text and "=" not in text


def test_money_under_one_yuan_keeps_its_sign(client, tmp_path):
    """E7 at 0.5 a point: 南 wins 1 point, 0.5 元, which once printed without its plus."""
    record = example("E7")
    record["stake"] = "0.5"

    text = poppler("pdftotext", receipt(client, record), tmp_path, "-layout")

    for name, points, money in [("东", "+23", "+11.5"), ("南", "+1", "+0.5"), ("西", "\u221217", "\u22128.5"),
                                ("北", "\u22127", "\u22123.5")]:
        assert re.search(rf"{name}\s+{re.escape(points)}\s+{re.escape(money)}(?![\d.])", text), name
    assert not re.search(r"(?<![\w.])-\d", text)  # no hyphen-minus before any number


@pytest.mark.parametrize(("name", "outcome"), [("E2", "南自摸清大对"), ("E3", "东胡大对子（北热炮）"),
                                              ("E5", "荒庄查叫")])
def test_the_receipt_says_what_happened_as_the_evening_page_does(client, tmp_path, name, outcome):
    text = squeeze(poppler("pdftotext", receipt(client, example(name)), tmp_path))

    assert f"结果：{outcome}" in text


def test_the_receipt_colours_wins_and_losses_with_the_pages_classes():
    html = render_to_string("calculator/pdf/receipt.html", receipt_context(settle_record(example("E1"))))

    # 东 wins, the other three lose: a points cell and a money cell each
    assert html.count('class="num plus"') == 2 and html.count('class="num minus"') == 6


def test_weasyprint_has_harfbuzz_subsetting_for_fast_chinese_pdfs():
    """Without Debian's libharfbuzz-subset0 WeasyPrint falls back to slow subsetting and a
    two-page Chinese PDF takes 4-18 s instead of about 1 s (STACK.md); bin/setup installs it.
    Speed itself is measured in bench/ (docs/BENCHMARKS.md part 4), not here."""
    assert ctypes.util.find_library("harfbuzz-subset"), "libharfbuzz-subset0 is missing: run bin/setup"


def test_a_rejected_record_gets_the_json_errors_not_a_pdf(client):
    record = example("E1")
    record["seats"][0]["concealed"] = "234m567m345s19s"

    response = client.post(RECEIPT, json.dumps(record), content_type="application/json")

    assert response.status_code == 400
    assert "not_winning" in [e["code"] for e in response.json()["errors"]]


# -- hostile input ------------------------------------------------------------------------------


def test_hostile_player_names_print_as_text_and_fetch_nothing(client, tmp_path, listener, fetched):
    port = listener.port
    names = [
        f'<img src="http://127.0.0.1:{port}/x">',
        '<img src="file:///etc/passwd">',
        '<style>@import"file:/etc/passwd"</style>',
        "北",
    ]
    record = example("E1")
    for seat, name in zip(record["seats"], names):
        seat["name"] = name

    pdf = receipt(client, record)

    text = squeeze(poppler("pdftotext", pdf, tmp_path))
    for name in names:
        assert squeeze(name) in text
    assert "root:" not in text
    assert not listener.connected()
    assert all(url == f"{BASE_URL}static/calculator/pdf.css" for url in fetched), fetched


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/x",
        "https://example.com/style.css",
        "ftp://example.com/x",
        "file:///etc/passwd",
        "file://localhost/etc/passwd",
        "file:///proc/self/environ",
        "file:///etc/%00passwd",
        f"{BASE_URL}static/calculator/pdf.css%00.png",
        "http://[::1/x",
        f"file://{Path(settings.BASE_DIR) / 'manage.py'}",
        f"file://{Path(settings.BASE_DIR) / 'zhuoji_site' / 'settings.py'}",
        f"file://otherhost{PDF_CSS}",
        f"{BASE_URL}manage.py",
        f"{BASE_URL}static/../manage.py",
        f"{BASE_URL}static/calculator/../../manage.py",
        f"{BASE_URL}static/%2e%2e/manage.py",
        f"{BASE_URL}static/%2E%2E/%2E%2E/etc/passwd",
        f"{BASE_URL}static//etc/passwd",
        f"{BASE_URL}static/calculator/missing.css",
        f"{BASE_URL}static/",
        "https://zhuoji.invalid@127.0.0.1:9/static/calculator/pdf.css",
        "http://zhuoji.invalid/static/calculator/pdf.css",
        "https://127.0.0.1:9/static/calculator/pdf.css",
    ],
)
def test_the_fetcher_refuses_everything_but_static_files(url):
    with pytest.raises(URLRefused):
        StaticFileFetcher().fetch(url)


@pytest.mark.parametrize(
    "url",
    [f"{BASE_URL}static/calculator/pdf.css", f"{BASE_URL}static/calculator/pdf.css?v=1", PDF_CSS.as_uri()],
)
def test_the_fetcher_serves_the_apps_static_files(url):
    response = StaticFileFetcher().fetch(url)

    assert b"@page" in response.read()
    assert response.content_type == "text/css"
    assert response.charset == "utf-8"


def test_the_fetcher_serves_data_urls():
    response = StaticFileFetcher().fetch("data:text/css,p%7Bcolor:red%7D")

    assert response.read() == b"p{color:red}"


def test_hostile_html_renders_without_fetching_anything(listener, tmp_path):
    """If markup ever slipped past autoescaping, WeasyPrint still could not reach out."""
    port = listener.port
    html = f"""<!doctype html><html lang="zh-CN"><head>
      <link rel="stylesheet" href="file:///etc/passwd">
      <link rel="stylesheet" href="http://127.0.0.1:{port}/a.css">
      <style>@import url("file:///etc/passwd");
        body {{ background: url(http://127.0.0.1:{port}/b.png) }}</style>
      </head><body><p>东南西北</p>
      <img src="http://127.0.0.1:{port}/x"><img src="file:///etc/passwd">
      <iframe src="file:///etc/passwd"></iframe><object data="file:///etc/passwd"></object>
      </body></html>"""

    pdf = HTML(string=html, base_url=BASE_URL, url_fetcher=StaticFileFetcher()).write_pdf()

    assert pdf.startswith(b"%PDF-")
    assert not listener.connected()
    assert "root:" not in poppler("pdftotext", pdf, tmp_path)


def test_a_receipt_with_one_group_of_items_prints_it_in_the_left_column():
    from calculator.pdf import two_columns
    from calculator.presentation import present

    groups = present(settle_record(load_example("E5"))).groups  # 荒庄: its 查叫 payments only
    assert len(groups) == 1
    assert two_columns(groups) == (groups, [])
    three = present(settle_record(load_example("E1"))).groups
    left, right = two_columns(three)
    assert left and left + right == three


# -- what did not count, and every hand as entered ----------------------------------------------


def mei_jiao_e1() -> dict:
    """E1 with 西 recorded 没叫（没亮牌） and 南's hand 软报 (10): neither changes who pays what
    but 南's 叫 value, which now has two parts."""
    record = example("E1")
    record["seats"][2].update(concealed="", mei_jiao=True)
    record["seats"][1]["declared"] = "soft"
    return record


def test_the_receipt_says_what_did_not_count_and_which_tile_the_turn_made_the_chicken(client, tmp_path):
    text = squeeze(poppler("pdftotext", receipt(client, example("E1")), tmp_path))

    assert "翻牌5万→鸡：6万" in text
    assert "没算的" in text and "北的冲锋鸡不算：没叫" in text and "北的鸡（1番）不算：没叫" in text
    assert "没算的" not in squeeze(poppler("pdftotext", receipt(client, example("E2")), tmp_path))  # all counted


def test_the_receipt_shows_every_seats_entered_hand_or_that_it_was_not_shown(client, tmp_path):
    pdf = receipt(client, mei_jiao_e1())
    rows = poppler("pdftotext", pdf, tmp_path, "-layout")
    west = next(line for line in rows.splitlines() if line.lstrip().startswith("西"))

    assert "没叫（没亮牌）" in west
    flat = squeeze(poppler("pdftotext", pdf, tmp_path))
    for hand in ("234567万11345条", "123万456678筒2256条", "2578万1346筒12578条", "闷豆9筒"):
        assert hand in flat, hand
    assert "平胡1+软报10=11番" in flat  # 南's 叫 by its parts, as the result page says it
    assert re.search(r"^Pages:\s+1$", poppler("pdfinfo", pdf, tmp_path), re.MULTILINE)
    if shutil.which("pdftoppm"):
        ARTIFACTS.mkdir(exist_ok=True)
        (tmp_path / "mei-jiao.pdf").write_bytes(pdf)
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-singlefile", str(tmp_path / "mei-jiao.pdf"),
                        str(ARTIFACTS / "receipt-E1-mei-jiao")], check=True)


def test_the_receipt_says_it_in_english_too(client, tmp_path):
    client.cookies["django_language"] = "en"
    text = squeeze(poppler("pdftotext", receipt(client, mei_jiao_e1()), tmp_path))

    assert "Whatdidnotcount" in text and "北'sfirstdiscarded幺鸡冲锋鸡doesnotcount:notready" in text
    assert "Turned5-character→chicken:6-character" in text
    assert "Notready(handnotshown)" in text
