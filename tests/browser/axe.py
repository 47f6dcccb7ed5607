"""axe-core over a page in the state a browser test has brought it to; any WCAG 2.2 A/AA violation fails.

axe-core comes from the npm registry (package.json at the project root, installed by bin/setup
into node_modules/) and is injected with Playwright, so the pages never load it themselves.
"""
from __future__ import annotations

from pathlib import Path

import pytest

AXE_JS = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def violations(page) -> list[dict]:
    """axe's violations on ``page`` as it is now (WCAG 2.0–2.2, levels A and AA)."""
    if not AXE_JS.exists():
        pytest.fail(f"{AXE_JS} missing: run bin/setup (npm ci installs axe-core)", pytrace=False)
    # From the top, as the page opens: what a sticky bar overlaps depends only on the scroll
    # position, so a target that happens to straddle its edge at the moment of the check is not
    # a different state of the page.
    page.evaluate("() => window.scrollTo(0, 0)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE_JS))
    return page.evaluate(
        """tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
              .then(r => r.violations.map(v => ({
                  id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary,
                                            html: n.html.slice(0, 160),
                                            related: [...n.any, ...n.all, ...n.none].flatMap(
                                                c => (c.relatedNodes || []).map(r => r.target.join(' '))).slice(0, 3)})),
              })))""",
        WCAG_22_AA,
    )


def describe(found: list[dict]) -> str:
    lines = []
    for v in found:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:8]:
            lines.append(f"    {node['target']}  {node['html']}")
            lines.extend(f"        {line}" for line in (node["summary"] or "").splitlines()[1:4])
            if node.get("related"):
                lines.append(f"        next to / under: {', '.join(node['related'])}")
        if len(v["nodes"]) > 8:
            lines.append(f"    … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def assert_accessible(page, where: str = "") -> None:
    """Fail the test if axe finds any violation on the page's current state."""
    found = violations(page)
    if found:
        pytest.fail(f"axe-core: {len(found)} WCAG 2.2 AA violation(s) on {where or page.url}:\n"
                    + describe(found), pytrace=False)
