"""Write static/vendor/bootstrap/bootstrap.trimmed.css: Bootstrap 5's CSS without the rules whose
selectors name a class no page can carry.

    .venv/bin/python bin/trim_bootstrap.py            # rewrite it (after changing templates)
    .venv/bin/python bin/trim_bootstrap.py --check    # exit 1 if it is out of date

The full build stays in bin/bootstrap-source/bootstrap.min.css (the source, never served). A class
"can be carried" if its name appears as a word anywhere in our templates, scripts and Python
(widget attrs) or in crispy-bootstrap5's templates: a superset, so nothing a page uses is lost;
a selector is kept if every class in it can be. Element, attribute and :root rules all stay.
tests/web/test_light_pages.py fails when the trimmed file is stale.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import tinycss2

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "bin" / "bootstrap-source" / "bootstrap.min.css"
TARGET = ROOT / "static" / "vendor" / "bootstrap" / "bootstrap.trimmed.css"
CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
WORD = re.compile(r"[\w-]+")


def _sources() -> list[Path]:
    import crispy_bootstrap5
    import crispy_forms

    files = [p for folder in ("templates", "static/calculator") for p in (ROOT / folder).rglob("*")
             if p.suffix in (".html", ".js", ".txt")]
    files += [p for p in (ROOT / "calculator").rglob("*.py")]
    for package in (crispy_bootstrap5, crispy_forms):
        files += Path(package.__file__).parent.joinpath("templates").rglob("*.html")
    return files


def used_words() -> set[str]:
    words: set[str] = set()
    for path in _sources():
        words.update(WORD.findall(path.read_text(errors="replace")))
    return words


def _keep_selector(selector: str, words: set[str]) -> bool:
    return all(name in words for name in CLASS.findall(selector.replace("\\:", ":")))


def _trim(rules, words: set[str]) -> str:
    out = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = [s.strip() for s in tinycss2.serialize(rule.prelude).split(",")]
            kept = [s for s in selectors if _keep_selector(s, words)]
            if kept:
                out.append(",".join(kept) + "{" + tinycss2.serialize(rule.content) + "}")
        elif rule.type == "at-rule" and rule.content is not None and rule.lower_at_keyword in ("media", "supports"):
            inner = _trim(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True), words)
            if inner:
                out.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{inner}}}")
        elif rule.type == "at-rule":
            out.append(tinycss2.serialize([rule]))
    return "".join(out)


def trimmed() -> str:
    css = SOURCE.read_text()
    banner = css[: css.index("*/") + 2] if css.startswith("/*") else ""
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    note = "/* trimmed by bin/trim_bootstrap.py: only rules our pages can use */"
    return f"{banner}\n{note}\n{_trim(rules, used_words())}\n"


if __name__ == "__main__":
    text = trimmed()
    if "--check" in sys.argv:
        sys.exit(0 if TARGET.exists() and TARGET.read_text() == text else 1)
    TARGET.write_text(text)
    print(f"{SOURCE.stat().st_size} -> {len(text.encode())} bytes: {TARGET.relative_to(ROOT)}")
