"""Cherkassy Pocket's pocket: the Stemmermann Group (3.5)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StemmermannGroup:
    members: frozenset[str]
    on_map: frozenset[str]
    eliminated: frozenset[str]
    ever: frozenset[str] = field(default=frozenset())


def stemmermann_group(
    formed_with: Iterable[str],
    relieved: Iterable[str] = (),
    eliminated: Iterable[str] = (),
) -> StemmermannGroup:
    """3.5: the German units north of the road without a supply line to the south edge when
    the pocket forms; a unit that traces one in a mutual supply phase leaves the Group; an
    eliminated member stays in the Group's sub-box (11.10). Nobody joins later."""
    ever = frozenset(formed_with)
    members = ever - frozenset(relieved)
    gone = members & frozenset(eliminated)
    return StemmermannGroup(members, members - gone, gone, ever)
