"""Pages: the welcome page and the rules."""
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..rules_text import rules_page
from ..scoring import PRESETS


@require_GET
def home(request):
    return render(request, "calculator/home.html")


@require_GET
def rules(request):
    """The rules in Chinese for one preset (?preset=guiyang|anshun|xingyi), one anchor per rule."""
    preset = request.GET.get("preset", "guiyang")
    page = rules_page(PRESETS.get(preset, PRESETS["guiyang"]))
    return render(request, "calculator/rules.html", {"page": page})
