"""One round, stateless: enter it, watch it live (htmx), see the result. Nothing is stored."""
import json
from urllib.parse import urlencode

from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_POST

from ..entry import RoundEntry
from ..forms import WhatIfForm
from ..presentation import present
from ..presentation.what_if import round_sides
from ..scoring import PRESETS, SEAT_NAMES
from ..scoring.record import MAX_NAME

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
        again = _again(request.GET)
        entry = RoundEntry(players=_players(request.GET), initial=again)
        return render(request, "calculator/round_new.html", {"entry": entry, "fresh": again is None})
    draft = "edit" in request.POST or SWITCH in request.POST
    entry = RoundEntry(request.POST, players=_players(request.POST), draft=draft)
    result = present(entry.settlement) if entry.is_valid() else None
    if draft:
        return render(request, "calculator/round_new.html", {"entry": entry, "result": result})
    if result:
        what_if = WhatIfForm(current=entry.settlement.record.rules)
        return render(request, "calculator/round_result.html",
                      {"entry": entry, "result": result, "what_if": what_if, "again": _again_query(entry)})
    return render(request, "calculator/round_new.html", {"entry": entry}, status=400)


def _again_query(entry: RoundEntry) -> str:
    """再算一局 keeps the table: its rules, stake, names and the next round's dealer (R34/R35)."""
    record = entry.record
    query = [("again", "1"), ("players", str(entry.players)), ("preset", record["preset"]),
             ("stake", str(record["stake"])), ("dealer", str(entry.settlement.next_dealer))]
    query += [("name", seat["name"]) for seat in record["seats"]]
    query += [(f"option-{key}", json.dumps(value)) for key, value in (record.get("options") or {}).items()]
    return urlencode(query)


def _again(params) -> dict | None:
    """The record 再算一局 starts from (`_again_query`), or None for a fresh page. What does not
    fit is left out: the form then offers its defaults."""
    if params.get("again") != "1":
        return None
    names = [" ".join(name.split())[:MAX_NAME] for name in params.getlist("name")[:4]]
    players = _players(params)
    if len(names) != players:
        names = ["" for _ in range(players)]
    options = {}
    for key, value in params.items():
        if key.startswith("option-") and len(value) < 40:
            try:
                options[key[len("option-"):]] = json.loads(value)
            except ValueError:
                continue
    dealer = params.get("dealer", "0")
    return {
        "preset": params.get("preset") if params.get("preset") in PRESETS else "guiyang",
        "options": options,
        "stake": params.get("stake", "1")[:20],
        "dealer": int(dealer) if dealer in {str(i) for i in range(players)} else 0,
        "seats": [{"name": name or SEAT_NAMES[i]} for i, name in enumerate(names)],
    }


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
