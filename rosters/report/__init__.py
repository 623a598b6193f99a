"""The after-action report (issue 22): the campaign told day by day, as one viewer may read it.

``build_report`` picks the builder for the campaign's game and language; ``has_report`` says
which games have one (those with printable sheets: RF, SaP and the short games).
"""

from __future__ import annotations

from django.utils import translation

from campaigns.access import Viewer
from campaigns.models import Campaign
from rosters.builders import has_sheets
from rosters.report.data import Report


def has_report(campaign: Campaign) -> bool:
    return has_sheets(campaign)


def build_report(viewer: Viewer, language: str, *, window: int | None = None) -> Report:
    """The report; with ``window`` (the page) a list that grows with the campaign (each side's
    RGs) holds its last ``window`` rows and links to the whole, which the PDF prints."""
    from rosters.report.build import campaign_report
    from rosters.report.short import short_report

    with translation.override(language):
        if "turn_sequence" in viewer.campaign.game.files:
            return short_report(viewer)
        return campaign_report(viewer, window=window)
