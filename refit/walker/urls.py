from django.urls import path

from refit.walker.views import arrivals, marks, overview, rolls, step

app_name = "refit"

urlpatterns = [
    path("", overview.overview, name="overview"),
    path("finish/", overview.finish, name="finish"),
    path("arrivals/<slug:side>/", arrivals.arrivals_page, name="arrivals"),
    path("arrivals/<slug:side>/armor-leaders/", arrivals.armor_leaders, name="armor_leaders"),
    path("arrivals/<slug:side>/place/", arrivals.place, name="arrivals_place"),
    path("<slug:side>/<str:rule>/", step.step, name="step"),
    path("<slug:side>/<str:rule>/mark/", marks.mark, name="mark"),
    path("<slug:side>/<str:rule>/unmark/", marks.unmark, name="unmark"),
    path("<slug:side>/<str:rule>/roll/", rolls.roll, name="roll"),
    path("<slug:side>/<str:rule>/undo/", rolls.undo_effects, name="undo_effects"),
    path("<slug:side>/<str:rule>/harden/", rolls.harden, name="harden"),
    path("<slug:side>/<str:rule>/chit/", rolls.choose_chit, name="chit"),
]
