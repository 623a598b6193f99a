from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("campaigns/<int:campaign_id>/refit/", include("refit.urls")),
    path("campaigns/<int:campaign_id>/purchases/", include("refit.purchase_urls")),
    path("campaigns/<int:campaign_id>/sheets/", include("rosters.urls")),
    path("campaigns/<int:campaign_id>/perimeters/", include("refit.perimeter_urls")),
    path("campaigns/<int:campaign_id>/game/", include("refit.turn_urls")),
    path("", include("campaigns.urls")),
]
