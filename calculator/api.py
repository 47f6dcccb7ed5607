"""The stateless JSON API for other front ends (issue 3): a round record in, its settlement out.

- `POST /api/settle` → 200 with the settlement JSON of RULES §6.
- `POST /api/receipt.pdf` → 200 with a one-page PDF receipt.

Both take the record as an `application/json` body. Anything wrong with the request or the
record answers 4xx with `{"errors": [{"code", "seat", "field", "message"}]}`. The messages are
Chinese unless the request carries the language switch's cookie (calculator/middleware.py: the
Accept-Language header is ignored, as on the pages). No session is involved, so no CSRF token.
"""
from __future__ import annotations

from functools import wraps
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, JsonResponse, UnreadablePostError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.csrf import csrf_exempt

from . import jsonsafe
from .pdf import receipt_context, render_pdf
from .presentation import problem_message, settlement_json
from .scoring import RecordInvalid, Settlement, settle_record

JSON_TYPE = "application/json; charset=utf-8"


class RequestRejected(Exception):
    """The request cannot be read as a round record; carries the HTTP status and the errors."""

    def __init__(self, status: int, errors: list[dict[str, Any]]):
        super().__init__(errors)
        self.status = status
        self.errors = errors


def error(code: str, message: str, *, seat: int | None = None, field: str | None = None) -> dict[str, Any]:
    return {"code": code, "seat": seat, "field": field, "message": message}


def errors_response(errors: list[dict[str, Any]], status: int = 400) -> JsonResponse:
    return JsonResponse(
        {"errors": errors}, status=status, content_type=JSON_TYPE, json_dumps_params={"ensure_ascii": False}
    )


# What each way `jsonsafe.check_storable` refuses a body reads as.
_UNSTORABLE = {
    "depth": gettext_noop("牌局记录嵌套太深。"),
    "text": gettext_noop("牌局记录里有不能用的字符。"),
    "number": gettext_noop("请求不是合法的 JSON。"),
}


def read_record(request) -> Any:
    """The request's JSON body, parsed; raises `RequestRejected` with the right status."""
    charset = (request.encoding or "utf-8").lower()
    if request.content_type != "application/json" or charset not in ("utf-8", "utf8"):
        raise RequestRejected(415, [error("bad_content_type", _("请用 application/json（UTF-8）发送牌局记录。"))])
    try:
        body = request.body
    except RequestDataTooBig:
        raise RequestRejected(413, [error("too_large", _("牌局记录太大了。"))]) from None
    except UnreadablePostError:
        raise RequestRejected(400, [error("bad_record", _("没有读到完整的请求。"))]) from None
    try:
        data = jsonsafe.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise RequestRejected(400, [error("bad_record", _("请求不是合法的 JSON。"))]) from None
    try:
        jsonsafe.check_storable(data)
    except jsonsafe.Unstorable as refused:
        raise RequestRejected(400, [error("bad_record", _(_UNSTORABLE[refused.reason]))]) from None
    return data


def settlement_of(request) -> Settlement:
    """Read and settle the request's record; raises `RequestRejected` for a bad request or record."""
    data = read_record(request)
    try:
        return settle_record(data)
    except RecordInvalid as invalid:
        raise RequestRejected(400, [
            error(p.code, problem_message(p), seat=p.seat, field=p.field) for p in invalid.problems
        ]) from None


def json_post_api(view):
    """csrf_exempt and POST only, with every refusal as a JSON errors body (405 with Allow)."""

    @csrf_exempt
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "POST":
            response = errors_response([error("bad_method", _("只接受 POST 请求。"))], status=405)
            response["Allow"] = "POST"
            return response
        try:
            return view(request, *args, **kwargs)
        except RequestRejected as rejected:
            return errors_response(rejected.errors, rejected.status)

    return wrapper


@json_post_api
def settle(request):
    settlement = settlement_of(request)
    return JsonResponse(
        settlement_json(settlement), content_type=JSON_TYPE, json_dumps_params={"ensure_ascii": False}
    )


@json_post_api
def receipt_pdf(request):
    settlement = settlement_of(request)
    pdf = render_pdf("calculator/pdf/receipt.html", receipt_context(settlement), request=request)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = 'inline; filename="receipt.pdf"'
    return response
