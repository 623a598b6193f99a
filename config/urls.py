from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("campaigns/<int:campaign_id>/refit/", include("refit.walker.urls")),
    path("campaigns/<int:campaign_id>/purchases/", include("refit.fortifications.urls")),
    path("campaigns/<int:campaign_id>/purchases/", include("refit.purchases.urls")),
    path("campaigns/<int:campaign_id>/sheets/", include("rosters.urls")),
    path("campaigns/<int:campaign_id>/perimeters/", include("refit.perimeters.urls")),
    path("campaigns/<int:campaign_id>/shortgames/", include("campaigns.shortgames.urls")),
    path("", include("campaigns.urls")),
]
