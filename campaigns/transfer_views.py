"""Export and import (being written)."""

from django.http import Http404


def export(request, campaign_id):
    raise Http404


def import_campaign(request):
    raise Http404
