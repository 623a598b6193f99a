from django.urls import path

from refit.walker import views

app_name = "refit"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("finish/", views.finish, name="finish"),
    path("<slug:side>/<str:rule>/", views.step, name="step"),
    path("<slug:side>/<str:rule>/mark/", views.mark, name="mark"),
    path("<slug:side>/<str:rule>/unmark/", views.unmark, name="unmark"),
    path("<slug:side>/<str:rule>/roll/", views.roll, name="roll"),
    path("<slug:side>/<str:rule>/undo/", views.undo_effects, name="undo_effects"),
    path("<slug:side>/<str:rule>/chit/", views.choose_chit, name="chit"),
]
