"""Everything a campaign remembers. One module per part; imported here for Django."""

from campaigns.models.campaign import Campaign, CampaignEvent, Invitation, Membership, Role
from campaigns.models.dice import DiceRoll
from campaigns.models.fortification import FortificationPurchase
from campaigns.models.refit import RefitPhase, StepProgress
from campaigns.models.state import (
    CampaignDay,
    CvpEntry,
    CvpPhase,
    LedgerEntry,
    LedgerKind,
    OrbatBox,
    OrbatEntry,
    ReinforcementGroup,
    Scenario,
    ScenarioType,
    SideDay,
)

__all__ = [
    "Campaign",
    "CampaignDay",
    "CampaignEvent",
    "CvpEntry",
    "CvpPhase",
    "DiceRoll",
    "FortificationPurchase",
    "Invitation",
    "LedgerEntry",
    "LedgerKind",
    "Membership",
    "OrbatBox",
    "OrbatEntry",
    "RefitPhase",
    "ReinforcementGroup",
    "Role",
    "Scenario",
    "ScenarioType",
    "SideDay",
    "StepProgress",
]
