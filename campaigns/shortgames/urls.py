from django.urls import path

from campaigns.shortgames import views as turn_views

app_name = "shortgames"

urlpatterns = [
    path("", turn_views.turn, name="turn"),
    path("start/", turn_views.start, name="start"),
    path("advance/", turn_views.advance, name="advance"),
    path("weather/", turn_views.weather, name="weather"),
    path("step/<slug:side>/<str:step_id>/mark/", turn_views.mark, name="mark"),
    path("step/<slug:side>/<str:step_id>/unmark/", turn_views.unmark, name="unmark"),
    path("step/<slug:side>/<str:step_id>/roll/", turn_views.roll, name="roll"),
    path("units/", turn_views.units, name="units"),
    path("units/file.json", turn_views.units_file, name="units_file"),
    path("units/upload/", turn_views.upload, name="upload"),
    path("units/<int:unit_id>/", turn_views.unit, name="unit"),
    path("units/<int:unit_id>/remove/", turn_views.unit_remove, name="unit_remove"),
    path("units/<int:unit_id>/arrive/", turn_views.arrive, name="arrive"),
    path("units/<int:unit_id>/reconstitute/", turn_views.reconstitute, name="reconstitute"),
    path("units/<slug:side>/add/", turn_views.add_unit, name="add_unit"),
    path("units/<slug:side>/quick/", turn_views.quick_entry, name="quick_entry"),
]

urlpatterns += [
    path("points/", turn_views.points, name="points"),
    path("points/change/", turn_views.points_change, name="points_change"),
    path("victory/", turn_views.victory, name="victory"),
    path("victory/control/", turn_views.control, name="control"),
    path("victory/pocket/", turn_views.pocket, name="pocket"),
    path("victory/condition/", turn_views.condition, name="condition"),
    path("tables/", turn_views.tables, name="tables"),
    path("combat/", turn_views.combat, name="combat"),
]
