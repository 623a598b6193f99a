from django.urls import path

from refit.perimeters import escape_views, scenario_control_views, views

app_name = "perimeters"

urlpatterns = [
    path("", views.page, name="page"),
    path("control/", views.control, name="control"),
    path("control/preview/", views.preview_control, name="preview_control"),
    path("water/", views.water, name="water"),
    path("fires/", views.fires, name="fires"),
    path("record/", views.record, name="record"),
    path("<slug:side>/units/", views.units, name="units"),
    path("<slug:side>/declare/", views.declare, name="declare"),
    path("<slug:side>/markers/", views.add_marker, name="add_marker"),
    path("<slug:side>/markers/<int:position>/remove/", views.remove_marker, name="remove_marker"),
    path("<slug:side>/propose/", views.propose, name="propose"),
    path("<slug:side>/pockets/", views.add_pocket, name="add_pocket"),
    path("<slug:side>/pockets/<int:position>/remove/", views.remove_pocket, name="remove_pocket"),
    path("<slug:side>/escape/", views.escape, name="escape"),
    path("<slug:side>/escape/<oid:roll_id>/ob/", escape_views.escape_ob, name="escape_ob"),
]

urlpatterns += [
    path(
        "scenario/<oid:scenario_id>/control/",
        scenario_control_views.page,
        name="scenario_control",
    ),
    path(
        "scenario/<oid:scenario_id>/control/change/",
        scenario_control_views.change,
        name="scenario_control_change",
    ),
    path(
        "scenario/<oid:scenario_id>/control/take-back/",
        scenario_control_views.take_back,
        name="scenario_control_take_back",
    ),
]
