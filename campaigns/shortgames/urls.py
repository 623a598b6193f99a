from django.urls import path

from campaigns.shortgames.views import combat, points, tables, turn, units, victory

app_name = "shortgames"

urlpatterns = [
    path("", turn.turn, name="turn"),
    path("start/", turn.start, name="start"),
    path("advance/", turn.advance, name="advance"),
    path("weather/", turn.weather, name="weather"),
    path("step/<slug:side>/<str:step_id>/mark/", turn.mark, name="mark"),
    path("step/<slug:side>/<str:step_id>/unmark/", turn.unmark, name="unmark"),
    path("step/<slug:side>/<str:step_id>/roll/", turn.roll, name="roll"),
    path("units/", units.units, name="units"),
    path("units/file.json", units.units_file, name="units_file"),
    path("units/upload/", units.upload, name="upload"),
    path("units/<oid:unit_id>/", units.unit, name="unit"),
    path("units/<oid:unit_id>/remove/", units.unit_remove, name="unit_remove"),
    path("units/<oid:unit_id>/arrive/", units.arrive, name="arrive"),
    path("units/<oid:unit_id>/reconstitute/", units.reconstitute, name="reconstitute"),
    path("units/<slug:side>/add/", units.add_unit, name="add_unit"),
    path("units/<slug:side>/quick/", units.quick_entry, name="quick_entry"),
    path("points/", points.points, name="points"),
    path("points/change/", points.points_change, name="points_change"),
    path("victory/", victory.victory, name="victory"),
    path("victory/control/", victory.control, name="control"),
    path("victory/pocket/", victory.pocket, name="pocket"),
    path("victory/condition/", victory.condition, name="condition"),
    path("tables/", tables.tables, name="tables"),
    path("tables/file.json", tables.tables_file, name="tables_file"),
    path("tables/upload/", tables.tables_upload, name="tables_upload"),
    path("combat/", combat.combat, name="combat"),
]
