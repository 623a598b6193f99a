"""RF 11.616 CPP Replenishment: the DRMs, computed from plain facts (no Django)."""

from __future__ import annotations

from dataclasses import dataclass


class UnknownValue(ValueError):
    """A value the DRMs need is not known (yet); the message says which."""


@dataclass(frozen=True)
class Drm:
    id: str
    value: int


def cpp_replenishment_drms(
    *,
    hist_drm: int | None,
    cvp_suffered: int,
    attack_chit_previous_day: bool,
    balance_drm: int,
) -> list[Drm]:
    """The DRMs of a side's CPP Replenishment DR (11.616), those that apply, in the rules' order.

    * the side's Historical DRM for the current CG day (11.6161) — unknown stops the roll;
    * −1 per full 20 CVP the side suffered on the previous CG day and in this RePh (11.616;
      the 11.6162 example: 44 CVP → −2);
    * +1 if the side used the Attack chit on the previous CG day (11.5 deems the German's on
      the first day);
    * the CG Scenario Balance DRM (11.32).
    """
    if hist_drm is None:
        raise UnknownValue("historical_drm")
    if cvp_suffered < 0:
        raise ValueError("CVP cannot be negative")
    drms = [Drm("historical", hist_drm)] if hist_drm else []
    if cvp_suffered >= 20:
        drms.append(Drm("cvp", -(cvp_suffered // 20)))
    if attack_chit_previous_day:
        drms.append(Drm("attack-chit", 1))
    if balance_drm:
        drms.append(Drm("balance", balance_drm))
    return drms
