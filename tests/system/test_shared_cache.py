"""Several app servers, one Redis (issue 23): with REDIS_URL the cache is Django's Redis backend,
so what one server counts (rate limits) another sees. bin/test's PostgreSQL run starts a Redis
of its own on loopback and sets REDIS_URL; without one these tests have nothing to test."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from calculator.middleware import DEVICE_COOKIE
from tests.web.test_limits import NEW

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (bin/test's PostgreSQL run starts Redis)"),
]

ROOT = Path(__file__).resolve().parents[2]
DEVICE = "a-phone-at-the-club-0123456789"

# Another server: its own process, its own settings from the environment, its own Redis client.
OTHER_SERVER = """
import django, os
django.setup()
from django.test import Client
from django.urls import reverse
from tests.web.test_limits import NEW
client = Client(REMOTE_ADDR="203.0.113.5")
client.cookies[os.environ["DEVICE_COOKIE"]] = os.environ["DEVICE"]
print(client.post(reverse("calculator:evening_new"), NEW).status_code)
"""


def test_the_cache_is_redis_when_redis_url_is_set():
    assert django_settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"


def test_a_phone_counted_on_one_server_is_counted_on_another(settings):
    settings.RATE_LIMITS = {"evening_new": {"device": (1, 3600), "address": (10, 3600)}}
    here = Client(REMOTE_ADDR="203.0.113.5")
    here.cookies[DEVICE_COOKIE] = DEVICE
    assert here.post(reverse("calculator:evening_new"), NEW).status_code == 302
    # The other server's own count would be 1, within the budget, and it would go on to open an
    # evening; it answers 429 only if it sees this server's count.
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "zhuoji_site.settings", "DJANGO_RATE_EVENINGS": "1",
           "DEVICE_COOKIE": DEVICE_COOKIE, "DEVICE": DEVICE, "PYTHONPATH": str(ROOT),
           "DJANGO_ALLOWED_HOSTS": "testserver"}
    answer = subprocess.run([sys.executable, "-c", OTHER_SERVER], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120)
    assert answer.returncode == 0, answer.stderr[-2000:]
    assert answer.stdout.split()[-1] == "429"
