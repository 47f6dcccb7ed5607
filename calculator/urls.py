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
    # Evenings: the ledger (issue 4)
]
