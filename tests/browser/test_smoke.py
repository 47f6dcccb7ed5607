"""Proves the browser chain works: live_server -> Playwright -> Debian Chromium -> screenshot."""
import pytest
from playwright.sync_api import expect


@pytest.mark.browser
def test_admin_login_page_renders_in_headless_chromium(live_server, page, screenshot):
    page.goto(live_server.url + "/admin/login/")

    expect(page.locator('form input[name="username"]')).to_be_visible()

    path = screenshot()
    assert path.stat().st_size > 0
