from django.urls import path

from refit.purchases import views as purchase_views

app_name = "purchases"

urlpatterns = [
    path("<slug:side>/", purchase_views.purchase_page, name="page"),
    path("<slug:side>/buy/", purchase_views.buy, name="buy"),
    path("<slug:side>/rg/<int:rg_pk>/remove/", purchase_views.remove, name="remove"),
    path("<slug:side>/rg/<int:rg_pk>/receive/", purchase_views.receive, name="receive"),
    path("<slug:side>/record/", purchase_views.record, name="record"),
    path("<slug:side>/rg/<int:rg_pk>/notes/", purchase_views.rg_notes, name="rg_notes"),
    path(
        "<slug:side>/fortifications/",
        purchase_views.fortification_page,
        name="fortifications",
    ),
    path(
        "<slug:side>/fortifications/buy/",
        purchase_views.fortification_buy,
        name="fortification_buy",
    ),
    path(
        "<slug:side>/fortifications/<int:purchase_pk>/remove/",
        purchase_views.fortification_remove,
        name="fortification_remove",
    ),
    path(
        "<slug:side>/fortifications/<int:purchase_pk>/location/",
        purchase_views.fortification_location,
        name="fortification_location",
    ),
]
