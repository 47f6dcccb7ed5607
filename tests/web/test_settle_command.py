"""`python manage.py settle FILE.json|-` and `--jsonl` (RULES §3, §6), run as a real subprocess."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from calculator.scoring import rules_for
from tests.scoring.random_rounds import random_record
from tests.scoring.reference import reference_needs_pass, reference_settle

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "data" / "examples"
EXPECTED = json.loads((EXAMPLES / "expected.json").read_text(encoding="utf-8"))


def settle(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", "settle", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def rejected_record() -> dict:
    data = example("E1")
    data["seats"][2]["declared"] = "soft"           # seat 2 is not ready: declared_not_ready
    data["seats"][1]["concealed"] = "123m456p678p22s5s"  # 12 tiles: tile_count
    return data


def test_settle_file_prints_the_section_6_json():
    done = settle(str(EXAMPLES / "E1.json"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) >= {"net", "matrix", "items", "money", "hands", "next_dealer"}
    assert out["net"] == [15, -2, -7, -6]
    assert out["next_dealer"] == 0
    assert out["money"] == ["15", "-2", "-7", "-6"]
    assert out["matrix"][2][0] == 1 + 2 + 3  # 点胡 1, 闷豆 2, 鸡 3
    first = {"payer": 2, "payee": 0, "points": 1, "reason": "hu.discard", "rule": "R11"}
    assert first.items() <= out["items"][0].items()
    for item in out["items"]:
        assert set(item) >= {"payer", "payee", "points", "reason", "rule"}
    assert [h["status"] for h in out["hands"]] == ["won", "ready", "not_ready", "not_ready"]
    assert out["hands"][0]["pattern"] == "ping_hu" and out["hands"][0]["value"] == 1
    assert sorted(out["hands"][1]["waits"]) == ["4s", "7s"]


def test_settle_prints_money_at_the_stake():
    out = json.loads(settle(str(EXAMPLES / "E8.json")).stdout)
    assert out["net"] == [-13, -19, 32]
    assert out["money"] == ["-6.5", "-9.5", "16"]


def test_a_rejected_record_exits_2_with_every_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rejected_record(), ensure_ascii=False), encoding="utf-8")
    done = settle(str(path))
    assert done.returncode == 2
    out = json.loads(done.stdout)
    assert list(out) == ["errors"]
    codes = sorted((e["code"], e["seat"]) for e in out["errors"])
    assert codes == [("declared_not_ready", 2), ("tile_count", 1)]
    for error in out["errors"]:
        assert set(error) >= {"code", "seat", "message"} and error["message"]


def test_text_that_is_not_json_is_rejected(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    done = settle(str(path))
    assert done.returncode == 2
    assert [e["code"] for e in json.loads(done.stdout)["errors"]] == ["bad_record"]


def test_dash_reads_stdin():
    done = settle("-", stdin=json.dumps(example("E5"), ensure_ascii=False))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["net"] == EXPECTED["E5"]["net"]
    assert out["money"] == ["40", "4", "-22", "-22"]


def test_dash_rejected_on_stdin_exits_2():
    done = settle("-", stdin=json.dumps(rejected_record()))
    assert done.returncode == 2
    assert "errors" in json.loads(done.stdout)


def test_jsonl_scores_one_record_per_line_in_order_and_goes_on_after_a_rejection(tmp_path):
    """Also every worked example through the command, in one process."""
    names = ["E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8"]
    lines = [json.dumps(example(name), ensure_ascii=False) for name in names]
    lines.insert(3, json.dumps(rejected_record(), ensure_ascii=False))
    lines.insert(5, "")  # blank lines are skipped
    path = tmp_path / "rounds.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = settle("--jsonl", str(path))
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(results) == 9
    assert "errors" in results[3]
    assert sorted(e["code"] for e in results[3]["errors"]) == ["declared_not_ready", "tile_count"]
    scored = results[:3] + results[4:]
    assert [r["net"] for r in scored] == [EXPECTED[name]["net"] for name in names]
    assert [r["next_dealer"] for r in scored] == [EXPECTED[name]["next_dealer"] for name in names]


def test_jsonl_reads_stdin_too():
    stdin = "\n".join(json.dumps(example(name)) for name in ("E7", "E2")) + "\n"
    done = settle("--jsonl", "-", stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["net"] for line in done.stdout.splitlines()] == [EXPECTED["E7"]["net"],
                                                                             EXPECTED["E2"]["net"]]


def test_a_missing_file_is_an_error():
    done = settle("/nonexistent/round.json")
    assert done.returncode != 0
    assert "cannot read" in done.stderr


def _r15_and_r34_records(plain: int, passless: int) -> list[dict]:
    """`plain` random legal records, then `passless` discard wins dealt without passes
    (`pass_dou: off`) and put back under their preset's pass rule, half with the winners declared
    (R15: a declared 平胡 still needs its pass)."""
    rng = random.Random(1315)
    records, extra = [], []
    while len(records) < plain or len(extra) < passless:
        data = random_record(rng)
        outcome = data["outcome"]
        if data["options"].get("pass_dou") == "off" and outcome["type"] == "win" and outcome["from"] is not None:
            if len(extra) < passless:
                del data["options"]["pass_dou"]
                if len(extra) % 2:
                    for winner in outcome["winners"]:
                        data["seats"][winner["seat"]]["declared"] = rng.choice(("hard", "soft"))
                extra.append(data)
        elif len(records) < plain:
            records.append(data)
    # Every three-seat draw again under both R34 rules that move the deal, from every dealer: the
    # two-ready ones are the case R34 now spells out.
    dealers = [
        {**data, "dealer": dealer, "options": {**data["options"], "draw_dealer": rule}}
        for data in records if data["outcome"]["type"] == "draw" and len(data["seats"]) == 3
        for rule in ("anshun", "xingyi") for dealer in range(3)
    ]
    return records + extra + dealers


@pytest.mark.slow
def test_jsonl_agrees_with_r15_and_r34_as_the_reference_reads_them(tmp_path):
    records = _r15_and_r34_records(300, 100)
    path = tmp_path / "random.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    done = settle("--jsonl", str(path))
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(results) == len(records)
    rejected = three_seat_draws = declared_rejected = 0
    for data, result in zip(records, results):
        rules, _ = rules_for(data["preset"], data["options"])
        expected = reference_needs_pass(data, rules)
        if expected:
            assert {(e["code"], e["seat"]) for e in result.get("errors", [])} == {
                ("needs_dou", seat) for seat in expected}, data
            rejected += 1
            declared_rejected += any(data["seats"][s].get("declared") for s in expected)
            continue
        assert "errors" not in result, (data, result)
        net, next_dealer = reference_settle(data, rules)
        assert (result["net"], result["next_dealer"]) == (net, next_dealer), data
        ready = [h["status"] != "not_ready" for h in result["hands"]]
        three_seat_draws += (len(ready) == 3 and data["outcome"]["type"] == "draw" and sum(ready) == 2
                             and rules.draw_dealer != "stay")
    # The records reach both rules (else the test would prove nothing about them).
    assert rejected and declared_rejected and three_seat_draws, (rejected, declared_rejected, three_seat_draws)
