"""Evening (ledger) views: open, the live page, follow, share, settle-up, history, report, export
and import. Each view binds, calls one service or selector and renders; for htmx requests it
renders only the partial that the full page includes, so each piece of markup exists once.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse, StreamingHttpResponse
from django.http.request import split_domain_port
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import selectors, services, tasks
from ..entry.draft import SeatProgress, draft_progress
from ..forms import EveningForm, ImportForm, MeForm, PaidForm, WhatIfForm
from ..models import Evening
from ..polls import answered_from_cache
from ..presentation import rules_url
from ..presentation.rules_text import rules_in_words
from ..qr import qr_svg
from ..scoring import ruleset_from_dict
from .access import (
    ME_SESSION_KEY, address_context, base_context, editing, evening_state, pdf_response, private, refused,
    unless_unchanged, viewing,
)
from .limits import rate_limited



# -- opening an evening ------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@rate_limited("evening_new")
def evening_new(request):
    """开一晚. ?rules_from=<an evening's read-only token> starts from that evening's players, stake
    and rules (照搬规矩: any phone that followed the evening can; an edit token, from an older
    link, still works). 看看规矩
    (`preview`) shows the rules as chosen so far, in words, without opening anything."""
    copied = selectors.evening_by_any_address(address=request.GET.get("rules_from", ""))
    if copied and request.method == "GET" and request.GET["rules_from"] != copied.read_token:
        # An older link named the edit address: go on at the read-only one, so that the edit
        # address leaves the address bar, the history and the links this page makes.
        return redirect(f"{reverse('calculator:evening_new')}?rules_from={copied.read_token}")
    initial = EveningForm.initial_from(
        ruleset_from_dict(copied.rules), names=selectors.evening_names(evening=copied),
        stake=selectors.evening_stake_text(evening=copied), rules_name=copied.rules_name,
    ) if copied else None
    return evening_form(request, initial=initial, rules=ruleset_from_dict(copied.rules) if copied else None,
                        create=services.evening_create,
                        context={"copied": copied, "rules_from": copied.read_token if copied else ""})


def evening_form(request, *, initial: dict | None, rules, create, context: dict) -> HttpResponse:
    """开一晚's form, for a new evening and for a 固定桌's next one (`create` takes the form's
    `evening_fields`): 看看规矩 (`preview`) shows the rules as chosen so far, in words, without
    opening anything; a valid submit opens the evening and goes to its page."""
    form = EveningForm(request.POST or None, initial=initial)
    previewing = "preview" in request.POST
    if request.method == "POST" and not previewing and form.is_valid():
        try:
            evening = create(**form.evening_fields())
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect("calculator:evening_detail", token=evening.token)
    rules = form.preview_rules() if form.is_bound else rules
    context = {**context, "form": form, "rules": rules, "rules_words": rules_in_words(rules) if rules else None,
               "rules_link": rules_url(rules) if rules else ""}
    response = render(request, "calculator/evening/new.html", context)
    return refused(response) if request.method == "POST" and not previewing else response


# -- the evening page --------------------------------------------------------------------------


def _live(request, evening: Evening, page: str, context: dict, *, with_draft: bool = False) -> HttpResponse:
    """An evening page, or for its htmx poll only the live part: 204 (htmx then swaps nothing)
    while the `since` it sends is still the evening's version, so an idle table costs a header
    instead of the whole board every 5 seconds. `with_draft`: the edit page also shows the round
    being entered (录入中), so its version also counts the draft's saves. Both count the seats'
    确认 / 有异议, which the list of rounds marks."""
    version = str(selectors.evening_version(evening=evening))  # before the board: a change in between is re-sent
    version += f".{selectors.evening_words_version(evening=evening)}"  # the list marks 确认 / 有异议
    if with_draft:
        version += f".{selectors.draft_mark(evening=evening)}.{selectors.corrections_version(evening=evening)}"
    if request.htmx and request.GET.get("since") == version:
        return HttpResponse(status=204)

    def draw(template: str) -> HttpResponse:
        board = selectors.evening_board(evening=evening, page=request.GET.get("page"))
        drawn = {**context, "board": board, "version": version,
                 "what_if": WhatIfForm(current=ruleset_from_dict(evening.rules)),
                 "ask_again": selectors.rounds_to_confirm_again(evening=evening)}
        if with_draft:
            drawn["draft"] = _draft_summary(evening)
            drawn["corrections"] = selectors.corrections_open(evening=evening)
        return render(request, template, drawn)

    if request.htmx:
        return draw("calculator/partials/_evening_live.html")
    # Reopened and unchanged: a 304. What the page shows of this phone (我是…) is in `context`.
    state = (*evening_state(evening), version, context.get("me", ""))
    return unless_unchanged(request, state, lambda: draw(page))


@require_GET
@answered_from_cache("evening", wrap_answer=private)
@viewing
def evening_detail(request, evening: Evening, *, read_only: bool):
    """The evening; its live part polls too, so two phones that both record see each other's
    rounds. At the read-only address (/v/…/) the same totals, chart and rounds, nothing that
    changes anything and no round being entered."""
    if read_only:
        context = {"evening": evening, "read_only": True, "refreshed_at": timezone.now()}
        return _live(request, evening, "calculator/evening/follow.html", context)
    return _live(request, evening, "calculator/evening/detail.html", base_context(request, evening),
                 with_draft=True)


@dataclass(frozen=True)
class DraftSummary:
    seats: list[SeatProgress]
    key: uuid.UUID  # 扔掉 throws away this draft only, not one begun after the page was drawn

    @property
    def done(self) -> int:
        return sum(seat.done for seat in self.seats)


def _draft_summary(evening: Evening) -> DraftSummary | None:
    """The round being entered, as the evening page shows it; None until something was typed."""
    draft = selectors.evening_draft(evening=evening)
    if draft is None or not draft.version:
        return None
    seats = draft_progress(draft.data, names=selectors.evening_names(evening=evening),
                           rules=ruleset_from_dict(evening.rules), stake=selectors.evening_stake(evening=evening))
    return DraftSummary(seats=seats, key=draft.idempotency_key)


@require_POST
@editing
def evening_me(request, evening: Evening):
    """我是…: remember which player holds this phone, so the history can say who changed what.
    Anything but one of the evening's seats forgets it."""
    form = MeForm(request.POST, seats=evening.players.count())
    seat = form.cleaned_data["seat"] if form.is_valid() else None
    choices = request.session.get(ME_SESSION_KEY, {})
    if seat is not None:
        choices[str(evening.pk)] = seat
        name = selectors.evening_names(evening=evening)[seat]
        messages.success(request, _("记住了：这部手机是 {name}。记一局时 {name} 的牌排在最前面。").format(name=name))
    else:
        choices.pop(str(evening.pk), None)
        messages.info(request, _("这部手机不再说是谁。"))
    request.session[ME_SESSION_KEY] = choices
    return redirect("calculator:evening_detail", token=evening.token)


@require_GET
@viewing
def evening_what_if(request, evening: Evening, *, read_only: bool):
    """今晚按兴义算: every round of the evening re-scored under other rules, totals side by side.
    Nothing stored changes (R41)."""
    context = address_context(request, evening, read_only=read_only)
    form = WhatIfForm(request.GET, current=ruleset_from_dict(evening.rules))
    rules = form.rules()
    sides = tasks.evening_what_if_sides(evening, rules) if rules else None
    if isinstance(sides, tasks.Pending):
        return _generating(request, sides, "calculator/evening/what_if.html", {**context, "form": form})
    return render(request, "calculator/evening/what_if.html", {**context, "form": form, "sides": sides})


def _loopback(host: str) -> bool:
    """Whether the page was asked for on an address only this computer can open (`bin/run`
    serves 127.0.0.1): codes made from it take the other phones nowhere."""
    domain, _port = split_domain_port(host)
    return domain in ("localhost", "[::1]") or domain.startswith("127.")


@require_GET
@editing
def evening_share(request, evening: Evening):
    follow_url = request.build_absolute_uri(reverse("calculator:evening_follow", args=[evening.read_token]))
    edit_url = request.build_absolute_uri(reverse("calculator:evening_detail", args=[evening.token]))
    context = {**base_context(request, evening), "follow_url": follow_url, "edit_url": edit_url,
               "qr_svg": qr_svg(follow_url), "edit_qr_svg": qr_svg(edit_url),
               "this_machine_only": _loopback(request.get_host())}
    return render(request, "calculator/evening/share.html", context)


# -- settle-up, history, report ----------------------------------------------------------------


@require_GET
@editing
def evening_settle(request, evening: Evening):
    context = {**base_context(request, evening), "settle": selectors.evening_settle_up(evening=evening)}
    return render(request, "calculator/evening/settle.html", context)


@require_POST
@editing
def transfer_paid(request, evening: Evening):
    """已付 / 撤回 on one transfer; htmx swaps the settle-up partial, plain forms redirect."""
    form = PaidForm(request.POST)
    if not form.is_valid():  # the buttons send these hidden fields; only a hand-made request fails
        message = _("这笔转账的信息不完整，请刷新后再点。")
        return refused(HttpResponse(message, content_type="text/plain; charset=utf-8"))
    data = form.cleaned_data
    notice = ""
    if data["paid"]:
        try:
            services.transfer_mark_paid(evening=evening, payer=data["payer"], payee=data["payee"],
                                        points=data["points"])
        except services.TransferNotInPlan:
            notice = _("总分刚变过，结账方案也跟着变了，请再看一遍。")
    else:
        services.transfer_mark_unpaid(evening=evening, payment=data["payment"])  # gone already: nothing to do
    if request.htmx:
        # The swap replaces only the settle-up, which never shows the messages: the notice goes
        # inside it, and into the session not at all, or it would turn up on some later page.
        context = {**base_context(request, evening), "settle": selectors.evening_settle_up(evening=evening),
                   "notice": notice}
        return render(request, "calculator/partials/_evening_settle.html", context)
    if notice:
        messages.warning(request, notice)
    return redirect("calculator:evening_settle", token=evening.token)


@require_GET
@editing
def evening_history(request, evening: Evening):
    history, page = selectors.evening_history_page(evening=evening, page=request.GET.get("page"))
    context = {**base_context(request, evening), "history": history, "page": page}
    return render(request, "calculator/evening/history.html", context)


@require_GET
@viewing
def evening_report_pdf(request, evening: Evening, *, read_only: bool):
    """The report, rendered once per state of the evening (its rounds' version and its payments)
    and language, off the request path when a worker runs the tasks (calculator/tasks.py):
    downloading it again, from either address, costs a cache look-up; until it is there the
    page says 正在生成… and asks again by itself."""
    pdf = tasks.evening_report(evening)
    if isinstance(pdf, tasks.Pending):
        return _generating(request, pdf, "calculator/evening/report_generating.html",
                           address_context(request, evening, read_only=read_only))
    return pdf_response(pdf, f"zhuoji-{timezone.localtime(evening.created_at):%Y%m%d}.pdf")


def _generating(request, pending: tasks.Pending, template: str, context: dict) -> HttpResponse:
    """正在生成…: 202 while a task works, the page asking again by itself every few seconds (a meta
    refresh: no JS needed); 503 for a minute after a render failed."""
    context = {**context, "pending": pending, "refresh_seconds": GENERATING_REFRESH_SECONDS}
    response = render(request, template, context, status=503 if pending.failed else 202)
    response["Retry-After"] = str(tasks.FAILED_SECONDS if pending.failed else GENERATING_REFRESH_SECONDS)
    return response


GENERATING_REFRESH_SECONDS = 2


@require_GET
@editing
def evening_export(request, evening: Evening):
    response = StreamingHttpResponse(services.evening_export_json(evening=evening),
                                     content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="zhuoji-{timezone.localtime(evening.created_at):%Y%m%d}.json"'
    return response


@require_http_methods(["GET", "POST"])
@rate_limited("evening_import")
def evening_import(request):
    """Open a copy of an exported evening under new addresses."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "GET":
        return render(request, "calculator/evening/import.html", {"form": form})
    try:
        if not form.is_valid():
            raise ValidationError("not a file of ours")
        data = form.cleaned_data["file"]
        if isinstance(data, dict) and data.get("format") == services.TABLE_FORMAT:  # a whole 固定桌
            table = services.table_import(data=data)
            return redirect("calculator:table_detail", table_token=table.token)
        evening = services.evening_import(data=data)
    except ValidationError:
        if not form.errors:  # the file parsed, but is no export of ours
            form.add_error("file", ImportForm.NOT_OURS)
        response = render(request, "calculator/evening/import.html", {"form": form})
        response.status_code = 413 if form.has_error("file", "too_big") else 400
        return response
    return redirect("calculator:evening_detail", token=evening.token)
