from django.urls import path

from campaigns import views
from campaigns.corrections import views as correction_views
from campaigns.dice import views as dice_views
from campaigns.games import views as game_views
from campaigns.histdrm import views as histdrm_views
from campaigns.history import views as history_views
from campaigns.live import views as live_views
from campaigns.members import views as member_views
from campaigns.orbat import views as orbat_views
from campaigns.records.views import calendar as calendar_views
from campaigns.records.views import cvp as cvp_views
from campaigns.records.views import scenarios as scenario_views
from campaigns.records.views import victory as victory_views
from campaigns.reveal import views as reveal_views
from campaigns.roster import views as roster_views
from campaigns.transfer import views as transfer_views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("campaigns/new/", views.campaign_create, name="create"),
    path("campaigns/<int:campaign_id>/", views.campaign_detail, name="detail"),
    path("campaigns/<int:campaign_id>/members/", member_views.members, name="members"),
    path(
        "campaigns/<int:campaign_id>/members/<oid:membership_id>/role/",
        member_views.member_role,
        name="member_role",
    ),
    path(
        "campaigns/<int:campaign_id>/members/<oid:membership_id>/agree/",
        member_views.member_agree,
        name="member_agree",
    ),
    path(
        "campaigns/<int:campaign_id>/members/<oid:membership_id>/decline/",
        member_views.member_decline,
        name="member_decline",
    ),
    path(
        "campaigns/<int:campaign_id>/members/<oid:membership_id>/remove/",
        member_views.member_remove,
        name="member_remove",
    ),
    path("campaigns/<int:campaign_id>/leave/", member_views.leave, name="leave"),
    path(
        "campaigns/<int:campaign_id>/invitations/",
        member_views.invitation_create,
        name="invitation_create",
    ),
    path(
        "campaigns/<int:campaign_id>/invitations/<oid:invitation_id>/revoke/",
        member_views.invitation_revoke,
        name="invitation_revoke",
    ),
    path("campaigns/<int:campaign_id>/history/", history_views.campaign_history, name="history"),
    # Corrections both players agree to, without a referee (campaigns.corrections).
    path(
        "campaigns/<int:campaign_id>/corrections/",
        correction_views.corrections,
        name="corrections",
    ),
    path(
        "campaigns/<int:campaign_id>/corrections/void/",
        correction_views.ask_void,
        name="correction_void",
    ),
    path(
        "campaigns/<int:campaign_id>/corrections/adjust/",
        correction_views.ask_adjustment,
        name="correction_adjust",
    ),
    path(
        "campaigns/<int:campaign_id>/corrections/undo/",
        correction_views.ask_undo,
        name="correction_undo",
    ),
    path(
        "campaigns/<int:campaign_id>/corrections/<oid:correction_id>/",
        correction_views.answer,
        name="correction_answer",
    ),
    # The campaign's end: its reveal (issue 22).
    path("campaigns/<int:campaign_id>/end/", reveal_views.reveal_page, name="reveal"),
    path("campaigns/<int:campaign_id>/end/reveal/", reveal_views.reveal, name="reveal_do"),
    # Live pages: has anything this member may see changed since the token? (HTMX polling)
    path("campaigns/<int:campaign_id>/live/", live_views.poll, name="live"),
    path(
        "campaigns/<int:campaign_id>/history/<oid:event_id>/undo/",
        history_views.undo_change,
        name="undo",
    ),
    # A side's secret sheets: CG Roster, CPP/FPP ledger, order of battle.
    path("campaigns/<int:campaign_id>/roster/<slug:side>/", roster_views.roster, name="roster"),
    path(
        "campaigns/<int:campaign_id>/roster/<slug:side>/day/<int:index>/",
        roster_views.side_day,
        name="side_day",
    ),
    # The Historical DRM chart: every CG day and side on one page (RF 11.6161).
    path("campaigns/<int:campaign_id>/historical-drm/", histdrm_views.chart, name="histdrm"),
    path("campaigns/<int:campaign_id>/ledger/<slug:side>/", roster_views.ledger, name="ledger"),
    path("campaigns/<int:campaign_id>/orbat/<slug:side>/", orbat_views.orbat, name="orbat"),
    path(
        "campaigns/<int:campaign_id>/orbat/<slug:side>/move/",
        orbat_views.move_lines,
        name="orbat_move",
    ),
    path(
        "campaigns/<int:campaign_id>/orbat/<slug:side>/<oid:entry_id>/",
        orbat_views.entry,
        name="orbat_entry",
    ),
    path(
        "campaigns/<int:campaign_id>/orbat/<slug:side>/<oid:entry_id>/remove/",
        orbat_views.entry_remove,
        name="orbat_remove",
    ),
    path(
        "campaigns/<int:campaign_id>/orbat/<slug:side>/rg/<oid:rg_pk>/status/",
        orbat_views.rg_status_view,
        name="orbat_rg_status",
    ),
    # Public records: calendar (moon, weather, EC), scenarios, CVP.
    path("campaigns/<int:campaign_id>/calendar/", calendar_views.calendar, name="calendar"),
    path("campaigns/<int:campaign_id>/calendar/<int:index>/", calendar_views.day, name="day"),
    path("campaigns/<int:campaign_id>/scenarios/", scenario_views.scenarios, name="scenarios"),
    path("campaigns/<int:campaign_id>/victory/", victory_views.cg_victory, name="cg_victory"),
    path("campaigns/<int:campaign_id>/victory/cvp/", victory_views.cvp_table, name="cvp_table"),
    path(
        "campaigns/<int:campaign_id>/scenarios/<oid:scenario_id>/",
        scenario_views.scenario,
        name="scenario",
    ),
    path(
        "campaigns/<int:campaign_id>/scenarios/<oid:scenario_id>/end/",
        scenario_views.scenario_end,
        name="scenario_end",
    ),
    path(
        "campaigns/<int:campaign_id>/scenarios/<oid:scenario_id>/end/<slug:side>/",
        scenario_views.scenario_losses,
        name="scenario_losses",
    ),
    path("campaigns/<int:campaign_id>/cvp/", cvp_views.cvp, name="cvp"),
    path("campaigns/<int:campaign_id>/dice/", dice_views.dice_log, name="dice_log"),
    path("campaigns/<int:campaign_id>/dice/verify/", dice_views.dice_verify, name="dice_verify"),
    path(
        "campaigns/<int:campaign_id>/dice/<oid:roll_id>/void/",
        dice_views.void_roll,
        name="void_roll",
    ),
    path("campaigns/<int:campaign_id>/export/", transfer_views.export, name="export"),
    path("campaigns/import/", transfer_views.import_campaign, name="import"),
    path("join/<str:token>/", member_views.join, name="join"),
    path("games/", game_views.game_list, name="games"),
    path("games/<str:module_key>/", game_views.game_detail, name="game"),
    path("games/<str:module_key>/<slug:section>/", game_views.game_detail, name="game_section"),
]
