from django.contrib import admin
from django.urls import include, path

from config.views import manifest

handler403 = "config.views.permission_denied"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("manifest.webmanifest", manifest, name="manifest"),
    path("accounts/", include("accounts.urls")),
    path("campaigns/<int:campaign_id>/refit/", include("refit.walker.urls")),
    path("campaigns/<int:campaign_id>/purchases/", include("refit.fortifications.urls")),
    path("campaigns/<int:campaign_id>/purchases/", include("refit.purchases.urls")),
    path("campaigns/<int:campaign_id>/sheets/", include("rosters.urls")),
    path("campaigns/<int:campaign_id>/report/", include("rosters.report.urls")),
    path("campaigns/<int:campaign_id>/perimeters/", include("refit.perimeters.urls")),
    path("campaigns/<int:campaign_id>/armor-reserve/", include("refit.reserve.urls")),
    path("campaigns/<int:campaign_id>/shortgames/", include("campaigns.shortgames.urls")),
    path("", include("campaigns.urls")),
]
