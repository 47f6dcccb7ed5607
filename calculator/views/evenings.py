"""Evening (ledger) views — issue 4.

Two addresses per evening: /e/<token>/ can change it, /v/<read_token>/ can only look. Each view
binds, calls one service or selector and renders; for htmx requests it renders only the partial
that the full page includes, so each piece of markup exists once.
"""
from __future__ import annotations

import uuid
from functools import wraps

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import history, jsonsafe, selectors, services
from ..evening_forms import CorrectionConfirmForm, EveningForm, PaidForm, VersionForm
from ..models import Evening, Round
from ..pdf import receipt_context, render_pdf
from ..presentation import outcome_text, present
from ..qr import qr_svg
from ..record_changes import record_changes
from ..round_entry import RoundEntry
from ..scoring import RecordInvalid, ruleset_from_dict

ME_SESSION_KEY = "zhuoji-me"
MAX_IMPORT_BYTES = 8 * 1024 * 1024  # an evening of 100 corrected rounds is well under 2 MB


def _refused(response: HttpResponse) -> HttpResponse:
    """A submitted form that was not saved comes back with its problems shown, as 400."""
    response.status_code = 400
    return response


def _private(response: HttpResponse) -> HttpResponse:
    """Evening pages are reached by secret address: keep them out of caches and search engines."""
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _by_address(kwarg: str, find):
    """A view decorator: look the evening up by the address in `kwarg` (404 if unknown)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            try:
                evening = find(kwargs.pop(kwarg))
            except Evening.DoesNotExist:
                raise Http404 from None
            return _private(view(request, evening, *args, **kwargs))

        return wrapper

    return decorator


# /e/<token>/ may change the evening; /v/<read_token>/ may only look.
editing = _by_address("token", lambda token: selectors.evening_for_editing(token=token))
reading = _by_address("read_token", lambda token: selectors.evening_for_reading(read_token=token))


def _round(evening: Evening, number: int) -> Round:
    try:
        return selectors.round_get(evening=evening, number=number)
    except Round.DoesNotExist:
        raise Http404 from None


def _me(request, evening: Evening) -> str:
    """The name this phone said it belongs to, for the history's "who" (R42)."""
    seat = request.session.get(ME_SESSION_KEY, {}).get(str(evening.pk))
    names = selectors.evening_names(evening=evening)
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""


def _base_context(request, evening: Evening) -> dict:
    return {"evening": evening, "token": evening.token, "me": _me(request, evening)}


# -- opening an evening ------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def evening_new(request):
    form = EveningForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            evening = services.evening_create(
                names=data["names"], stake=data["stake"], preset=data["preset"], options=form.options(),
                first_dealer=data["first_dealer"], title=data["title"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect("calculator:evening_detail", token=evening.token)
    response = render(request, "calculator/evening/new.html", {"form": form})
    return _refused(response) if request.method == "POST" else response


# -- the evening page --------------------------------------------------------------------------


def _live(request, evening: Evening, page: str, context: dict) -> HttpResponse:
    """An evening page, or for its htmx poll only the live part: 204 (htmx then swaps nothing)
    while the `since` it sends is still the evening's version, so an idle table costs a header
    instead of the whole board every 5 seconds."""
    version = selectors.evening_version(evening=evening)  # before the board: a change in between is re-sent
    if request.htmx and request.GET.get("since") == str(version):
        return HttpResponse(status=204)
    context = {**context, "board": selectors.evening_board(evening=evening), "version": version}
    if request.htmx:
        return render(request, "calculator/partials/_evening_live.html", context)
    return render(request, page, context)


@require_GET
@editing
def evening_detail(request, evening: Evening):
    """The evening; its live part polls too, so two phones that both record see each other's rounds."""
    return _live(request, evening, "calculator/evening/detail.html", _base_context(request, evening))


@require_POST
@editing
def evening_me(request, evening: Evening):
    """我是…: remember which player holds this phone, so the history can say who changed what."""
    seat = request.POST.get("seat", "")
    choices = request.session.get(ME_SESSION_KEY, {})
    if seat in {str(s) for s in range(evening.players.count())}:  # "²".isdigit(), yet int("²") fails
        choices[str(evening.pk)] = int(seat)
    else:
        choices.pop(str(evening.pk), None)
    request.session[ME_SESSION_KEY] = choices
    return redirect("calculator:evening_detail", token=evening.token)


@require_GET
@reading
def evening_follow(request, evening: Evening):
    """The read-only address: totals, chart and rounds, refreshed by htmx polling."""
    context = {"evening": evening, "read_only": True, "refreshed_at": timezone.now()}
    return _live(request, evening, "calculator/evening/follow.html", context)


@require_GET
@reading
def follow_round(request, evening: Evening, number: int):
    """One round with its items, for the phones that follow the evening (no edit buttons)."""
    round_ = _round(evening, number)
    context = {"evening": evening, "read_only": True, "round": round_,
               "row": selectors.round_row(round_, selectors.evening_names(evening=evening)),
               "view": present(selectors.stored_settlement(round_))}
    return render(request, "calculator/evening/round_detail.html", context)


@require_GET
@editing
def evening_share(request, evening: Evening):
    follow_url = request.build_absolute_uri(reverse("calculator:evening_follow", args=[evening.read_token]))
    edit_url = request.build_absolute_uri(reverse("calculator:evening_detail", args=[evening.token]))
    context = {**_base_context(request, evening), "follow_url": follow_url, "edit_url": edit_url,
               "qr_svg": qr_svg(follow_url)}
    return render(request, "calculator/evening/share.html", context)


# -- rounds ------------------------------------------------------------------------------------


def _entry(evening: Evening, data=None, *, rules: dict | None = None, initial: dict | None = None,
           live: bool = False) -> RoundEntry:
    """The round form of issue 3 with the evening's names, stake and rules fixed (R41)."""
    return RoundEntry(
        data,
        names=selectors.evening_names(evening=evening),
        rules=ruleset_from_dict(rules or evening.rules),
        stake=selectors.evening_stake(evening=evening),
        dealer=None if initial else selectors.next_dealer(evening=evening),
        initial=initial,
        live=live,
    )


def _idempotency_key(request) -> uuid.UUID | None:
    try:
        return uuid.UUID(request.POST.get("idempotency_key", ""))
    except ValueError:
        return None


@require_http_methods(["GET", "POST"])
@editing
def round_new(request, evening: Evening):
    """记一局: the round form; a valid submit is stored as the evening's next round."""
    entry = _entry(evening, request.POST if request.method == "POST" else None)
    key = _idempotency_key(request) if request.method == "POST" else None
    recorded_as = None  # the round this form's key already recorded, when it now holds another
    if request.method == "POST" and entry.is_valid():
        try:
            round_ = services.round_record(evening=evening, record=entry.record,
                                           idempotency_key=key, by=_me(request, evening))
        except RecordInvalid as invalid:  # the entry checked it; only a race could get here
            messages.error(request, "; ".join(p.message for p in invalid.problems))
        except services.IdempotencyKeyReused as reused:
            recorded_as = reused.existing
        else:
            messages.success(request, _("第{number}局记好了。").format(number=round_.number))
            return redirect("calculator:evening_detail", token=evening.token)
    context = {
        **_base_context(request, evening),
        "entry": entry,
        "recorded_as": recorded_as,
        "action": reverse("calculator:evening_round_new", args=[evening.token]),
        "preview_url": reverse("calculator:evening_round_preview", args=[evening.token]),
        "hidden_fields": [("idempotency_key", key or uuid.uuid4())],
        "next_number": selectors.next_round_number(evening=evening),
        "next_dealer": selectors.evening_names(evening=evening)[selectors.next_dealer(evening=evening)],
    }
    response = render(request, "calculator/evening/round_new.html", context)
    return _refused(response) if request.method == "POST" else response


@require_POST
@editing
def round_preview(request, evening: Evening):
    """The live preview while a round is typed in (htmx), with the evening's table fixed.

    The correction form asks with ?round=<number>: a correction is scored under the rules that
    round was stored with (R42), so its preview must be too, not under the evening's.
    """
    rules = None
    if "round" in request.GET:
        number = request.GET["round"]
        if not (number.isascii() and number.isdigit() and len(number) <= 9):  # no column overflow
            raise Http404
        rules = _round(evening, int(number)).rules
    entry = _entry(evening, request.POST, rules=rules, live=True)
    result = present(entry.settlement) if entry.is_valid() else None
    return render(request, "calculator/partials/_round_preview.html", {"entry": entry, "result": result})


@require_GET
@editing
def round_detail(request, evening: Evening, number: int):
    round_ = _round(evening, number)
    names = selectors.evening_names(evening=evening)
    context = {
        **_base_context(request, evening),
        "round": round_,
        "row": selectors.round_row(round_, names),
        "view": present(selectors.stored_settlement(round_)),
    }
    return render(request, "calculator/evening/round_detail.html", context)


@require_http_methods(["GET", "POST"])
@editing
def round_edit(request, evening: Evening, number: int):
    """改一局 (R42): the round form pre-filled, its bar showing the stored round's nets; a valid
    submit shows before/after to confirm, and the bar the corrected nets."""
    if gone := _deleted_meanwhile(request, evening, number):
        return gone
    round_ = _round(evening, number)
    version_form = VersionForm(request.POST or None, initial={"version": round_.version})
    entry = _entry(evening, request.POST if request.method == "POST" else None,
                   rules=round_.rules, initial=round_.record)
    based_on = version_form.cleaned_data["version"] if version_form.is_valid() else round_.version
    if request.method == "POST" and based_on != round_.version:
        return _conflict(request, evening, number)
    names = selectors.evening_names(evening=evening)
    if entry.is_bound:  # the bar and the settlement preview: the correction's own, or the stored round's
        result = present(entry.settlement) if entry.is_valid() else None
    else:
        result = present(selectors.stored_settlement(round_))
    context = {**_base_context(request, evening), "round": round_, "entry": entry, "result": result,
               "hidden_fields": [("version", based_on)],
               "action": reverse("calculator:evening_round_edit", args=[evening.token, number]),
               "preview_url": reverse("calculator:evening_round_preview", args=[evening.token])
               + f"?round={number}"}
    if request.method == "POST" and entry.is_valid():
        context.update({
            "changes": selectors.round_correction_preview(round_=round_, after_net=entry.settlement.net),
            "payments": selectors.evening_payment_count(evening=evening),
            "before_summary": outcome_text(round_.record, round_.settlement, names),
            "after_summary": outcome_text(entry.record, entry.settlement.to_dict(), names),
            "details": record_changes(round_.record, entry.record, names),
            "confirm": CorrectionConfirmForm(initial={"record": entry.record, "version": based_on}),
        })
    response = render(request, "calculator/evening/round_edit.html", context)
    return _refused(response) if request.method == "POST" and not entry.is_valid() else response


def _deleted_meanwhile(request, evening: Evening, number: int) -> HttpResponse | None:
    """A form posted about a round someone deleted since it was opened gets the conflict
    answer (the evening, and why), not a bare 404."""
    if request.method == "POST" and selectors.round_was_deleted(evening=evening, number=number):
        return _conflict(request, evening, number)
    return None


def _conflict(request, evening: Evening, number: int, *, back: str = "calculator:evening_round_edit"):
    """Someone changed the round first: back to `back` on the round as it is now (a correction
    to its form, a delete to the round itself, so a delete is never turned into an edit), or to
    the evening when the round is gone."""
    messages.warning(request, _("有人刚改过这一局（或删了它）。下面是现在的样子，请再看一遍。"))
    if Round.objects.filter(evening=evening, number=number).exists():
        return redirect(back, token=evening.token, number=number)
    return redirect("calculator:evening_detail", token=evening.token)


@require_POST
@editing
def round_edit_confirm(request, evening: Evening, number: int):
    if gone := _deleted_meanwhile(request, evening, number):
        return gone
    round_ = _round(evening, number)
    form = CorrectionConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("修改没有保存：表单不完整，请重新改一次。"))
        return redirect("calculator:evening_round_edit", token=evening.token, number=number)
    try:
        services.round_correct(round=round_, record=form.cleaned_data["record"],
                               expected_version=form.cleaned_data["version"], by=_me(request, evening))
    except services.RoundVersionConflict:
        return _conflict(request, evening, number)
    except RecordInvalid as invalid:
        messages.error(request, "; ".join(p.message for p in invalid.problems))
        return redirect("calculator:evening_round_edit", token=evening.token, number=number)
    messages.success(request, _("第{number}局改好了，总分已经跟着变了。").format(number=number))
    return redirect("calculator:evening_detail", token=evening.token)


@require_http_methods(["GET", "POST"])
@editing
def round_delete(request, evening: Evening, number: int):
    """删一局: a confirmation page, then the delete; the round stays readable in the history."""
    if gone := _deleted_meanwhile(request, evening, number):
        return gone
    round_ = _round(evening, number)
    if request.method == "POST":
        form = VersionForm(request.POST)
        if form.is_valid():
            try:
                services.round_delete(round=round_, expected_version=form.cleaned_data["version"],
                                      by=_me(request, evening))
            except services.RoundVersionConflict:
                return _conflict(request, evening, number, back="calculator:evening_round")
            messages.success(request, _("第{number}局删掉了（历史里还能看到）。").format(number=number))
            return redirect("calculator:evening_detail", token=evening.token)
    names = selectors.evening_names(evening=evening)
    context = {**_base_context(request, evening), "round": round_, "row": selectors.round_row(round_, names),
               "changes": selectors.round_correction_preview(round_=round_, after_net=[0] * len(names)),
               "payments": selectors.evening_payment_count(evening=evening)}
    response = render(request, "calculator/evening/round_delete.html", context)
    return _refused(response) if request.method == "POST" else response


@require_GET
@editing
def round_receipt_pdf(request, evening: Evening, number: int):
    round_ = _round(evening, number)
    pdf = render_pdf("calculator/pdf/receipt.html", receipt_context(selectors.stored_settlement(round_)),
                     request=request)
    return _pdf_response(pdf, f"zhuoji-round-{number}.pdf")


# -- settle-up, history, report ----------------------------------------------------------------


@require_GET
@editing
def evening_settle(request, evening: Evening):
    context = {**_base_context(request, evening), "settle": selectors.evening_settle_up(evening=evening)}
    return render(request, "calculator/evening/settle.html", context)


@require_POST
@editing
def transfer_paid(request, evening: Evening):
    """已付 / 撤回 on one transfer; htmx swaps the settle-up partial, plain forms redirect."""
    form = PaidForm(request.POST)
    if not form.is_valid():  # the buttons send these hidden fields; only a hand-made request fails
        message = _("这笔转账的信息不完整，请刷新后再点。")
        return _refused(HttpResponse(message, content_type="text/plain; charset=utf-8"))
    data = form.cleaned_data
    mark = services.transfer_mark_paid if data["paid"] else services.transfer_mark_unpaid
    notice = ""
    try:
        mark(evening=evening, payer=data["payer"], payee=data["payee"], points=data["points"])
    except services.TransferNotInPlan:
        notice = _("总分刚变过，结账方案也跟着变了，请再看一遍。")
    if request.htmx:
        # The swap replaces only the settle-up, which never shows the messages: the notice goes
        # inside it, and into the session not at all, or it would turn up on some later page.
        context = {**_base_context(request, evening), "settle": selectors.evening_settle_up(evening=evening),
                   "notice": notice}
        return render(request, "calculator/partials/_evening_settle.html", context)
    if notice:
        messages.warning(request, notice)
    return redirect("calculator:evening_settle", token=evening.token)


@require_GET
@editing
def evening_history(request, evening: Evening):
    context = {**_base_context(request, evening), "history": history.evening_history(evening=evening)}
    return render(request, "calculator/evening/history.html", context)


def _report_context(evening: Evening) -> dict:
    return {
        "evening": evening,
        "board": selectors.evening_board(evening=evening),
        "rounds": selectors.evening_report_rounds(evening=evening),
        "settle": selectors.evening_settle_up(evening=evening),
        "history": history.evening_history(evening=evening),
        "printed_at": timezone.now(),
    }


def _pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _report_pdf(request, evening: Evening) -> HttpResponse:
    pdf = render_pdf("calculator/pdf/evening_report.html", _report_context(evening), request=request)
    return _pdf_response(pdf, f"zhuoji-{timezone.localtime(evening.created_at):%Y%m%d}.pdf")


@require_GET
@editing
def evening_report_pdf(request, evening: Evening):
    return _report_pdf(request, evening)


@require_GET
@reading
def follow_report_pdf(request, evening: Evening):
    return _report_pdf(request, evening)


@require_GET
@editing
def evening_export(request, evening: Evening):
    data = services.evening_export(evening=evening)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="zhuoji-{timezone.localtime(evening.created_at):%Y%m%d}.json"'
    return response


@require_http_methods(["GET", "POST"])
def evening_import(request):
    """Open a copy of an exported evening under new addresses."""
    if request.method == "GET":
        return render(request, "calculator/evening/import.html", {"error": ""})
    upload = request.FILES.get("file")  # bodies over settings.MAX_REQUEST_BYTES never get here
    if upload is not None and upload.size > MAX_IMPORT_BYTES:
        return render(request, "calculator/evening/import.html", {"error": _("这个文件太大了。")}, status=413)
    try:
        if upload is None:
            raise ValueError("no file")
        data = jsonsafe.loads(upload.read().decode("utf-8"))
        evening = services.evening_import(data=data)
    except (ValueError, RecursionError, ValidationError):  # UnicodeDecodeError is a ValueError
        error = _("这个文件不是捉鸡算账导出的一晚，或者已经损坏。")
        return _refused(render(request, "calculator/evening/import.html", {"error": error}))
    return redirect("calculator:evening_detail", token=evening.token)
