"""What a browser fetches besides the page: an icon of ours, so that it does not ask for
/favicon.ico and log a 404 on every page."""
import re

import pytest
from django.contrib.staticfiles import finders


def test_every_page_names_an_icon_that_exists(client):
    for path in ("/", "/round/", "/rules/"):
        html = client.get(path).content.decode()
        icon = re.search(r'<link rel="icon" href="/static/([^"]+)"', html)
        assert icon, path
        assert finders.find(icon.group(1)), icon.group(1)


def test_a_browser_asking_for_favicon_ico_is_sent_to_our_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert finders.find(response["Location"].removeprefix("/static/"))


@pytest.mark.django_db
def test_a_page_that_is_not_there_offers_a_way_back(client):
    for path in ("/nope/", "/e/not-a-real-token/rounds/3/"):
        response = client.get(path)
        html = response.content.decode()
        assert response.status_code == 404
        assert "找不到这一页" in html and 'href="/"' in html
