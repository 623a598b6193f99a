"""Public records: calendar, scenarios, CVP (being written)."""

from django.http import Http404


def calendar(request, campaign_id):
    raise Http404


def day(request, campaign_id, index):
    raise Http404


def scenarios(request, campaign_id):
    raise Http404


def scenario(request, campaign_id, scenario_id):
    raise Http404


def cvp(request, campaign_id):
    raise Http404
