"""A side's CG Roster and CPP/FPP ledger (being written)."""

from django.http import Http404


def roster(request, campaign_id, side):
    raise Http404


def side_day(request, campaign_id, side, index):
    raise Http404


def ledger(request, campaign_id, side):
    raise Http404
