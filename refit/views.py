"""The Refit Phase walker pages (being written)."""

from django.http import Http404


def overview(request, campaign_id):
    raise Http404


def finish(request, campaign_id):
    raise Http404


def step(request, campaign_id, side, rule):
    raise Http404


def mark(request, campaign_id, side, rule):
    raise Http404


def unmark(request, campaign_id, side, rule):
    raise Http404


def roll(request, campaign_id, side, rule):
    raise Http404
