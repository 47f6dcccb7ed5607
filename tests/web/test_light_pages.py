"""Light pages (issue 15): HTML goes compressed, nothing is vendored that no page loads, and the
public pages carry a description."""
import gzip
import re
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

PUBLIC = ("/", "/round/", "/rules/")


def test_pages_are_sent_gzipped_to_a_browser_that_accepts_it(client):
    for path in PUBLIC:
        plain = client.get(path)
        packed = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert "Content-Encoding" not in plain
        assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
        body = gzip.decompress(packed.content)
        assert b"</html>" in body
        assert len(packed.content) < len(plain.content) * 0.6, path  # gzip pads 0–100 random bytes


def test_the_round_form_is_small_once_compressed(client):
    packed = client.get("/round/", HTTP_ACCEPT_ENCODING="gzip")
    assert len(packed.content) < 15_000  # 71 kB uncompressed when issue 15 was filed


def test_the_round_form_draws_no_tile_menu_per_meld_row(client):
    """Sixteen meld rows drew a 28-option tile menu each: 448 of the page's 726 options."""
    html = client.get("/round/").content.decode()
    tile_inputs = re.findall(r'<input type="text" name="seat\d-melds-\d-tile"[^>]*>', html)
    assert len(tile_inputs) == 16  # four rows a seat, each a tile typed or set by the keyboard
    assert html.count("<option") < 300  # 726 when issue 15 was filed
    assert html.count("<") < 2_000  # elements and text markup: about 2,700 then


def test_no_static_file_is_vendored_that_no_template_loads():
    templates = "".join(p.read_text() for p in Path(settings.BASE_DIR, "templates").rglob("*.html"))
    for asset in Path(settings.BASE_DIR, "static", "vendor").rglob("*"):
        if asset.suffix in (".js", ".css"):
            assert asset.name in templates, f"{asset} is vendored but no template loads it"


def test_public_pages_describe_themselves(client):
    for path in PUBLIC + ("/rules/?preset=xingyi",):
        html = client.get(path).content.decode()
        description = re.findall(r'<meta name="description" content="([^"]+)">', html)
        assert len(description) == 1 and len(description[0]) > 10, path


def test_the_trimmed_bootstrap_is_up_to_date_with_the_templates():
    """static/vendor/bootstrap/bootstrap.trimmed.css keeps only the rules our pages can use:
    after a template names a Bootstrap class it did not before, run bin/trim_bootstrap.py."""
    import sys

    sys.path.insert(0, str(Path(settings.BASE_DIR, "bin")))
    import trim_bootstrap

    assert trim_bootstrap.TARGET.read_text() == trim_bootstrap.trimmed(), \
        "a template names a Bootstrap class the trimmed CSS lacks: run .venv/bin/python bin/trim_bootstrap.py"
    full = trim_bootstrap.SOURCE.stat().st_size
    assert trim_bootstrap.TARGET.stat().st_size < full / 3
