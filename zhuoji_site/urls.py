from django.contrib import admin
from django.urls import include, path

from calculator.views import app_shell
from calculator.views.pages import favicon

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),  # for browsers that ask whatever the page names (iOS Safari)
    # The installable app: at the root, so that the worker's scope is the whole site.
    path("manifest.webmanifest", app_shell.manifest, name="manifest"),
    path("sw.js", app_shell.service_worker, name="service_worker"),
    path("offline/", app_shell.offline, name="offline"),
    path("", include("calculator.urls")),
]

# Each says whether the last action was saved (calculator/views/errors.py); 404.html and 429.html
# are pages of the site's own look.
handler400 = "calculator.views.errors.bad_request"
handler403 = "calculator.views.errors.permission_denied"
handler500 = "calculator.views.errors.server_error"
