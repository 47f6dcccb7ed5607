"""`python manage.py settle FILE.json|-` and `--jsonl` (RULES §3, §6), run as a real subprocess."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
