"""URLs of the app. Each area of the site keeps its routes together under its own heading."""
from django.urls import path

from . import api
from .views import evenings, pages, rounds

app_name = "calculator"

urlpatterns = [
    # Pages: home and the rules
    path("", pages.home, name="home"),
    path("rules/", pages.rules, name="rules"),
    # One round, stateless: enter, preview, result (issue 3)
    path("round/", rounds.round_new, name="round_new"),
    path("round/preview/", rounds.round_preview, name="round_preview"),
    # The JSON/PDF API (issue 3)
    path("api/settle", api.settle, name="api_settle"),
    path("api/receipt.pdf", api.receipt_pdf, name="api_receipt_pdf"),
    # Evenings: the ledger (issue 4). /e/<token>/ can change an evening, /v/<read_token>/ only
    # follows it; nothing lists evenings.
    path("evening/new/", evenings.evening_new, name="evening_new"),
    path("evening/import/", evenings.evening_import, name="evening_import"),
    path("e/<str:token>/", evenings.evening_detail, name="evening_detail"),
    path("e/<str:token>/me/", evenings.evening_me, name="evening_me"),
    path("e/<str:token>/rounds/new/", evenings.round_new, name="evening_round_new"),
    path("e/<str:token>/rounds/preview/", evenings.round_preview, name="evening_round_preview"),
    path("e/<str:token>/rounds/<int:number>/", evenings.round_detail, name="evening_round"),
    path("e/<str:token>/rounds/<int:number>/edit/", evenings.round_edit, name="evening_round_edit"),
    path("e/<str:token>/rounds/<int:number>/edit/confirm/", evenings.round_edit_confirm,
         name="evening_round_edit_confirm"),
    path("e/<str:token>/rounds/<int:number>/delete/", evenings.round_delete, name="evening_round_delete"),
    path("e/<str:token>/rounds/<int:number>/receipt.pdf", evenings.round_receipt_pdf,
         name="evening_round_receipt_pdf"),
    path("e/<str:token>/settle/", evenings.evening_settle, name="evening_settle"),
    path("e/<str:token>/settle/paid/", evenings.transfer_paid, name="evening_transfer_paid"),
    path("e/<str:token>/history/", evenings.evening_history, name="evening_history"),
    path("e/<str:token>/share/", evenings.evening_share, name="evening_share"),
    path("e/<str:token>/report.pdf", evenings.evening_report_pdf, name="evening_report_pdf"),
    path("e/<str:token>/export.json", evenings.evening_export, name="evening_export"),
    path("v/<str:read_token>/", evenings.evening_follow, name="evening_follow"),
    path("v/<str:read_token>/rounds/<int:number>/", evenings.follow_round, name="evening_follow_round"),
    path("v/<str:read_token>/report.pdf", evenings.follow_report_pdf, name="evening_follow_report_pdf"),
]
