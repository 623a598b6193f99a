from django.urls import path

from rosters import views

app_name = "rosters"

urlpatterns = [
    path("", views.sheets, name="index"),
    path("<slug:side>/<slug:kind>.pdf", views.sheet_pdf, name="pdf"),
    path("<slug:side>/<slug:kind>/", views.sheet_page, name="page"),
]
