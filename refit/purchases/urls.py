from django.urls import path

from refit.purchases import views

app_name = "purchases"

urlpatterns = [
    path("<slug:side>/", views.purchase_page, name="page"),
    path("<slug:side>/buy/", views.buy, name="buy"),
    path("<slug:side>/rg/<oid:rg_pk>/remove/", views.remove, name="remove"),
    path("<slug:side>/rg/<oid:rg_pk>/receive/", views.receive, name="receive"),
    path("<slug:side>/receive-all/", views.receive_all, name="receive_all"),
    path("<slug:side>/record/", views.record, name="record"),
    path("<slug:side>/rg/<oid:rg_pk>/notes/", views.rg_notes, name="rg_notes"),
]
