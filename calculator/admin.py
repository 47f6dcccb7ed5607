"""Admin: read the ledger, never edit it here (writes belong to `services`, which keep history).

Rounds, their history and paid marks can be neither added nor deleted here: a round removed
behind `services.round_delete`'s back leaves no trace in the history (R42), and a paid mark
added here skips the check that it belongs to the settle-up. An evening cannot be added either:
`services.evening_create` seats its players and fixes its rules, which a bare row would lack.
Deleting an evening that has rounds is refused too, because its rounds would go with it.
"""
from django.contrib import admin

from .models import Change, Evening, PaidTransfer, Player, Round


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class PlayerInline(ReadOnlyInline):
    model = Player
    fields = ["seat", "name"]


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ["number", "dealer", "net", "next_dealer", "version", "updated_at"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Lists and shows rows; nothing to add, change or delete."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ["__str__", "created_at", "stake", "first_dealer"]
    readonly_fields = ["token", "read_token", "created_at", "stake", "rules", "first_dealer"]
    inlines = [PlayerInline, RoundInline]

    def has_add_permission(self, request):
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["evening", "number", "net", "version", "updated_at"]
    list_select_related = ["evening"]
    readonly_fields = [f.name for f in Round._meta.fields]


@admin.register(Change)
class ChangeAdmin(ReadOnlyAdmin):
    list_display = ["evening", "round_number", "kind", "at", "by"]
    list_filter = ["kind"]
    list_select_related = ["evening"]
    readonly_fields = [f.name for f in Change._meta.fields]


@admin.register(PaidTransfer)
class PaidTransferAdmin(ReadOnlyAdmin):
    list_display = ["evening", "payer", "payee", "points", "paid_at"]
    list_select_related = ["evening"]
    readonly_fields = [f.name for f in PaidTransfer._meta.fields]
