"""Pages: the welcome page and the rules, for a preset, a round's own rules or an evening's."""
from __future__ import annotations

from collections.abc import Mapping

from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from .. import jsonsafe
from ..models import Evening
from ..presentation.rules_text import rules_page
from ..scoring import PRESETS, RuleSet, rules_for, ruleset_from_dict
from .access import viewing


@require_GET
def home(request):
    return render(request, "calculator/home.html")


@require_GET
def favicon(request):
    """Browsers that ask for /favicon.ico whatever the page names (iOS Safari) get the same icon."""
    return redirect(static("calculator/favicon.svg"))


def asked_rules(params: Mapping[str, str]) -> RuleSet:
    """The rules a link asks for: ?preset=guiyang|anshun|xingyi, with the round's own options as
    JSON in ?options= (as `presentation.rules_url` writes them). Options that scoring refuses
    give the preset as it is; an unknown preset gives 贵阳."""
    preset = params.get("preset", "guiyang")
    if preset not in PRESETS:
        preset = "guiyang"
    try:
        options = jsonsafe.loads(params.get("options", "{}"))
    except (ValueError, RecursionError):
        return PRESETS[preset]
    rules, _problems = rules_for(preset, options) if isinstance(options, dict) else (None, [])
    return rules or PRESETS[preset]


@require_GET
def rules(request):
    """The rules for one preset, or for the options a round link carries; an anchor per rule."""
    return _rules(request, asked_rules(request.GET))


@require_GET
@viewing
def evening_rules(request, evening: Evening, *, read_only: bool):
    """The rules the evening was opened with (R41); at the read-only address its links stay on
    the read-only pages."""
    address = {} if read_only else {"token": evening.token}  # never the edit address on a read-only page
    return _rules(request, ruleset_from_dict(evening.rules), evening=evening, read_only=read_only, **address)


def _rules(request, rules: RuleSet, **context):
    return render(request, "calculator/rules.html", {"page": rules_page(rules), **context})
