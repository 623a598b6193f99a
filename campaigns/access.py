"""What a user may see and do in a campaign — decided here and nowhere else.

Every view, partial, PDF and export that shows campaign data starts with ``viewer_for`` and
then asks the Viewer. The rules:

* a player of a side sees public data and their own side's secrets, and edits their side;
* the referee sees everything;
* an observer sees public data only;
* an outsider sees nothing: the campaign does not exist for them (404, not 403, so campaign
  ids do not leak).

Secret data is tagged with a *scope*: ``PUBLIC``, ``REFEREE`` or a side key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.http import Http404

from campaigns.models import Campaign, Membership, Role

PUBLIC = "public"
REFEREE = "referee"

QS = TypeVar("QS", bound=QuerySet)


@dataclass(frozen=True)
class Viewer:
    campaign: Campaign
    membership: Membership

    @property
    def role(self) -> str:
        return self.membership.role

    @property
    def side(self) -> str:
        """The viewer's side key, or "" for a referee or observer."""
        return self.membership.side

    @property
    def is_referee(self) -> bool:
        return self.role == Role.REFEREE

    @property
    def is_player(self) -> bool:
        return self.role == Role.PLAYER

    @property
    def is_observer(self) -> bool:
        return self.role == Role.OBSERVER

    @property
    def can_manage_members(self) -> bool:
        """Invitations, roles and removals belong to whoever created the campaign."""
        return self.campaign.created_by_id == self.membership.user_id

    def can_see_side(self, side: str) -> bool:
        """May this viewer see the secrets of ``side`` (its CPP, purchases, secret rolls)?"""
        return self.is_referee or (self.is_player and self.side == side)

    def can_edit_side(self, side: str) -> bool:
        return self.can_see_side(side)

    def can_see(self, scope: str) -> bool:
        if scope == PUBLIC:
            return True
        if scope == REFEREE:
            return self.is_referee
        return self.can_see_side(scope)

    def visible_scopes(self) -> list[str]:
        if self.is_referee:
            return [PUBLIC, REFEREE, *self.campaign.game.side_keys]
        if self.is_player:
            return [PUBLIC, self.side]
        return [PUBLIC]

    def visible_sides(self) -> list[str]:
        """The sides whose secrets this viewer may see, in the game's order."""
        return [key for key in self.campaign.game.side_keys if self.can_see_side(key)]

    def filter_visible(self, queryset: QS, field: str = "visibility") -> QS:
        return queryset.filter(**{f"{field}__in": self.visible_scopes()})

    def require_side(self, side: str) -> None:
        """Refuse, as if the data did not exist, when ``side`` is secret to this viewer."""
        if side not in self.campaign.game.side_keys or not self.can_see_side(side):
            raise Http404


def viewer_for(user: AbstractBaseUser | AnonymousUser, campaign_id: int) -> Viewer:
    """The campaign as ``user`` may see it; Http404 when the user is not a member."""
    if not user.is_authenticated:
        raise Http404
    membership = (
        Membership.objects.select_related("campaign")
        .filter(campaign_id=campaign_id, user=user)
        .first()
    )
    if membership is None:
        raise Http404
    return Viewer(campaign=membership.campaign, membership=membership)
