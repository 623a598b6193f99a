"""The history page's filters: a CG day (time frame, turn), a side, a kind of change.

The form is built for one viewer: the days are the campaign's calendar, the sides only those
whose secrets the viewer may read (and the public record), the kinds those of the registered
actions. A value that is not one of the choices is reported on its field and ignored; the other
filters still apply.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q, QuerySet
from django.http import QueryDict
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, REFEREE, Viewer
from campaigns.history.kinds import registered_kinds
from campaigns.models import CampaignEvent
from campaigns.periods import day_choices, period_word


def _scope_choices(viewer: Viewer) -> list[tuple[str, str]]:
    """Public, the sides whose secrets the viewer reads, the referee's own notes (the referee)."""
    language = get_language()
    choices = [(PUBLIC, _("Public"))]
    choices += [
        (side, viewer.campaign.side(side).name.in_language(language))
        for side in viewer.visible_sides()
    ]
    if viewer.can_see(REFEREE):
        # Once revealed every member reads the referee's notes: named as what they were.
        label = _("referee's, secret until the reveal") if viewer.is_revealed else _("Referee only")
        choices.append((REFEREE, label))
    return choices


class HistoryFilterForm(forms.Form):
    index = forms.TypedChoiceField(required=False, coerce=int, empty_value=None)
    side = forms.ChoiceField(required=False, label=gettext_lazy("Side"))
    kind = forms.ChoiceField(required=False, label=gettext_lazy("Kind"))

    def __init__(self, data: QueryDict, *, viewer: Viewer) -> None:
        super().__init__(data, auto_id="id_filter_%s")
        campaign = viewer.campaign
        self.kinds = {kind.key: kind for kind in registered_kinds()}
        self.fields["index"].label = period_word(campaign)
        self.fields["index"].choices = [("", _("Every day")), *day_choices(campaign)]
        self.fields["side"].choices = [("", _("Every side")), *_scope_choices(viewer)]
        self.fields["kind"].choices = [("", _("Every kind"))] + [
            (key, str(kind.label)) for key, kind in self.kinds.items()
        ]

    def chosen(self) -> dict[str, Any]:
        """The valid filters only: a bad value is dropped (and shown on its field)."""
        self.is_valid()
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if value is not None and value != ""
        }

    def apply(self, events: QuerySet[CampaignEvent]) -> QuerySet[CampaignEvent]:
        """``events`` (already those the viewer may see) narrowed by the valid filters."""
        chosen = self.chosen()
        if "index" in chosen:
            # The day a change is about (its data's ``index``); changes about no day have none.
            events = events.filter(data__index=chosen["index"])
        side = chosen.get("side")
        if side in (PUBLIC, REFEREE):
            events = events.filter(visibility=side)
        elif side:
            # A side's secrets, and the public changes about that side.
            events = events.filter(Q(visibility=side) | Q(visibility=PUBLIC, data__side=side))
        if "kind" in chosen:
            events = events.filter(self.kinds[chosen["kind"]].actions())
        return events


class UndoForm(forms.Form):
    """An undo: the page to go back to and, for the referee undoing a change of a finished
    phase, the reason (campaigns.history.services.undo decides when one is needed)."""

    reason = forms.CharField(required=False, max_length=200, label=gettext_lazy("Reason"))
    next = forms.CharField(required=False, max_length=2000)
