"""One round, stateless: enter it, watch it live (htmx), see the result. Nothing is stored."""
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_POST

from ..entry import RoundEntry
from ..forms import WhatIfForm
from ..presentation import present
from ..presentation.what_if import round_sides

SWITCH = "switch_players"  # the 四人 / 三人 buttons of the entry form: its entries, drawn for that table


def _players(params) -> int:
    """3 or 4 players: from the 四人 / 三人 button pressed, else ?players= on the page or the form's
    hidden field."""
    return 3 if (params.get(SWITCH) or params.get("players")) == "3" else 4


@require_http_methods(["GET", "POST"])
def round_new(request):
    """GET: the entry page. POST: the result page, or the entry page again: with every problem
    (400), or as entered, not judged as a submit (back from the result page to change something,
    or switched between four and three players; seats beyond three are dropped)."""
    if request.method == "GET":
        entry = RoundEntry(players=_players(request.GET))
        return render(request, "calculator/round_new.html", {"entry": entry})
    draft = "edit" in request.POST or SWITCH in request.POST
    entry = RoundEntry(request.POST, players=_players(request.POST), draft=draft)
    result = present(entry.settlement) if entry.is_valid() else None
    if draft:
        return render(request, "calculator/round_new.html", {"entry": entry, "result": result})
    if result:
        what_if = WhatIfForm(current=entry.settlement.record.rules)
        return render(request, "calculator/round_result.html", {"entry": entry, "result": result, "what_if": what_if})
    return render(request, "calculator/round_new.html", {"entry": entry}, status=400)


@require_POST
def round_preview(request):
    """htmx, on every change: each seat's count, standing and problems, and the settlement so far."""
    entry = RoundEntry(request.POST, players=_players(request.POST), live=True)
    result = present(entry.settlement) if entry.is_valid() else None
    return render(request, "calculator/partials/_entry_preview.html", {"entry": entry, "result": result})


@require_POST
def round_what_if(request):
    """换个规矩看看 on the round just scored (it comes back in hidden fields, nothing is stored):
    its settlement beside the same round under another preset or other options."""
    entry = RoundEntry(request.POST, players=_players(request.POST))
    if not entry.is_valid():
        return render(request, "calculator/round_new.html", {"entry": entry}, status=400)
    form = WhatIfForm(request.POST, current=entry.settlement.record.rules)
    rules = form.rules()
    sides = round_sides(entry.settlement, entry.record, rules) if rules else None
    round_data = [(name, value) for name, value in entry.hidden_data if not name.startswith(f"{form.prefix}-")]
    return render(request, "calculator/round_what_if.html",
                  {"entry": entry, "round_data": round_data, "form": form, "sides": sides})
