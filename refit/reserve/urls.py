from django.urls import path

from refit.reserve import views

app_name = "reserve"

urlpatterns = [
    path("", views.page, name="page"),
    path("enter/", views.enter, name="enter"),
    path("back/", views.back, name="back"),
    path("join/", views.join, name="join"),
]
