"""The fortification page of a side, under the side's purchases:
``/campaigns/<id>/purchases/<side>/fortifications/…`` (namespace ``fortifications``)."""

from django.urls import path

from refit.fortifications import views

app_name = "fortifications"

urlpatterns = [
    path("<slug:side>/fortifications/", views.page, name="page"),
    path("<slug:side>/fortifications/buy/", views.buy, name="buy"),
    path(
        "<slug:side>/fortifications/<oid:purchase_pk>/remove/",
        views.remove,
        name="remove",
    ),
    path(
        "<slug:side>/fortifications/<oid:purchase_pk>/location/",
        views.location,
        name="location",
    ),
]
