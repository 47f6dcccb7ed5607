"""Shared fixtures: headless Debian Chromium driven by Playwright's sync API, phone-sized.

Browser tests are marked ``@pytest.mark.browser`` and use ``live_server`` with ``page``::

    @pytest.mark.browser
    def test_something(live_server, page, screenshot):
        page.goto(live_server.url + "/")
        screenshot()  # -> test-artifacts/screenshots/test_something.png

pytest-playwright is deliberately not used: Playwright cannot download its own browsers here,
so these fixtures launch /usr/bin/chromium (Debian's package, installed by bin/setup) directly.

Note: while the session-scoped ``browser`` is alive, Playwright keeps an asyncio event loop
"running" in the main thread. Django's ORM then needs DJANGO_ALLOW_ASYNC_UNSAFE (set below),
and code that starts its own loop (``asyncio.run``, ``async_to_sync``) fails in tests that run
after the first browser test in the same session.
"""
import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import re  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from tests import loopback  # noqa: E402


def pytest_configure(config):
    loopback.install()  # no test, fixture or plugin connects outside 127.0.0.0/8 (tests/loopback.py)


def pytest_report_header(config):
    from tests.timing import TIME_SCALE

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return f"zhuoji: browser waits x{TIME_SCALE:.1f} (ZHUOJI_TIME_SCALE; load average {load:.1f} on {os.cpu_count()} cores)"


PURE_TESTS = Path(__file__).resolve().parent / "scoring"


def pytest_collection_modifyitems(config, items):
    """bin/test's second run (PostgreSQL) sets ZHUOJI_PURE_DONE: tests/scoring imports no Django
    and ran in the first, so it is left out however it was named (a directory given on the
    command line is collected even when --ignore names it)."""
    if os.environ.get("ZHUOJI_PURE_DONE") != "1":
        return
    pure = [item for item in items if PURE_TESTS in Path(str(item.path)).parents]
    if pure:
        config.hook.pytest_deselected(items=pure)
        left_out = set(map(id, pure))
        items[:] = [item for item in items if id(item) not in left_out]


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
    "locale": "zh-CN",
    # Pages send a Content-Security-Policy that allows no inline script; the tests' own injected
    # helpers (axe-core) are not the page's. tests/browser/test_csp.py opens pages without this.
    "bypass_csp": True,
    # The service worker (calculator/views/app_shell.py) answers navigations and static files
    # itself, out of sight of page.route() and set_offline(); tests/browser/test_offline_app.py
    # lets it run, the other tests see the network as a phone without one would.
    "service_workers": "block",
}
SCREENSHOT_DIR = Path(__file__).resolve().parent.parent / "test-artifacts" / "screenshots"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole session."""
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} not found: run bin/setup (installs Debian's chromium package)"
        if _in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)

    from playwright.sync_api import sync_playwright

    from playwright.sync_api import expect

    from tests.timing import scaled

    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    except BaseException:
        playwright.stop()
        raise
    # Every wait in every context, and every expect(), bounded by the session's time factor
    # (tests/timing.py): a busy machine makes a page slower, not wrong.
    expect.set_options(timeout=scaled(5_000))
    new_context = browser.new_context

    def scaled_context(**options):
        context = new_context(**options)
        context.set_default_timeout(scaled(30_000))
        context.set_default_navigation_timeout(scaled(30_000))
        return context

    browser.new_context = scaled_context
    yield browser
    browser.close()
    playwright.stop()


@pytest.fixture
def page(browser):
    """A fresh page in a fresh context (no shared cookies) on a 390×844 touch phone, zh-CN."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot(request):
    """Call to save a PNG to test-artifacts/screenshots/<test name>[-<suffix>].png.

    ``screenshot()`` shoots the test's ``page``; ``screenshot(other_page, "after-submit")``
    shoots another page (or a locator) under a suffixed name. Returns the file's path.
    Every shot is a state a person sees, so axe-core then checks that page (tests/browser/axe.py):
    any WCAG 2.2 AA violation fails the test. ``axe=False`` skips it (a page that is not ours).
    """
    def safe(text: str) -> str:
        return re.sub(r"[^\w.-]+", "_", text).strip("_")

    test_name = safe(request.node.name)

    def take(target=None, suffix: str | None = None, full_page: bool = True, axe: bool = True) -> Path:
        if target is None:
            target = request.getfixturevalue("page")
        name = f"{test_name}-{safe(suffix)}" if suffix else test_name
        path = SCREENSHOT_DIR / f"{name}.png"
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        from playwright.sync_api import Page

        if isinstance(target, Page):
            target.screenshot(path=str(path), full_page=full_page)
        else:  # a Locator
            target.screenshot(path=str(path))
        if axe:
            from tests.browser.axe import assert_accessible

            assert_accessible(target if isinstance(target, Page) else target.page, f"{name} ({path.name})")
        return path

    return take


@pytest.fixture
def axe():
    """``axe(page, "where")`` fails the test on any WCAG 2.2 AA violation axe-core finds there."""
    from tests.browser.axe import assert_accessible

    return assert_accessible


@pytest.fixture
def listener():
    """A loopback port that records whether anything (a PDF renderer, say) connected to it."""
    from tests.pdf_tools import Listener

    listening = Listener()
    yield listening
    listening.server.close()


@pytest.fixture
def fetched(monkeypatch):
    """Every URL the PDF fetcher is asked for during the test."""
    from calculator.pdf import StaticFileFetcher

    urls = []
    original = StaticFileFetcher.fetch

    def spy(self, url, headers=None):
        urls.append(url)
        return original(self, url, headers)

    monkeypatch.setattr(StaticFileFetcher, "fetch", spy)
    return urls


@pytest.fixture(autouse=True)
def _no_rate_limits_and_a_clear_cache(settings):
    """Tests open many evenings from one address: the limits are off unless a test sets them
    (tests/web/test_limits.py). The cache (rate counts, rendered reports) starts empty."""
    from django.core.cache import cache

    settings.RATE_LIMITS = {}
    cache.clear()


@pytest.fixture(autouse=True)
def _the_default_language_in_every_test():
    """The locale middleware activates the language of each request in the test's own thread and
    leaves it active: after a test that read a page in English, a later test would see English
    where it expects the default (Chinese), or not, depending on the order tests run in."""
    from django.utils import translation

    yield
    translation.deactivate()
