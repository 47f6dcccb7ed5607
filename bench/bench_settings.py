"""Settings for the benchmarks that serve the app (bench/site.py sets the environment).

The production settings (DJANGO_DEBUG=0: WhiteNoise with compressed, hashed static files),
except that the site answers plain HTTP on loopback: no HTTPS redirect, no secure-only cookies,
no HSTS. Plus the bench's own URLconf, which adds one trivial view to compare against.
"""
import os

from zhuoji_site.settings import *  # noqa: F403

assert not DEBUG, "the benchmarks measure the production configuration: set DJANGO_DEBUG=0"  # noqa: F405

ROOT_URLCONF = "bench.bench_urls"
STATIC_ROOT = os.environ["BENCH_STATIC_ROOT"]
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
