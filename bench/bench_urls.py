"""The project's URLs plus `/bench/trivial`, the baseline of part 3. Used only by the bench."""
from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt


@csrf_exempt
def trivial(request):
    """A view that does nothing: what every request costs before the app does any work."""
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [
    path("bench/trivial", trivial),
    path("", include("zhuoji_site.urls")),
]
