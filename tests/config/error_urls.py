"""The project's URLs plus three views that fail, for the error page tests."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import path

from config.urls import urlpatterns as project_urlpatterns


def refuse(request):
    raise PermissionDenied


def missing(request):
    raise Http404


def crash(request):
    raise RuntimeError("a bug")


urlpatterns = [
    path("fail/403/", refuse),
    path("fail/404/", missing),
    path("fail/500/", crash),
    *project_urlpatterns,
]
