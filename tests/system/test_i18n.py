"""English (locale/en): a complete catalogue, a compiled .mo that matches it, and pages without
untranslated Chinese.

The msgids are the Chinese UI strings. In English, 捉鸡 rule terms keep their hanzi beside the
English ("Self-draw 自摸"), players may have Chinese names, and the tiles show their suit's
hanzi as real tiles do; anything else in Chinese on an English page is a string that was never
marked for translation (or never translated).
"""
from __future__ import annotations

import ast
import difflib
import html
import os
import re
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from calculator import services
from tests.factories import example_record
from tests.round_form_data import load_example, record_to_post_data

PO = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


# -- the catalogue -------------------------------------------------------------------------------


def parse_po(text: str) -> list[dict]:
    """The entries of a .po file: msgctxt, msgid, msgid_plural, msgstr (index → text), flags.

    Enough of the format for this catalogue: comments, flags, (multi-line) strings, plurals.
    Obsolete entries (#~) are comments here, so they are skipped.
    """
    entries: list[dict] = []
    entry: dict | None = None
    key: tuple | str | None = None
    for line in [*text.splitlines(), ""]:
        if not line.strip():
            if entry is not None and entry["msgid"] is not None:
                entries.append(entry)
            entry, key = None, None
            continue
        if entry is None:
            entry = {"msgctxt": None, "msgid": None, "msgid_plural": None, "msgstr": {}, "flags": set(),
                     "line": len(entries)}
        if line.startswith("#,"):
            entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        match = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$', line)
        if match:
            keyword, index, literal = match.groups()
            key = ("msgstr", int(index or 0)) if keyword.startswith("msgstr") else keyword
            value = ast.literal_eval(literal)
            if isinstance(key, tuple):
                entry["msgstr"][key[1]] = value
            else:
                entry[key] = value
        else:  # a continuation line: "…"
            value = ast.literal_eval(line.strip())
            if isinstance(key, tuple):
                entry["msgstr"][key[1]] += value
            else:
                entry[key] += value
    return entries


def catalogue() -> list[dict]:
    return [e for e in parse_po(PO.read_text(encoding="utf-8")) if e["msgid"]]  # not the header


def label(entry: dict) -> str:
    return f"{entry['msgctxt'] + ' | ' if entry['msgctxt'] else ''}{entry['msgid']!r}"


def test_the_parser_reads_contexts_plurals_and_continuations():
    text = (
        'msgid ""\nmsgstr ""\n"Language: en\\n"\n\n'
        '#: a.py:1\n#, fuzzy, python-brace-format\nmsgctxt "item"\nmsgid "{n} 番"\nmsgstr ""\n"{n} "\n"pts"\n\n'
        'msgid "%(n)s 局"\nmsgid_plural "%(n)s 局"\nmsgstr[0] "%(n)s round"\nmsgstr[1] ""\n'
    )
    header, single, plural = parse_po(text)

    assert header["msgid"] == ""
    assert single["msgctxt"] == "item" and single["msgstr"] == {0: "{n} pts"} and "fuzzy" in single["flags"]
    assert plural["msgid_plural"] == "%(n)s 局" and plural["msgstr"] == {0: "%(n)s round", 1: ""}


def test_every_msgid_has_an_english_msgstr_and_none_is_fuzzy():
    entries = catalogue()
    untranslated = [label(e) for e in entries if not e["msgstr"] or not all(e["msgstr"].values())]
    fuzzy = [label(e) for e in entries if "fuzzy" in e["flags"]]

    assert len(entries) > 400
    assert not untranslated, f"{len(untranslated)} without English: {untranslated[:10]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy (review, then drop the flag): {fuzzy[:10]}"


def test_plural_entries_have_both_english_forms():
    plurals = [e for e in catalogue() if e["msgid_plural"] is not None]

    assert plurals
    assert all(sorted(e["msgstr"]) == [0, 1] for e in plurals), [label(e) for e in plurals]


def test_placeholders_survive_translation():
    """{name}, %(n)s: the English uses what the Chinese offers (msgfmt checks the flagged ones)."""
    pattern = re.compile(r"\{\w*\}|%\(\w+\)[sd]")
    for entry in catalogue():
        offered = set(pattern.findall(entry["msgid"] + (entry["msgid_plural"] or "")))
        for text in entry["msgstr"].values():
            assert set(pattern.findall(text)) <= offered, label(entry)


def test_the_compiled_catalogue_says_what_the_po_says():
    """A .mo older than the .po serves stale or missing English: run compilemessages."""
    assert MO.exists(), "locale/en/LC_MESSAGES/django.mo is missing: run manage.py compilemessages"
    stale = []
    with translation.override("en"):
        for entry in catalogue():
            context, msgid, plural, msgstr = entry["msgctxt"], entry["msgid"], entry["msgid_plural"], entry["msgstr"]
            if plural is not None:
                got = [translation.npgettext(context, msgid, plural, n) if context else
                       translation.ngettext(msgid, plural, n) for n in (1, 2)]
                want = [msgstr[0], msgstr[1]]
            else:
                got = translation.pgettext(context, msgid) if context else translation.gettext(msgid)
                want = msgstr[0]
            if got != want:
                stale.append(label(entry))
    assert not stale, f"the .mo is older than the .po for {len(stale)} entries, e.g. {stale[:5]}"


SOURCES = ("calculator", "templates", "zhuoji_site", "manage.py")


@pytest.mark.slow
def test_the_catalogue_is_the_one_makemessages_makes_from_the_code(tmp_path):
    """The .po is what bin/messages leaves: makemessages run on a copy of the code and of the
    catalogue (it writes where it reads) changes nothing but the header's date. A marked string
    missing from the .po shows Chinese on an English page; an entry no code uses any more is a
    translation nobody checks; a `#:` comment must name the files the string is in now (files,
    not lines: a line that moves does not make the catalogue stale)."""
    root = Path(settings.BASE_DIR)
    for name in (*SOURCES, "locale"):
        copy = shutil.copytree if (root / name).is_dir() else shutil.copy2
        copy(root / name, tmp_path / name)
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "en", "--no-obsolete", "--add-location=file",
                    "-v", "0"],
                   cwd=tmp_path, check=True, timeout=300, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    made = (tmp_path / "locale" / "en" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    kept = (root / "locale" / "en" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")

    def msgids(entries):
        return {(e["msgctxt"], e["msgid"]) for e in entries if e["msgid"]}

    in_code, in_po = msgids(parse_po(made)), msgids(parse_po(kept))
    assert not in_code - in_po, f"marked in the code, not in the .po (run bin/messages, then translate): {sorted(in_code - in_po)}"
    assert not in_po - in_code, f"in the .po, used nowhere (run bin/messages): {sorted(in_po - in_code)}"

    def body(text):
        return [line for line in text.splitlines() if not line.startswith('"POT-Creation-Date:')]

    changed = [line for line in difflib.unified_diff(body(kept), body(made), lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert not changed, f"the .po is not what makemessages makes (run bin/messages): {changed[:6]}"


# -- the pages, in English -----------------------------------------------------------------------

# Chinese an English page may show: the 捉鸡 terms written beside their English, the seat winds,
# the suits printed on the tiles, the brand tile, the language's own name in the switch, and the
# decorative full-width plus of a button.
RULE_TERMS = {
    "胡", "点胡", "点炮", "自摸", "杠上开花", "热炮", "抢杠", "包三家", "一炮多响", "通行证", "荒庄", "查叫",
    "豆", "闷豆", "转弯豆", "爬坡豆", "点豆", "憨包豆", "碰", "见豆三",
    "鸡", "幺鸡", "乌骨鸡", "金乌骨鸡", "冲锋乌骨鸡", "冲锋金乌骨鸡", "责任乌骨鸡", "责任金乌骨鸡", "翻牌鸡", "摇摆鸡", "金鸡", "冲锋鸡", "冲锋金鸡", "责任鸡", "满堂鸡", "包鸡", "收鸡", "烧光",
    "报听", "硬报", "软报", "杀报", "有叫", "听牌", "罚", "过水", "过水包牌", "包牌", "相公",
    "本鸡", "吹风鸡", "豆倒赔", "封顶", "庄家加番",  # house-rule variants (R45 on)
    "单钓", "清单钓", "大吊车", "双清", "多龙七对", "双龙七对", "清双龙七对", "三龙七对", "清三龙七对", "天胡", "地胡", "开局跟", "星期鸡",
    "顺", "刻",  # the tile keyboard's group keys: a run and a set of three
    "平胡", "大对子", "小七对", "清一色", "清大对", "清七对", "龙七对", "清龙七对",
    "番", "底注", "庄家", "下家", "上家", "一晚",
}
ALLOWED = RULE_TERMS | {"东", "南", "西", "北", "万", "筒", "条", "简体中文", "＋"}
PLAYERS = ["Ann", "Bo", "陈明", "Dee"]

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40]+")


def visible_text(page: str) -> str:
    """Text a reader meets: element text, option labels, and the title/aria-label/placeholder/alt
    attributes; not scripts, styles or the chart's markup."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    attributes = re.findall(r'\s(?:title|aria-label|placeholder|alt)="([^"]*)"', page)
    return html.unescape(" ".join([re.sub(r"<[^>]+>", " ", page), *attributes]))


def untranslated(page: str, names=()) -> set[str]:
    return {run for run in CJK.findall(visible_text(page)) if run not in ALLOWED and run not in names}


@pytest.fixture
def english(client):
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    return client


@pytest.fixture
def evening():
    evening = services.evening_create(names=PLAYERS, stake=Decimal("0.5"), preset="guiyang")
    for name in ("E1", "E2", "E3", "E5"):  # a discard win, a self-draw, a hot shot, no winner
        services.round_record(evening=evening, record=example_record(name), by="Ann")
    return evening


def test_the_allow_list_catches_chinese_that_is_not_a_rule_term():
    assert untranslated("<p>Self-draw 自摸 · 这一晚</p><b title='x'>Ann</b>") == {"这一晚"}
    assert untranslated('<span title="还没有记局">·</span><option>贵阳</option>') == {"还没有记局", "贵阳"}
    assert untranslated("<p>胡（平胡）</p>") == {"胡（平胡）"}  # Chinese brackets are Chinese text


@pytest.mark.django_db
@pytest.mark.parametrize("url", [
    reverse("calculator:home"),
    reverse("calculator:round_new"),
    reverse("calculator:rules") + "?preset=guiyang",
    reverse("calculator:rules") + "?preset=anshun",
    reverse("calculator:rules") + "?preset=xingyi",
    reverse("calculator:rules") + '?preset=anshun&options={"self_draw":"plus_one","patterns":{"ping_hu":2}}',
    reverse("calculator:evening_new"),
    reverse("calculator:evening_import"),
])
def test_pages_in_english_have_no_untranslated_chinese(english, url):
    response = english.get(url)

    assert response.status_code == 200
    assert '<html lang="en">' in response.content.decode()
    assert untranslated(response.content.decode()) == set()


@pytest.mark.django_db
def test_a_round_with_problems_and_a_result_read_in_english(english):
    url = reverse("calculator:round_new")
    broken = english.post(url, {**record_to_post_data(load_example("E1")), "win_tile": "", "seat1-concealed": "12x"})
    result = english.post(url, record_to_post_data(load_example("E2")))

    assert "Choose the winning tile." in broken.content.decode()
    assert untranslated(broken.content.decode()) == set()
    page = result.content.decode()
    assert "One-suit triplets 清大对 15, self-draw 自摸" in page
    assert untranslated(page) == set()
    what_if = english.post(reverse("calculator:round_what_if"),
                           {**record_to_post_data(load_example("E2")), "what_if-preset": "anshun"}).content.decode()
    assert "What if we played other rules?" in what_if and "Lines that changed" in what_if
    assert untranslated(what_if) == set()


@pytest.mark.django_db
def test_an_evening_reads_in_english(english, evening):
    token, read_token = evening.token, evening.read_token
    urls = [
        reverse("calculator:evening_detail", args=[token]),
        reverse("calculator:evening_round_new", args=[token]),
        reverse("calculator:evening_round", args=[token, 1]),
        reverse("calculator:evening_round_edit", args=[token, 1]),
        reverse("calculator:evening_round_delete", args=[token, 2]),
        reverse("calculator:evening_history", args=[token]),
        reverse("calculator:evening_settle", args=[token]),
        reverse("calculator:evening_share", args=[token]),
        reverse("calculator:evening_follow", args=[read_token]),
        reverse("calculator:evening_follow_round", args=[read_token, 3]),
        reverse("calculator:evening_rules", args=[token]),
        reverse("calculator:evening_follow_rules", args=[read_token]),
        reverse("calculator:evening_what_if", args=[token]) + "?what_if-preset=anshun",
        reverse("calculator:evening_round_what_if", args=[token, 1]) + "?what_if-preset=xingyi",
        reverse("calculator:evening_follow_what_if", args=[read_token]) + "?what_if-preset=xingyi",
        reverse("calculator:evening_follow_round_what_if", args=[read_token, 3]) + "?what_if-preset=anshun",
    ]
    for url in urls:
        response = english.get(url)
        assert response.status_code == 200, url
        assert untranslated(response.content.decode(), names=PLAYERS) == set(), url

    board = english.get(urls[0]).content.decode()
    assert "Round 2: Bo wins by self-draw 自摸" in board and "Record a round" in board


@pytest.mark.django_db
def test_the_same_evening_is_still_chinese_without_the_switch(client, evening):
    page = client.get(reverse("calculator:evening_detail", args=[evening.token])).content.decode()

    assert "第2局 Bo 自摸 清大对" in page and "记一局" in page and "Record a round" not in page
