"""Admin: read the ledger, never edit it here (writes belong to `services`, which keep history)."""
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


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ["__str__", "created_at", "stake", "first_dealer"]
    readonly_fields = ["token", "read_token", "created_at", "stake", "rules", "first_dealer"]
    inlines = [PlayerInline, RoundInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["evening", "number", "net", "version", "updated_at"]
    list_select_related = ["evening"]
    readonly_fields = [f.name for f in Round._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Change)
class ChangeAdmin(admin.ModelAdmin):
    list_display = ["evening", "round_number", "kind", "at", "by"]
    list_filter = ["kind"]
    readonly_fields = [f.name for f in Change._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(PaidTransfer)
class PaidTransferAdmin(admin.ModelAdmin):
    list_display = ["evening", "payer", "payee", "points", "paid_at"]
