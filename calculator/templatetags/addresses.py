"""`{% evening_url "evening_round" number %}`: a link to another page of the evening, at the
address this page was reached by (views/access.py `address_url`): a page reached by the
read-only address links only to read-only pages, the edit address to edit pages. Templates name
the page once instead of choosing between its two URLs with `{% if read_only %}`."""
from __future__ import annotations

from django import template

from ..views.access import address_url

register = template.Library()


@register.simple_tag(takes_context=True)
def evening_url(context, name: str, *args) -> str:
    return address_url(name, context["evening"], *args, read_only=bool(context.get("read_only")))
