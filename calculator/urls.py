"""URLs of the app. Each area of the site keeps its routes together under its own heading."""
from django.urls import path

from . import api
from .views import evening_rounds, evenings, pages, rounds, tables

app_name = "calculator"

urlpatterns = [
    # Pages: home and the rules
    path("", pages.home, name="home"),
    path("rules/", pages.rules, name="rules"),
    # One round, stateless: enter, preview, result (issue 3)
    path("round/", rounds.round_new, name="round_new"),
    path("round/preview/", rounds.round_preview, name="round_preview"),
    path("round/what-if/", rounds.round_what_if, name="round_what_if"),
    # The JSON/PDF API (issue 3)
    path("api/settle", api.settle, name="api_settle"),
    path("api/receipt.pdf", api.receipt_pdf, name="api_receipt_pdf"),
    # Evenings: the ledger (issue 4). /e/<token>/ can change an evening, /v/<read_token>/ only
    # follows it; nothing lists evenings. Tokens are URL-safe base64 (models.new_token), so a
    # slug: anything else, a NUL included, is a 404 before the database is asked.
    path("evening/new/", evenings.evening_new, name="evening_new"),
    path("evening/import/", evenings.evening_import, name="evening_import"),
    path("e/<slug:token>/", evenings.evening_detail, name="evening_detail"),
    path("e/<slug:token>/me/", evenings.evening_me, name="evening_me"),
    path("e/<slug:token>/rounds/new/", evening_rounds.round_new, name="evening_round_new"),
    path("e/<slug:token>/rounds/preview/", evening_rounds.round_preview, name="evening_round_preview"),
    path("e/<slug:token>/rounds/draft/", evening_rounds.round_draft, name="evening_round_draft"),
    path("e/<slug:token>/rounds/draft/confirm/", evening_rounds.round_draft_confirm,
         name="evening_round_draft_confirm"),
    path("e/<slug:token>/rounds/draft/discard/", evening_rounds.round_draft_discard,
         name="evening_round_draft_discard"),
    path("e/<slug:token>/rounds/<int:number>/", evening_rounds.round_detail, name="evening_round"),
    path("e/<slug:token>/rounds/<int:number>/confirm/", evening_rounds.round_confirm,
         name="evening_round_confirm"),
    path("e/<slug:token>/rounds/<int:number>/edit/", evening_rounds.round_edit, name="evening_round_edit"),
    path("e/<slug:token>/rounds/<int:number>/edit/draft/", evening_rounds.round_draft,
         name="evening_round_correction_draft"),
    path("e/<slug:token>/rounds/<int:number>/edit/discard/", evening_rounds.round_edit_discard,
         name="evening_round_edit_discard"),
    path("e/<slug:token>/rounds/<int:number>/edit/confirm/", evening_rounds.round_edit_confirm,
         name="evening_round_edit_confirm"),
    path("e/<slug:token>/rounds/<int:number>/delete/", evening_rounds.round_delete, name="evening_round_delete"),
    path("e/<slug:token>/rounds/<int:number>/receipt.pdf", evening_rounds.round_receipt_pdf,
         name="evening_round_receipt_pdf"),
    path("e/<slug:token>/rounds/<int:number>/what-if/", evening_rounds.round_what_if, name="evening_round_what_if"),
    path("e/<slug:token>/rules/", pages.evening_rules, name="evening_rules"),
    path("e/<slug:token>/what-if/", evenings.evening_what_if, name="evening_what_if"),
    path("e/<slug:token>/settle/", evenings.evening_settle, name="evening_settle"),
    path("e/<slug:token>/settle/paid/", evenings.transfer_paid, name="evening_transfer_paid"),
    path("e/<slug:token>/history/", evenings.evening_history, name="evening_history"),
    path("e/<slug:token>/share/", evenings.evening_share, name="evening_share"),
    path("e/<slug:token>/report.pdf", evenings.evening_report_pdf, name="evening_report_pdf"),
    path("e/<slug:token>/export.json", evenings.evening_export, name="evening_export"),
    path("v/<slug:read_token>/", evenings.evening_detail, name="evening_follow"),
    path("v/<slug:read_token>/rounds/<int:number>/", evening_rounds.round_detail, name="evening_follow_round"),
    path("v/<slug:read_token>/report.pdf", evenings.evening_report_pdf, name="evening_follow_report_pdf"),
    path("v/<slug:read_token>/rules/", pages.evening_rules, name="evening_follow_rules"),
    path("v/<slug:read_token>/rounds/<int:number>/what-if/", evening_rounds.round_what_if,
         name="evening_follow_round_what_if"),
    path("v/<slug:read_token>/what-if/", evenings.evening_what_if, name="evening_follow_what_if"),
    # 固定桌: a table across evenings (issue 24). /t/<token>/ can change it and open its evenings,
    # /tv/<read_token>/ shows its season only; like an evening's, nothing lists them.
    path("table/new/", tables.table_new, name="table_new"),
    path("e/<slug:token>/table/", tables.evening_make_table, name="evening_make_table"),
    path("t/<slug:table_token>/", tables.table_detail, name="table_detail"),
    path("t/<slug:table_token>/share/", tables.table_share, name="table_share"),
    path("t/<slug:table_token>/evenings/start/", tables.table_evening_start, name="table_start"),
    path("t/<slug:table_token>/evenings/new/", tables.table_evening_new, name="table_setup"),
    path("t/<slug:table_token>/evenings/attach/", tables.table_attach, name="table_attach"),
    path("t/<slug:table_token>/seat/", tables.table_seat, name="table_seat"),
    path("t/<slug:table_token>/merge/", tables.table_merge, name="table_merge"),
    path("t/<slug:table_token>/season/", tables.table_season, name="table_season"),
    path("t/<slug:table_token>/season/rounds/", tables.table_figure, name="table_figure"),
    path("t/<slug:table_token>/season.csv", tables.table_csv, name="table_csv"),
    path("t/<slug:table_token>/season.png", tables.table_share_card, name="table_share_card"),
    path("t/<slug:table_token>/export.json", tables.table_export, name="table_export"),
    path("tv/<slug:table_read_token>/", tables.table_season, name="table_follow"),
    path("tv/<slug:table_read_token>/rounds/", tables.table_figure, name="table_follow_figure"),
    path("tv/<slug:table_read_token>/season.csv", tables.table_csv, name="table_follow_csv"),
    path("tv/<slug:table_read_token>/season.png", tables.table_share_card, name="table_follow_share_card"),
]
