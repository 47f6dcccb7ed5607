"""What a browser fetches besides the page: an icon of ours, so that it does not ask for
/favicon.ico and log a 404 on every page."""
import re

from django.contrib.staticfiles import finders


def test_every_page_names_an_icon_that_exists(client):
    for path in ("/", "/round/", "/rules/"):
        html = client.get(path).content.decode()
        icon = re.search(r'<link rel="icon" href="/static/([^"]+)"', html)
        assert icon, path
        assert finders.find(icon.group(1)), icon.group(1)
