"""A side's order of battle (being written)."""

from django.http import Http404


def orbat(request, campaign_id, side):
    raise Http404


def entry(request, campaign_id, side, entry_id):
    raise Http404


def entry_remove(request, campaign_id, side, entry_id):
    raise Http404
