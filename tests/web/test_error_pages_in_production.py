"""The error pages as production serves them (issue 18): DEBUG off and the hashed, compressed
static files of `collectstatic` (WhiteNoise's manifest storage), where `{% static %}` of a file
that is not there raises. The 500 and 503 page once linked a stylesheet the Bootstrap trim had
removed, so every 500 and 503 became gunicorn's bare English page. Every failure page is ours,
in Chinese and in English, says whether the last action was saved, and links only files that
were collected."""
from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.test import Client, override_settings
from django.urls import reverse

from calculator import services
from calculator.views import evenings as evening_views
from tests.factories import example_record, make_evening, record_rounds
from tests.round_form_data import record_to_post_data

pytestmark = pytest.mark.django_db

PRODUCTION_STATIC = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(STATIC_ROOT=root, STORAGES=PRODUCTION_STATIC, DEBUG=False):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def production(settings, collected):
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.STATIC_ROOT = collected
    settings.STORAGES = PRODUCTION_STATIC
    return collected


def client(language: str) -> Client:
    return Client(raise_request_exception=False, HTTP_COOKIE=f"django_language={language}")


def broken(**kwargs):
    raise RuntimeError("a bug")


def database_out(**kwargs):
    raise OperationalError("the database is restarting")


def failing(monkeypatch, kind: str, language: str):
    """(status, page) of one kind of failure, as a phone would get it."""
    evening = make_evening()
    record_rounds(evening, ["E1"])
    post = record_to_post_data(example_record("E2"))
    if kind == "500":
        monkeypatch.setattr(evening_views.selectors, "evening_settle_up", broken)
        response = client(language).get(reverse("calculator:evening_settle", args=[evening.token]))
    elif kind == "503":
        monkeypatch.setattr(services, "round_record", database_out)
        response = client(language).post(reverse("calculator:evening_round_new", args=[evening.token]), post)
    elif kind == "400":
        response = client(language).get("/", HTTP_HOST="evil.example")
    elif kind == "403":
        strict = Client(enforce_csrf_checks=True, raise_request_exception=False,
                        HTTP_COOKIE=f"django_language={language}")
        response = strict.post(reverse("calculator:evening_round_new", args=[evening.token]), post)
    elif kind == "404":
        response = client(language).get("/e/no-such-evening/")
    return response.status_code, response.content.decode()


SAYS = {  # (language, kind) -> what the page must say: its title and whether anything was saved
    ("zh-hans", "500"): ("出错了", "什么也没有改"),
    ("en", "500"): ("Something went wrong", "nothing was changed"),
    ("zh-hans", "503"): ("请稍后再试", "没有保存"),
    ("en", "503"): ("Please try again", "not saved"),
    ("zh-hans", "400"): ("打不开", "什么也没有改"),
    ("en", "400"): ("Cannot open", "nothing was changed"),
    ("zh-hans", "403"): ("这一页放得太久了", "没有保存"),
    ("en", "403"): ("This page was open too long", "not saved"),
    ("zh-hans", "404"): ("找不到这一页", "回首页"),
    ("en", "404"): ("Page not found", "Back to the start"),
}


@pytest.mark.parametrize("language, kind", sorted(SAYS))
def test_every_failure_shows_our_own_page_in_production(production, monkeypatch, language, kind):
    status, page = failing(monkeypatch, kind, language)
    assert status == int(kind)
    for words in SAYS[language, kind]:
        assert words in page, (kind, language, page[:400])
    assert "Server Error" not in page and "Traceback" not in page
    assert_links_collected_files(page, production)


def test_the_429_page_renders_in_production(production, settings):
    settings.RATE_LIMITS = {"evening_new": {"device": (0, 3600)}}
    response = client("en").post("/evening/new/", {"player_0": "A"})
    page = response.content.decode()
    assert response.status_code == 429 and "Please try again" in page
    assert_links_collected_files(page, production)


def assert_links_collected_files(page: str, root) -> None:
    """Each stylesheet and script the page names is a hashed file that collectstatic wrote."""
    linked = re.findall(r'(?:href|src)="/static/([^"]+)"', page)
    assert any(name.endswith(".css") for name in linked), "the page has its stylesheet"
    for name in linked:
        assert re.search(r"\.[0-9a-f]{12}\.", name), f"{name} is not the hashed name"
        assert (root / name).is_file(), name


def test_an_error_page_that_cannot_render_still_answers_in_words(production, monkeypatch):
    """The last line of defence: if error_page.html itself fails, the same words, unstyled."""
    from calculator.views import errors

    def no_template(name):
        raise RuntimeError("the template is broken")

    monkeypatch.setattr(errors.loader, "get_template", no_template)
    status, page = failing(monkeypatch, "503", "zh-hans")
    assert status == 503 and "没有保存" in page and "请稍后再试" in page
