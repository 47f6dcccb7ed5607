"""The pages, thin: each view binds a form (or reads the address), calls one service or selector
and renders a template; an htmx request gets the partial the full page includes.

- `pages`: the welcome page and the rules (for a preset, a round's options, an evening's).
- `rounds`: one round without an evening (记一局 on its own): enter, live preview, result, PDF.
- `evenings`: open an evening, its live page and read-only page, share, settle up, history,
  report PDF, export and import.
- `evening_rounds`: an evening's rounds: the round form shared by the table's phones (draft,
  poll, 确认), a stored round, its correction, deletion and receipt.
- `tables`: a 固定桌 (`/t/…`, read-only `/tv/…`): make one, open its next evening, attach an
  evening, link seats to its roster, its season, CSV.
- `access`: the address is the permission (`editing`, `reading`) and what evening views share.
- `limits`: rate limits per phone, address and evening (429).
- `errors`: 400/403/404/500/503 and CSRF pages that say whether the last action was saved.
- `app_shell`: the installable app: manifest, service worker, offline page.

Polls answered from the cache while nothing changed: `calculator/polls.py`.
"""
