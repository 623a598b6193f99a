from django.urls import path

from rosters.report import views

app_name = "report"

urlpatterns = [
    path("", views.page, name="page"),
    path("report.pdf", views.pdf, name="pdf"),
]
