"""Tap → screen on the round form, in a real browser: how soon a tapped tile shows, and how soon
the server's standing for it is painted.

    .venv/bin/python -m bench.taps [--quick] [--json FILE]

Serves the site under gunicorn (bench/site.py), opens /round/ in headless Chromium at 390×844 and
types the concealed hands of worked examples with the tile keyboard, one tap every 450 ± 100 ms
(a brisk recorder; seeded). Twice: unthrottled (this machine's CPU, loopback), and throttled
through the Chrome DevTools Protocol (Network.emulateNetworkConditions: 150 ms RTT, 1.6 Mbit/s
down, 0.75 Mbit/s up; Emulation.setCPUThrottlingRate 4).

Measured inside the page, on the page's own clock, for every tap:
- chip: from the tap's pointerdown to the first animation frame after the hand's chips changed;
- standing: from the tap to the first animation frame after the page has handled a preview
  answer to a request that already held this tap (requests are matched by the number of hand
  tiles they carry, which only grows while typing);
and for every preview answer, the main-thread time its handling took: from the XHR's last
readystatechange to after htmx's onload (the swap and every listener it fires), plus the style
and layout it caused (forced once there, so that they are counted here and not later).
"""
from __future__ import annotations

import random
import statistics
import time

from .common import machine, main, percentile
from .site import HOST, gunicorn, prepared_site

EXAMPLES = ("E1", "E2", "E5")
CADENCE_MS, JITTER_MS = 450, 100
SETTLE_MS = 2500  # after the last tap of a hand, for its answer to arrive
TARGETS = {"standing_p95_unthrottled": 450, "standing_p95_throttled": 900, "chip_p95": 50,  # chip: desktop CPU
           "answer_cost_p95_unthrottled": 16}
THROTTLED = {
    "network": {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8,
                "uploadThroughput": 0.75e6 / 8},
    "cpu": 4,
}

# Runs before the page's scripts: watches taps, chips and the preview's XHRs.
PROBE = r"""
(() => {
  const log = window.__bench = {taps: [], answers: [], sent: 0, aborted: 0};
  const tilesIn = (text) => { let n = 0, r = 0; for (const ch of String(text || "")) {
    if (/[1-9]/.test(ch)) r++; else if (/[mps]/.test(ch)) { n += r; r = 0; } } return n; };
  const handTiles = () => Array.from(document.querySelectorAll("input.tile-notation[name$='-concealed']"))
    .reduce((n, input) => n + tilesIn(input.value), 0);
  const bodyTiles = (body) => {
    const params = body instanceof FormData ? body : new URLSearchParams(String(body || ""));
    let n = 0; for (const [k, v] of params.entries()) if (/seat\d-concealed$/.test(k)) n += tilesIn(v);
    return n;
  };
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) { this.__url = String(url); return open.apply(this, arguments); };
  XMLHttpRequest.prototype.send = function (body) {
    const xhr = this;
    if (xhr.__url.includes("preview")) {
      const state = bodyTiles(body);
      let start = 0;
      log.sent++;
      xhr.addEventListener("readystatechange", () => { if (xhr.readyState === 4) start = performance.now(); });
      xhr.addEventListener("abort", () => { log.aborted++; });
      xhr.addEventListener("load", () => {  // after htmx's own xhr.onload: the swap is done
        void document.body.offsetHeight;      // the style and layout the swap caused
        const handled = performance.now();
        const bytes = (xhr.responseText || "").length;
        requestAnimationFrame(() => log.answers.push({state, start, handled, painted: performance.now(),
                                                       cost: handled - start, bytes}));
      });
    }
    return send.apply(this, arguments);
  };
  document.addEventListener("pointerdown", (e) => {
    if (e.target.closest && e.target.closest("[data-key]")) log.taps.push({t: e.timeStamp});
  }, true);
  // The chip: the first change to a hand's chips after the tap, whenever the page makes it.
  new MutationObserver((records) => {
    const tap = log.taps[log.taps.length - 1];
    if (!tap || "state" in tap) return;
    if (!records.some((r) => r.target.closest && r.target.closest("[data-tile-box] .tile-chips"))) return;
    tap.state = handTiles();
    requestAnimationFrame(() => { tap.chip = performance.now() - tap.t; });
  }).observe(document, {subtree: true, childList: true});
})();
"""


def _hands(name: str) -> list[list[str]]:
    from calculator.scoring import parse_tiles
    from tests.round_form_data import load_example

    return [[str(t) for t in parse_tiles(seat.get("concealed", ""))] for seat in load_example(name)["seats"]]


def _enter(page, rng: random.Random, names) -> list[dict]:
    """Each example typed on a fresh /round/; the page's log of each (a page load starts a new one)."""
    logs = []
    for name in names:
        page.evaluate("localStorage.clear()")  # or /round/ brings back the example typed before (draft.js)
        page.goto(page.url.split("?")[0] + ("?players=3" if len(_hands(name)) == 3 else ""))
        page.wait_for_load_state("networkidle")
        for seat, tiles in enumerate(_hands(name)):
            page.tap(f'[data-tile-box][data-for="id_seat{seat}-concealed"]')
            page.wait_for_selector("[data-tile-keyboard]:not([hidden])")
            keys = {}
            for code in tiles:
                if code not in keys:
                    box = page.locator(f'[data-tile-keyboard] [data-key="{code}"]').bounding_box()
                    keys[code] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                page.touchscreen.tap(*keys[code])
                page.wait_for_timeout(CADENCE_MS + rng.randint(-JITTER_MS, JITTER_MS))
            page.wait_for_timeout(SETTLE_MS)
            page.tap("[data-kb-done]")
        page.wait_for_timeout(SETTLE_MS)
        logs.append(page.evaluate("window.__bench"))
    return logs


def _summary(logs: list[dict]) -> dict:
    """Every example's taps and answers together (each matched within its own page's clock)."""
    standing, chips, answers, missing = [], [], [], 0
    for log in logs:
        page_answers = sorted(log["answers"], key=lambda a: a["painted"])
        for tap in log["taps"]:
            if "state" not in tap:
                continue
            done = next((a for a in page_answers if a["state"] >= tap["state"] and a["start"] > tap["t"]), None)
            if done is None:
                missing += 1
                continue
            standing.append(done["painted"] - tap["t"])
        chips += [tap["chip"] for tap in log["taps"] if "chip" in tap]
        answers += page_answers
    costs = [a["cost"] for a in answers]

    def stats(values):
        return {"median": round(statistics.median(values), 1), "p95": round(percentile(values, 95), 1),
                "max": round(max(values), 1), "n": len(values)} if values else {}

    return {"standing_ms": stats(standing), "chip_ms": stats(chips), "answer_cost_ms": stats(costs),
            "answer_bytes": stats([a["bytes"] for a in answers]), "taps": sum(len(log["taps"]) for log in logs),
            "requests": sum(log["sent"] for log in logs), "aborted": sum(log["aborted"] for log in logs),
            "taps_never_answered": missing}


def _measure(browser, base: str, names, throttled: bool, seed: int) -> dict:
    from tests.conftest import PHONE

    context = browser.new_context(**PHONE)
    context.add_init_script(PROBE)
    page = context.new_page()
    if throttled:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", THROTTLED["network"])
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLED["cpu"]})
    page.goto(base + "/round/")
    logs = _enter(page, random.Random(seed), names)
    context.close()
    return _summary(logs)


def run(quick: bool) -> dict:
    from playwright.sync_api import sync_playwright

    from tests.conftest import CHROMIUM, CHROMIUM_ARGS

    names = EXAMPLES[:1] if quick else EXAMPLES
    started = time.perf_counter()
    result: dict = {"part": "taps", "machine": machine(), "examples": list(names),
                    "cadence_ms": f"{CADENCE_MS} ± {JITTER_MS}", "throttled_with": THROTTLED}
    with prepared_site() as site, gunicorn(site) as port, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        base = f"http://{HOST}:{port}"
        result["unthrottled"] = _measure(browser, base, names, throttled=False, seed=1)
        result["throttled"] = _measure(browser, base, names, throttled=True, seed=2)
        browser.close()
    met = {
        "standing_p95_unthrottled": result["unthrottled"]["standing_ms"]["p95"] <= TARGETS["standing_p95_unthrottled"],
        "standing_p95_throttled": result["throttled"]["standing_ms"]["p95"] <= TARGETS["standing_p95_throttled"],
        "chip_p95": result["unthrottled"]["chip_ms"]["p95"] <= TARGETS["chip_p95"],
        "answer_cost_p95_unthrottled": (result["unthrottled"]["answer_cost_ms"]["p95"]
                                        <= TARGETS["answer_cost_p95_unthrottled"]),
    }
    result.update(targets=TARGETS, met=met, seconds=round(time.perf_counter() - started, 1), ok=True)
    return result


if __name__ == "__main__":
    main(run, "bench.taps")
