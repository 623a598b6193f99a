"""Putting a campaign at a given Refit Phase for tests."""

from django.utils import timezone

from campaigns.models import RefitPhase


def reph_at(campaign, kind, index, sequence=1, outcome=None):
    """Close the open RePh (with ``outcome``) and open one of ``kind`` on CG day ``index``."""
    RefitPhase.objects.filter(campaign=campaign, finished_at__isnull=True).update(
        finished_at=timezone.now(), outcome=outcome or {}
    )
    campaign.period_index = index
    campaign.save(update_fields=["period_index"])
    return RefitPhase.objects.create(campaign=campaign, kind=kind, index=index, sequence=sequence)
