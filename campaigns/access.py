"""What a user may see and do in a campaign — decided here and nowhere else.

The rules:

* a player of a side sees public data and their own side's secrets, and acts for their side;
* the referee sees everything and acts for every side;
* an observer sees public data only and changes nothing;
* an outsider sees nothing: the campaign does not exist for them (404, not 403, so campaign
  ids do not leak);
* once the campaign is **revealed** at the CG's end (``Campaign.revealed_at``,
  campaigns.reveal), every member sees every side and every scope, exactly as it was, and
  nobody changes anything any more but the notes (``can_note_for_side``); the history
  refuses to record any other change (``campaigns.history.services.record``).

Secret data is tagged with a *scope*: ``PUBLIC``, ``REFEREE`` or a side key.

Two layers answer every "may this user…":

* ``Viewer``'s capabilities (``can_see_side``, ``can_act_for_side``, ``can_record``,
  ``can_act_for_campaign``, ``can_overrule``, ``can_manage_members``…), each rule written once;
  views, services and templates ask them, never the role;
* the getters a view calls on its first line (``member``, ``side_reader``, ``side_actor``,
  ``recorder``, ``campaign_actor``, ``overruler``, ``manager``). They raise Http404 where the
  data must look missing (outsiders, another side's secrets, a page the game does not have) and
  PermissionDenied (403) for a member who may see but not do. When the side or the action is
  known only further on (a unit's side, a POST to a page every member reads), the view checks
  the viewer it holds with ``require_side_reader``, ``require_side_actor`` or ``require``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import connections, router
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404, HttpRequest

from campaigns.converters import faster
from campaigns.models import Campaign, Membership, Role

PUBLIC = "public"
REFEREE = "referee"

QS = TypeVar("QS", bound=QuerySet)

# Whether a campaign's game has a page at all (Refit Phase, purchases, perimeters, short games).
Feature = Callable[[Campaign], bool]


@dataclass(frozen=True)
class Viewer:
    """A member of a campaign, as seen by the rules of access.

    ``role``, ``side`` and the ``is_*`` properties say who the viewer is (for labels and
    scopes); what the viewer may see and do is asked of the ``can_*`` capabilities.
    """

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
    def is_revealed(self) -> bool:
        """Is the campaign revealed (its end): both sides open to every member, read-only?"""
        return self.campaign.revealed_at is not None

    @cached_property
    def campaign_has_referee(self) -> bool:
        """Does someone referee this campaign? Without a referee, the players make the calls a
        referee would (see ``can_act_for_campaign``)."""
        if self.is_referee:
            return True
        known = getattr(self.membership, "campaign_has_referee", None)  # viewer_or_none's
        if known is not None:
            return known
        return self.campaign.memberships.filter(role=Role.REFEREE).exists()

    # --- seeing --------------------------------------------------------------------------------

    def _holds_side(self, side: str) -> bool:
        """The seat sees ``side`` by its role: that side's players and the referee."""
        return self.is_referee or (self.is_player and self.side == side)

    def can_see_side(self, side: str) -> bool:
        """May see the secrets of ``side`` (its CPP, purchases, secret steps and rolls): that
        side's players and the referee; every member once the campaign is revealed."""
        return self.is_revealed or self._holds_side(side)

    def can_see(self, scope: str) -> bool:
        """May see data tagged ``scope``: public data every member; the referee's the referee;
        a side's as ``can_see_side``; every scope once the campaign is revealed."""
        if scope == PUBLIC or self.is_revealed:
            return True
        if scope == REFEREE:
            return self.is_referee
        return self.can_see_side(scope)

    def visible_scopes(self) -> list[str]:
        """Every scope ``can_see`` allows, for filtering in the database."""
        scopes = [PUBLIC, REFEREE, *self.campaign.game.side_keys]
        return [scope for scope in scopes if self.can_see(scope)]

    def visible_sides(self) -> list[str]:
        """The sides whose secrets this viewer may see, in the game's order."""
        return [key for key in self.campaign.game.side_keys if self.can_see_side(key)]

    def filter_visible(self, queryset: QS, field: str = "visibility") -> QS:
        return queryset.filter(**{f"{field}__in": self.visible_scopes()})

    # --- doing ---------------------------------------------------------------------------------

    def can_act_for_side(self, side: str) -> bool:
        """May act for ``side`` — mark and roll its steps, buy for it, edit its roster, order of
        battle and units: that side's players and the referee; never an observer, never the
        other side; nobody once the campaign is revealed."""
        return not self.is_revealed and self._holds_side(side)

    def can_note_for_side(self, side: str) -> bool:
        """May write ``side``'s notes (an RG's "Other" column): those who act for it, and they
        still may once the campaign is revealed — the one change a revealed campaign takes."""
        return self._holds_side(side)

    @property
    def can_record(self) -> bool:
        """May change what every member sees — the calendar, scenarios and CVP, the perimeter
        map's control, fires and water, a short game's options, turn marker, places and ring —
        and undo their own changes: the players and the referee; observers only watch; nobody
        once the campaign is revealed."""
        return not self.is_revealed and (self.is_player or self.is_referee)

    @property
    def can_act_for_campaign(self) -> bool:
        """May make the calls the referee makes for the whole campaign — finish a Refit Phase,
        fill in the Historical DRM (11.6161), write by hand what the rules leave to the referee
        (a short game's weather, the Cherkassy Pocket tables): the referee; in a campaign without
        a referee, any player. Nobody once the campaign is revealed."""
        if self.is_revealed:
            return False
        return self.is_referee or (self.is_player and not self.campaign_has_referee)

    @property
    def can_reveal(self) -> bool:
        """May reveal the campaign at its end (campaigns.reveal): the referee; in a campaign
        without a referee, a player of each side, each agreeing (the reveal happens once
        every side has)."""
        if self.is_revealed:
            return False
        return self.is_referee or (self.is_player and not self.campaign_has_referee)

    @property
    def can_overrule(self) -> bool:
        """May do what the referee alone does, even in a campaign without one: void a roll, buy
        past a limit, book an adjustment with its reason, undo any member's change. Nobody once
        the campaign is revealed."""
        return self.is_referee and not self.is_revealed

    @property
    def can_ask_correction(self) -> bool:
        """May ask the other side to agree to a correction only a referee makes (void a roll it
        sees, adjust its own side's ledger; campaigns.corrections): a player, in a campaign
        without a referee; nobody once the campaign is revealed."""
        return self.is_player and not self.is_revealed and not self.campaign_has_referee

    def can_agree_correction(self, side: str) -> bool:
        """May agree to (or decline) a correction ``side`` asked for: a player of another side,
        in a campaign without a referee — never the asking side itself, never an observer;
        nobody once the campaign is revealed."""
        return self.can_ask_correction and bool(side) and self.side != side

    @property
    def can_manage_members(self) -> bool:
        """Invitations, roles and removals belong to whoever created the campaign."""
        return self.campaign.created_by_id == self.membership.user_id


# --- who the user is in the campaign ----------------------------------------------------------


def viewer_or_none(user: AbstractBaseUser | AnonymousUser, campaign_id: int) -> Viewer | None:
    """The campaign as ``user`` may see it; None when the user is not a member (for services
    handed a user, where "not found" is not an answer)."""
    if not user.is_authenticated:
        return None
    membership = _seat(user.pk, campaign_id)
    if membership is None:
        return None
    return Viewer(campaign=membership.campaign, membership=membership)


def _seat_queryset(campaign_id: int, user_id: int) -> QuerySet[Membership]:
    """The seat as the ORM reads it: the membership, its campaign and whether the campaign has a
    referee (pages name who acts). ``_seat`` runs the same SQL, written once per database."""
    return (
        Membership.objects.select_related("campaign")
        .filter(campaign_id=campaign_id, user_id=user_id)
        .annotate(
            campaign_has_referee=Exists(
                Membership.objects.filter(campaign_id=OuterRef("campaign_id"), role=Role.REFEREE)
            )
        )
    )


# Every page reads the seat first. The ORM takes ~1 ms to compile this query (the SQL itself
# runs in ~0.02 ms), so it is compiled once per database (alias and vendor) and its SQL run as it
# is, the rows turned into models with the converters the ORM would apply (docs/performance.md,
# "layout"). Nothing read is kept: only the query's text, which depends on the models alone.
_SEAT_SQL: dict[tuple[str, str], tuple] = {}
_CAMPAIGN_SENTINEL, _USER_SENTINEL = -7_301_907, -7_301_909


def _seat_sql(alias: str) -> tuple:
    connection = connections[alias]
    key = (alias, connection.vendor)
    if key not in _SEAT_SQL:
        query = _seat_queryset(_CAMPAIGN_SENTINEL, _USER_SENTINEL)[:1].query
        compiler = query.get_compiler(alias)
        sql, params = compiler.as_sql()
        columns = []  # (which: "m" membership, "c" campaign, "a" annotation; name)
        for expression, _sql, name in compiler.select:
            target = getattr(expression, "target", None)
            if target is not None and target.model is Membership:
                columns.append(("m", target.attname))
            elif target is not None and target.model is Campaign:
                columns.append(("c", target.attname))
            else:
                columns.append(("a", name))
        converters = faster(
            compiler.get_converters([expression for expression, *_ in compiler.select])
        )
        _SEAT_SQL[key] = (sql, tuple(params), columns, converters)
    return _SEAT_SQL[key]


def _seat(user_id: int, campaign_id: int) -> Membership | None:
    """``_seat_queryset(campaign_id, user_id).first()``, without compiling it again."""
    alias = router.db_for_read(Membership)
    sql, params, columns, converters = _seat_sql(alias)
    connection = connections[alias]
    values = [
        campaign_id if p == _CAMPAIGN_SENTINEL else user_id if p == _USER_SENTINEL else p
        for p in params
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    if row is None:
        return None
    row = list(row)
    for position, (functions, expression) in converters.items():
        for function in functions:
            row[position] = function(row[position], expression, connection)
    parts: dict[str, dict[str, Any]] = {"m": {}, "c": {}, "a": {}}
    for (which, name), value in zip(columns, row, strict=True):
        parts[which][name] = value
    membership = Membership.from_db(alias, list(parts["m"]), list(parts["m"].values()))
    campaign = Campaign.from_db(alias, list(parts["c"]), list(parts["c"].values()))
    Membership.campaign.field.set_cached_value(membership, campaign)
    for name, value in parts["a"].items():
        setattr(membership, name, value)
    return membership


def viewer_for(user: AbstractBaseUser | AnonymousUser, campaign_id: int) -> Viewer:
    """The campaign as ``user`` may see it; Http404 when the user is not a member."""
    viewer = viewer_or_none(user, campaign_id)
    if viewer is None:
        raise Http404
    return viewer


# --- checks on a viewer in hand --------------------------------------------------------------


def require(allowed: bool) -> None:
    """403 unless ``allowed`` (one of the viewer's capabilities): a member who may see this but
    not do it."""
    if not allowed:
        raise PermissionDenied


def require_side_reader(viewer: Viewer, side: str, *, secret: bool = True) -> Viewer:
    """404 unless ``side`` is a side of the game and, when what is read is ``secret`` to the
    side, the viewer may see its secrets — they look exactly like data that does not exist."""
    if side not in viewer.campaign.game.side_keys:
        raise Http404
    if secret and not viewer.can_see_side(side):
        raise Http404
    return viewer


def require_side_actor(viewer: Viewer, side: str, *, secret: bool = True) -> Viewer:
    """As ``require_side_reader``, then 403 unless the viewer may act for ``side``. For a
    ``secret`` page the opponent and observers get 404; for a public one (a public step, a short
    game's side) they may read it, so they get 403."""
    require_side_reader(viewer, side, secret=secret)
    require(viewer.can_act_for_side(side))
    return viewer


# --- the getters views start with ------------------------------------------------------------


def member(request: HttpRequest, campaign_id: int, *, feature: Feature | None = None) -> Viewer:
    """Any member (404 for everyone else). ``feature``: whether the campaign's game has the page
    at all; without it the page is a 404 for every member, checked before any 403."""
    viewer = viewer_for(request.user, campaign_id)
    if feature is not None and not feature(viewer.campaign):
        raise Http404
    return viewer


def side_reader(
    request: HttpRequest,
    campaign_id: int,
    side: str,
    *,
    secret: bool = True,
    feature: Feature | None = None,
) -> Viewer:
    """A member who may read ``side``'s page: its players and the referee for a ``secret`` one
    (404 for the others), every member for a public one."""
    return require_side_reader(member(request, campaign_id, feature=feature), side, secret=secret)


def side_actor(
    request: HttpRequest,
    campaign_id: int,
    side: str,
    *,
    secret: bool = True,
    feature: Feature | None = None,
) -> Viewer:
    """A member who may act for ``side`` (its players and the referee): for a ``secret`` page
    404 for the others, for a public one 403 for the members who may read it."""
    return require_side_actor(member(request, campaign_id, feature=feature), side, secret=secret)


def side_noter(
    request: HttpRequest, campaign_id: int, side: str, *, feature: Feature | None = None
) -> Viewer:
    """A member who may write ``side``'s notes (``Viewer.can_note_for_side``), revealed or not:
    404 for those who may not read the side, 403 for the others."""
    viewer = side_reader(request, campaign_id, side, feature=feature)
    require(viewer.can_note_for_side(side))
    return viewer


def recorder(request: HttpRequest, campaign_id: int, *, feature: Feature | None = None) -> Viewer:
    """A member who may change what every member sees (``Viewer.can_record``; 403 for
    observers)."""
    viewer = member(request, campaign_id, feature=feature)
    require(viewer.can_record)
    return viewer


def campaign_actor(
    request: HttpRequest, campaign_id: int, *, feature: Feature | None = None
) -> Viewer:
    """A member who makes the campaign-wide calls (``Viewer.can_act_for_campaign``; 403 for the
    others)."""
    viewer = member(request, campaign_id, feature=feature)
    require(viewer.can_act_for_campaign)
    return viewer


def overruler(request: HttpRequest, campaign_id: int, *, feature: Feature | None = None) -> Viewer:
    """The referee, for what the referee alone does (``Viewer.can_overrule``; 403 for the
    others)."""
    viewer = member(request, campaign_id, feature=feature)
    require(viewer.can_overrule)
    return viewer


def revealer(request: HttpRequest, campaign_id: int) -> Viewer:
    """A member who may reveal the campaign or agree to its reveal (``Viewer.can_reveal``; 403
    for the others)."""
    viewer = member(request, campaign_id)
    require(viewer.can_reveal)
    return viewer


def manager(request: HttpRequest, campaign_id: int) -> Viewer:
    """The member who manages the members (``Viewer.can_manage_members``; 403 for the
    others)."""
    viewer = member(request, campaign_id)
    require(viewer.can_manage_members)
    return viewer
