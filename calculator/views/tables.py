"""固定桌 views (issue 24): make a table, its page (roster, evenings, who sat where), its next
evening in one tap, and its season (edit and read-only), the rounds behind each figure, CSV.

/t/<token>/ may change the table and open its evenings; /tv/<read_token>/ shows its season and
changes nothing. Each view binds a form, calls one service or selector and renders.
"""
from __future__ import annotations

import csv
import functools
import io
import json
from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import selectors, services
from ..forms import AttachForm, CsvForm, EveningForm, FigureForm, MergeForm, SeasonForm, SeatLinkForm, TableForm
from ..models import Evening, Table
from ..presentation.rules_text import rules_headline
from ..presentation.share_card import Card, CardRow, card_png
from ..qr import qr_svg
from ..scoring.settle import decimal_text
from .access import address_url, editing, refused, table_editing, table_viewing
from .evenings import evening_form
from .limits import rate_limited

# -- making a table ----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@rate_limited("evening_new")
def table_new(request):
    """建一个固定桌 from nothing: a name and the roster."""
    form = TableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.table_create(name=form.cleaned_data["name"], names=form.cleaned_data["names"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect("calculator:table_detail", table_token=table.token)
    response = render(request, "calculator/table/new.html", {"form": form})
    return refused(response) if request.method == "POST" else response


@require_POST
@editing
def evening_make_table(request, evening: Evening):
    """这桌常打：建一个固定桌, from the evening's page (or go to the table it is at already)."""
    table = services.table_from_evening(evening=evening)
    return redirect("calculator:table_detail", table_token=table.token)


# -- the table page ----------------------------------------------------------------------------


def _table_context(table: Table, **extra) -> dict:
    setup = services.table_next_setup(table=table)
    roster = selectors.table_roster(table=table)
    return {"table": table, "roster": roster, "evenings": list(selectors.table_evenings(table=table)),
            "setup": setup, "setup_rules": rules_headline(setup["rules"]),
            "setup_stake": decimal_text(Decimal(setup["stake"])), "attach_form": AttachForm(),
            "merge_form": MergeForm(roster=roster), **extra}


@require_GET
@table_editing
def table_detail(request, table: Table):
    return render(request, "calculator/table/detail.html", _table_context(table))


@require_GET
@table_editing
def table_share(request, table: Table):
    read_url = request.build_absolute_uri(reverse("calculator:table_follow", args=[table.read_token]))
    edit_url = request.build_absolute_uri(reverse("calculator:table_detail", args=[table.token]))
    return render(request, "calculator/table/share.html",
                  {"table": table, "read_url": read_url, "edit_url": edit_url, "qr_svg": qr_svg(read_url)})


@require_POST
@rate_limited("evening_new")
@table_editing
def table_evening_start(request, table: Table):
    """开下一晚, one tap: the latest evening's seats, stake and rules."""
    try:
        evening = services.table_evening_open(table=table)
    except ValidationError:
        messages.warning(request, _("名单里不到三个人，先用“改一改再开”写上谁在打。"))
        return redirect("calculator:table_detail", table_token=table.token)
    return redirect("calculator:evening_detail", token=evening.token)


@require_http_methods(["GET", "POST"])
@rate_limited("evening_new")
@table_editing
def table_evening_new(request, table: Table):
    """改一改再开: the evening form, filled in as the next evening would start."""
    setup = services.table_next_setup(table=table)
    initial = EveningForm.initial_from(setup["rules"], names=setup["names"],
                                       stake=decimal_text(Decimal(setup["stake"])),
                                       rules_name=setup["rules_name"])
    return evening_form(request, initial=initial, rules=setup["rules"],
                        create=functools.partial(services.table_evening_create, table=table),
                        context={"table": table, "form_action": reverse("calculator:table_setup", args=[table.token])})


@require_POST
@table_editing
def table_attach(request, table: Table):
    """把以前的一晚加进来, by its edit address."""
    form = AttachForm(request.POST)
    if form.is_valid():
        try:
            services.table_attach_evening(table=table, address=form.cleaned_data["address"])
        except services.NotAttachable as error:
            form.add_error("address", _("这一晚已经是别的固定桌的了。") if error.code == "elsewhere"
                           else _("找不到这一晚：要贴改账的链接，不是只读链接。"))
        else:
            messages.success(request, _("加进来了：这一晚的每个座位已按名字对上人，不对的话在下面点一下改。"))
            return redirect("calculator:table_detail", table_token=table.token)
    return refused(render(request, "calculator/table/detail.html", _table_context(table, attach_form=form)))


@require_POST
@table_editing
def table_seat(request, table: Table):
    """这个座位是谁: one tap."""
    form = SeatLinkForm(request.POST)
    if not form.is_valid():
        return refused(HttpResponse(_("这个座位的信息不完整，请刷新后再点。"), content_type="text/plain; charset=utf-8"))
    data = form.cleaned_data
    target = selectors.seat_link_target(table=table, evening_id=data["evening"], seat=data["seat"], member_id=data["member"])
    if target is None:
        raise Http404
    evening, member = target
    services.seat_link(table=table, evening=evening, seat=data["seat"], member=member)
    return redirect(f"{reverse('calculator:table_detail', args=[table.token])}#evening-{evening.pk}")


@require_POST
@table_editing
def table_merge(request, table: Table):
    """王哥 = 老王."""
    roster = selectors.table_roster(table=table)
    form = MergeForm(request.POST, roster=roster)
    if form.is_valid():
        by_id = {m.pk: m for m in roster}
        try:
            kept = services.member_merge(table=table, keep=by_id[form.cleaned_data["keep"]],
                                         absorb=by_id[form.cleaned_data["absorb"]])
        except ValidationError:
            form.add_error(None, _("这两个名字在同一晚都坐过，是两个人。"))
        else:
            messages.success(request, _("合好了：{name} 的名字有 {names}。").format(
                name=kept.name, names=_("、").join(kept.names())))
            return redirect("calculator:table_detail", table_token=table.token)
    return refused(render(request, "calculator/table/detail.html", _table_context(table, merge_form=form)))


# -- the season --------------------------------------------------------------------------------


def _period(request) -> tuple[SeasonForm, selectors.Period, int]:
    form = SeasonForm(request.GET or None, initial={"period": "all"})
    kind, start, end, min_rounds = form.values()
    return form, selectors.Period.of(kind, start=start, end=end), min_rounds


@require_GET
@table_viewing
def table_season(request, table: Table, *, read_only: bool):
    """The season; at the read-only address (/tv/…/), nothing that changes anything."""
    form, period, min_rounds = _period(request)
    figures = address_url("table_figure", table, read_only=read_only)

    def rounds_url(key, figure: str) -> str:
        return f"{figures}?{period.query()}&who={key}&figure={figure}"

    season = selectors.table_season(table=table, period=period, min_rounds=min_rounds, rounds_url=rounds_url)
    context = {"table": table, "season": season, "form": form, "read_only": read_only,
               "figures_url": figures, "period_query": period.query(),
               "csv_url": address_url("table_csv", table, read_only=read_only),
               "card_url": address_url("table_share_card", table, read_only=read_only),
               "season_url": address_url("table_season", table, read_only=read_only)}
    return render(request, "calculator/table/season.html", context)


@require_GET
@table_viewing
def table_share_card(request, table: Table, *, read_only: bool):
    """分享图片: the season of the page's period as a PNG to save or send in a chat."""
    _form, period, min_rounds = _period(request)
    season = selectors.table_season(table=table, period=period, min_rounds=min_rounds)
    days = [timezone.localtime(evening.created_at) for evening in season.evenings]
    span = "" if not days else " – ".join(sorted({f"{min(days):%Y-%m-%d}", f"{max(days):%Y-%m-%d}"}))
    counts = " · ".join([ngettext("%(n)s 晚", "%(n)s 晚", season.evening_count) % {"n": season.evening_count},
                         ngettext("%(n)s 局", "%(n)s 局", season.round_count) % {"n": season.round_count}])
    card = Card(
        title=table.name, subtitle=f"{span}  {counts}".strip(),
        rows=[CardRow(p.name, p.colour, p.points, p.money) for p in season.players],
        awards=[(award.title, f"{_('、').join(award.names)} {award.value}") for award in season.awards],
        heading_standings=_("战绩"), heading_awards=_("这段时间的奖"), points_unit=_("番"), money_unit=_("元"),
        footer=_("捉鸡算账"),
    )
    response = HttpResponse(card_png(card), content_type="image/png")
    response["Content-Disposition"] = 'inline; filename="zhuoji-season.png"'
    return response


@require_GET
@table_viewing
def table_figure(request, table: Table, *, read_only: bool):
    """The rounds behind one figure of the season (a player's 胡 count, say)."""
    _form, period, _min = _period(request)
    asked = FigureForm(request.GET, figures=selectors.season.FIGURES)
    if not asked.is_valid():
        raise Http404
    figure, key = asked.cleaned_data["figure"], selectors.member_key(asked.cleaned_data["who"])
    name, refs = selectors.figure_rounds(table=table, period=period, key=key, figure=figure)
    if not name:  # nobody of this table
        raise Http404
    back = address_url("table_season", table, read_only=read_only)
    return render(request, "calculator/table/figure.html",
                  {"table": table, "name": name, "refs": refs, "figure": figure, "read_only": read_only,
                   "back": f"{back}?{period.query()}"})


@require_GET
@table_editing
def table_export(request, table: Table):
    """The table as a file (roster, seats, every evening): 导入 on the import page opens a copy."""
    response = HttpResponse(json.dumps(services.table_export(table=table), ensure_ascii=False, separators=(",", ":")),
                            content_type="application/json")
    response["Content-Disposition"] = 'attachment; filename="zhuoji-table.json"'
    return response


@require_GET
@table_viewing
def table_csv(request, table: Table, *, read_only: bool):
    _form, period, _min = _period(request)
    per = CsvForm(request.GET).rows_per()
    out = io.StringIO()
    out.write("\ufeff")  # so that a spreadsheet reads the file as UTF-8, hanzi and all
    csv.writer(out).writerows(selectors.season_csv(table=table, period=period, per=per))
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="zhuoji-table-{per}.csv"'
    return response
