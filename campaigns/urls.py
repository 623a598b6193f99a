from django.urls import path

from campaigns import game_views, views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("campaigns/new/", views.campaign_create, name="create"),
    path("campaigns/<int:campaign_id>/", views.campaign_detail, name="detail"),
    path("campaigns/<int:campaign_id>/members/", views.members, name="members"),
    path(
        "campaigns/<int:campaign_id>/members/<int:membership_id>/role/",
        views.member_role,
        name="member_role",
    ),
    path(
        "campaigns/<int:campaign_id>/members/<int:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path(
        "campaigns/<int:campaign_id>/invitations/",
        views.invitation_create,
        name="invitation_create",
    ),
    path(
        "campaigns/<int:campaign_id>/invitations/<int:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path("campaigns/<int:campaign_id>/history/", views.campaign_history, name="history"),
    path("join/<str:token>/", views.join, name="join"),
    path("games/", game_views.game_list, name="games"),
    path("games/<str:module_key>/", game_views.game_detail, name="game"),
    path("games/<str:module_key>/<slug:section>/", game_views.game_detail, name="game_section"),
]
