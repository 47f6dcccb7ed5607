"""Settings for Zhuoji, driven by the environment with safe defaults.

A fresh checkout runs with no environment at all (DEBUG on, SQLite). Production sets
DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS and usually DATABASE_URL; a secret key from the
environment means production, so DEBUG is then off unless DJANGO_DEBUG=1 says otherwise.
README.md ("Deploy") lists every variable.
"""
import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", not os.environ.get("DJANGO_SECRET_KEY"))

_DEV_SECRET = "django-insecure-zhuoji-development-key-not-for-production"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # Django's widget templates, for FORM_RENDERER below
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "calculator",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages gzipped (the round form: 71 kB -> ~6 kB). BREACH is judged in docs/WEB.md:
    # Django masks the CSRF token per response and pads every gzip body with random bytes, and a
    # page carrying an evening's secret address can only be requested by someone who knows it.
    "django.middleware.gzip.GZipMiddleware",
    "calculator.middleware.request_size_cap",
    "calculator.middleware.utf8_only",
    "calculator.views.errors.database_unavailable",
    "calculator.middleware.content_security_policy",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "calculator.middleware.SwitchOnlyLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "calculator.middleware.device_cookie",
]

ROOT_URLCONF = "zhuoji_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Widgets render through TEMPLATES, so that templates/django/forms/widgets/ can override Django's
# own (the select draws its options inline: see that template).
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

WSGI_APPLICATION = "zhuoji_site.wsgi.application"

# SQLite is the embedded default; DATABASE_URL (e.g. postgres://…) moves the app onto PostgreSQL.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several phones write to one evening at once; wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})
    # WAL lets the pages read while a round is written; IMMEDIATE takes the write lock at BEGIN, so
    # two writers queue instead of one failing at its first write (`bin/run --table` runs several
    # gunicorn workers on it). Writes are short (an import checks everything before it writes),
    # so the wait is well under the timeout, which stays below gunicorn's (zhuoji_site/table.py).
    DATABASES["default"]["OPTIONS"].update({
        "timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL",
    })
    # Tests against the live server (browser tests) write from several threads at once, as phones
    # do. An in-memory test database shares one cache between threads, and there a second writer
    # fails at once ("database table is locked") instead of waiting: test on a file, as in use.
    DATABASES["default"]["TEST"] = {
        "NAME": os.path.join(tempfile.gettempdir(), f"zhuoji-test-{os.getpid()}.sqlite3"),
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Chinese first: the players are in Guizhou. English through the switch on every page.
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (
    "jpg", "jpeg", "png", "gif", "webp", "zip", "gz", "tgz", "bz2", "tbz", "xz", "br",
    "swf", "flv", "woff", "woff2", "ttf", "otf", "ttc",
)

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Hostile input: a round record is a few kilobytes; nothing legitimate comes near these caps.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 400
MAX_REQUEST_BYTES = 10 * 1024 * 1024  # whole bodies, files included: an imported evening is at most 8 MB

# Anonymous work that costs: (requests, seconds) per counter. A table opens an evening or two a
# night and records a round every few minutes; these only stop a script. Each phone (its device
# cookie) has its own budget, so the phones of a club behind one NAT address do not share one;
# an address has ten phones' worth; rounds count per evening. calculator/views/limits.py
_EVENINGS = int(os.environ.get("DJANGO_RATE_EVENINGS", "30"))
_IMPORTS = int(os.environ.get("DJANGO_RATE_IMPORTS", "20"))
RATE_LIMITS = {
    "evening_new": {"device": (_EVENINGS, 3600), "address": (10 * _EVENINGS, 3600)},
    "evening_import": {"device": (_IMPORTS, 3600), "address": (10 * _IMPORTS, 3600)},
    "round_record": {"evening": (int(os.environ.get("DJANGO_RATE_ROUNDS", "240")), 3600)},
}
# Rate counts and rendered evening reports: shared by every server when REDIS_URL names a Redis
# (Django's own backend); else per process unless DJANGO_CACHE_DIR names a folder that all of
# one machine's workers share (bin/run --table sets one).
if os.environ.get("REDIS_URL"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": os.environ["REDIS_URL"], "KEY_PREFIX": "zhuoji"}}
elif os.environ.get("DJANGO_CACHE_DIR"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                          "LOCATION": os.environ["DJANGO_CACHE_DIR"], "OPTIONS": {"MAX_ENTRIES": 2000}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                          "OPTIONS": {"MAX_ENTRIES": 500}}}

# Polls answered from the cache while nothing changed (calculator/polls.py) need a cache every
# process shares: the writes of one worker must move what another answers from. Redis or the
# file cache are shared; the default per-process cache is only for one process (runserver).
POLL_ANSWERS_FROM_CACHE = env_bool("DJANGO_POLL_CACHE", bool(os.environ.get("REDIS_URL") or
                                                              os.environ.get("DJANGO_CACHE_DIR") or DEBUG))

# -- Heavy work off the request path (calculator/tasks.py; docs/WEB.md, "The worker") ----------
# The report PDF and the whole-evening what-if are Django tasks (django-tasks), made once per state
# of an evening and kept in the cache. By default they run at once inside the request that first
# asks (ImmediateBackend): `bin/run` stays one command. ZHUOJI_TASKS=db queues them in the database
# for `manage.py db_worker` and the pages say 正在生成… until the result is in; the worker writes
# into the cache the app servers read, so that needs REDIS_URL or DJANGO_CACHE_DIR.
INSTALLED_APPS += ["django_tasks", "django_tasks_db"]  # its table exists either way: switching needs no migration
ZHUOJI_TASKS = os.environ.get("ZHUOJI_TASKS", "immediate").strip().lower()
if ZHUOJI_TASKS not in {"immediate", "db"}:
    raise ImproperlyConfigured("ZHUOJI_TASKS is 'immediate' (the default) or 'db'.")
if ZHUOJI_TASKS == "db" and CACHES["default"]["BACKEND"].endswith("LocMemCache"):
    raise ImproperlyConfigured("ZHUOJI_TASKS=db needs a cache the worker shares: set REDIS_URL or DJANGO_CACHE_DIR.")
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend" if ZHUOJI_TASKS == "db"
                     else "django_tasks.backends.immediate.ImmediateBackend"}}

SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
LANGUAGE_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# No page has an inline script, event handler or style (htmx, the tile keyboard and the chart are
# files under /static/; seat colours are classes; htmx is told not to add its indicator <style>):
# an injected style can still leak what a page shows (attribute selectors), so none is allowed.
# tests/browser/test_csp.py opens the pages with it and sees no refusal.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
    "font-src 'self'", "connect-src 'self'", "worker-src 'self'", "manifest-src 'self'", "object-src 'none'",
    "base-uri 'none'", "form-action 'self'",
    "frame-ancestors 'none'",
])
CSRF_FAILURE_VIEW = "calculator.views.errors.csrf_failure"  # says the last action was not saved
BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # An evening's address is its permission: none is written to a log (zhuoji_site/logs.py).
    "filters": {"mask_tokens": {"()": "zhuoji_site.logs.MaskTokens"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["mask_tokens"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
