"""An evening's rounds: record (with the live preview), look at, correct, delete, receipt PDF.

The round form is the stateless one (`entry.RoundEntry`) with the evening's names, stake and
rules fixed (R41); each write is one service call.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from functools import wraps

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from .. import selectors, services
from ..entry import RoundEntry
from ..entry.draft import FORMSET_COUNTS, draft_data, draft_fields, field_words
from ..entry.turned import carry_chickens
from ..forms import (
    ConfirmForm, CorrectionConfirmForm, DraftConfirmForm, DraftPollForm, DraftPostForm, PreviewForm, VersionForm, WhatIfForm,
)
from ..models import Evening, Round
from ..pdf import receipt_context, render_pdf
from ..presentation import outcome_text, present, signed, tile_name
from ..presentation.changes import record_changes
from ..scoring import RecordInvalid, parse_tile, ruleset_from_dict
from ..services.drafts import SEEN_REFRESH
from ..polls import answered_from_cache
from .access import (
    ME_SESSION_KEY, RoundDeleted, address_context, base_context, editing, evening_state, live_round, me, pdf_response, private,
    refused, round_or_404, unless_unchanged, viewing,
)
from .limits import rate_limited

# -- rounds ------------------------------------------------------------------------------------


def _entry(evening: Evening, data=None, *, round_: Round | None = None, initial: dict | None = None,
           live: bool = False, draft: bool = False) -> RoundEntry:
    """The round form of issue 3 with the evening's names, stake and rules fixed (R41), and what
    the evening knows of the round (连庄, 星期鸡); `round_`: 改这局 on that stored round, under the
    rules it was stored with (R42)."""
    rules = ruleset_from_dict(round_.rules if round_ else evening.rules)
    return RoundEntry(
        data,
        names=selectors.evening_names(evening=evening),
        rules=rules,
        stake=selectors.evening_stake(evening=evening),
        dealer=None if initial else selectors.next_dealer(evening=evening),
        initial=initial,
        live=live,
        draft=draft,
        facts=selectors.table_facts(evening=evening, rules=rules, before=round_.number if round_ else None,
                                    played=round_),
    )


def _my_seat(request, evening: Evening) -> int | None:
    seat = request.session.get(ME_SESSION_KEY, {}).get(str(evening.pk))
    return seat if isinstance(seat, int) else None


def _save_draft(request, evening: Evening, *, changed: set[str] | None, data=None,
                correcting: int | None = None) -> services.DraftSaved:
    """Save what this page posted (or `data`) into the evening's draft (录入中), merged per
    field (`changed`: the fields this page changed; None: every field it holds); `correcting`:
    into the draft of 改这局 on that round."""
    posted, source = DraftPostForm(request.POST), request.POST if data is None else data
    # A box this phone unticked is not in the POST at all: among the fields it changed, absent
    # ones are written as empty, or the tick would stay on every other phone and in the draft.
    values = {**draft_fields(source, names=sorted(changed or ())), **draft_fields(source)}
    return services.draft_save(
        evening=evening, values=values, changed=changed,
        base=posted.base, client=posted.client, by=me(request, evening),
        key=posted.key, seat=_my_seat(request, evening), correcting=correcting)


def _as_seen(request) -> services.Seen:
    """The round as this page's form posted it, for a write that must not store a round other
    phones have changed since this page looked."""
    posted = DraftPostForm(request.POST)
    return services.Seen(values=draft_fields(request.POST), base=posted.base, client=posted.client, key=posted.key)


def _say_overtaken(request, evening: Evening, overtaken: services.DraftOvertaken, headline: str) -> None:
    """Why nothing was stored, and what the other phones changed, at the top of the next page."""
    messages.warning(request, headline)
    for note in _overtaken_notes(overtaken, selectors.evening_names(evening=evening)):
        messages.warning(request, note)


def _overtaken_notes(overtaken: services.DraftOvertaken, names: list[str]) -> list[str]:
    """"小李 改了翻牌：6条" for each field another phone changed after this page looked; a meld's
    kind, tile and whose discard in one line ("小李 改了阿珍的碰杠：碰 1条 老王"), its row count in none."""
    said: dict[tuple[str, str], list[str]] = {}
    for overlap in overtaken.overlaps:
        if not overlap.name.endswith(FORMSET_COUNTS):
            label, value = field_words(overlap.name, overlap.values, names)
            said.setdefault((overlap.by, label), []).append(value)
    return [_changed_by(who, label, " ".join(values)) for (who, label), values in said.items()]


def _before_nets(round_: Round) -> list[str]:
    """A stored round's net per seat as the bar shows it, for "+8 → +12" while it is corrected."""
    return [signed(net) for net in round_.net]


def _draft_words(evening: Evening, entry: RoundEntry, draft) -> list[selectors.SeatWord] | None:
    """Each seat's 确认 / 有异议 on the round as this page scores it; None until it scores. A word
    given on a different round (a hand changed since) counts as not given, and is asked again
    (an objection keeps its why in sight: the change may or may not be its answer)."""
    if draft is None or not entry.is_valid():
        return None
    digest = services.record_digest(entry.settlement.record.to_dict())
    words = []
    for seat, name in enumerate(selectors.evening_names(evening=evening)):
        word = draft.confirmations.get(str(seat)) or {}
        if word.get("digest") == digest:
            words.append(selectors.SeatWord(seat, name, word.get("verdict", ""), word.get("note", ""),
                                            bool(word.get("proxy")), word.get("by", "")))
        else:
            words.append(selectors.SeatWord(seat, name, "", word.get("note", ""), stale=bool(word),
                                            was=word.get("verdict", "")))
    return words


def _proxy_seats(evening: Evening, mine: int | None) -> list[tuple[int, str]]:
    """The seats a phone that said whose it is may confirm for (代按): those whose own phone has
    not opened this round. Without a name the page offers every seat, as before."""
    if mine is None:
        return []
    draft = selectors.evening_draft(evening=evening)
    return [(seat, name) for seat, name in enumerate(selectors.evening_names(evening=evening))
            if seat != mine and not (draft and draft.has_phone(seat))]


def _overlap_notes(saved: services.DraftSaved, names: list[str]) -> list[str]:
    """"小李 也改了翻牌：6条" for each field another phone changed too."""
    notes = []
    if saved.deleted is not None:
        notes.append(_("第{n}局记下以后又被删了：这部手机上录的，存进了新的一局。").format(n=saved.deleted))
    for overlap in saved.overlaps:
        label, value = field_words(overlap.name, overlap.values, names)
        who = overlap.by
        if overlap.doubled:
            tiles = "、".join(tile_name(parse_tile(code)) for code in overlap.doubled)
            notes.append(_("{who} 刚也在{field}里加了 {tiles}：现在算了两次。要是同一张，请拿掉一张。").format(
                who=who, field=label, tiles=tiles))
        else:
            notes.append(_also_changed(who, label, value))
    return notes


def _also_changed(who: str, field: str, value: str) -> str:
    """What a page hears when another phone changed a field it has typed into too."""
    return _("{who} 也改了{field}：{value}（现在按你的）").format(who=who or _("另一部手机"), field=field, value=value)


def _changed_by(who: str, field: str, value: str) -> str:
    """"小李 改了翻牌：6条": what a page hears when another phone replaced a value this page had
    written (at once, or later), and what a refused 记下这一局 says of each field it missed."""
    return _("{who} 改了{field}：{value}").format(who=who or _("另一部手机"), field=field, value=value)


@require_http_methods(["GET", "POST"])
@editing
@rate_limited("round_record")
def round_new(request, evening: Evening):
    """记一局: the round form; a valid submit is stored as the evening's next round.

    Opening it starts or resumes the evening's draft (录入中): the form is drawn as the draft
    holds it, and carries the draft's idempotency key, so whichever phone submits it, the draft
    becomes one round. A refused submit keeps what it held in the draft."""
    if request.method == "GET":
        draft = services.draft_open(evening=evening, seat=_my_seat(request, evening), by=me(request, evening))
        # Reopened and nothing changed (the draft as this phone last drew it, the rounds, the
        # seats' words and phones): a 304, without drawing the form again.
        state = (*evening_state(evening), draft.pk, str(draft.idempotency_key), draft.version,
                 draft.confirmations, draft.phones, me(request, evening), _my_seat(request, evening))
        return unless_unchanged(request, state, lambda: _round_page_of_draft(request, evening, draft))
    return _round_posted(request, evening)


def _round_page_of_draft(request, evening: Evening, draft, *, status: int = 200) -> HttpResponse:
    """The form as the evening's draft holds it, with each seat's word on that round."""
    entry = _entry(evening, draft_data(draft.data) if draft.data else None, draft=True)
    return _round_page(request, evening, entry, key=draft.idempotency_key, version=draft.version,
                       words=_draft_words(evening, entry, draft), status=status)


def _round_posted(request, evening: Evening) -> HttpResponse:
    """记下这一局: the posted form is recorded when it is the round the table sees. Else what it
    holds joins the draft (nothing typed is lost) and the form comes back: with its problems
    (400), or as the table has the round now when another phone changed it since (409)."""
    entry = _entry(evening, request.POST)
    posted = DraftPostForm(request.POST)
    key, version = posted.key, posted.base
    if entry.is_valid():
        try:
            round_ = services.round_record(evening=evening, record=entry.record, idempotency_key=key,
                                           by=me(request, evening), seen=_as_seen(request))
        except services.DraftOvertaken as overtaken:
            # Not this phone's old copy over what the table sees now: its own changes join the
            # draft (the others' stay), and the form shows the round as it now is, to record again.
            saved = _save_draft(request, evening, changed=None)
            if saved.draft is None:  # recorded on another phone in between: there it is
                return _recorded_elsewhere(request, evening, saved.recorded)
            _say_overtaken(request, evening, overtaken, _("别的手机刚改了这一局，没有记下：看一遍，再点记下这一局。"))
            return _round_page_of_draft(request, evening, saved.draft, status=409)
        except RecordInvalid as invalid:  # the entry checked it; only a race could get here
            messages.error(request, "; ".join(p.message for p in invalid.problems))
        except services.IdempotencyKeyReused as reused:  # this form's key recorded a round, which it no longer is
            return refused(_round_page(request, evening, entry, key=key, version=version, recorded_as=reused.existing))
        except services.IdempotencyKeyDeleted as deleted:  # what it held goes into the round being entered
            saved = _save_draft(request, evening, changed=None)
            messages.warning(request, _("这张表记过第{number}局，那一局后来被删了，所以没有再记一次。这张表上录的存进了正在录的一局：看一遍，要记再点记下这一局。")
                             .format(number=deleted.number))
            if saved.draft is not None:
                return _round_page_of_draft(request, evening, saved.draft, status=409)
            return redirect("calculator:evening_detail", token=evening.token)
        else:
            messages.success(request, _("第{number}局记好了。").format(number=round_.number))
            # the table checks the breakdown first; the round's page leads back to the evening
            return redirect("calculator:evening_round", token=evening.token, number=round_.number)
    if key is not None:
        saved = _save_draft(request, evening, changed=None)  # refused: what it held is not lost
        if saved.draft is not None:
            key, version = saved.draft.idempotency_key, _version_seen(saved, key, version)
    return refused(_round_page(request, evening, entry, key=key, version=version))


def _version_seen(saved: services.DraftSaved, key, base: int) -> int:
    """The draft version a page drawn again from what it posted holds, after its whole form was
    saved: the saved one, unless another phone's change it lacks is in the draft (then the base
    it had, so that its next submit is checked against that change). Its own save is no change
    it has missed: its next submit, fixed by hand without JavaScript, records."""
    if not saved.missed:
        return saved.draft.version
    return base if saved.draft.idempotency_key == key else 0


def _round_page(request, evening: Evening, entry: RoundEntry, *, key, version: int,
                words: list[selectors.SeatWord] | None = None, recorded_as: Round | None = None,
                status: int = 200) -> HttpResponse:
    """记一局's page: the form (`key` and `version`: the draft it posts back to), the preview,
    the seats' words, the round this form already recorded (`recorded_as`)."""
    context = {
        **base_context(request, evening),
        "entry": entry,
        "recorded_as": recorded_as,
        "result": present(entry.settlement) if entry.is_bound and entry.is_valid() else None,
        "action": reverse("calculator:evening_round_new", args=[evening.token]),
        "preview_url": reverse("calculator:evening_round_preview", args=[evening.token]),
        "hidden_fields": [("idempotency_key", key or uuid.uuid4()), ("draft_base", version),
                          ("draft_client", uuid.uuid4().hex[:16])],
        "next_number": selectors.next_round_number(evening=evening),
        "next_dealer": selectors.evening_names(evening=evening)[selectors.next_dealer(evening=evening)],
        "draft_url": reverse("calculator:evening_round_draft", args=[evening.token]),
        "confirm_url": reverse("calculator:evening_round_draft_confirm", args=[evening.token]),
        "words": words,
        "names": selectors.evening_names(evening=evening),
        "draft_version": version,
        "my_seat": _my_seat(request, evening),
        "proxy_seats": _proxy_seats(evening, _my_seat(request, evening)),
    }
    return render(request, "calculator/evening/round_new.html", context, status=status)


@require_POST
@editing
def round_preview(request, evening: Evening):
    """The live preview while a round is typed in (htmx), with the evening's table fixed.

    The correction form asks with ?round=<number>: a correction is scored under the rules that
    round was stored with (R42), so its preview must be too, not under the evening's.
    """
    asked = PreviewForm(request.GET)
    if not asked.is_valid():
        raise Http404
    round_ = round_or_404(evening, asked.cleaned_data["round"]) if asked.cleaned_data["round"] else None
    entry = _entry(evening, request.POST, round_=round_, live=True)
    context = {"entry": entry, "result": present(entry.settlement) if entry.is_valid() else None,
               "before_nets": _before_nets(round_) if round_ else None}
    posted = DraftPostForm(request.POST)
    if posted.saves:  # draft.js: the page's changes go into the draft (a new round's, or 改这局's)
        saved = _save_draft(request, evening, changed=posted.changed, correcting=round_.number if round_ else None)
        context.update(base_context(request, evening), saved=saved, correcting=round_.number if round_ else None,
                       notes=_overlap_notes(saved, selectors.evening_names(evening=evening)),
                       renewed=saved.draft is not None and saved.draft.idempotency_key != posted.key,
                       with_words=round_ is None, words=_draft_words(evening, entry, saved.draft) if round_ is None else None)
        if round_ and saved.ended:  # saved or thrown away on another phone meanwhile: which, and the way there
            end = _correction_end(evening, round_.number, round_, posted.value("version", 0))
            context.update(done=end["done"], url=end["url"])
    response = render(request, "calculator/partials/_draft_preview.html", context)
    if posted.saves and (saved.recorded or saved.ended):  # the page stops (draft.js), once the bar says why
        trigger_client_event(response, "draftended", after="swap")
    return response


def _seen(view):
    """Above the poll's cache: a poll from a phone that said whose it is (`me`, its seat) keeps
    that seat present at the draft (`RoundDraft.has_phone`), even while every answer is a 204
    from the cache. Written at most every few seconds per phone (`services.draft_seen`)."""

    @wraps(view)
    def wrapper(request, token, number=None, **kwargs):
        seat = request.GET.get("me", "")
        if (request.method == "GET" and seat.isascii() and seat.isdigit() and len(seat) == 1
                and (number is None or number < 2**31)):  # a round number the column holds
            seen_key = f"zhuoji-seen:{token[:64]}:{number}:{seat}"
            now = timezone.now()
            last = cache.get(seen_key)
            if last is None or now - last >= SEEN_REFRESH:  # most polls: one cache read, no database
                try:
                    evening = selectors.evening_for_editing(token=token)
                except Evening.DoesNotExist:  # the view answers its 404
                    evening = None
                if evening is not None and _my_seat(request, evening) == int(seat):  # its own 我是…, not just the address
                    services.draft_seen(evening=evening, seat=int(seat), by=me(request, evening), correcting=number)
                cache.set(seen_key, now, 60)
        return view(request, token=token, **({"number": number} if number is not None else {}), **kwargs)

    return wrapper


@require_GET
@_seen
@answered_from_cache("draft", wrap_answer=private)
@editing
def round_draft(request, evening: Evening, number: int | None = None):
    """The phones' poll while a round is entered together: the fields other pages changed
    since the version this page has, or 204 while the draft is at that version. It asks with the
    round form's own hidden fields (DraftPollForm: `draft_base`, `idempotency_key`,
    `draft_client`). `number`: the poll of 改这局 on that round (below).

    JSON: {"version", "key", "fields": {name: values}, "said": {name: "小李 也改了翻牌：6条（现在按你的）"},
    "state": the preview's and the seats' words' partials}; when the page's round is no longer
    being entered: {"recorded": number, "url", "bar"} if its key became a round (whatever draft is
    open now: that is the next round's), {"gone": true, "deleted": number, "note"} if that round
    was deleted since, {"gone": true, "note"} if it was thrown away ("note": the page's words for
    it, said once). A correction's poll, when its draft ended: {"recorded": number, "url", "bar"}
    when the round moved past the page's `version` (saved), else {"gone": true, "url", "bar"}
    (thrown away, or the round deleted). "bar": the
    draft bar saying so (_draft_bar.html), for the page to show as it stops."""
    if number is not None:
        return _correction_poll(request, evening, number)
    poll = DraftPollForm(request.GET)
    key, since = poll.key, poll.base
    round_ = selectors.round_recorded_as(evening=evening, key=key)
    if round_ is not None:
        return _ended(request, _("这一局已经记成第{n}局了 ›").format(n=round_.number),
                      reverse("calculator:evening_round", args=[evening.token, round_.number]), recorded=round_.number)
    draft = selectors.evening_draft(evening=evening)
    if draft is None:  # the page's next change starts a new one, and the page says so
        deleted = services.spent_key(evening, key)
        if deleted is None:
            return JsonResponse({"gone": True, "note": _("这局录入在别的手机上扔掉了。再改一处，就从这部手机上的开始新的录入。")})
        return JsonResponse({"gone": True, "deleted": deleted,
                             "note": _("这一局记成了第{n}局，后来又被删了。再改一处，就从这部手机上的开始新的录入。").format(n=deleted)})
    if draft.version == since and draft.idempotency_key == key:
        return HttpResponse(status=204)
    return _draft_changes(request, evening, draft, poll)


def _draft_changes(request, evening: Evening, draft, poll: DraftPollForm, round_=None) -> JsonResponse:
    """A poll's answer when the draft moved on: the fields other pages changed since `since`,
    what the page says where it has typed into one of them too, and the seats' state (a new
    round's or a correction's)."""
    changes = selectors.draft_changes(draft, since=poll.base, client=poll.client)
    names = selectors.evening_names(evening=evening)
    return JsonResponse({"version": draft.version, "key": str(draft.idempotency_key),
                         "fields": {name: values for name, (values, _by) in changes.items()},
                         "said": {name: _also_changed(by, *field_words(name, values, names))
                                  for name, (values, by) in changes.items()},
                         "overruled": {name: _changed_by(by, *field_words(name, values, names))
                                       for name, (values, by) in changes.items()
                                       if poll.client and draft.fields[name].get("over") == poll.client
                                       and draft.fields[name].get("over_v", 0) > poll.base},
                         "state": _draft_state(request, evening, draft, round_=round_)})


def _ended(request, words: str, url: str, **answer) -> JsonResponse:
    """A poll's answer for a page whose round is no longer being entered (`answer`: recorded or
    gone): with the draft bar that says so and links to `url`, which the page swaps in and stops."""
    bar = render(request, "calculator/partials/_draft_bar.html", {"done": words, "url": url, "oob": True}).content.decode()
    return JsonResponse({**answer, "url": url, "bar": bar})


def _correction_end(evening: Evening, number: int, round_: Round | None, version: int) -> dict:
    """How 改这局 on round `number` ended, for a page that finds its draft gone (its poll, or its own
    save): saved when the round moved past the page's `version`, else thrown away (or the round
    deleted with it). The words and the way there (`done`, `url`) and the poll's `recorded`/`gone`."""
    thrown_away = _thrown_away()
    if round_ is None:
        return {"done": thrown_away, "url": reverse("calculator:evening_detail", args=[evening.token]), "gone": True}
    url = reverse("calculator:evening_round", args=[evening.token, number])
    if round_.version > version:
        return {"done": _("第{n}局改好了，每家再确认一次 ›").format(n=number), "url": url, "recorded": number}
    return {"done": thrown_away, "url": url, "gone": True}


def _thrown_away() -> str:
    """What a page hears of a correction thrown away on another phone, or saved there unchanged
    (the page cannot tell which: either way the round is as it was)."""
    return _("这次修改在别的手机上结束了，没有改动：这一局还是原来的样子。")


def _correction_poll(request, evening: Evening, number: int):
    poll = DraftPollForm(request.GET)
    try:
        round_ = round_or_404(evening, number)
    except RoundDeleted:  # and its correction with it
        round_ = None
    draft = selectors.correction_draft(evening=evening, number=number) if round_ else None
    if draft is None:
        end = _correction_end(evening, number, round_, poll.value("version", 0))
        return _ended(request, end.pop("done"), end.pop("url"), **end)
    if draft.version == poll.base and draft.idempotency_key == poll.key:
        return HttpResponse(status=204)
    return _draft_changes(request, evening, draft, poll, round_=round_)


def _draft_state(request, evening: Evening, draft, *, round_: Round | None = None) -> str:
    """The live preview of the draft as the server holds it (each seat's progress, the net bar,
    the settlement) and every seat's 确认 / 有异议: the same out-of-band partials the preview
    answers, so that the poll that brings another phone's tiles or words brings the result too,
    without this phone asking for a preview of its own."""
    # 改这局: under the round's own rules, its stored nets beside the new ones
    entry = _entry(evening, draft_data(draft.data), round_=round_, live=True)
    return render(request, "calculator/partials/_draft_preview.html", {
        "entry": entry, "result": present(entry.settlement) if entry.is_valid() else None,
        "before_nets": _before_nets(round_) if round_ else None,
        "with_words": round_ is None, "words": _draft_words(evening, entry, draft) if round_ is None else None,
    }).content.decode()


def _recorded_elsewhere(request, evening: Evening, round_: Round) -> HttpResponse:
    """A word or a 记下这一局 about a round another phone has recorded meanwhile: to that round."""
    messages.info(request, _("这一局已经记成第{n}局了，在那里确认。").format(n=round_.number))
    there = reverse("calculator:evening_round", args=[evening.token, round_.number])
    return HttpResponseClientRedirect(there) if request.htmx else redirect(there)


@require_POST
@editing
def round_draft_confirm(request, evening: Evening):
    """确认 / 有异议 for a seat on the round being entered, as this page scores it. The button sits
    in the round form, so the whole form comes along: what it holds is kept in the draft first.
    A page that missed another phone's change gives no word (it would be on a round that is not
    the table's): it is told what changed."""
    entry = _entry(evening, request.POST)
    saved = _save_draft(request, evening, changed=None)
    if saved.recorded is not None:
        return _recorded_elsewhere(request, evening, saved.recorded)
    mine = _my_seat(request, evening)
    word = DraftConfirmForm(request.POST)
    seat = word.seat(mine)
    names = selectors.evening_names(evening=evening)
    error = None
    if missed := saved.missed:  # a word on a round not the table's
        error = " ".join([_("别的手机刚改了这一局，你按的没有记下：看一遍再按。"),
                          *_overtaken_notes(services.DraftOvertaken(missed), names)])
        entry = _entry(evening, draft_data(saved.draft.data), draft=True)  # the words as on the table's round
    elif not entry.is_valid():
        error = _("这局还算不出来：先把每家的牌和怎么结束的录完，再确认。")
    elif seat is None or seat >= len(names):
        error = _("先选一下这部手机是谁。")
    elif not word.is_valid():
        error = _("没有记下：请选确认或有异议。")
    else:
        try:
            services.draft_confirm(evening=evening, seat=seat, verdict=word.cleaned_data["verdict"],
                                   note=word.cleaned_data["confirm_note"],
                                   settled=entry.settlement.record.to_dict(), by=me(request, evening),
                                   phone_seat=mine)
        except services.SeatHasItsOwnPhone as own:
            error = _("{name} 有自己的手机在录这一局，要由那部手机确认；这部手机没有替他按。").format(name=names[own.seat])
        except services.ValidationError:
            error = _("没有记下：请选确认或有异议。")
    if request.htmx:  # the words as they stand now, swapped in place, without a reload
        draft = selectors.evening_draft(evening=evening)
        return render(request, "calculator/partials/_draft_confirm_state.html", {
            "oob": False, "error": error, "words": _draft_words(evening, entry, draft),
            "taken": error is None, "form_id": f"{entry.dom_prefix}-form",
            "proxy_seats": _proxy_seats(evening, mine), "proxy_on_page": word.from_proxy_menu,
        }, status=200 if error is None else 400)
    if error:
        messages.error(request, error)
        if word.is_valid() and word.cleaned_data["confirm_note"]:  # the page comes back drawn afresh: the why to type again
            messages.info(request, _("你写的异议：{note}").format(note=word.cleaned_data["confirm_note"]))
    return redirect("calculator:evening_round_new", token=evening.token)


@require_POST
@editing
def round_confirm(request, evening: Evening, number: int):
    """确认 / 有异议 for one seat on a stored round."""
    round_ = round_or_404(evening, number)
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("没有记下：请选确认或有异议。"))
        return redirect("calculator:evening_round", token=evening.token, number=number)
    data = form.cleaned_data
    try:
        services.round_confirm(round=round_, seat=data["seat"], verdict=data["verdict"], note=data["note"],
                               expected_version=data["version"], by=me(request, evening),
                               phone_seat=_my_seat(request, evening))
    except services.RoundVersionConflict:
        messages.warning(request, _("这局刚被改过，请看一遍改过的再确认。"))
    except services.SeatHasItsOwnPhone as own:
        name = selectors.evening_names(evening=evening)[own.seat]
        messages.warning(request, _("{name} 自己已经说过了，要改由{name}自己按；这部手机没有替他按。").format(name=name))
    except services.ValidationError:
        messages.error(request, _("没有记下：请选确认或有异议。"))
    else:
        messages.success(request, _("记下了。"))
    return redirect("calculator:evening_round", token=evening.token, number=number)


@require_POST
@editing
def round_draft_discard(request, evening: Evening):
    """扔掉: throw away the round being entered (the evening page asks first, without JavaScript),
    the one the page showed: not a round begun since."""
    if services.draft_discard(evening=evening, key=DraftPostForm(request.POST).key):
        messages.success(request, _("正在录的那一局扔掉了。"))
    elif selectors.evening_draft(evening=evening) is not None:
        messages.warning(request, _("正在录的已经是另一局了，没有扔掉：看一眼再决定。"))
    return redirect("calculator:evening_detail", token=evening.token)


@require_GET
@answered_from_cache("round", wrap_answer=private)
@viewing
def round_detail(request, evening: Evening, number: int, *, read_only: bool):
    """A stored round: its breakdown, every seat's word (live: access.live_round), this phone's
    确认; at the read-only address the breakdown and the words only."""
    names = selectors.evening_names(evening=evening)

    def context_of(round_):
        context = {
            **address_context(request, evening, read_only=read_only),
            "round": round_,
            "row": selectors.round_row(round_, names),
            "view": present(selectors.stored_settlement(round_)),
            "what_if": WhatIfForm(current=ruleset_from_dict(round_.rules)),
            "ask_again": selectors.rounds_to_confirm_again(evening=evening, number=number),
            "earlier_words": selectors.round_earlier_words(evening=evening, number=number),
        }
        if not read_only:
            context["my_seat"] = _my_seat(request, evening)
            context["corrections"] = [(n, who) for n, who in selectors.corrections_open(evening=evening)
                                      if n == number]
        return context

    return live_round(request, evening, number, context_of)


@require_http_methods(["GET", "POST"])
@viewing
def round_what_if(request, evening: Evening, number: int, *, read_only: bool):
    """换个规矩看看 on a stored round (GET), or on a correction not yet saved (POST, its record as
    the confirm form carries it; the edit address only): beside the same round under other
    rules. Nothing is stored."""
    if read_only and request.method == "POST":
        return HttpResponseNotAllowed(["GET"])
    round_ = round_or_404(evening, number)
    record = None
    if request.method == "POST":
        correction = CorrectionConfirmForm(request.POST)
        if not correction.is_valid():
            return redirect("calculator:evening_round_edit", token=evening.token, number=number)
        record = correction.cleaned_data["record"]
    form = WhatIfForm(request.POST or request.GET, current=ruleset_from_dict(round_.rules))
    rules = form.rules()
    try:
        sides = selectors.round_what_if(round_=round_, rules=rules, record=record) if rules else None
    except RecordInvalid:  # a correction the page did not preview: back to the form that checks it
        return redirect("calculator:evening_round_edit", token=evening.token, number=number)
    context = {**address_context(request, evening, read_only=read_only), "round": round_, "form": form,
               "sides": sides, "correction": correction if record is not None else None,
               "row": selectors.round_row(round_, selectors.evening_names(evening=evening))}
    return render(request, "calculator/evening/round_what_if.html", context)


@require_http_methods(["GET", "POST"])
@editing
def round_edit(request, evening: Evening, number: int):
    """改一局 (R42), together: opening it opens the round's correction draft, which every phone of
    the table sees and edits as a new round's (merge per field, the poll); the bar shows each
    seat's net before → after. 保存修改 stores it in one tap; 看看改了什么 shows before/after to
    confirm first (and is the way without JavaScript). Either ends the draft for every phone."""
    if gone := _deleted_meanwhile(request, evening, number):
        return gone
    round_ = round_or_404(evening, number)
    if request.method == "GET":
        draft = services.draft_open(evening=evening, seat=_my_seat(request, evening), by=me(request, evening),
                                    correcting=number)
        return _correction_page(request, evening, round_, _Correction.of_draft(evening, round_, draft))
    version = VersionForm(request.POST)
    if version.is_valid() and version.cleaned_data["version"] != round_.version:
        # A 保存修改 of a correction another phone saved first: to the round as saved, where every
        # seat is asked again — the form would open a new correction nobody asked for.
        return _conflict(request, evening, number,
                         back="calculator:evening_round" if "save" in request.POST else "calculator:evening_round_edit")
    return _correction_posted(request, evening, round_)


@dataclass
class _Correction:
    """改这局's form as a page draws it: the entry, the draft key and version the page holds (its
    polls ask from that version), the version 确认修改 is of (another phone's write after it
    refuses the confirm), the chickens a new 翻牌 took out of 打出的鸡, the answer's status."""

    entry: RoundEntry
    key: uuid.UUID | None
    draft_version: int
    confirmed_base: int
    carried: list = field(default_factory=list)
    status: int = 200

    @classmethod
    def of_draft(cls, evening: Evening, round_: Round, draft, *, status: int = 200) -> _Correction:
        """The form as the correction draft holds it (the stored round while it holds nothing)."""
        entry = _entry(evening, draft_data(draft.data) if draft.data else None, round_=round_,
                       initial=round_.record, draft=True)
        return cls(entry, draft.idempotency_key, draft.version, draft.version, status=status)


def _correction_posted(request, evening: Evening, round_: Round) -> HttpResponse:
    """保存修改 or 看看改了什么: what the page sent is the table's correction too (saved into the
    draft). A page that missed another phone's change gets the correction as the table has it now
    (409), never its old copy stored or shown to confirm."""
    names = selectors.evening_names(evening=evening)
    # a new 翻牌 takes the chickens it no longer makes out of 打出的鸡
    data, carried = carry_chickens(request.POST, selectors.stored_settlement(round_).record, names)
    posted = DraftPostForm(request.POST)
    entry = _entry(evening, data, round_=round_, initial=round_.record)
    overtaken = None
    if "save" in request.POST and entry.is_valid():  # 保存修改: one tap
        try:
            corrected = services.round_correct(round=round_, record=entry.record, expected_version=round_.version,
                                               by=me(request, evening), seen=_as_seen(request))
        except services.RoundVersionConflict:
            return _conflict(request, evening, round_.number)
        except services.DraftOvertaken as refused_for:
            overtaken = refused_for
        except services.DraftEnded:
            messages.warning(request, _thrown_away())
            return redirect("calculator:evening_round", token=evening.token, number=round_.number)
        except RecordInvalid as invalid:
            messages.error(request, "; ".join(p.message for p in invalid.problems))
        else:
            if corrected.version == round_.version:
                _say_unchanged(request, round_.number)
            else:
                messages.success(request, _("第{number}局改好了，每家都要再确认一次。").format(number=round_.number))
            return redirect("calculator:evening_round", token=evening.token, number=round_.number)
    as_posted = _Correction(entry, posted.key, posted.base, posted.base, carried)
    if posted.key is None and overtaken is None:
        return _correction_page(request, evening, round_, as_posted)
    saved = _save_draft(request, evening, changed=None, data=data, correcting=round_.number)
    if saved.draft is None:  # the correction ended meanwhile
        return _conflict(request, evening, round_.number) if overtaken else _correction_page(request, evening, round_, as_posted)
    missed = overtaken.overlaps if overtaken else saved.missed
    if not missed:
        as_posted.confirmed_base = as_posted.draft_version = _version_seen(saved, posted.key, posted.base)
        return _correction_page(request, evening, round_, as_posted)
    _say_overtaken(request, evening, services.DraftOvertaken(missed),
                   _("别的手机刚改了这一局，没有保存：看一遍，再点保存修改。") if overtaken
                   else _("别的手机刚也改了这一局：下面是现在的样子，看一遍再点。"))
    return _correction_page(request, evening, round_, _Correction.of_draft(evening, round_, saved.draft, status=409))


def _correction_page(request, evening: Evening, round_: Round, correction: _Correction) -> HttpResponse:
    """改这局's page: the form, the bar of nets before → after, and after a 看看改了什么 the
    whole before/after with its 确认修改."""
    entry, number, names = correction.entry, round_.number, selectors.evening_names(evening=evening)
    if entry.is_bound:  # the bar and the settlement preview: the correction's own, or the stored round's
        result = present(entry.settlement) if entry.is_valid() else None
    else:
        result = present(selectors.stored_settlement(round_))
    context = {**base_context(request, evening), "round": round_, "entry": entry, "result": result,
               "hidden_fields": [("version", round_.version), ("idempotency_key", correction.key or ""),
                                 ("draft_base", correction.draft_version), ("draft_client", uuid.uuid4().hex[:16])],
               "carried": correction.carried, "before_nets": _before_nets(round_) if entry.is_bound else None,
               "action": reverse("calculator:evening_round_edit", args=[evening.token, number]),
               "preview_url": reverse("calculator:evening_round_preview", args=[evening.token])
               + f"?round={number}",
               "draft_url": reverse("calculator:evening_round_correction_draft", args=[evening.token, number])
               + f"?version={round_.version}",
               "my_seat": _my_seat(request, evening), "draft_key": correction.key or ""}
    if request.method == "POST" and entry.is_valid():
        context.update({
            "changes": selectors.round_correction_preview(round_=round_, after_net=entry.settlement.net),
            "payments": selectors.evening_payment_count(evening=evening),
            "before_summary": outcome_text(round_.record, round_.settlement, names),
            "after_summary": outcome_text(entry.record, entry.settlement.to_dict(), names),
            "details": record_changes(round_.record, entry.record, names),
            "confirm": CorrectionConfirmForm(initial={"record": entry.record, "version": round_.version,
                                                      "draft_key": correction.key,
                                                      "draft_base": correction.confirmed_base,
                                                      "draft_client": DraftPostForm(request.POST).client}),
            "what_if": WhatIfForm(current=ruleset_from_dict(round_.rules)),
        })
    response = render(request, "calculator/evening/round_edit.html", context, status=correction.status)
    return refused(response) if request.method == "POST" and correction.status == 200 and not entry.is_valid() else response


@require_POST
@editing
def round_edit_discard(request, evening: Evening, number: int):
    """不改了: throw 改这局 away for every phone (the one the page showed, not one opened since);
    the round stays as stored."""
    if services.draft_discard(evening=evening, correcting=number, key=DraftPostForm(request.POST).key):
        _say_unchanged(request, number)
    elif selectors.correction_draft(evening=evening, number=number) is not None:
        messages.warning(request, _("这一局又有人在改了，没有扔掉：看一眼再决定。"))
        return redirect("calculator:evening_round_edit", token=evening.token, number=number)
    if selectors.round_exists(evening=evening, number=number):
        return redirect("calculator:evening_round", token=evening.token, number=number)
    return redirect("calculator:evening_detail", token=evening.token)


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
    if selectors.round_exists(evening=evening, number=number):
        return redirect(back, token=evening.token, number=number)
    return redirect("calculator:evening_detail", token=evening.token)


@require_POST
@editing
def round_edit_confirm(request, evening: Evening, number: int):
    if gone := _deleted_meanwhile(request, evening, number):
        return gone
    round_ = round_or_404(evening, number)
    form = CorrectionConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("修改没有保存：表单不完整，请重新改一次。"))
        return redirect("calculator:evening_round_edit", token=evening.token, number=number)
    seen = services.Seen(values=None, base=form.cleaned_data["draft_base"] or 0, client=form.cleaned_data["draft_client"],
                         key=form.cleaned_data["draft_key"]) if form.cleaned_data["draft_client"] else None
    try:
        corrected = services.round_correct(round=round_, record=form.cleaned_data["record"],
                                           expected_version=form.cleaned_data["version"], by=me(request, evening),
                                           seen=seen)
    except services.RoundVersionConflict:
        return _conflict(request, evening, number)
    except services.DraftOvertaken as overtaken:  # the preview it confirms is not the correction any more
        _say_overtaken(request, evening, overtaken, _("别的手机刚改了这一局，没有保存：看一遍，再点保存修改。"))
        return redirect("calculator:evening_round_edit", token=evening.token, number=number)
    except services.DraftEnded:
        messages.warning(request, _thrown_away())
        return redirect("calculator:evening_round", token=evening.token, number=number)
    except RecordInvalid as invalid:
        messages.error(request, "; ".join(p.message for p in invalid.problems))
        return redirect("calculator:evening_round_edit", token=evening.token, number=number)
    if corrected.version == form.cleaned_data["version"]:
        _say_unchanged(request, number)
        return redirect("calculator:evening_round", token=evening.token, number=number)
    messages.success(request, _("第{number}局改好了，每家都要再确认一次。").format(number=number))
    return redirect("calculator:evening_detail", token=evening.token)


def _say_unchanged(request, number: int) -> None:
    """不改了, or a correction saved as the round already was: nothing to confirm again (the words stay)."""
    messages.info(request, _("第{number}局没有改，还是原来的样子。").format(number=number))


@require_http_methods(["GET", "POST"])
@editing
def round_delete(request, evening: Evening, number: int):
    """删一局: a confirmation page, then the delete; the round stays readable in the history."""
    if gone := _deleted_meanwhile(request, evening, number):
        return gone
    round_ = round_or_404(evening, number)
    if request.method == "POST":
        form = VersionForm(request.POST)
        if form.is_valid():
            try:
                services.round_delete(round=round_, expected_version=form.cleaned_data["version"],
                                      by=me(request, evening))
            except services.RoundVersionConflict:
                return _conflict(request, evening, number, back="calculator:evening_round")
            messages.success(request, _("第{number}局删掉了（历史里还能看到）。").format(number=number))
            return redirect("calculator:evening_detail", token=evening.token)
    names = selectors.evening_names(evening=evening)
    context = {**base_context(request, evening), "round": round_, "row": selectors.round_row(round_, names),
               "changes": selectors.round_correction_preview(round_=round_, after_net=[0] * len(names)),
               "payments": selectors.evening_payment_count(evening=evening)}
    response = render(request, "calculator/evening/round_delete.html", context)
    return refused(response) if request.method == "POST" else response


@require_GET
@editing
def round_receipt_pdf(request, evening: Evening, number: int):
    round_ = round_or_404(evening, number)
    pdf = render_pdf("calculator/pdf/receipt.html", receipt_context(selectors.stored_settlement(round_)),
                     request=request)
    return pdf_response(pdf, f"zhuoji-round-{number}.pdf")
