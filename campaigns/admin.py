from django.contrib import admin

from campaigns.models import Campaign, CampaignEvent, Invitation, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "module", "campaign_game", "data_version", "created_by", "created_at")
    list_filter = ("module",)
    search_fields = ("name",)
    inlines = [MembershipInline]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("campaign", "role", "side", "created_at", "revoked_at")


@admin.register(CampaignEvent)
class CampaignEventAdmin(admin.ModelAdmin):
    list_display = ("campaign", "action", "visibility", "actor", "created_at")
    list_filter = ("action", "visibility")
    readonly_fields = [f.name for f in CampaignEvent._meta.fields]
