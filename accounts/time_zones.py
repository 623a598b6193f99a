"""The time zones a user may choose, and the zone a request is shown in. Pure: no Django models.

A user's zone is an IANA name ("Asia/Tokyo"); empty means the server's (``settings.TIME_ZONE``).
A zone Python no longer knows (tzdata dropped or renamed it) falls back to the server's instead of
failing the page.
"""

from __future__ import annotations

import zoneinfo
from functools import cache

# Offered first: the zones of the clubs the app is played in, then every other zone.
COMMON_ZONES = ("Asia/Tokyo", "UTC", "Europe/London", "Europe/Berlin", "America/New_York")


@cache
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_choices() -> list[tuple[str, str]]:
    """(name, name) of every zone Python knows, the common ones first."""
    known = known_zones()
    first = [zone for zone in COMMON_ZONES if zone in known]
    rest = sorted(zone for zone in known if zone not in first)
    return [(zone, zone) for zone in first + rest]


def zone_for(name: str, default: str) -> zoneinfo.ZoneInfo:
    """The zone called ``name``, or ``default`` when it is empty or unknown."""
    if name and name in known_zones():
        return zoneinfo.ZoneInfo(name)
    return zoneinfo.ZoneInfo(default)
