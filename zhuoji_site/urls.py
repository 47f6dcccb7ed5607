from django.contrib import admin
from django.urls import include, path

from calculator.views.pages import favicon

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),  # for browsers that ask whatever the page names (iOS Safari)
    path("", include("calculator.urls")),
]

handler500 = "calculator.views.errors.server_error"  # says whether the last action was saved
