from django.urls import path

from rosters import views

app_name = "rosters"

urlpatterns = [
    path("", views.sheets, name="index"),
    path("perimeter-map.pdf", views.perimeter_map, name="perimeter_map"),
    path("<slug:side>/<slug:kind>.pdf", views.sheet_pdf, name="pdf"),
    path("<slug:side>/<slug:kind>/", views.sheet_page, name="page"),
]
